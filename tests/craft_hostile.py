"""Crafted hostile inputs of round three (issue 41), written into OUT_DIR by tst_hostile:
made here rather than checked in, so each stays readable and small in the repository.

    craft_hostile.py GOLDEN_DIR OUT_DIR

long_layer_key.pt   the course's 2021 state_dict plus a key "transformer.layers.<300,000
                    digits>.x" (a std::regex recursed once per digit and crashed the import)
stoll_layer_key.pt  the same with 40 digits (the message was just "stoll")
escape_keys.json    a vocabulary whose word_to_idx key holds ESC ] 0 ; ... BEL and a CR (a
                    terminal title change and a line overwrite, quoted in the error)
escape_words.json   a vocabulary of the right size whose words are terminal escapes (printed in
                    every caption of the imported model)
h5_external_storage.h5  "features" whose values HDF5 reads from secret.bin, another file
h5_external_link.h5     "features" an external link into h5_external_storage.h5
h5_fifo_link.h5         "features" an external link to fifo.h5, a FIFO nobody writes to
h5_soft_link.h5         "features" a soft link to a real dataset
h5_many_links.h5        300 small datasets before "features" (the probe used to stop at 1,000
                        names, and what came after was read unprobed)
h5_declared_rows.h5     "features" declaring 2^26 rows of which none is stored
h5_zero_width.h5        "features" of 3 rows of width 0 (the probe divided by the width)
h5_sparse_rows.h5       "features" of 2^24 float64 rows of width 13, only row 0 written: 1.7 GB
                        declared, a sparse file of a few KB on disk (caption --features --row 0
                        held every declared row in memory: 0.9 GB; 2^25 rows: 1.9 GB)
many_captions/          a course folder whose val image 0 has 200 captions (one read each)
suite/many/scene.json   a robustness suite scene whose truth names 20 objects (judging tried all
                        20! pairings of mentions with objects)
text_chunk.png          a 2x2 PNG with a 2 MiB tEXt chunk (200 MB of them cost 1 GB)
many_scans.jpg          a JPEG of 200 scans (10,000 took 30 s to decode)
long_urls/              a course folder whose val2014_urls.txt is 30 MiB of newlines (a vector
                        of 30 million strings: 2.4 GB for 64 MiB)
"""
import json
import os
import sys

import h5py
import numpy as np
import torch

golden, out = sys.argv[1], sys.argv[2]
sd = torch.load(f"{golden}/course_2021.pt")

for name, digits in (("long_layer_key", 300_000), ("stoll_layer_key", 40)):
    crafted = type(sd)(sd)
    crafted["transformer.layers." + "9" * digits + ".x"] = torch.zeros(1)
    torch.save(crafted, f"{out}/{name}.pt")

words = json.load(open(f"{golden}/tiny_vocab.json"))["idx_to_word"]
evil = "\x1b]0;owned\x07\rfile accepted"
with open(f"{out}/escape_keys.json", "w") as f:
    json.dump({"idx_to_word": words, "word_to_idx": {evil: "x"}}, f)

escaped = words[:4] + [f"\x1b[2J\x1b]0;w{i}\x07" for i in range(4, len(words))]
with open(f"{out}/escape_words.json", "w") as f:
    json.dump({"idx_to_word": escaped, "word_to_idx": {w: i for i, w in enumerate(escaped)}}, f)

with open(f"{out}/secret.bin", "wb") as f:
    f.write(b"the teacher's private notes".ljust(120, b"."))
with h5py.File(f"{out}/h5_external_storage.h5", "w") as f:
    f.create_dataset("features", shape=(3, 10), dtype="f4",
                     external=[(f"{out}/secret.bin", 0, 120)])
with h5py.File(f"{out}/h5_external_link.h5", "w") as f:
    f["features"] = h5py.ExternalLink(f"{out}/h5_external_storage.h5", "features")
if not os.path.exists(f"{out}/fifo.h5"):
    os.mkfifo(f"{out}/fifo.h5")
with h5py.File(f"{out}/h5_fifo_link.h5", "w") as f:
    f["features"] = h5py.ExternalLink(f"{out}/fifo.h5", "features")
with h5py.File(f"{out}/h5_soft_link.h5", "w") as f:
    f["real"] = np.zeros((3, 10), dtype="f4")
    f["features"] = h5py.SoftLink("/real")
with h5py.File(f"{out}/h5_many_links.h5", "w") as f:
    for i in range(300):
        f[f"d{i:03d}"] = np.zeros(1, dtype="f4")
    f["features"] = np.zeros((3, 10), dtype="f4")
with h5py.File(f"{out}/h5_declared_rows.h5", "w") as f:
    f.create_dataset("features", shape=(1 << 26, 10), dtype="f4", chunks=(1024, 10))
with h5py.File(f"{out}/h5_zero_width.h5", "w") as f:
    f.create_dataset("features", shape=(3, 0), dtype="f4")
with h5py.File(f"{out}/h5_sparse_rows.h5", "w") as f:
    f.create_dataset("features", shape=(1 << 24, 13), dtype="f8")[0] = np.ones(13)


def course_folder(name, val_captions, urls):
    root = f"{out}/{name}"
    os.makedirs(root, exist_ok=True)
    with h5py.File(f"{root}/coco2014_captions.h5", "w") as f:
        f["train_captions"] = np.ones((2, 17), dtype="i4")
        f["train_image_idxs"] = np.arange(2, dtype="i4")
        f["val_captions"] = np.ones((val_captions, 17), dtype="i4")
        f["val_image_idxs"] = np.zeros(val_captions, dtype="i4")
    for split in ("train", "val"):
        with h5py.File(f"{root}/{split}2014_vgg16_fc7_pca.h5", "w") as f:
            f["features"] = np.full((2, 10), 0.5, dtype="f4")
    with open(f"{root}/val2014_urls.txt", "wb") as f:
        f.write(urls)


course_folder("many_captions", 200, b"http://images.cocodataset.org/val2014/x.jpg\n")
course_folder("long_urls", 5, b"\n" * (30 << 20))

os.makedirs(f"{out}/suite/many", exist_ok=True)
from PIL import Image  # noqa: E402

Image.new("RGB", (64, 64), (40, 120, 200)).save(f"{out}/suite/many/scene.png")
with open(f"{out}/suite/many/scene.json", "w") as f:
    json.dump({"objects": [{"colour": "red", "shape": "circle"}] * 20}, f)

import struct  # noqa: E402
import zlib  # noqa: E402


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


with open(f"{out}/text_chunk.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Comment\0" + b"x" * (2 << 20))
            + chunk(b"IDAT", zlib.compress(b"\0" + b"\x80" * 6 + b"\0" + b"\x80" * 6))
            + chunk(b"IEND", b""))
# A real baseline JPEG, then its scan repeated: the marker walk counts every start of scan.
Image.new("RGB", (16, 16), (200, 30, 30)).save(f"{out}/base.jpg", quality=90)
jpeg = open(f"{out}/base.jpg", "rb").read()
sos = jpeg.index(b"\xff\xda")
with open(f"{out}/many_scans.jpg", "wb") as f:
    f.write(jpeg[:sos] + jpeg[sos:-2] * 200 + b"\xff\xd9")
