#!/usr/bin/env bash
# The GPU check of issue #8, for a machine with a GPU and a pip PyTorch (LibTorch 2.x + CUDA):
# builds model/ and captionlens-selfcheck against that PyTorch (no Qt), runs the self-check and the
# benchmark on cuda (notebook configuration, the seed's weights, the bundled image model), the
# seed's sample() on the same GPU with the same weights, and the self-check on cpu.
#
# usage: bench/gpu.sh INPUTS OUT
#   INPUTS: made here by `/usr/bin/python3 bench/compare_seed.py --export INPUTS`
#   OUT:    logs and figures (machine.txt, build.log, cuda_*.json, seed_gpu.txt, cpu_*.json)
set -uo pipefail
cd "$(dirname "$0")/.."
IN=$1 OUT=$2 PY=${PYTHON:-python3} B=${BUILD_DIR:-build-gpu} DEV=${DEVICE:-cuda} # DEVICE=cpu: a dry run
mkdir -p "$OUT" "$B"
J=$(nproc)

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
    $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
    echo "cores $J"; g++ --version | head -1; cmake --version | head -1
} >"$OUT/machine.txt" 2>&1

torch_py() { $PY -c "import os, torch, torch.utils.cpp_extension as e; $1"; }
PREFIX=$(torch_py 'print(torch.utils.cmake_prefix_path)')
STD=$(torch_py 'v = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2]); print(20 if v >= (2, 13) else 17)')

# Plan B when CMake cannot configure Torch (e.g. CUDA toolkit parts the wheel does not carry):
# compile the same sources with the wheel's headers and link its libraries directly.
direct_build() {
    local inc lib abi
    inc=$(torch_py 'print(" ".join("-I" + p for p in e.include_paths()))')
    lib=$(torch_py 'print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
    abi=$(torch_py 'print(int(torch.compiled_with_cxx11_abi()))')
    mkdir -p "$B/direct"
    # The optional parts stay out as CMake leaves them out without their headers: HDF5, c10d.
    ls model/*/*.cpp bench/selfcheck.cpp |
        grep -vE 'model/io/(h5_file|bounded_child)\.cpp|model/train/data_parallel\.cpp' | xargs -P "$J" -I{} sh -c \
        "g++ -O2 -std=c++$STD -D_GLIBCXX_USE_CXX11_ABI=$abi $inc -I. -c {} -o $B/direct/\$(echo {} | tr / _ | sed 's/\.cpp\$//').o" || return 1
    g++ "$B"/direct/*.o -o "$B/captionlens-selfcheck" -L"$lib" -Wl,--no-as-needed -ltorch -ltorch_cuda \
        -ltorch_cpu -lc10_cuda -lc10 -Wl,--as-needed -Wl,-rpath,"$lib" -lpthread
}

S=$B/bench/captionlens-selfcheck
t0=$(date +%s)
# The GPU build's optional parts: HDF5 when the machine has it, c10d data parallelism only with
# Gloo's headers (a pip PyTorch has none), glog only with it. configure.log says which.
if cmake -S . -B "$B" -G Ninja -DCAPTIONLENS_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_STANDARD="$STD" -DCMAKE_PREFIX_PATH="$PREFIX" >"$OUT/configure.log" 2>&1 &&
    ninja -C "$B" -j"$J" -k 0 captionlens-selfcheck >"$OUT/build.log" 2>&1; then
    echo "built with CMake in $(($(date +%s) - t0)) s"
else
    echo "CMake build failed; building directly. Last lines of its logs:"
    tail -15 "$OUT/configure.log"; grep -m 10 -B2 -A6 "error" "$OUT/build.log" 2>/dev/null
    S=$B/captionlens-selfcheck
    direct_build >"$OUT/direct.log" 2>&1 || { echo "direct build failed too"; tail -30 "$OUT/direct.log"; exit 1; }
    echo "built directly in $(($(date +%s) - t0)) s"
fi

run() { echo "== $*"; timeout 150 "$@"; echo "rc $?"; }
run "$S" --device $DEV --runs 30 --checkpoint "$IN/ours.pt" --features "$IN/features.npy" \
    --tokens-out "$OUT/tokens_cuda.txt" --json >"$OUT/cuda_notebook.json" 2>"$OUT/cuda_notebook.err"
cat "$OUT/cuda_notebook.err"
run "$S" --device $DEV --runs 30 --checkpoint resources/models/default.pt --json >"$OUT/cuda_default.json" 2>&1
run $PY bench/seed_gpu.py --inputs "$IN" --tokens "$OUT/tokens_cuda.txt" --cpp "$OUT/cuda_notebook.json" \
    --device $DEV >"$OUT/seed_gpu.txt" 2>&1
cat "$OUT/seed_gpu.txt"
run "$S" --device cpu --threads 1 --runs 5 --checkpoint resources/models/default.pt --json >"$OUT/cpu_default.json" 2>&1
for f in "$OUT"/cuda_*.json "$OUT"/cpu_*.json; do echo "== $f"; cat "$f"; done
