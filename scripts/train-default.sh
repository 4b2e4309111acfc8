#!/usr/bin/env bash
# Trains the shipped default model and everything that ships with it, from its seed, on this
# machine's cores, in two stages: an 8 x 8-grid model from scratch (48,000 steps from 64-pixel
# input; its snapshots at 1,000 and 4,000 steps and its end are the training timeline
# default-run/), then that model fine-tuned at a 12 x 12 grid from 96-pixel input (train --init,
# 12,000 steps): resources/models/default.pt. Each file gets its out-of-world calibration and
# stored figures (eval on 200 held-out scenes, the four robustness suites; for default.pt also
# what each head costs and the circuits lab's ground-truth scores on 100 counterfactual pairs per
# kind).
#
#   scripts/train-default.sh [WORKDIR]      (default: build/default-model; about 90 min, 2 cores)
#
# Resumable: run it again after an interruption and training continues from the last periodic
# save in WORKDIR (every 500 steps); finished stages are not redone. Nothing in resources/ changes
# until every stage is done, then the files are copied in.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-build/default-model}
CLI=${CLI:-build/app/cli/captionlens-cli}
SUITE_QT=${SUITE_QT:-build/tests/robust_suite_qt}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} # the QPainter suite draws without a screen
STEPS=48000      # the 8 x 8 stage
FINE_STEPS=12000 # the 12 x 12 stage
mkdir -p "$WORK"
steps_of() { "$CLI" info "$1" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["steps"])'; }

stamp() { [ -e "$WORK/$1.done" ]; }
done_() { touch "$WORK/$1.done"; }

# train OUT TOTAL INIT ARGS...: runs (or resumes) one stage until OUT holds TOTAL steps; INIT is the
# model it starts from ("" for random weights).
train() {
  local out=$1 total=$2 init=$3
  shift 3
  if [ -f "$out" ] && [ "$(steps_of "$out")" -ge "$total" ]; then return; fi
  local start=()
  if [ -f "$out" ]; then start=(--resume "$out"); elif [ -n "$init" ]; then start=(--init "$init"); fi
  "$CLI" train --steps "$total" "${start[@]}" "$@" -o "$out"
}

if ! stamp train; then
  train "$WORK/grid8.pt" $STEPS "" --batch 32 --seed 1 --lr 2e-3 --dropout 0.1 --classic-floor 0.15 \
    --snapshots 1000,4000
  done_ train
fi
if ! stamp finetune; then
  train "$WORK/default.pt" $FINE_STEPS "$WORK/grid8.pt" --image-size 96 --grid 12 --scale-cue \
    --batch 32 --seed 2 --lr 1e-3 --dropout 0 --average 0.999 --classic-floor 0.15
  done_ finetune
fi
models=("$WORK/grid8-step1000.pt" "$WORK/grid8-step4000.pt" "$WORK/grid8.pt" "$WORK/default.pt")
if ! stamp eval; then
  for m in "${models[@]}"; do "$CLI" eval --checkpoint "$m" --scenes 200 --store >/dev/null; done
  "$CLI" eval --checkpoint "$WORK/default.pt" --head-importance --store >/dev/null
  "$CLI" eval --checkpoint "$WORK/default.pt" --circuits --scenes 100 --store >/dev/null
  done_ eval
fi
if ! stamp suites; then
  for seed in 0 1; do
    rm -rf "$WORK/pil-seed$seed" "$WORK/qpainter-seed$seed"
    /usr/bin/python3 tests/robust_suite.py "$WORK/pil-seed$seed" 100 $seed
    "$SUITE_QT" "$WORK/qpainter-seed$seed" 100 $seed
    for m in "${models[@]}"; do
      "$CLI" eval --checkpoint "$m" --suite "$WORK/pil-seed$seed" --store >/dev/null
      "$CLI" eval --checkpoint "$m" --suite "$WORK/qpainter-seed$seed" --store >/dev/null
    done
  done
  done_ suites
fi
cp "$WORK/default.pt" resources/models/default.pt
cp "$WORK/grid8-step1000.pt" resources/models/default-run/step01000.pt
cp "$WORK/grid8-step4000.pt" resources/models/default-run/step04000.pt
cp "$WORK/grid8.pt" resources/models/default-run/step$(printf %05d $STEPS).pt
echo "resources/models/default.pt and default-run/ written; see scripts/train-default.sh's stages in $WORK"
