#!/usr/bin/python3
"""The Korean catalogue is complete (issue 40): Qt's lupdate reads every tr() of the GUI's sources
again into a copy of translations/captionlens_ko.ts; a message it finds that has no Korean
(a new string, or one changed) fails, as does a message the sources no longer have, and a
translation that drops or adds a placeholder (%1, %n), an HTML tag or the accelerator's &.

    translations_test.py LUPDATE SOURCE_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

LUPDATE, SRC = sys.argv[1:3]
TS = os.path.join(SRC, "translations", "captionlens_ko.ts")


def messages(path):
    out = {}
    for ctx in ET.parse(path).getroot().iter("context"):
        name = ctx.find("name").text
        for m in ctx.iter("message"):
            t = m.find("translation")
            forms = [f.text or "" for f in t.iter("numerusform")] or [t.text or ""]
            out[(name, m.find("source").text)] = (t.get("type"), forms)
    return out


def shape(text):
    """What a translation must keep: placeholders, tags (by name), the accelerator."""
    return (sorted(re.findall(r"%(?:L?\d|n)", text)),
            sorted(re.findall(r"</?([a-zA-Z]+)", text)),
            bool(re.search(r"&[^&\s;]", re.sub(r"&[a-z]+;", "", text))))


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, "fresh.ts")
        shutil.copy(TS, fresh)
        subprocess.run([LUPDATE, "-no-obsolete", "-locations", "none", "-I", ".",
                        "-target-language", "ko_KR", "ui", "app/gui", "-ts", fresh],
                       cwd=SRC, check=True, capture_output=True)
        now, kept = messages(fresh), messages(TS)
    for (ctx, src), (kind, forms) in sorted(now.items()):
        if kind in ("unfinished", "vanished", "obsolete") or not all(f.strip() for f in forms):
            failures.append(f"no Korean for [{ctx}] {src!r}")
            continue
        for f in forms:
            if shape(src) != shape(f):
                failures.append(f"[{ctx}] {src!r} -> {f!r}: placeholders, tags or & differ")
    for key in sorted(set(kept) - set(now)):
        failures.append(f"the sources no longer have [{key[0]}] {key[1]!r}")
    print(f"{len(now)} messages, {len(failures)} problem(s)")
    for f in failures[:50]:
        print("FAIL " + f)
    if failures:
        print("run scripts/update-translations.sh, then translate what is unfinished")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
