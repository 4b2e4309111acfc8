#!/usr/bin/env bash
# Builds CaptionLens (Release, two jobs) and opens the app on the bundled model and a sample
# image. Extra arguments go to the app, e.g. ./scripts/run.sh my.png --checkpoint other.pt
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j2 --target captionlens captionlens-cli
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "No display found: running under xvfb-run (install xvfb, or set QT_QPA_PLATFORM=offscreen)." >&2
  exec xvfb-run -a "$BUILD_DIR/app/gui/captionlens" "$@"
fi
exec "$BUILD_DIR/app/gui/captionlens" "$@"
