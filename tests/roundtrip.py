#!/usr/bin/python3
"""Interop check: a CaptionLens checkpoint written by C++ loads with Python's torch.load, and what
Python writes back (a bare course state_dict, an OrderedDict) loads in C++ again. The file also
loads with weights_only=True: Debian's PyTorch 1.13 restricted unpickler lacks BINFLOAT (opcode
71), so our pickles hold no float, and every global it meets must be one it allows.

usage: roundtrip.py OURS.pt OUT_STATE_DICT.pt    (prints the format tag, heads and key count)
"""
import sys
from collections import OrderedDict

import torch

ck = torch.load(sys.argv[1], weights_only=True)
assert ck["format"] == "captionlens-checkpoint", ck.get("format")
assert isinstance(ck["vocab"], list) and all(isinstance(w, str) for w in ck["vocab"])
sd = OrderedDict((k, v * 2.0) for k, v in ck["state_dict"].items())  # a visible change
torch.save(sd, sys.argv[2])
print(ck["format"], ck["version"], ck["config"]["num_heads"], len(sd), ck["metadata"]["steps"])
