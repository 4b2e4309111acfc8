#!/usr/bin/env bash
# CI (root, disposable machine): builds the Debian package from the build folder, shows its
# metadata and files, installs it with apt (which pulls its dependencies), then runs the installed
# programs with the source tree renamed away, so nothing can read the source path, and removes
# the package again. Usage: scripts/package-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
BUILD=$(cd "${1:-build}" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "package-check: needs root (apt-get install)"; exit 1; }
fail() { echo "package-check: $*" >&2; exit 1; }

(cd "$BUILD" && rm -f captionlens_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$BUILD"/captionlens_*.deb)
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -E "bin/|\.desktop|\.xml|hicolor/(scalable|48x48)|man1|default\.pt|lessons/" 
depends=$(dpkg-deb --field "$deb" Depends)
for need in libtorch libqt6widgets6 libqcustomplot libopenblas0-pthread; do
  grep -q "$need" <<<"$depends" || fail "Depends lacks $need: $depends"
done

work=$(mktemp -d)
away="$SRC.away-$$"
restore() { [ -d "$away" ] && mv "$away" "$SRC"; rm -rf "$work"; }
trap restore EXIT
cp "$deb" "$work/"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$work/$(basename "$deb")" >/dev/null
cd /
mv "$SRC" "$away" # nothing below may read the source or build tree
captionlens-cli --version
caption=$(captionlens-cli caption --checkpoint /usr/share/captionlens/models/default.pt \
  /usr/share/captionlens/samples/two-shapes.png)
[ -n "$caption" ] || fail "no caption"
HOME=$work QT_QPA_PLATFORM=offscreen timeout 120 captionlens --screenshot "$work/shot.png" >/dev/null
[ -s "$work/shot.png" ] || fail "no screenshot from the installed app"
man -w captionlens >/dev/null || fail "no man page"
mv "$away" "$SRC"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q captionlens >/dev/null
! command -v captionlens >/dev/null || fail "captionlens is still installed after removal"
echo "package-check: $(basename "$deb") installed with apt, ran with the source tree away" \
  "(caption: $caption), removed"
