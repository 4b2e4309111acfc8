#!/usr/bin/python3
"""The bundled image model: C++ (captionlens) against the same model in PyTorch, same weights,
same images, same machine, one thread each.

The PyTorch side is the seed's CaptioningTransformer (tests/reference.py) behind a port of our
image encoder (model/nn/image_encoder.cpp), loaded from our checkpoint with torch.load (our files are
torch.load-able). It checks that both caption the same scenes with identical tokens, then prints
C++/Python ratios for:
  - caption of one image: C++ cached decode with the full attention trace vs the seed's sample();
  - batch 64 captioning throughput;
  - one training step at batch 32 (forward, backward, gradient clipping, AdamW), C++ trainer vs
    torch.optim.AdamW on the same model shapes.

usage: /usr/bin/python3 bench/compare_image_model.py [--cli build/app/cli/captionlens-cli]
       [--checkpoint resources/models/default.pt] [--runs 20]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# One core each: torch.set_num_threads() does not reach OpenBLAS, which would otherwise use every
# core for the matrix products behind nn.Linear (the C++ side pins it to one thread too).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import reference  # noqa: E402
from compare_seed import median_ms  # noqa: E402


def position_code_2d(grid, width):
    table = reference.PositionalEncoding(width // 2, max_len=grid).pe[0]  # (grid, D/2)
    rows = table.unsqueeze(1).expand(grid, grid, width // 2)
    cols = table.unsqueeze(0).expand(grid, grid, width // 2)
    return torch.cat([rows, cols], -1).reshape(grid * grid, width)


class Encoder(nn.Module):
    """model/nn/image_encoder.cpp in PyTorch: images (N, 3, S, S) -> grid tokens (N, g*g, D)."""

    def __init__(self, channels, image_size, grid, out_dim, position2d):
        super().__init__()
        stem_down = image_size > grid
        self.stem = nn.Conv2d(3, channels // 2, 3, stride=2 if stem_down else 1, padding=1)
        self.down = nn.ModuleList()
        inp, side = channels // 2, image_size // 2 if stem_down else image_size
        while side > grid:
            self.down.append(nn.Conv2d(inp, channels, 3, stride=2, padding=1))
            inp, side = channels, side // 2
        self.mix = nn.Conv2d(inp, channels, 3, padding=1)
        self.out = nn.Conv2d(channels, out_dim, 1)
        self.register_buffer("pos2d", position_code_2d(grid, out_dim))
        self.position2d = position2d

    def forward(self, images):
        x = F.relu(self.stem(images))
        for layer in self.down:
            x = F.relu(layer(x))
        x = self.out(F.relu(self.mix(x))).flatten(2).transpose(1, 2)
        return x + self.pos2d if self.position2d else x


class ImageCaptioner(nn.Module):
    def __init__(self, ck):
        super().__init__()
        c = ck["config"]
        self.encoder = Encoder(c["encoder_channels"], c["encoder_image_size"], c["encoder_grid"],
                               c["input_dim"], c["encoder_position2d"])
        words = {w: i for i, w in enumerate(ck["vocab"])}
        self.captioner = reference.CaptioningTransformer(
            words, c["input_dim"], c["wordvec_dim"], c["num_heads"], c["num_layers"],
            c["max_length"], c["layout"], c["ffn_dim"])
        sd = ck["state_dict"]
        self.encoder.load_state_dict({k[8:]: v for k, v in sd.items() if k.startswith("encoder.")})
        self.captioner.load_state_dict({k: v for k, v in sd.items() if not k.startswith("encoder.")})

    def forward(self, images, captions):
        return self.captioner(self.encoder(images), captions)

    def sample(self, images, max_length):
        with torch.no_grad():
            return self.captioner.sample(self.encoder(images), max_length)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, w, h, maxval, rest = data.split(maxsplit=4)
    assert magic == b"P6" and maxval == b"255"
    return np.frombuffer(rest, dtype=np.uint8, count=int(w) * int(h) * 3).reshape(int(h), int(w), 3)


def preprocess(rgb, side):
    """preprocessImage(): area average when shrinking, then (x / 255 - 0.5) / 0.5."""
    x = torch.from_numpy(rgb.copy()).permute(2, 0, 1).unsqueeze(0).float()
    x = F.adaptive_avg_pool2d(x, side) if min(rgb.shape[:2]) >= side else \
        F.interpolate(x, size=(side, side), mode="bilinear", align_corners=False)
    return (x / 255.0 - 0.5) / 0.5


def cli_json(cli, *args):
    out = subprocess.run([cli, "--threads", "1", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "app", "cli", "captionlens-cli"))
    ap.add_argument("--checkpoint", default=os.path.join(HERE, "..", "resources", "models", "default.pt"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--train-steps", type=int, default=20)
    args = ap.parse_args()
    torch.set_num_threads(1)
    ck = torch.load(args.checkpoint)
    model = ImageCaptioner(ck).eval()
    side, max_len = ck["config"]["encoder_image_size"], ck["config"]["max_length"]
    end = ck["vocab"].index("<END>")

    with tempfile.TemporaryDirectory() as tmp:
        # 1. Identical tokens on the same scenes.
        paths = [os.path.join(tmp, f"scene{seed}.ppm") for seed in range(1, 9)]
        for seed, path in enumerate(paths, start=1):
            subprocess.run([args.cli, "scene", "--seed", str(seed), "-o", path], check=True,
                           stdout=subprocess.DEVNULL)
        out = subprocess.run([args.cli, "--threads", "1", "caption", "--checkpoint", args.checkpoint,
                              "--max-length", str(max_len), "--json", *paths],
                             check=True, capture_output=True, text=True).stdout.splitlines()
        images, same = [preprocess(read_ppm(p), side) for p in paths], 0
        for line, image in zip(out, images):
            ours = [s["token"] for s in json.loads(line)["steps"]]
            theirs = [ck["vocab"][i] for i in model.sample(image, max_len)[0]]
            theirs = theirs[:theirs.index("<END>") + 1] if "<END>" in theirs else theirs
            same += ours == theirs
        print(f"identical tokens: {same}/8 scenes (e.g. \"{json.loads(out[0])['caption']}\")")

        # 2. Inference, one thread each.
        cpp = {f["name"]: f["median_ms"] for f in
               cli_json(args.cli, "bench", "--checkpoint", args.checkpoint, "--json")["figures"]}
        batch64 = torch.cat([images[i % 8] for i in range(64)])
        py1 = median_ms(lambda: model.sample(images[0], max_len), args.runs)
        py64 = median_ms(lambda: model.sample(batch64, max_len), max(3, args.runs // 4))
        c1 = cpp["caption + all attention maps (cached)"]
        c64 = next(v for k, v in cpp.items() if k.startswith("batch 64"))
        print(f"{'figure':52s} {'C++ ms':>9s} {'PyTorch ms':>11s} {'ratio':>7s}")
        print(f"{'one image: caption (+ all maps in C++) vs sample()':52s} {c1:9.2f} {py1:11.2f} {c1 / py1:7.3f}")
        print(f"{'batch 64 captions':52s} {c64:9.2f} {py64:11.2f} {c64 / py64:7.3f}")

        # 3. One training step at batch 32, same shapes (17 tokens: <START>, 15 words, <END>).
        train = ImageCaptioner(ck).train()
        opt = torch.optim.AdamW(train.parameters(), lr=1e-3, weight_decay=0.01)
        g = torch.Generator().manual_seed(0)
        x = torch.randn(32, 3, side, side, generator=g)
        caps = torch.randint(4, len(ck["vocab"]), (32, 17), generator=g)
        null = ck["vocab"].index("<NULL>")

        def step():
            scores = train(x, caps[:, :-1])
            loss = F.cross_entropy(scores.reshape(-1, scores.shape[-1]), caps[:, 1:].reshape(-1),
                                   ignore_index=null)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(train.parameters(), 1.0)
            opt.step()
            loss.item()

        py_step = median_ms(step, args.train_steps)
        out = subprocess.run([args.cli, "--threads", "1", "train", "--steps", str(args.train_steps + 1),
                              "--batch", "32", "--save-every", "1000000", "-o",
                              os.path.join(tmp, "t.pt")], check=True, capture_output=True, text=True)
        c_step = float(re.search(r"optimiser step .* median ([0-9.]+) ms", out.stdout).group(1))
        c_data = float(re.search(r"waiting for scenes ([0-9.]+) ms", out.stdout).group(1))
        print(f"{'training step, batch 32 (fwd, bwd, clip, AdamW)':52s} {c_step:9.2f} {py_step:11.2f} {c_step / py_step:7.3f}")
        print(f"(C++ also renders its scenes, on a thread during the step: it waited {c_data:.2f} ms "
              "per batch of 32)")
    return 0 if same == 8 else 1


if __name__ == "__main__":
    sys.exit(main())
