#!/usr/bin/python3
"""The logit lens and direct logit attribution of captionlens-cli lens, computed again in PyTorch
on the seed's own classes (tests/reference.py) for a course checkpoint, and compared.

usage: lens_reference.py CLI WORKDIR

Writes the tiny 2021-layout course model of reference.py as a bare state_dict, imports it with
the CLI, captions one feature row with both, and checks: the tokens, every layer's top words and
probabilities (1e-5), every position's logit and each part of it (each head, each FFN, the
embedding, the position code, the biases; 1e-4). Exit 0 when all agree, 1 with the first
difference.
"""
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402


def head_parts(attn, x, kv, mask):
    """Each head's output (value bias included, output bias not): (H, T, W) for one sequence."""
    h, hd = attn.n_head, attn.head_dim
    t, m = x.shape[0], kv.shape[0]
    q = attn.query(x).view(t, h, hd).transpose(0, 1)
    k = attn.key(kv).view(m, h, hd).transpose(0, 1)
    v = attn.value(kv).view(m, h, hd).transpose(0, 1)
    scores = q @ k.transpose(1, 2)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -float("inf"))
    weights = torch.softmax(scores / (hd ** 0.5), dim=-1)
    out = weights @ v  # (H, T, hd)
    parts = []
    for j in range(h):
        block = attn.proj.weight[:, j * hd:(j + 1) * hd]  # (W, hd)
        parts.append(out[j] @ block.T)
    return torch.stack(parts)


def frozen_norm(parts, bias, norm):
    """LayerNorm of their sum as a linear map of each part, the sum's statistics frozen."""
    y = sum(parts.values()) + bias
    scale = norm.weight / torch.sqrt(y.var(-1, unbiased=False, keepdim=True) + norm.eps)
    out = {name: (p - p.mean(-1, keepdim=True)) * scale for name, p in parts.items()}
    return out, (bias - bias.mean(-1, keepdim=True)) * scale + norm.bias, norm(y)


def lens(model, feature, fed, top):
    ids = torch.tensor(fed).unsqueeze(0)
    emb = model.embedding(ids)[0]
    x = model.positional_encoding(emb.unsqueeze(0))[0]
    parts = {"embedding": emb, "position code": x - emb}
    bias = torch.zeros_like(x)
    memory = model.memory(feature.unsqueeze(0))[0]
    t = len(fed)
    mask = torch.tril(torch.ones(t, t))
    rows = [(0, x)]
    for i, layer in enumerate(model.transformer.layers):
        name = f"L{i + 1}"
        for kind, attn, kv, m, norm in (("self", layer.self_attn, None, mask, layer.norm1),
                                        ("cross", layer.multihead_attn, memory, None, layer.norm2)):
            heads = head_parts(attn, x, x if kv is None else kv, m)
            for j in range(heads.shape[0]):
                parts[f"{name} {kind} H{j + 1}"] = heads[j]
            parts, bias, x = frozen_norm(parts, bias + attn.proj.bias, norm)
        hidden = layer.activation(layer.linear1(x))
        parts[f"{name} FFN"] = hidden @ layer.linear2.weight.T
        parts, bias, x = frozen_norm(parts, bias + layer.linear2.bias, layer.norm3)
        rows.append((i + 1, x))
    lens_rows = []
    for layer, stream in rows:
        p = torch.softmax(model.output(stream), -1)
        values, idx = p.topk(top, -1)
        for pos in range(t):
            lens_rows.append((layer, pos, [(reference.WORDS[int(idx[pos, k])], float(values[pos, k]))
                                           for k in range(top)]))
    return lens_rows, parts, bias, model.output(x)


def fail(message):
    print("lens_reference: " + message)
    sys.exit(1)


def imported_course_model(cli, work):
    """reference.py's tiny 2021-layout model as students have it (a bare state_dict and the
    vocabulary JSON), imported with the CLI: (the PyTorch model, our checkpoint's path)."""
    os.makedirs(work, exist_ok=True)
    model = reference.tiny_model("2021")
    course = os.path.join(work, "course.pt")
    torch.save(model.state_dict(), course)
    vocab = os.path.join(work, "vocab.json")
    with open(vocab, "w") as f:
        json.dump({"idx_to_word": reference.WORDS,
                   "word_to_idx": {w: i for i, w in enumerate(reference.WORDS)}}, f)
    ours = os.path.join(work, "ours.pt")
    subprocess.run([cli, "import-cs231n", course, "--vocab", vocab, "--heads", "2", "--layout",
                    "2021", "-o", ours], check=True, stdout=subprocess.DEVNULL)
    return model, ours


def main(cli, work):
    model, ours = imported_course_model(cli, work)
    feature = torch.randn(reference.CONFIG["input_dim"], generator=torch.Generator().manual_seed(11))
    rows = os.path.join(work, "row.npy")
    np.save(rows, feature.numpy()[None, :].astype(np.float32))
    top = 3
    out = subprocess.run([cli, "lens", "--checkpoint", ours, "--features", rows, "--top", str(top),
                          "--json"], check=True, capture_output=True, text=True).stdout
    got = json.loads(out)
    words = got["words"]
    fed = [reference.WORDS.index(w) for w in words]
    with torch.no_grad():
        lens_rows, parts, bias, logits = lens(model, feature, fed, top)
        predicted = [reference.WORDS.index(a["word"]) for a in got["dla"]]
        greedy = model.sample(feature.unsqueeze(0).numpy(), max_length=len(fed))[0]
        if [int(w) for w in greedy[:len(predicted)]] != predicted:
            fail(f"the CLI's words {predicted} are not the seed's greedy caption {list(greedy)}")
        for want, have in zip(lens_rows, got["logit_lens"]):
            layer, pos, top_words = want
            if (have["layer"], have["position"]) != (layer, pos):
                fail(f"logit lens row order: {have['layer'], have['position']} vs {layer, pos}")
            for (w, p), h in zip(top_words, have["top"]):
                if h["word"] != w or abs(h["p"] - p) > 1e-5:
                    fail(f"layer {layer} position {pos}: {h} vs {w} {p}")
        for a in got["dla"]:
            pos, word = a["position"], predicted[a["position"]]
            if abs(a["logit"] - float(logits[pos, word])) > 1e-4:
                fail(f"position {pos}: logit {a['logit']} vs {float(logits[pos, word])}")
            w_row = model.output.weight[word]
            for c in a["components"]:
                if c["name"] == "biases":
                    want = float(bias[pos] @ w_row + model.output.bias[word])
                else:
                    want = float(parts[c["name"]][pos] @ w_row)
                if abs(c["value"] - want) > 1e-4:
                    fail(f"position {pos}, {c['name']}: {c['value']} vs {want}")
    print(f"lens_reference: {len(got['dla'])} positions, {len(got['logit_lens'])} lens rows, "
          f"{len(got['dla'][0]['components'])} parts each agree")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
