#!/usr/bin/env bash
# The minimal configuration: model/ and captionlens-selfcheck alone, with the GUI, HDF5, glog and
# c10d/Gloo all off (a bare LibTorch machine, or a pip PyTorch with CUDA), then the self-check on
# cpu with the bundled model. Built at -O0: this proves that the optional parts compile off, it
# measures nothing. Build folder: build-min (override with BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BUILD_DIR:-build-min}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" \
    -DCAPTIONLENS_GUI=OFF -DCAPTIONLENS_HDF5=OFF -DCAPTIONLENS_DISTRIBUTED=OFF \
    -DCAPTIONLENS_WERROR=ON
cmake --build "$B" -j2 --target captionlens-selfcheck
OMP_NUM_THREADS=1 "$B/bench/captionlens-selfcheck" --device cpu --runs 1 \
    --checkpoint resources/models/default.pt
