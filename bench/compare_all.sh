#!/usr/bin/env bash
# Every comparison with the course's PyTorch code in one run: the notebook configuration against
# the seed's sample() (identical tokens, C++/Python ratios, floors) and the bundled image model
# (caption, batch 64, training step). Needs build/ (scripts/test.sh) and python3-torch.
# usage: bench/compare_all.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== notebook configuration: C++ vs the seed's sample()"
/usr/bin/python3 bench/compare_seed.py "$@"
echo
echo "== bundled image model: C++ vs the same model in PyTorch"
/usr/bin/python3 bench/compare_image_model.py "$@"
