#!/usr/bin/env python3
"""The seed's sample() on a GPU against captionlens-selfcheck on the same GPU (bench/gpu.sh).

The seed's CaptioningTransformer (tests/reference.py) gets the weights of `compare_seed.py
--export` (course.pt); its sample() is moved to the device unchanged but for the two lines that
assume a CPU (input tensor, word.numpy()). Checks the tokens the C++ side wrote with
`captionlens-selfcheck --tokens-out` and prints the C++/Python ratio of each figure.

usage: python3 bench/seed_gpu.py --inputs DIR --tokens T.txt --cpp selfcheck.json [--device cuda]
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import reference  # noqa: E402


def sample_on(model, features, device, max_length=30):
    """reference.sample() with its input and its partial caption on `device`."""
    with torch.no_grad():
        n = features.shape[0]
        captions = model._null * np.ones((n, max_length), dtype=np.int32)
        partial = torch.full((n, 1), model._start, dtype=torch.long, device=device)
        for t in range(max_length):
            logits = model.forward(features, partial)[:, -1, :]
            word = torch.argmax(logits, axis=1)
            captions[:, t] = word.cpu().numpy()
            partial = torch.cat([partial, word.unsqueeze(1)], dim=1)
        return captions


def timed(fn, device, runs, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        torch.cuda.synchronize() if device == "cuda" else None
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize() if device == "cuda" else None
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times), max(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--tokens", required=True)
    ap.add_argument("--cpp", required=True, help="captionlens-selfcheck --json output (ours.pt)")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    dev = args.device
    words = ["<NULL>", "<START>", "<END>", "<UNK>"] + [f"w{i}" for i in range(4, 1004)]
    model = reference.CaptioningTransformer({w: i for i, w in enumerate(words)}, input_dim=512,
                                            wordvec_dim=256, num_heads=2, num_layers=2, max_length=30)
    model.load_state_dict(torch.load(os.path.join(args.inputs, "course.pt"), map_location="cpu"))
    model = model.eval().to(dev)
    features = torch.from_numpy(np.load(os.path.join(args.inputs, "features.npy"))).to(dev)
    py_tokens = sample_on(model, features, dev)
    cpp_tokens = [list(map(int, line.split())) for line in open(args.tokens)]
    same = sum(list(py_tokens[i]) == t for i, t in enumerate(cpp_tokens))
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name(0) if dev == 'cuda' else 'cpu'}")
    print(f"identical tokens (30 steps, never stopping) on {same}/{len(cpp_tokens)} rows")
    reports = [json.loads(line) for line in open(args.cpp) if line.startswith("{")]
    cpp = {f["name"]: f for f in reports[-1]["figures"]}
    print(f"{'30 tokens':14}{'seed sample()':>16}{'C++ cached':>13}{'C++/seed':>10}{'C++ full re-run':>17}")
    for batch in (1, 64):
        med, lo, hi = timed(lambda: sample_on(model, features[:batch], dev), dev, args.runs)
        c = cpp[f"cached decode, batch {batch}"]["median_ms"]
        full = cpp[f"full re-run (seed sample()), batch {batch}"]["median_ms"]
        print(f"batch {batch:<8}{med:10.2f} ms   {c:8.2f} ms{c / med:10.3f}{full:14.2f} ms"
              f"   (seed min {lo:.2f}, max {hi:.2f})")
    return 0 if same == len(cpp_tokens) else 1


if __name__ == "__main__":
    sys.exit(main())
