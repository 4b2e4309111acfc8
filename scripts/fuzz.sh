#!/usr/bin/env bash
# Runs the libFuzzer targets for a given time each, on seed corpora made from valid files.
#   scripts/fuzz.sh SECONDS [TARGET...]     (targets: checkpoint npy vocab image lesson h5
#                                            h5_structure store;
#                                            default all)
# FUZZ_JOBS (default 2): targets run at once, one process each. FUZZ_TIMEOUT (default 20):
# seconds one input may take before it counts as a hang; libFuzzer measures wall time, so raise it
# when the machine is busy with other work. FUZZ_RSS_MB (default 2048): the memory limit per
# target. Targets with a dictionary (tests/fuzz/TARGET.dict: pickle opcodes and zip headers,
# lesson keys) get it. FUZZ_SEED (default: libFuzzer picks one) fixes the mutation sequence: CI
# passes one so that its short smoke run replays the same inputs on every machine (a slower
# machine runs a prefix of them) and a red run means a change, not luck; the
# long runs that look for new bugs leave it unset.
# Needs the sanitizer build with fuzzers (scripts/sanitize.sh makes it; BUILD_DIR to override).
# Findings (crash-*, leak-*, timeout-*) land in $BUILD_DIR/fuzz-findings; exits 1 on any.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(checkpoint npy vocab image lesson h5 h5_structure store)
BUILD_DIR=${BUILD_DIR:-build-asan}
CLI="$BUILD_DIR/app/cli/captionlens-cli"
CORPUS="$BUILD_DIR/fuzz-corpus"
FINDINGS="$BUILD_DIR/fuzz-findings"
mkdir -p "$FINDINGS"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:quarantine_size_mb=64}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One-off allocations inside LibTorch and Qt (registries, thread pools) are not leaks of ours.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export QT_QPA_PLATFORM=offscreen OMP_NUM_THREADS=1

seed_corpora() {
  local c="$CORPUS"
  mkdir -p "$c/checkpoint" "$c/npy" "$c/vocab" "$c/image" "$c/lesson" "$c/h5" "$c/h5_structure" "$c/store"
  # h5_structure's input is a description, not a file: a few fixed byte strings to start from.
  for i in 0 1 2 3; do printf "\\x0$i\\x01\\x02\\x10\\x20\\x40\\x7f\\x80\\xff%.0s" 1 2 3 > "$c/h5_structure/seed$i"; done
  cp resources/lessons/*.cllesson "$c/lesson/"
  # The rendezvous store: two ranks greet, one waits for a key the other sets (fuzz_store's
  # format: a world-size byte, then chunks of connection byte, u16 length, bytes).
  /usr/bin/python3 - "$c/store" <<'PY'
import struct, sys
frame = lambda b: struct.pack("<I", len(b)) + b
text = lambda b: struct.pack("<I", len(b)) + b
hello = lambda rank: frame(b"\x01CLRV" + struct.pack("<Iqq", 1, 2, rank))
chunk = lambda c, b: bytes([c]) + struct.pack("<H", len(b)) + b
talk = [chunk(0, hello(0)), chunk(1, hello(1)),
        chunk(1, frame(b"\x09" + struct.pack("<I", 1) + text(b"everyone"))),
        chunk(0, frame(b"\x04" + text(b"joined") + struct.pack("<q", 2))),
        chunk(0, frame(b"\x02" + text(b"everyone") + text(b"1"))),
        chunk(1, frame(b"\x05" + text(b"everyone") + text(b"1") + text(b"2"))),
        chunk(1, frame(b"\x03" + text(b"everyone"))), chunk(0, frame(b"\x08")),
        chunk(2, frame(b"\x07" + text(b"joined")))]
open(sys.argv[1] + "/talk", "wb").write(b"\x01" + b"".join(talk))
PY
  # Checkpoints: a tiny model in our format, and course state_dicts of both layouts.
  if [ ! -f "$c/checkpoint/tiny.pt" ]; then
    "$CLI" train --steps 1 --batch 1 --heads 1 --layers 1 --width 8 --ffn 8 --calibration-scenes 0 \
      -o "$c/checkpoint/tiny.pt" > /dev/null
  fi
  cp tests/golden/course_2021.pt tests/golden/course_2025.pt "$c/checkpoint/"
  # Feature files: float32 (N, D), float64 (D,), Fortran order.
  /usr/bin/python3 - "$c/npy" <<'PY'
import sys, numpy as np
d = sys.argv[1]
np.save(f"{d}/f32.npy", np.arange(12, dtype=np.float32).reshape(3, 4))
np.save(f"{d}/f64.npy", np.linspace(0, 1, 5))
np.save(f"{d}/fortran.npy", np.asfortranarray(np.ones((2, 3), dtype=np.float32)))
PY
  cp tests/golden/tiny_vocab.json "$c/vocab/"
  # Course feature files: float32 rows, float64, integers (refused), two datasets.
  /usr/bin/python3 - "$c/h5" <<'PY'
import sys, h5py, numpy as np
d = sys.argv[1]
for name, arr in (("f32", np.arange(12, dtype=np.float32).reshape(3, 4)),
                  ("f64", np.ones((2, 5))), ("ints", np.zeros((2, 2), dtype=np.int32))):
    with h5py.File(f"{d}/{name}.h5", "w") as f:
        f.create_dataset("features", data=arr, track_times=False)
with h5py.File(f"{d}/two.h5", "w") as f:  # no timestamps: the same bytes on every run
    f.create_dataset("features", data=np.zeros((1, 3), dtype=np.float32), track_times=False)
    f.create_dataset("train_captions", data=np.zeros((2, 17), dtype=np.int32), track_times=False)
PY
  printf '{"idx_to_word": ["<NULL>", "<START>", "<END>", "<UNK>", "a"], "word_to_idx": {"a": 4}}' \
    > "$c/vocab/small.json"
  for ext in png jpg bmp ppm; do "$CLI" scene --seed 3 --size 32 -o "$c/image/scene.$ext" > /dev/null; done
  printf 'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;' \
    > "$c/image/pixel.gif"
}

# run_target T: one target's run; its exit status goes to $BUILD_DIR/fuzz-T.rc.
run_target() {
  local t=$1 bin="$BUILD_DIR/tests/fuzz/fuzz_$1" log="$BUILD_DIR/fuzz-$1.log" dict=() seed=() rc
  mkdir -p "$CORPUS/$t-work"
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  [ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
  set +e
  # -timeout: one input may take at most 20 s under ASan (a hang is a finding; the largest image
  # Qt may decode, 256 MiB, takes about 6 s there); -rss_limit_mb bounds memory.
  "$bin" "$CORPUS/$t-work" "$CORPUS/$t" -max_total_time="$SECONDS_EACH" -timeout="${FUZZ_TIMEOUT:-20}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -malloc_limit_mb="${FUZZ_MALLOC_MB:-${FUZZ_RSS_MB:-2048}}" \
    -max_len=65536 -print_final_stats=1 "${dict[@]}" "${seed[@]}" \
    -artifact_prefix="$FINDINGS/$t-" > "$log" 2>&1
  rc=$?
  set -e
  echo $rc > "$BUILD_DIR/fuzz-$t.rc"
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz_$t: $runs executions in ${SECONDS_EACH}s, exit $rc (log: $log)"
  if [ $rc -ne 0 ]; then grep -m5 -E 'ERROR|SUMMARY|runtime error' "$log" || true; fi
}

seed_corpora
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${FUZZ_JOBS:-2}" ]; do wait -n || true; done
  rm -f "$BUILD_DIR/fuzz-$t.rc"
  run_target "$t" &
done
wait
status=0
for t in "${TARGETS[@]}"; do
  [ "$(cat "$BUILD_DIR/fuzz-$t.rc" 2> /dev/null)" = 0 ] || status=1
done
exit $status
