#!/usr/bin/python3
"""C++ (captionlens) against the seed's own PyTorch code, same weights, same inputs, same machine.

The notebook configuration (W=256, H=2, 2 layers, V=1004, D=512, max_length 30): the seed's
CaptioningTransformer (tests/reference.py, which follows the seed line for line) with seeded
random weights is saved as a course state_dict, converted with `captionlens-cli import-cs231n`,
and both sides greedy-decode 30 tokens (never stopping, like sample()) from the same 64 feature
rows, one thread each. Prints the tokens check and C++/Python time ratios.

usage: /usr/bin/python3 bench/compare_seed.py [--cli build/app/cli/captionlens-cli] [--runs 10]
       /usr/bin/python3 bench/compare_seed.py --export DIR   (the inputs of bench/gpu.sh: course.pt,
       ours.pt, features.npy, then stop)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# One core each: torch.set_num_threads() does not reach OpenBLAS, which would otherwise use every
# core for the matrix products behind nn.Linear (the C++ side pins it to one thread too).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import reference  # noqa: E402


def median_ms(fn, runs, warmup=1):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def export(model, words, features, folder, cli):
    """The seed's weights as a course state_dict, the same converted to our format, the rows."""
    sd, vocab = os.path.join(folder, "course.pt"), os.path.join(folder, "vocab.json")
    torch.save(model.state_dict(), sd)
    json.dump({"idx_to_word": words, "word_to_idx": {w: i for i, w in enumerate(words)}}, open(vocab, "w"))
    np.save(os.path.join(folder, "features.npy"), features.numpy())
    subprocess.run([cli, "import-cs231n", sd, "--vocab", vocab, "-o", os.path.join(folder, "ours.pt")],
                   check=True, stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "app", "cli", "captionlens-cli"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--export", help="write the weights and inputs to this folder and stop")
    args = ap.parse_args()
    torch.set_num_threads(1)
    words = ["<NULL>", "<START>", "<END>", "<UNK>"] + [f"w{i}" for i in range(4, 1004)]
    torch.manual_seed(0)
    model = reference.CaptioningTransformer({w: i for i, w in enumerate(words)}, input_dim=512,
                                            wordvec_dim=256, num_heads=2, num_layers=2,
                                            max_length=30).eval()
    features = torch.randn(64, 512, generator=torch.Generator().manual_seed(1))
    if args.export:
        os.makedirs(args.export, exist_ok=True)
        export(model, words, features, args.export, args.cli)
        return
    with tempfile.TemporaryDirectory() as tmp:
        export(model, words, features, tmp, args.cli)
        ours, npy = os.path.join(tmp, "ours.pt"), os.path.join(tmp, "features.npy")
        # Tokens: C++ stops at <END>, the seed never does; compare up to the first <END>.
        out = subprocess.run([args.cli, "--threads", "1", "caption", "--checkpoint", ours, "--features",
                              npy, "--max-length", "30", "--json"], check=True, capture_output=True, text=True)
        cpp_tokens = [json.loads(line)["token_ids"] for line in out.stdout.splitlines()]
        py_tokens = model.sample(features.numpy(), max_length=30)
        same = all(list(py_tokens[i][:len(t)]) == t for i, t in enumerate(cpp_tokens))
        print(f"identical tokens on 64 rows: {same}")
        bench = subprocess.run([args.cli, "--threads", "1", "bench", "--checkpoint", ours, "--features", npy,
                                "--runs", str(args.runs), "--json"], check=True, capture_output=True, text=True)
        cpp = {f["name"]: f for f in json.loads(bench.stdout.splitlines()[0])["figures"]}
    py1 = median_ms(lambda: model.sample(features[:1].numpy(), max_length=30), args.runs)
    py64 = median_ms(lambda: model.sample(features.numpy(), max_length=30), max(3, args.runs // 3))
    rows = [("batch 1, 30 tokens", py1, cpp["cached decode, batch 1"]),
            ("batch 64, 30 tokens", py64, cpp["cached decode, batch 64"])]
    print(f"{'':24}{'seed sample()':>15}{'C++ cached':>12}{'floor':>9}{'C++/Py':>9}{'C++/floor':>11}")
    for name, py, c in rows:
        print(f"{name:24}{py:12.1f} ms{c['median_ms']:9.1f} ms{c['floor_ms']:6.1f} ms"
              f"{c['median_ms'] / py:9.3f}{c['median_ms'] / c['floor_ms']:11.2f}")
    print(f"per caption at batch 64: seed {py64 / 64:.2f} ms, C++ {cpp['cached decode, batch 64']['median_ms'] / 64:.2f} ms")


if __name__ == "__main__":
    main()
