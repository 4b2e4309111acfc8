#!/usr/bin/env bash
# Makes every screenshot the docs show (docs/images/*.png) in a real X session of 1280x800 with a
# window manager, not Qt's offscreen platform: the app is driven by keyboard, as a person would,
# on the bundled model and resources/samples/three-shapes.png.
#   scripts/screenshots.sh               (BUILD_DIR, default build: expects
#                                          $BUILD_DIR/app/gui/captionlens; nothing is built here)
# GUI_SESSION: the session tool (default ../shared/tools/gui-session, else gui-session on PATH);
# it starts Xvfb and openbox and installs xdotool and ImageMagick when they are missing.
# The app computes in the background (captions, comparisons, explanations), so each picture is
# taken once two screenshots a second apart agree, at most 30 s after the panel was shown.
# Pictures over 300 KB are reduced to 256 colours. Open them afterwards and look.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build}
APP=$BUILD_DIR/app/gui/captionlens
OUT=docs/images
SIZE=1280x800
IMAGE=$ROOT/resources/samples/three-shapes.png
COMPARE=$ROOT/resources/models/no-position2d.pt
MAX_BYTES=300000

fail() { echo "screenshots: $*" >&2; exit 1; }
[ -x "$APP" ] || fail "no app at $APP (build it first: scripts/run.sh or scripts/test.sh; or set BUILD_DIR)"
if [ -z "${GUI_SESSION:-}" ]; then
    if [ -x ../shared/tools/gui-session ]; then
        GUI_SESSION=$(cd ../shared/tools && pwd)/gui-session
    else
        GUI_SESSION=$(command -v gui-session) || fail "gui-session not found: set GUI_SESSION"
    fi
fi

work=$(mktemp -d)
app_pid=""
cleanup() {
    [ -z "$app_pid" ] || kill "$app_pid" 2>/dev/null || true
    "$GUI_SESSION" stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

eval "$("$GUI_SESSION" start "$SIZE")" # exports DISPLAY
mkdir -p "$OUT"

# The app keeps recent files in its settings: give it folders of its own, not the user's.
XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache \
    "$APP" --threads 2 "$IMAGE" --compare "$COMPARE" >"$work/app.log" 2>&1 &
app_pid=$!
win=$("$GUI_SESSION" wait CaptionLens) || { cat "$work/app.log" >&2; fail "no window"; }

# Maximise it (openbox: a double click on the title bar), so the picture is the app, not a desktop.
# (xwininfo, not xdotool getwindowgeometry: xdotool 3.2016 counts the frame's offset twice.)
read -r x y w < <(xwininfo -id "$win" |
    awk '/Absolute upper-left X/ { x = $4 } /Absolute upper-left Y/ { y = $4 } /  Width/ { w = $2 }
         END { print x, y, w }')
xdotool mousemove $((x + w / 2)) $((y - 10)) click --repeat 2 --delay 80 1
sleep 1
read -r w h < <(xwininfo -id "$win" | awk '/  Width/ { w = $2 } /  Height/ { h = $2 } END { print w, h }')
[ "$w" -ge 1270 ] || echo "screenshots: could not maximise the window (${w}x$h); going on" >&2
xdotool mousemove 1279 799 # off the panels: no hover read-out in the pictures
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"

# The first caption is on screen when the title carries it: "CaptionLens — NAME — “CAPTION”"
# instead of "CaptionLens".
captioned() { [ "$(xdotool getwindowname "$win")" != CaptionLens ]; }
for _ in $(seq 240); do
    kill -0 "$app_pid" 2>/dev/null || { cat "$work/app.log" >&2; fail "the app exited"; }
    captioned && break
    sleep 0.5
done
captioned || fail "no caption within 120 s"

# Waits until the screen stops changing (a blinking text cursor is allowed), then saves it.
shot() {
    local name=$1 prev=$work/prev.png cur=$work/cur.png still=0
    sleep 2
    import -window root "$prev"
    for _ in $(seq 30); do
        sleep 1
        import -window root "$cur"
        local changed
        changed=$(compare -metric AE "$prev" "$cur" null: 2>&1 || true)
        if awk -v n="$changed" 'BEGIN { exit !(n + 0 <= 50) }'; then
            still=1
            break
        fi
        mv "$cur" "$prev"
    done
    if [ "$still" = 0 ]; then
        echo "screenshots: $name: the screen kept changing for 30 s; saved anyway" >&2
        cur=$prev
    fi
    convert "$cur" -strip "$OUT/$name.png"
    if [ "$(stat -c %s "$OUT/$name.png")" -gt "$MAX_BYTES" ]; then
        convert "$cur" -strip -dither None -colors 256 "PNG8:$OUT/$name.png"
    fi
    echo "$OUT/$name.png ($(($(stat -c %s "$OUT/$name.png") / 1024)) KB)"
}

key() { xdotool key --clearmodifiers "$@"; }

# The app selects the caption's most focused word ("square", step 14 of three-shapes.png).
shot main                        # the Caption panel
key ctrl+2 && shot attention
key ctrl+5 && shot heads         # figures beside the switches: computed when the tab is shown
key alt+x && shot explain        # the Explain tab has no View-menu key; E&xplain is its mnemonic
# Decoding at "below" (step 5), where the model hesitates: PageUp steps the shared word back.
key ctrl+4 && key --repeat 9 --delay 100 Page_Up && shot decoding
key ctrl+6 && shot compare       # default.pt (A) against no-position2d.pt (B)
key ctrl+2 && key F11 && shot presenter
key F11
