#!/usr/bin/python3
"""A held-out robustness suite drawn by PIL, sharing no code with CaptionLens's own renderer:
shapes as people make them, in four categories, each scene with its ground truth. Never used for
training. Deterministic per seed.

usage: robust_suite.py OUTDIR [PER_CATEGORY [SEED]]
  OUTDIR/{slide,paper,outline,wide,lamp}/NNNN.{png,jpg} and NNNN.json:
  {"width", "height", "objects": [{"colour", "shape", "box": [x0, y0, x1, y1]}],
   "relation": "left of" | "right of" | "above" | "below" | null}   (first object to second)

slide    flat shapes on a white or near-white slide of any aspect ratio, some with a dark border
paper    a photographed sheet: paper tone, uneven light, slight rotation, blur, sensor noise, JPEG
outline  strokes only, no fill, stroke width 2-6 px
wide     wide or tall canvases (2:1 to 3:1)
lamp     paper photographed under a desk lamp or beside a phone's shadow: one side up to about
         40 % darker, a hot spot, a cast shadow with a soft edge, vignetting, a crease, a warm
         or cool white balance, slight keystone and rotation, blur, noise, JPEG 45-65
"""
import colorsys
import json
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

# Each colour name as a region of hue (degrees), with saturation and value kept clearly coloured.
HUES = {"red": (-8, 8), "yellow": (48, 58), "green": (100, 140), "blue": (210, 235),
        "purple": (270, 295)}
SHAPES = ["circle", "square", "triangle", "star"]
RELATIONS = {(1, 0): "left of", (-1, 0): "right of", (0, 1): "above", (0, -1): "below"}


def colour(name, rng):
    lo, hi = HUES[name]
    h = (rng.uniform(lo, hi) % 360) / 360
    s = rng.uniform(0.65, 0.95)
    v = rng.uniform(0.75, 0.95) if name != "yellow" else rng.uniform(0.85, 1.0)
    return tuple(int(255 * c) for c in colorsys.hsv_to_rgb(h, s, v))


def polygon(shape, cx, cy, r, angle):
    if shape == "square":
        pts = [(math.cos(angle + math.pi / 4 + k * math.pi / 2) * r * 1.15,
                math.sin(angle + math.pi / 4 + k * math.pi / 2) * r * 1.15) for k in range(4)]
    elif shape == "triangle":
        pts = [(math.cos(angle - math.pi / 2 + k * 2 * math.pi / 3) * r * 1.2,
                math.sin(angle - math.pi / 2 + k * 2 * math.pi / 3) * r * 1.2) for k in range(3)]
    else:  # star: five points, inner radius 0.45
        pts = [(math.cos(angle - math.pi / 2 + k * math.pi / 5) * r * (1.2 if k % 2 == 0 else 0.5),
                math.sin(angle - math.pi / 2 + k * math.pi / 5) * r * (1.2 if k % 2 == 0 else 0.5))
               for k in range(10)]
    return [(cx + x, cy + y) for x, y in pts]


def draw_shape(d, shape, cx, cy, r, fill, outline, width, angle):
    if shape == "circle":
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)
    else:
        pts = polygon(shape, cx, cy, r, angle)
        d.polygon(pts, fill=fill, outline=outline if width else None)
        if width and fill is None:
            d.line(pts + [pts[0]], fill=outline, width=width, joint="curve")


def layout(rng, w, h, count):
    """One or two objects; for two, apart along one axis by construction."""
    r = rng.uniform(0.10, 0.16) * min(w, h)
    if count == 1:
        return [(rng.uniform(r * 1.4, w - r * 1.4), rng.uniform(r * 1.4, h - r * 1.4), r)], None
    horizontal = w >= h if rng.random() < 0.7 else w < h
    if horizontal:
        y = h / 2 + rng.uniform(-0.1, 0.1) * h
        xs = sorted([rng.uniform(0.15, 0.35) * w, rng.uniform(0.65, 0.85) * w])
        pos = [(xs[0], y), (xs[1], y + rng.uniform(-0.05, 0.05) * h)]
    else:
        x = w / 2 + rng.uniform(-0.1, 0.1) * w
        ys = sorted([rng.uniform(0.15, 0.35) * h, rng.uniform(0.65, 0.85) * h])
        pos = [(x, ys[0]), (x + rng.uniform(-0.05, 0.05) * w, ys[1])]
    if rng.random() < 0.5:
        pos.reverse()
    (ax, ay), (bx, by) = pos
    dx, dy = bx - ax, by - ay
    rel = RELATIONS[(int(np.sign(dx)), 0)] if abs(dx) > abs(dy) else RELATIONS[(0, int(np.sign(dy)))]
    return [(ax, ay, r), (bx, by, r * rng.uniform(0.8, 1.1))], rel


def scene(category, rng):
    if category == "wide":
        ratio = rng.uniform(2, 3)
        w, h = (int(300 * ratio), 300) if rng.random() < 0.5 else (300, int(300 * ratio))
    else:
        w, h = [(400, 300), (640, 360), (320, 320), (300, 400)][rng.integers(4)]
    paper = category in ("paper", "lamp")
    bg = tuple(int(c) for c in (rng.uniform(225, 250, 3) if paper else [255 - rng.integers(0, 12)] * 3))
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    count = 1 + rng.integers(2)
    places, rel = layout(rng, w, h, count)
    names = rng.choice(list(HUES), count, replace=count > len(HUES))
    shapes = rng.choice(SHAPES, count)
    objects = []
    for (cx, cy, r), name, shape in zip(places, names, shapes):
        c = colour(name, rng)
        angle = rng.uniform(-0.25, 0.25) if shape != "circle" else 0
        if category == "outline":
            draw_shape(d, shape, cx, cy, r, None, c, int(rng.integers(2, 7)), angle)
        else:
            border = tuple(int(x * 0.5) for x in c) if rng.random() < 0.3 else None
            draw_shape(d, shape, cx, cy, r, c, border, 2 if border else 0, angle)
        objects.append({"colour": str(name), "shape": str(shape),
                        "box": [round(cx - 1.2 * r), round(cy - 1.2 * r),
                                round(cx + 1.2 * r), round(cy + 1.2 * r)]})
    if category == "slide" and rng.random() < 0.3:
        d.rectangle([0, 0, w - 1, h - 1], outline=(40, 40, 40), width=int(rng.integers(4, 12)))
    if category == "paper":
        a = np.asarray(img).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w]
        light = 0.8 + 0.25 * (xx / w * rng.uniform(-1, 1) + yy / h * rng.uniform(-1, 1))
        a = np.clip(a * light[..., None] + rng.normal(0, 6, a.shape), 0, 255).astype(np.uint8)
        img = Image.fromarray(a).rotate(rng.uniform(-4, 4), resample=Image.BILINEAR,
                                        fillcolor=bg)
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.5)))
    return img, {"width": w, "height": h, "objects": objects, "relation": rel}


def smoothstep(t):
    t = np.clip(t, 0, 1)
    return t * t * (3 - 2 * t)


def perspective_coeffs(src, dst):
    """PIL's PERSPECTIVE coefficients: output point in dst -> input point in src."""
    rows = []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    return np.linalg.solve(np.array(rows, float), np.array(src, float).reshape(8))


def apply_coeffs(c, x, y):
    q = c[6] * x + c[7] * y + 1
    return (c[0] * x + c[1] * y + c[2]) / q, (c[3] * x + c[4] * y + c[5]) / q


def lamp_light(w, h, rng):
    """Gain per pixel: a lamp's falloff, its hot spot, a phone's shadow, vignetting, a crease."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xx / w - 0.5, yy / h - 0.5
    theta = rng.uniform(0, 2 * math.pi)
    along = u * math.cos(theta) + v * math.sin(theta)
    span = 0.5 * (abs(math.cos(theta)) + abs(math.sin(theta)))
    gain = 1 - rng.uniform(0.2, 0.4) * smoothstep((along + span) / (2 * span))
    hx, hy = rng.uniform(-0.4, 0.4, 2)
    gain = gain * (1 + rng.uniform(0, 0.1) * np.exp(-((u - hx) ** 2 + (v - hy) ** 2) / 0.05))
    if rng.random() < 0.6:  # a phone or a hand: a dark region from one edge, soft-edged
        phi = rng.uniform(0, 2 * math.pi)
        dist = u * math.cos(phi) + v * math.sin(phi)
        edge = rng.uniform(0.15, 0.45)
        soft = rng.uniform(0.02, 0.12)
        gain = gain * (1 - rng.uniform(0.2, 0.45) * smoothstep((dist - edge) / soft + 0.5))
    gain = gain * (1 - rng.uniform(0, 0.3) * (u * u + v * v) * 2)  # vignetting
    if rng.random() < 0.4:  # a crease: a thin bright line beside a dark one
        phi = rng.uniform(0, math.pi)
        d = u * math.cos(phi) + v * math.sin(phi) - rng.uniform(-0.3, 0.3)
        width = rng.uniform(0.004, 0.012)
        gain = gain * (1 + 0.08 * np.exp(-((d + width) / width) ** 2)
                       - 0.12 * np.exp(-((d - width) / width) ** 2))
    return gain


def lamp(img, truth, rng):
    w, h = img.size
    a = np.asarray(img).astype(np.float32)
    balance = np.array([1.0, rng.uniform(0.9, 1.0), rng.uniform(0.75, 1.0)])
    if rng.random() < 0.3:  # a cool light instead of a warm lamp
        balance = balance[::-1]
    a = a * lamp_light(w, h, rng)[..., None] * balance
    a = np.clip(a + rng.normal(0, 5, a.shape), 0, 255).astype(np.uint8)
    img = Image.fromarray(a)
    k = 0.04  # keystone: the far edge up to 4 % narrower
    dx = [rng.uniform(0, k * w) for _ in range(2)]
    dst = [(dx[0], 0), (w - dx[1], 0), (w, h), (0, h)]
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    fill = tuple(int(c) for c in a[h // 2, w // 2])
    img = img.transform((w, h), Image.PERSPECTIVE, perspective_coeffs(src, dst),
                        resample=Image.BILINEAR, fillcolor=fill)
    forward = perspective_coeffs(dst, src)  # input point -> output point
    for o in truth["objects"]:
        x0, y0, x1, y1 = o["box"]
        corners = [apply_coeffs(forward, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        o["box"] = [round(min(c[0] for c in corners)), round(min(c[1] for c in corners)),
                    round(max(c[0] for c in corners)), round(max(c[1] for c in corners))]
    img = img.rotate(rng.uniform(-3, 3), resample=Image.BILINEAR, fillcolor=fill)
    return img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.2)))


def main(outdir, per_category=100, seed=0):
    for k, category in enumerate(["slide", "paper", "outline", "wide", "lamp"]):
        rng = np.random.default_rng([seed, k])
        os.makedirs(os.path.join(outdir, category), exist_ok=True)
        for i in range(per_category):
            img, truth = scene(category, rng)
            if category == "lamp":
                img = lamp(img, truth, rng)
            stem = os.path.join(outdir, category, f"{i:04d}")
            if category in ("paper", "lamp"):
                img.save(stem + ".jpg", quality=int(rng.integers(40, 75)))
            else:
                img.save(stem + ".png")
            with open(stem + ".json", "w") as f:
                json.dump(truth, f)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[2:]]
    main(sys.argv[1], *args)
