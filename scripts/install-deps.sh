#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages CaptionLens needs. Idempotent, non-interactive.
# ccache makes a re-build recompile only what changed (CMake uses it when present).
# clang and its runtime libraries build the sanitizer and libFuzzer checks (scripts/sanitize.sh);
# rsvg-convert and help2man make the icon sizes and man pages; dpkg-dev, desktop-file-utils,
# appstream, shared-mime-info and xdg-utils build and check the installed desktop files and .deb.
# libhdf5-dev reads the course's data files (coco_captioning/*.h5); python3-h5py writes their
# test fixtures. Run as root (or through sudo). libopenblas0-pthread matters: Debian's LibTorch
# calls the generic libblas.so.3, which without it is the reference BLAS, about 30x slower on
# matrix products. libgloo-dev has the headers of the collectives behind LibTorch's c10d
# (data-parallel training). chromium runs the exported web pages in CTest (tests/web_page_test.py:
# headless, driven over the DevTools protocol's pipe). libimagequant-dev and libgif-dev make the
# slides' GIF animations (a real palette, then the file); qt6-l10n-tools has lupdate and lrelease
# (the Korean interface's catalogue, checked in CTest), qt6-translations-l10n Qt's own dialogs in
# Korean, fonts-nanum the Korean glyphs.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  build-essential cmake ninja-build ccache
  qt6-base-dev libqcustomplot-dev
  libtorch-dev libopenblas0-pthread libgloo-dev
  nlohmann-json3-dev libcli11-dev libhdf5-dev
  python3-torch python3-numpy python3-h5py python3-pil
  xvfb xauth chromium
  libimagequant-dev libgif-dev qt6-l10n-tools qt6-translations-l10n fonts-nanum
  clang libclang-rt-14-dev lld
  librsvg2-bin help2man dpkg-dev
  desktop-file-utils appstream shared-mime-info xdg-utils libfile-mimeinfo-perl
)
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
