#!/usr/bin/python3
"""Out-of-world images for measuring the out-of-world notice (README: "Out-of-world notice").

    /usr/bin/python3 scripts/ood_set.py OUT

Writes OUT/<kind>-<name>.png|jpg for the kinds noise, gradient, text, photo and drawing. Noise,
gradients and rendered text pages are drawn here (fixed seeds); photographs, screenshots and
drawings are taken from files Debian and rustup install where present (Rust documentation images,
Adwaita icons), so the count depends on the machine: the script prints it per kind.
"""
import glob
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20)
count = {}


def save(kind, name, img, fmt="png"):
    count[kind] = count.get(kind, 0) + 1
    img.convert("RGB").save(f"{out}/{kind}-{name}.{fmt}")


def noise():
    for i, size in enumerate((64, 128, 400)):
        save("noise", f"uniform{i}", Image.fromarray(rng.integers(0, 256, (size, size, 3), np.uint8)))
    for i, sd in enumerate((20, 60)):
        a = np.clip(128 + rng.normal(0, sd, (200, 300, 3)), 0, 255).astype(np.uint8)
        save("noise", f"gauss{i}", Image.fromarray(a))
    for i, p in enumerate((0.05, 0.3)):
        a = np.full((256, 256, 3), 255, np.uint8)
        a[rng.random((256, 256)) < p] = 0
        save("noise", f"saltpepper{i}", Image.fromarray(a))
    for i, block in enumerate((4, 8, 16)):
        small = rng.integers(0, 256, (256 // block, 256 // block, 3), np.uint8)
        save("noise", f"blocky{i}", Image.fromarray(small).resize((256, 256), Image.NEAREST))


def gradients():
    for i in range(10):
        w, h = (256, 256) if i % 3 else (400, 160)
        c0, c1 = rng.integers(0, 256, 3), rng.integers(0, 256, 3)
        y, x = np.mgrid[0:h, 0:w] / max(w, h)
        t = np.hypot(x - 0.5, y - 0.5) * 1.4 if i % 2 else (x * np.cos(i) + y * np.sin(i)) % 1.0
        a = c0 + (c1 - c0) * np.clip(t, 0, 1)[..., None]
        save("gradient", f"g{i}", Image.fromarray(a.astype(np.uint8)))


def text():
    font_dir = "/usr/share/fonts/truetype/dejavu"
    words = ("the model reads every word of this page as shapes it has never seen while "
             "attention spreads over letters lines and margins of a printed sheet").split()
    for i in range(10):
        w, h = [(800, 600), (1200, 900), (600, 800), (1600, 400), (400, 400)][i % 5]
        img = Image.new("RGB", (w, h), "white")
        d = ImageDraw.Draw(img)
        size = 12 + 4 * (i % 4)
        font = ImageFont.truetype(f"{font_dir}/DejaVuSans{'-Bold' if i % 3 == 0 else ''}.ttf", size)
        y = 10
        while y < h - size:
            line = " ".join(rng.choice(words, 12))
            d.text((10, y), line, fill=(0, 0, 0) if i % 2 else (40, 40, 90), font=font)
            y += int(size * 1.5)
        save("text", f"page{i}", img)


def found():
    docs = sorted(glob.glob("/root/.rustup/toolchains/*/share/doc/rust/html"))
    doc = docs[0] if docs else ""
    for path in sorted(glob.glob(f"{doc}/book/img/*.png") + glob.glob(f"{doc}/rustc/images/*.png")
                       + glob.glob(f"{doc}/embedded-book/assets/*.png")):
        save("text", os.path.basename(path)[:-4], Image.open(path))
    for path in sorted(glob.glob(f"{doc}/embedded-book/assets/*.jp*g")):
        img = Image.open(path).convert("RGB")
        name = os.path.basename(path).split(".")[0]
        save("photo", name, img, "jpg")
        for k in range(5):
            w, h = img.size
            s = int(min(w, h) * (0.3 + 0.1 * k))
            x, y = int(rng.integers(0, w - s)), int(rng.integers(0, h - s))
            save("photo", f"{name}-crop{k}", img.crop((x, y, x + s, y + s)), "jpg")
    for path in sorted(glob.glob("/usr/share/icons/Adwaita/512x512/*/*.png"))[:12]:
        icon = Image.open(path).convert("RGBA")
        flat = Image.new("RGBA", icon.size, "white")
        flat.alpha_composite(icon)
        save("drawing", os.path.basename(path)[:-4], flat)


noise()
gradients()
text()
found()
print(" ".join(f"{k} {v}" for k, v in sorted(count.items())), f"all {sum(count.values())}")
