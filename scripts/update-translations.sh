#!/usr/bin/env bash
# Brings translations/captionlens_ko.ts up to date with the sources (Qt's lupdate): new messages
# come in unfinished, gone ones go. Translate the unfinished ones (Qt Linguist, or by hand), then
# build: CTest's `translations` fails while any message lacks its Korean.
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
"$LUPDATE" -no-obsolete -locations none -I . -target-language ko_KR ui app/gui \
  -ts translations/captionlens_ko.ts
