#!/usr/bin/python3
"""Activation patching of captionlens-cli patch, computed again in PyTorch on the seed's own
classes (tests/reference.py) for a course checkpoint, and compared.

usage: patch_reference.py CLI WORKDIR

The tiny 2021-layout course model of reference.py, imported with the CLI; two feature rows; the
clean row's greedy caption fed to both runs; at one position every site (the memory token, the
residual stream after every layer, every head of every attention block, every feed-forward
block, at every position) patched clean into corrupted and corrupted into clean, one run each.
Each site's normalised metric must match the CLI's to 1e-5. Exit 0 when all agree, 1 with the
first difference.
"""
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402
from lens_reference import head_parts, imported_course_model  # noqa: E402

POSITION = 1


def run(model, memory, fed, site=None, source=None, record=None):
    """The decoder over one sequence, `site` of `source` copied in; logits (T, V)."""
    t = len(fed)
    mask = torch.tril(torch.ones(t, t))
    x = model.positional_encoding(model.embedding(torch.tensor(fed).unsqueeze(0)))[0]

    def patch(kind, layer, tensor, head=None, cross=False):
        if site is None or site["kind"] != kind or site["layer"] != layer:
            return tensor
        if kind == "head":
            if site["head"] != head or (site["sublayer"] == "cross") != cross:
                return tensor
            key = "cross" if cross else "self"
            tensor = tensor.clone()
            tensor[site["position"]] = source[key][layer - 1][head - 1][site["position"]]
            return tensor
        tensor = tensor.clone()
        table = source["resid"][layer] if kind == "resid" else source["ffn"][layer - 1]
        tensor[site["position"]] = table[site["position"]]
        return tensor

    x = patch("resid", 0, x)
    rec = {"resid": [x], "self": [], "cross": [], "ffn": []}
    for i, layer in enumerate(model.transformer.layers):
        lnum = i + 1
        heads = head_parts(layer.self_attn, x, x, mask)
        heads = torch.stack([patch("head", lnum, heads[j], j + 1, False) for j in range(len(heads))])
        h = layer.norm1(x + heads.sum(0) + layer.self_attn.proj.bias)
        cross = head_parts(layer.multihead_attn, h, memory, None)
        cross = torch.stack([patch("head", lnum, cross[j], j + 1, True) for j in range(len(cross))])
        h = layer.norm2(h + cross.sum(0) + layer.multihead_attn.proj.bias)
        f = patch("ffn", lnum, layer.linear2(layer.activation(layer.linear1(h))))
        x = patch("resid", lnum, layer.norm3(h + f))
        rec["self"].append(heads)
        rec["cross"].append(cross)
        rec["ffn"].append(f)
        rec["resid"].append(x)
    if record is not None:
        record.update(rec)
    return model.output(x)


def fail(message):
    print("patch_reference: " + message)
    sys.exit(1)


def main(cli, work):
    model, ours = imported_course_model(cli, work)
    g = torch.Generator().manual_seed(11)
    rows = torch.randn(2, reference.CONFIG["input_dim"], generator=g) * 8  # far apart
    path = os.path.join(work, "rows.npy")
    np.save(path, rows.numpy().astype(np.float32))
    for noising in (False, True):
        args = [cli, "patch", "--checkpoint", ours, "--features", path, "--clean-row", "0",
                "--corrupt-row", "1", "--word", str(POSITION), "--json"]
        got = json.loads(subprocess.run(args + (["--noising"] if noising else []), check=True,
                                        capture_output=True, text=True).stdout)
        clean_caption = got["clean_caption"].split()
        # <START> and the caption's tokens but the last (the CLI's positions say how many).
        t = 1 + max(s["position"] for s in got["sites"] if s["position"] is not None)
        fed = ([1] + [reference.WORDS.index(w) for w in clean_caption])[:t]
        clean_word = reference.WORDS.index(got["clean_word"])
        corrupt_word = reference.WORDS.index(got["corrupt_word"])
        with torch.no_grad():
            mem = [model.memory(rows[i].unsqueeze(0))[0] for i in (0, 1)]
            rec = [{}, {}]
            diff = []
            for i in (0, 1):
                logits = run(model, mem[i], fed, record=rec[i])
                diff.append(float(logits[POSITION, clean_word] - logits[POSITION, corrupt_word]))
            for name, want, have in (("clean", diff[0], got["clean_logit_diff"]),
                                     ("corrupt", diff[1], got["corrupt_logit_diff"])):
                if abs(want - have) > 1e-4:
                    fail(f"{name} logit difference {have} vs {want}")
            base, source = (0, 1) if noising else (1, 0)
            for site in got["sites"]:
                memory = mem[base]
                if site["kind"] == "image_cell":
                    memory = mem[source]
                logits = run(model, memory, fed, site, rec[source])
                d = float(logits[POSITION, clean_word] - logits[POSITION, corrupt_word])
                want = (d - diff[1]) / (diff[0] - diff[1])
                if abs(want - site["restored"]) > 1e-5:
                    fail(f"{'noising' if noising else 'denoising'} {site}: restored "
                         f"{site['restored']} vs {want}")
        print(f"patch_reference: {len(got['sites'])} sites agree "
              f"({'noising' if noising else 'denoising'}, position {POSITION})")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
