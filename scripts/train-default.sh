#!/usr/bin/env bash
# Trains the shipped default model and everything that ships with it, from its seed, on this
# machine's cores: resources/models/default.pt, the training timeline default-run/ (snapshots at
# 1,000 and 4,000 steps and the final one), each with its out-of-world calibration and stored
# figures (eval on 200 held-out scenes, the four robustness suites, what each head costs, the
# circuits lab's ground-truth scores on 100 counterfactual pairs per kind).
#
#   scripts/train-default.sh [WORKDIR]      (default: build/default-model; about 75 min, 2 cores)
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
STEPS=48000
mkdir -p "$WORK"
steps_of() { "$CLI" info "$1" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["steps"])'; }

stamp() { [ -e "$WORK/$1.done" ]; }
done_() { touch "$WORK/$1.done"; }

if ! stamp train; then
  resume=()
  if [ -f "$WORK/default.pt" ]; then
    if [ "$(steps_of "$WORK/default.pt")" -ge $STEPS ]; then resume=(done); else resume=(--resume "$WORK/default.pt"); fi
  fi
  if [ "${resume[*]:-}" != done ]; then
    "$CLI" train --steps $STEPS --batch 32 --seed 1 --lr 2e-3 --dropout 0.1 --classic-floor 0.15 \
      --snapshots 1000,4000 "${resume[@]}" -o "$WORK/default.pt"
  fi
  done_ train
fi
models=("$WORK/default-step1000.pt" "$WORK/default-step4000.pt" "$WORK/default.pt")
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
cp "$WORK/default-step1000.pt" resources/models/default-run/step01000.pt
cp "$WORK/default-step4000.pt" resources/models/default-run/step04000.pt
cp "$WORK/default.pt" resources/models/default-run/step$(printf %05d $STEPS).pt
echo "resources/models/default.pt and default-run/ written; see scripts/train-default.sh's stages in $WORK"
