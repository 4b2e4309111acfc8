#!/usr/bin/python3
"""Writes a small course-shaped data folder (coco_captioning/ as the course's download script
leaves it, in its own file formats) and a course model trained on it, then scores that model on
the val split independently of CaptionLens: the seed's greedy sample(), the course's BLEU
(sentence BLEU-1 against all of an image's references, corpus BLEU-4) written here without nltk,
exact match, and the teacher-forced loss. Prints the figures as JSON.

usage: course_data.py OUTDIR [STEPS [HEADS [SEED]]]
       course_data.py --heads-models OUTDIR STEPS HEADS...
  OUTDIR/coco_captioning/{coco2014_captions.h5, coco2014_vocab.json,
                          {train,val}2014_vgg16_fc7_pca.h5 (16-d), {train,val}2014_vgg16_fc7.h5
                          (48-d), {train,val}2014_urls.txt}
  OUTDIR/course_model.pt   torch.save(model.state_dict()) after STEPS steps (default 300) of a
                           model with HEADS heads (default 2), weights seeded by SEED (0)
  --heads-models: a folder of the same images with one caption each ("a big red ball on grass":
                  no coin toss in it, so a model read with the wrong head count shows in its
                  loss), and with STEPS > 0 OUTDIR/course_model_hN.pt (one layer, float16)
                  trained on it for each head count N (the known answers of import-cs231n --heads auto; tests/golden holds
                  them); prints each one's val loss
"""
import json
import math
import os
import sys
from collections import Counter

import h5py
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import CaptioningTransformer  # noqa: E402

WORDS = ["<NULL>", "<START>", "<END>", "<UNK>", "a", "the", "big", "small", "red", "blue",
         "green", "yellow", "ball", "cube", "cone", "on", "grass", "sand"]
W2I = {w: i for i, w in enumerate(WORDS)}
COLOURS, OBJECTS, SIZES, PLACES = WORDS[8:12], WORDS[12:15], WORDS[6:8], WORDS[16:18]
LENGTH = 17  # the course's caption rows
PCA_DIM, FULL_DIM = 16, 48


def image(rng):
    return dict(colour=rng.integers(4), obj=rng.integers(3), size=rng.integers(2),
                place=rng.integers(2))


def features(img, rng, dim):
    f = rng.normal(0, 0.1, dim).astype(np.float32)
    f[img["colour"]] += 1.0
    f[4 + img["obj"]] += 1.0
    f[7 + img["size"]] += 1.0
    f[9 + img["place"]] += 1.0
    return f


def captions(img, rng, varied=True):
    c, o = COLOURS[img["colour"]], OBJECTS[img["obj"]]
    s, p = SIZES[img["size"]], PLACES[img["place"]]
    templates = [["a", s, c, o], ["the", c, o, "on", p], ["a", c, o], ["a", s, c, o, "on", p]]
    if not varied:  # one caption, said twice: what follows is never a coin toss
        ids = [W2I[w] for w in ["<START>"] + templates[3] + ["<END>"]]
        return [ids + [W2I["<NULL>"]] * (LENGTH - len(ids))] * 2
    out = []
    for t in rng.permutation(len(templates))[: rng.integers(2, 5)]:
        words = list(templates[t])
        if rng.random() < 0.1:
            words[-1] = "<UNK>"
        ids = [W2I["<START>"]] + [W2I[w] for w in words] + [W2I["<END>"]]
        out.append(ids + [W2I["<NULL>"]] * (LENGTH - len(ids)))
    return out


def split(rng, n, varied=True):
    imgs = [image(rng) for _ in range(n)]
    caps, idxs = [], []
    for i, img in enumerate(imgs):
        for c in captions(img, rng, varied):
            caps.append(c)
            idxs.append(i)
    order = rng.permutation(len(caps))  # the course's files are not grouped by image
    return (imgs, np.array(caps, dtype=np.int32)[order], np.array(idxs, dtype=np.int32)[order])


def write_folder(root, rng, varied=True):
    os.makedirs(root, exist_ok=True)
    data = {}
    with h5py.File(os.path.join(root, "coco2014_captions.h5"), "w") as h:
        for name, n in (("train", 240), ("val", 60)):
            imgs, caps, idxs = split(rng, n, varied)
            h[f"{name}_captions"] = caps
            h[f"{name}_image_idxs"] = idxs
            pca = np.stack([features(i, rng, PCA_DIM) for i in imgs])
            full = np.concatenate([pca, rng.normal(0, 0.1, (n, FULL_DIM - PCA_DIM))], 1)
            with h5py.File(os.path.join(root, f"{name}2014_vgg16_fc7_pca.h5"), "w") as f:
                f["features"] = pca.astype(np.float32)
            with h5py.File(os.path.join(root, f"{name}2014_vgg16_fc7.h5"), "w") as f:
                f["features"] = full.astype(np.float32)
            with open(os.path.join(root, f"{name}2014_urls.txt"), "w") as f:
                f.writelines(f"http://127.0.0.1:1/{name}/{i}.jpg\n" for i in range(n))
            data[name] = (pca.astype(np.float32), caps.astype(np.int64), idxs.astype(np.int64))
    with open(os.path.join(root, "coco2014_vocab.json"), "w") as f:
        json.dump({"idx_to_word": WORDS, "word_to_idx": W2I}, f)
    return data


def train(data, steps, heads=2, seed=0, layers=2):
    torch.manual_seed(seed)
    model = CaptioningTransformer(W2I, input_dim=PCA_DIM, wordvec_dim=32, num_heads=heads,
                                  num_layers=layers, max_length=30, ffn_dim=64)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    feats, caps, idxs = data["train"]
    rng = np.random.default_rng(1)
    model.train()
    for _ in range(steps):
        b = rng.integers(0, len(caps), 32)
        x, c = torch.from_numpy(feats[idxs[b]]), torch.from_numpy(caps[b])
        scores = model(x, c[:, :-1])
        loss = F.cross_entropy(scores.reshape(-1, len(WORDS)), c[:, 1:].reshape(-1),
                               ignore_index=W2I["<NULL>"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.eval()


def scored(ids, dropped=(W2I["<START>"], W2I["<NULL>"], W2I["<UNK>"])):
    """The words BLEU counts: <UNK> dropped, as the course's BLEU_score drops it."""
    out = []
    for i in ids:
        if i == W2I["<END>"]:
            break
        if i not in dropped:
            out.append(int(i))
    return out


def said(ids):
    """The words as the model said them (<UNK> kept): what exact match compares."""
    return scored(ids, (W2I["<START>"], W2I["<NULL>"]))


def ngrams(words, n):
    return Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def clipped(hyp, refs, n):
    most = Counter()
    for r in refs:
        for g, c in ngrams(r, n).items():
            most[g] = max(most[g], c)
    return sum(min(c, most[g]) for g, c in ngrams(hyp, n).items())


def closest(hyp_len, refs):
    return min((abs(len(r) - hyp_len), len(r)) for r in refs)[1]


def brevity(c, r):
    return 0.0 if c == 0 else (1.0 if c > r else math.exp(1 - r / c))


def evaluate(model, data):
    feats, caps, idxs = data["val"]
    images = sorted(set(idxs.tolist()))
    sampled = model.sample(feats[images], max_length=30)
    bleu1, exact, unk_blind, m, t, c_len, r_len = [], 0, 0, [0] * 4, [0] * 4, 0, 0
    captions_out = {}
    for k, img in enumerate(images):
        refs = [scored(caps[j]) for j in np.flatnonzero(idxs == img)]
        hyp = scored(sampled[k])
        captions_out[str(img)] = " ".join(WORDS[i] for i in hyp)
        bleu1.append(brevity(len(hyp), closest(len(hyp), refs)) * clipped(hyp, refs, 1) / len(hyp)
                     if hyp else 0.0)
        exact += said(sampled[k]) in [said(caps[j]) for j in np.flatnonzero(idxs == img)]
        unk_blind += hyp in refs
        for n in range(1, 5):
            m[n - 1] += clipped(hyp, refs, n)
            t[n - 1] += max(0, len(hyp) - n + 1)
        c_len += len(hyp)
        r_len += closest(len(hyp), refs)
    bleu4 = 0.0 if min(m) == 0 else brevity(c_len, r_len) * math.exp(
        sum(0.25 * math.log(m[n] / t[n]) for n in range(4)))
    with torch.no_grad():
        chosen = np.isin(idxs, images)
        c = torch.from_numpy(caps[chosen])
        scores = model(torch.from_numpy(feats[idxs[chosen]]), c[:, :-1])
        loss = F.cross_entropy(scores.reshape(-1, len(WORDS)), c[:, 1:].reshape(-1),
                               ignore_index=W2I["<NULL>"], reduction="sum")
        tokens = int((c[:, 1:] != W2I["<NULL>"]).sum())
    return {"images": len(images), "bleu1": float(np.mean(bleu1)), "bleu4": bleu4,
            "exact": exact / len(images), "exact_unk_blind": unk_blind / len(images),
            "loss": float(loss) / tokens, "loss_tokens": tokens,
            "captions": captions_out}


def main(outdir, steps, heads, seed):
    rng = np.random.default_rng(7)
    data = write_folder(os.path.join(outdir, "coco_captioning"), rng)
    model = train(data, steps, heads, seed)
    torch.save(model.state_dict(), os.path.join(outdir, "course_model.pt"))
    print(json.dumps(evaluate(model, data)))


def heads_models(outdir, steps, counts):
    rng = np.random.default_rng(7)
    data = write_folder(os.path.join(outdir, "coco_captioning"), rng, varied=False)
    losses = {}
    for heads in counts if steps > 0 else []:
        model = train(data, steps, heads, seed=heads, layers=1)
        # One layer, stored in half precision (as some students save): small files to keep.
        half = {k: v.half() for k, v in model.state_dict().items()}
        torch.save(half, os.path.join(outdir, f"course_model_h{heads}.pt"))
        losses[heads] = evaluate(model, data)["loss"]
    print(json.dumps(losses))


if __name__ == "__main__":
    if sys.argv[1] == "--heads-models":
        heads_models(sys.argv[2], int(sys.argv[3]), [int(a) for a in sys.argv[4:]])
        sys.exit(0)
    args = [int(a) for a in sys.argv[2:]]
    main(sys.argv[1], *(args + [300, 2, 0][len(args):]))
