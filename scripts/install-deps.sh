#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages CaptionLens needs. Idempotent, non-interactive.
# clang and its runtime libraries build the sanitizer and libFuzzer checks (scripts/sanitize.sh).
# Run as root (or through sudo). libopenblas0-pthread matters: Debian's LibTorch calls the generic
# libblas.so.3, which without it is the reference BLAS, about 30x slower on matrix products.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  build-essential cmake ninja-build
  qt6-base-dev libqcustomplot-dev
  libtorch-dev libopenblas0-pthread
  nlohmann-json3-dev libcli11-dev
  python3-torch python3-numpy
  xvfb xauth
  clang libclang-rt-14-dev
)
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
