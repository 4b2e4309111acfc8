#!/usr/bin/env bash
# Configures, builds (two jobs: LibTorch translation units are memory- and CPU-hungry) and runs the
# whole test suite with CTest. Build folder: build/ (override with BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCAPTIONLENS_WERROR=ON
cmake --build "$BUILD_DIR" -j2
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
