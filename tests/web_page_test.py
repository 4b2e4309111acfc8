#!/usr/bin/python3
"""The exported web page in a real browser (issue 40): Debian's chromium, headless, driven over
the DevTools protocol through a pipe (no extra package, no network port).

    web_page_test.py CLI MODEL IMAGE OUT [CHROMIUM]

Exports IMAGE's page with CLI (no --checkpoint: the bundled model, which MODEL is), loads it, and checks like a person would:
hovering a word changes the overlay, whose numbers are the app's for that word (`caption --json
--attention`, exported alongside); choosing a head by keyboard shows that head's row; the Next
button steps decoding; a tap on a phone selects a word; nothing scrolls sideways on a 360 px
phone; no console error, no request outside the file; under 2 MB. Screenshots (phone, laptop,
projector) go to OUT to be looked at.

Then the animations for slides (`export-anim`, GIF): a frame a word plus the whole caption, a frame
a layer and head, a frame a snapshot; the frame time asked for, looping, under 5 MB; and the
decode GIF plays in the browser (two screenshots of it a frame time apart differ).
"""

import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

CLI, MODEL, IMAGE, OUT = sys.argv[1:5]
CHROMIUM = sys.argv[5] if len(sys.argv) > 5 else "/usr/bin/chromium"
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


class Browser:
    """One page of a headless chromium, commands over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        high_r, high_w = os.dup(to_chrome_r), os.dup(from_chrome_w)
        for fd in (to_chrome_r, from_chrome_w):
            os.close(fd)

        def fds():
            os.setsid()  # a group of its own: close() ends the renderers too
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-pipe", "--user-data-dir=" + profile,
             "--window-size=1280,900", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(high_r)
        os.close(high_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable", session=True)

    def read(self, timeout=30):
        deadline = time.time() + timeout
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def page(self, method, params=None):
        return self.call(method, params, session=True)

    def js(self, expression):
        r = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for e in self.events:
                if e.get("method") == method:
                    self.events.remove(e)
                    return e
            self.events.append(self.read(timeout))
        raise TimeoutError(method)

    def mouse(self, kind, x, y):
        self.page("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                               "clickCount": 1})

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)

    def centre(self, selector, index=0):
        r = self.js(f"(() => {{ const e = document.querySelectorAll({json.dumps(selector)})"
                    f"[{index}]; e.scrollIntoView({{block: 'center'}}); const r = "
                    "e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        return r[0], r[1]

    def viewport(self, width, height, mobile=False):
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        self.page("Emulation.setTouchEmulationEnabled", {"enabled": mobile})

    def screenshot(self, path):
        shot = self.page("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def errors(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(str(p.get("args")))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(p["entry"].get("text", ""))
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if not url.startswith(("file:", "data:", "about:")):
                    out.append("request to " + url)
        return out

    def close(self):
        # chromium's children outlive a killed parent and keep writing to the profile folder
        # (removing it then failed now and then): the whole group goes.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


def head_row(app, layer, head, step):
    """The app's cross-attention row of `step` (head < 0: the head average)."""
    rows = [app["cross_attention"][layer][h][step] for h in range(len(app["cross_attention"][layer]))]
    if head >= 0:
        return rows[head]
    return [sum(r[k] for r in rows) / len(rows) for k in range(len(rows[0]))]


def main():
    os.makedirs(OUT, exist_ok=True)
    page = os.path.join(OUT, "page.html")
    subprocess.run([CLI, "export-html", IMAGE, "-o", page], check=True)
    app = json.loads(subprocess.run([CLI, "caption", "--checkpoint", MODEL, "--json",
                                     "--attention", IMAGE],
                                    check=True, capture_output=True, text=True).stdout)
    size = os.path.getsize(page)
    check(size < 2 << 20, f"the page is {size} bytes (under 2 MB)")
    with open(page, encoding="utf-8") as f:
        html = f.read()
    check("http://" not in html and "https://" not in html, "no address outside the file")

    # A lesson exports as its page: its scene, word, layer and panel.
    lesson_page = os.path.join(OUT, "lesson.html")
    lesson = os.path.join(os.path.dirname(IMAGE), "..", "lessons", "1-where-words-look.cllesson")
    subprocess.run([CLI, "export-html", "--lesson", lesson, "-o", lesson_page], check=True)
    with open(lesson_page, encoding="utf-8") as f:
        text = f.read()
    start = text.index('type="application/json">') + len('type="application/json">')
    data = json.loads(text[start:text.index("</script>", start)])
    with open(lesson, encoding="utf-8") as f:
        saved = json.load(f)
    check(data["selection"]["step"] == saved["selection"]["step"] and
          data["selection"]["layer"] == saved["selection"]["layer"],
          "the lesson's page opens on its word and layer")
    check(data["focus"] == "h-cross", "the lesson's Caption panel is the page's attention part")
    check(data["input"] == "scene" and data["caption"].startswith("a large green star"),
          f"the lesson's scene is captioned ({data['caption']})")
    bad = subprocess.run([CLI, "export-html", "-o", os.path.join(OUT, "none.html")],
                         capture_output=True, text=True)
    check(bad.returncode != 0 and bad.stderr.count("\n") == 1, "no input: one line, non-zero")

    gifs = animations(app)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        b = Browser(profile)
        try:
            run(b, app, page)
            plays(b, gifs["decode"])
        finally:
            b.close()
    print(f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


def canvas_sum(b):
    return b.js("(() => { const c = document.getElementById('view'); const d = c.getContext('2d')"
                ".getImageData(0, 0, c.width, c.height).data; let s = 0; for (let i = 0; i < "
                "d.length; i += 7) s += d[i]; return s; })()")


def run(b, app, page):
    b.viewport(1280, 900)
    b.page("Page.navigate", {"url": "file://" + os.path.abspath(page)})
    b.wait_event("Page.loadEventFired")
    b.js("new Promise(r => setTimeout(r, 200))")
    words = app["tokens"]
    layers = len(app["cross_attention"])
    check(b.js("document.querySelectorAll('.word').length") == len(words),
          f"one chip per word ({len(words)})")
    check(b.js("document.getElementById('caption').textContent").strip("“”") == app["caption"],
          "the caption is the app's")
    # Hover the third word: the overlay changes to that word's attention, the app's numbers.
    target = min(2, len(words) - 1)
    before = canvas_sum(b)
    b.mouse("mouseMoved", *b.centre(".word", target))
    state = b.js("captionlens.state()")
    check(state["word"] == target, f"hovering word {target} selects it (state {state['word']})")
    check(canvas_sum(b) != before, "the overlay over the image changed")
    got = b.js("captionlens.overlay()")
    want = head_row(app, layers - 1, -1, target)
    worst = max(abs(g - w) for g, w in zip(got, want))
    check(len(got) == len(want) and worst < 1e-6,
          f"the overlay is the app's head average for '{words[target]}' (max diff {worst:.2g})")
    b.screenshot(os.path.join(OUT, "laptop-1280.png"))
    # Choose head 1 with the keyboard: the overlay becomes that head's row.
    b.js("document.getElementById('head').focus()")
    for kind in ("keyDown", "keyUp"):
        b.page("Input.dispatchKeyEvent", {"type": kind, "key": "ArrowDown", "code": "ArrowDown",
                                          "windowsVirtualKeyCode": 40})
    state = b.js("captionlens.state()")
    check(state["head"] == 0, f"ArrowDown on the head box chooses head 1 (state {state['head']})")
    got = b.js("captionlens.overlay()")
    want = head_row(app, layers - 1, 0, target)
    check(max(abs(g - w) for g, w in zip(got, want)) < 1e-6, "the overlay is head 1's row")
    # Step decoding with the Next button.
    step = b.js("captionlens.state().step")
    b.click(*b.centre("#next"))
    check(b.js("captionlens.state().step") == step + 1, "Next steps decoding by one")
    bars = b.js("document.querySelectorAll('#candidates .bar').length")
    check(bars == len(app["steps"][step + 1]["top_k"]), f"the step's {bars} candidates are shown")
    # A self-attention thumbnail opens in the large view.
    b.click(*b.centre("#thumbs canvas", 1))
    check(b.js("captionlens.state().big")[1] == 0, "clicking L1 H1's thumbnail shows it large")
    # A phone: nothing sideways, a tap selects a word.
    b.viewport(360, 780, mobile=True)
    b.js("new Promise(r => setTimeout(r, 200))")
    wide = b.js("document.documentElement.scrollWidth")
    check(wide <= 360, f"the page fits a 360 px phone (scroll width {wide})")
    x, y = b.centre(".word", 0)
    for kind in ("touchStart", "touchEnd"):
        b.page("Input.dispatchTouchEvent",
               {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]})
    b.js("new Promise(r => setTimeout(r, 300))")
    check(b.js("captionlens.state().word") == 0, "a tap on the first word selects it")
    b.js("window.scrollTo(0, 0)")
    b.screenshot(os.path.join(OUT, "phone-360.png"))
    b.viewport(1920, 1080)
    b.js("new Promise(r => setTimeout(r, 200))")
    b.screenshot(os.path.join(OUT, "projector-1920.png"))
    errors = b.errors()
    check(not errors, "no console error or outside request" + (f": {errors}" if errors else ""))


def animations(app):
    """export-anim's three GIFs, read back with PIL: frames, times, loop, size."""
    from PIL import Image
    layers, heads = len(app["cross_attention"]), len(app["cross_attention"][0])
    want = {"decode": len(app["tokens"]) + 1, "heads": layers * (heads + 1), "timeline": 3}
    out = {}
    for what, frames in want.items():
        path = os.path.join(OUT, what + ".gif")
        subprocess.run([CLI, "export-anim", IMAGE, "--what", what, "--frame-ms", "700", "-o",
                        path], check=True, capture_output=True)
        with Image.open(path) as im:
            check(im.format == "GIF" and im.n_frames == frames,
                  f"{what}: {im.n_frames} frames (want {frames})")
            check(im.info.get("duration") == 700 and im.info.get("loop") == 0,
                  f"{what}: 700 ms a frame, looping ({im.info.get('duration')}, "
                  f"{im.info.get('loop')})")
            im.seek(im.n_frames - 1)
            im.convert("RGB").save(os.path.join(OUT, what + "-last.png"))
        size = os.path.getsize(path)
        check(size < 5 << 20, f"{what}: {size} bytes (under 5 MB)")
        out[what] = path
    bad = subprocess.run([CLI, "export-anim", IMAGE, "--what", "timeline", "--run", OUT, "-o",
                          os.path.join(OUT, "none.gif")], capture_output=True, text=True)
    check(bad.returncode != 0 and bad.stderr.count("\n") == 1,
          f"a folder without snapshots: one line, non-zero ({bad.stderr.strip()})")
    return out


def plays(b, gif):
    """The decode GIF in the browser: it loads, and it moves."""
    page = os.path.join(OUT, "gif.html")
    with open(page, "w") as f:
        f.write(f'<!doctype html><body style="margin:0"><img id="a" src="{os.path.basename(gif)}">')
    b.viewport(960, 540)
    b.page("Page.navigate", {"url": "file://" + os.path.abspath(page)})
    b.wait_event("Page.loadEventFired")
    check(b.js("document.getElementById('a').naturalWidth") == 960, "the GIF loads in chromium")
    first = b.page("Page.captureScreenshot", {"format": "png"})["data"]
    b.js("new Promise(r => setTimeout(r, 1600))")
    second = b.page("Page.captureScreenshot", {"format": "png"})["data"]
    check(first != second, "the GIF plays: the browser shows another frame 1.6 s later")


if __name__ == "__main__":
    main()
