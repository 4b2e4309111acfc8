#!/usr/bin/env bash
# Configures, builds (two jobs: LibTorch translation units are memory- and CPU-hungry) and runs the
# whole test suite with CTest (labels: model, cli, gui, install, quality; e.g. `ctest -L quality`
# for the shipped model's floors). Build folder: build/ (override with BUILD_DIR). With ccache
# installed (install-deps.sh does) a re-run recompiles only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
t0=$SECONDS
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCAPTIONLENS_WERROR=ON
cmake --build "$BUILD_DIR" -j2
t1=$SECONDS
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
echo "test.sh: build $((t1 - t0)) s, suite $((SECONDS - t1)) s"
