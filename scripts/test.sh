#!/usr/bin/env bash
# Configures, builds (two jobs: LibTorch translation units are memory- and CPU-hungry) and runs the
# whole test suite with CTest (labels: model, cli, gui, install, quality; e.g. `ctest -L quality`
# for the shipped model's floors). Build folder: build/ (override with BUILD_DIR). With ccache
# installed (install-deps.sh does) a re-run recompiles only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
# clang when installed (install-deps.sh installs it for the sanitizers) and CXX does not say
# otherwise: it loads a precompiled header lazily where GCC reads all 570 MB of LibTorch's for
# every file: a cold build of the whole tree took 4.5 min on two cores against GCC's 9.5.
# A build folder keeps the compiler it was configured with.
if [ -z "${CXX:-}" ] && [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v clang++ > /dev/null; then
    export CXX=clang++
fi
t0=$SECONDS
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCAPTIONLENS_WERROR=ON
cmake --build "$BUILD_DIR" -j2
t1=$SECONDS
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
echo "test.sh: build $((t1 - t0)) s, suite $((SECONDS - t1)) s"
