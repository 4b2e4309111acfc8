#!/usr/bin/env bash
# CTest `installed`: install into a temporary prefix, move the prefix elsewhere (nothing may point
# back at the build or source tree), then from an unrelated folder run the installed CLI on an
# installed sample and the installed GUI offscreen, and check the desktop integration: the entry
# and metainfo validate, the MIME XML parses, and a .cllesson resolves to CaptionLens through
# xdg-mime in a temporary XDG data home.
# Usage: install_check.sh BUILD_DIR VERSION
set -euo pipefail
BUILD=$(cd "$1" && pwd)
VERSION=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_check: $*" >&2; exit 1; }

cmake --install "$BUILD" --prefix "$tmp/stage" >/dev/null
mv "$tmp/stage" "$tmp/moved"
P=$tmp/moved
for f in bin/captionlens bin/captionlens-cli \
         share/captionlens/models/default.pt share/captionlens/models/no-position2d.pt \
         share/captionlens/models/default-run/step01000.pt share/captionlens/samples/two-shapes.png \
         share/captionlens/lessons/1-where-words-look.cllesson \
         share/applications/org.captionlens.CaptionLens.desktop \
         share/mime/packages/captionlens-lesson.xml \
         share/metainfo/org.captionlens.CaptionLens.metainfo.xml \
         share/icons/hicolor/scalable/apps/captionlens.svg \
         share/icons/hicolor/16x16/apps/captionlens.png share/icons/hicolor/48x48/apps/captionlens.png \
         share/icons/hicolor/256x256/apps/captionlens.png \
         share/man/man1/captionlens.1 share/man/man1/captionlens-cli.1; do
  [ -s "$P/$f" ] || fail "not installed: $f"
done
[ -z "$(find "$P" -type l)" ] || fail "the install holds symbolic links: $(find "$P" -type l | head -3)"

mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
unset CAPTIONLENS_DATA XDG_CURRENT_DESKTOP DESKTOP_SESSION
[ "$("$P/bin/captionlens-cli" --version)" = "captionlens-cli $VERSION" ] || fail "CLI --version"
# --version and --help need no display.
[ "$(env -u DISPLAY -u QT_QPA_PLATFORM "$P/bin/captionlens" --version)" = "captionlens $VERSION" ] ||
  fail "GUI --version"
env -u DISPLAY -u QT_QPA_PLATFORM "$P/bin/captionlens" --help | grep -q -- "--screenshot" ||
  fail "GUI --help"
grep -q "captionlens-cli" "$P/share/man/man1/captionlens-cli.1" || fail "CLI man page"

sample=$P/share/captionlens/samples/two-shapes.png
installed=$("$P/bin/captionlens-cli" caption --checkpoint "$P/share/captionlens/models/default.pt" \
  "$sample")
built=$("$BUILD/app/cli/captionlens-cli" caption --checkpoint "$P/share/captionlens/models/default.pt" \
  "$sample")
[ -n "$installed" ] && [ "$installed" = "$built" ] || fail "installed caption '$installed' vs '$built'"

# The GUI starts on its bundled model and sample, found next to the binary.
QT_QPA_PLATFORM=offscreen timeout 120 "$P/bin/captionlens" --screenshot "$tmp/shot.png" >/dev/null
[ -s "$tmp/shot.png" ] || fail "GUI screenshot"

desktop-file-validate "$P/share/applications/org.captionlens.CaptionLens.desktop"
appstreamcli validate --no-net "$P/share/metainfo/org.captionlens.CaptionLens.metainfo.xml" >/dev/null
/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
  "$P/share/mime/packages/captionlens-lesson.xml"
export XDG_DATA_HOME=$tmp/data XDG_DATA_DIRS=$P/share:/usr/share
update-mime-database "$P/share/mime"
update-desktop-database "$P/share/applications"
cp "$P/share/captionlens/lessons/1-where-words-look.cllesson" "$tmp/sent-by-a-colleague.cllesson"
type=$(xdg-mime query filetype "$tmp/sent-by-a-colleague.cllesson")
[ "$type" = application/x-captionlens-lesson ] || fail "a .cllesson is '$type'"
app=$(xdg-mime query default application/x-captionlens-lesson)
[ "$app" = org.captionlens.CaptionLens.desktop ] || fail ".cllesson opens with '$app'"
echo "install_check: installed, relocated and run from $P; caption: $installed"
