#!/usr/bin/env bash
# The sanitizer checks (clang, optimised at -O1 without debug info: most of their build time is
# LibTorch's headers, and -O1 keeps the suite fast enough under instrumentation):
#   scripts/sanitize.sh asan          the test suite under AddressSanitizer + UBSan (less the
#                                     labels quality and install, three of the eight layout sizes)
#   scripts/sanitize.sh fuzz [S]      a smoke run of every libFuzzer target, S seconds each
#                                     (default 20; needs the asan build)
#   scripts/sanitize.sh tsan          the threaded code (model workers, the window) under
#                                     ThreadSanitizer, in a build without HDF5 and c10d
#   scripts/sanitize.sh [all] [S]     all three
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-all}
[[ $MODE =~ ^[0-9]+$ ]] && { FUZZ_SECONDS_ARG=$MODE; MODE=all; }
FUZZ_SECONDS=${2:-${FUZZ_SECONDS_ARG:-20}}
export QT_QPA_PLATFORM=offscreen
# Leak checking stays on for the fuzzers; in the test suite Qt's and fontconfig's one-off
# allocations at exit are not ours (see tests/lsan.supp).
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:quarantine_size_mb=64
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FLAGS=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
       -DCAPTIONLENS_WERROR=OFF)

asan() {
    CXX=clang++ cmake -S . -B build-asan "${FLAGS[@]}" \
        -DCAPTIONLENS_SANITIZE=address,undefined -DCAPTIONLENS_FUZZ=ON
    cmake --build build-asan -j2
    # Less the `quality` label: the shipped model's accuracy floors judge the model on 500 more
    # scenes through the code tst_shapes already runs here (2 min under ASan); less the `install`
    # label (where files land and which names the programs export, not what they do in memory);
    # the layout at five of its eight screens, less three presenter sizes between 1024x600 and
    # 1920x1080 at scale 2 that run the same code (~70 s of CPU). The Release suite keeps all.
    ctest --test-dir build-asan --output-on-failure -j2 -LE 'quality|install' \
        -E 'tst_layout_(1024x768|1280x720|1920x1080)_presenter$'
}

# A fixed seed and fixed seed corpora: the smoke run replays the same inputs (scripts/fuzz.sh);
# searching for new bugs is the long runs' job (README: Hardening). HDF5 reads each file first in
# a child process with a memory and time budget (model/io/bounded_child.h), so what HDF5 itself
# still holds costs a refusal, not a finding.
fuzz() {
    FUZZ_SEED=${FUZZ_SEED:-1} BUILD_DIR=build-asan scripts/fuzz.sh "$FUZZ_SECONDS" \
        checkpoint npy vocab image lesson h5 h5_structure store
}

# ThreadSanitizer: the model workers and the window (captions, checkpoints, comparisons, the
# soak). Qt and LibTorch are not instrumented: app/gui/wiring.cpp states the hand-over at our
# thread boundary and tests/tsan.supp lists what stays inside those libraries. Test functions that
# start a process (QProcess) are left out: TSan's fork handling aborts inside Qt's forkfd. This
# build is also CI's minimal configuration (scripts/minimal-build.sh without a build of its own):
# HDF5, c10d/Gloo and glog off, the self-check built and run on the bundled model, and a tree
# configured with the GUI off as well, which builds the same model/ and selfcheck targets.
tsan() {
    CXX=clang++ cmake -S . -B build-tsan "${FLAGS[@]}" -DCAPTIONLENS_SANITIZE=thread \
        -DCAPTIONLENS_HDF5=OFF -DCAPTIONLENS_DISTRIBUTED=OFF
    cmake -S . -B build-tsan/gui-off -G Ninja -DCAPTIONLENS_GUI=OFF -DCAPTIONLENS_HDF5=OFF \
        -DCAPTIONLENS_DISTRIBUTED=OFF > build-tsan/gui-off.log
    ninja -C build-tsan/gui-off -n captionlens-selfcheck > /dev/null
    cmake --build build-tsan -j2 --target tst_gui tst_soak tst_editor tst_compare \
        captionlens-selfcheck
    TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp:halt_on_error=1" OMP_NUM_THREADS=1 \
        build-tsan/bench/captionlens-selfcheck --device cpu --runs 1 \
        --checkpoint resources/models/default.pt
    (
        export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
        export OMP_NUM_THREADS=1
        cd build-tsan/tests
        ./tst_gui attentionGridHasEveryHead clickingAWordChangesTheOverlay \
            corruptImageKeepsPreviousState corruptCheckpointKeepsPreviousModel \
            survivesRapidSwitches longThenShortCaption exportsPngAndCsv
        ./tst_soak
        ./tst_editor
        ./tst_compare modelAgainstItselfHasNoDivergence panelShowsNoDifferenceForOneModelTwice \
            panelShowsTwoSnapshotsCaptions timelineScrubsThroughTheRun timelineRejectsAnEmptyFolder
    )
}

case $MODE in
    asan) asan ;;
    fuzz) fuzz ;;
    tsan) tsan ;;
    all) asan && fuzz && tsan ;;
    *) echo "usage: scripts/sanitize.sh [asan|fuzz [SECONDS]|tsan|all [SECONDS]]" >&2; exit 2 ;;
esac
echo "sanitizers ($MODE): clean"
