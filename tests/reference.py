#!/usr/bin/python3
"""Reference implementation of the seed's CaptioningTransformer (CS231n assignment 3), in PyTorch,
and the generator of the small goldens the C++ tests compare against (tolerance 1e-5).

The classes follow ../shared/seeds/000_*.txt line for line (MultiHeadAttention, PositionalEncoding,
CaptioningTransformer.forward/sample); the decoder layer follows the course file for the 2021
layout and REFERENCE.md for the 2025 one. The only addition: attention modules remember their
softmax weights so the C++ weights can be checked too.

Regenerate: /usr/bin/python3 tests/reference.py tests/golden
"""
import json
import math
import os
import sys
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.key = nn.Linear(embed_dim, embed_dim)
        self.query = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.proj = nn.Linear(embed_dim, embed_dim)
        self.attn_drop = nn.Dropout(dropout)
        self.n_head = num_heads
        self.emd_dim = embed_dim
        self.head_dim = self.emd_dim // self.n_head
        self.last_weights = None

    def forward(self, query, key, value, attn_mask=None):
        N, S, E = query.shape
        N, T, E = value.shape
        q = self.query(query).view(N, S, self.n_head, E // self.n_head).transpose(1, 2)
        k = self.key(key).view(N, T, self.n_head, E // self.n_head).transpose(1, 2)
        v = self.value(value).view(N, T, self.n_head, E // self.n_head).transpose(1, 2)
        product = torch.matmul(q, k.transpose(2, 3))
        if attn_mask is not None:
            product = product.masked_fill(attn_mask == 0, -float('inf'))
        product = product / math.sqrt(E // self.n_head)
        scores = F.softmax(product, dim=-1)
        self.last_weights = scores.detach()
        scores = self.attn_drop(scores)
        scores = torch.matmul(scores, v)
        concat = scores.transpose(1, 2).reshape(N, S, -1)
        return self.proj(concat)


class PositionalEncoding(nn.Module):
    def __init__(self, embed_dim, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        assert embed_dim % 2 == 0
        pe = torch.zeros(1, max_len, embed_dim)
        pos = torch.arange(0, max_len).reshape(-1, 1)
        t = torch.pow(torch.tensor([1e-4]), torch.arange(0, embed_dim, 2) / embed_dim)
        pe[:, :, ::2] = torch.sin(pos * t)
        pe[:, :, 1::2] = torch.cos(pos * t)
        self.register_buffer('pe', pe)

    def forward(self, x):
        N, S, D = x.shape
        return self.dropout(x + self.pe[:, :S, :])


class TransformerDecoderLayer2021(nn.Module):
    def __init__(self, input_dim, num_heads, dim_feedforward=2048, dropout=0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(input_dim, num_heads, dropout)
        self.multihead_attn = MultiHeadAttention(input_dim, num_heads, dropout)
        self.linear1 = nn.Linear(input_dim, dim_feedforward)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(dim_feedforward, input_dim)
        self.norm1 = nn.LayerNorm(input_dim)
        self.norm2 = nn.LayerNorm(input_dim)
        self.norm3 = nn.LayerNorm(input_dim)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.dropout3 = nn.Dropout(dropout)
        self.activation = nn.ReLU()

    def forward(self, tgt, memory, tgt_mask=None):
        tgt2 = self.self_attn(query=tgt, key=tgt, value=tgt, attn_mask=tgt_mask)
        tgt = self.norm1(tgt + self.dropout1(tgt2))
        tgt2 = self.multihead_attn(query=tgt, key=memory, value=memory)
        tgt = self.norm2(tgt + self.dropout2(tgt2))
        tgt2 = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        return self.norm3(tgt + self.dropout3(tgt2))


class FeedForward2025(nn.Module):
    def __init__(self, dim, hidden, dropout):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.gelu = nn.GELU()
        self.dropout = nn.Dropout(dropout)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.dropout(self.gelu(self.fc1(x))))


class TransformerDecoderLayer2025(nn.Module):
    def __init__(self, input_dim, num_heads, dim_feedforward=2048, dropout=0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(input_dim, num_heads, dropout)
        self.cross_attn = MultiHeadAttention(input_dim, num_heads, dropout)
        self.ffn = FeedForward2025(input_dim, dim_feedforward, dropout)
        self.norm_self = nn.LayerNorm(input_dim)
        self.norm_cross = nn.LayerNorm(input_dim)
        self.norm_ffn = nn.LayerNorm(input_dim)
        self.dropout_self = nn.Dropout(dropout)
        self.dropout_cross = nn.Dropout(dropout)
        self.dropout_ffn = nn.Dropout(dropout)

    def forward(self, tgt, memory, tgt_mask=None):
        tgt = self.norm_self(tgt + self.dropout_self(self.self_attn(tgt, tgt, tgt, tgt_mask)))
        tgt = self.norm_cross(tgt + self.dropout_cross(self.cross_attn(tgt, memory, memory)))
        return self.norm_ffn(tgt + self.dropout_ffn(self.ffn(tgt)))


class TransformerDecoder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList(layers)

    def forward(self, tgt, memory, tgt_mask=None):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask)
        return output


class CaptioningTransformer(nn.Module):
    def __init__(self, word_to_idx, input_dim, wordvec_dim, num_heads=4, num_layers=2,
                 max_length=50, layout="2021", ffn_dim=2048):
        super().__init__()
        vocab_size = len(word_to_idx)
        self.vocab_size = vocab_size
        self._null = word_to_idx["<NULL>"]
        self._start = word_to_idx.get("<START>", None)
        self._end = word_to_idx.get("<END>", None)
        self.visual_projection = nn.Linear(input_dim, wordvec_dim)
        self.embedding = nn.Embedding(vocab_size, wordvec_dim, padding_idx=self._null)
        self.positional_encoding = PositionalEncoding(wordvec_dim, max_len=max_length)
        layer = TransformerDecoderLayer2021 if layout == "2021" else TransformerDecoderLayer2025
        self.transformer = TransformerDecoder(
            [layer(wordvec_dim, num_heads, ffn_dim) for _ in range(num_layers)])
        self.output = nn.Linear(wordvec_dim, vocab_size)

    def memory(self, features):
        projected = self.visual_projection(features)
        return projected.unsqueeze(1) if projected.dim() == 2 else projected

    def forward(self, features, captions):
        N, T = captions.shape
        caption_embeddings = self.positional_encoding(self.embedding(captions))
        projected_features = self.memory(features)
        tgt_mask = torch.tril(torch.ones(T, T, device=caption_embeddings.device,
                                         dtype=caption_embeddings.dtype))
        features = self.transformer(tgt=caption_embeddings, memory=projected_features,
                                    tgt_mask=tgt_mask)
        return self.output(features)

    def sample(self, features, max_length=30):
        with torch.no_grad():
            features = torch.Tensor(features)
            N = features.shape[0]
            captions = self._null * np.ones((N, max_length), dtype=np.int32)
            partial_caption = torch.LongTensor(self._start * np.ones(N, dtype=np.int32)).unsqueeze(1)
            for t in range(max_length):
                output_logits = self.forward(features, partial_caption)[:, -1, :]
                word = torch.argmax(output_logits, axis=1)
                captions[:, t] = word.numpy()
                partial_caption = torch.cat([partial_caption, word.unsqueeze(1)], dim=1)
            return captions


WORDS = ["<NULL>", "<START>", "<END>", "<UNK>", "a", "red", "blue", "circle", "square",
         "left", "of", "right"]
CONFIG = dict(input_dim=10, wordvec_dim=16, num_heads=2, num_layers=2, max_length=12, ffn_dim=32)


def tiny_model(layout):
    torch.manual_seed(3 if layout == "2021" else 5)  # seeds whose greedy decodes vary
    word_to_idx = {w: i for i, w in enumerate(WORDS)}
    model = CaptioningTransformer(word_to_idx, layout=layout, **CONFIG)
    with torch.no_grad():  # large random weights so every path matters numerically
        for name, p in model.named_parameters():
            if p.dim() == 2:
                p.normal_(0.0, 1.5 / math.sqrt(p.shape[1]))
            else:
                p.normal_(1.0 if "norm" in name and name.endswith("weight") else 0.0, 0.3)
        # A quiet image path, so the words (not the single memory token) drive each step.
        model.visual_projection.weight.mul_(0.1)
        model.visual_projection.bias.mul_(0.1)
    return model.eval()


def attention_weights(model):
    out = []
    for layer in model.transformer.layers:
        cross = layer.multihead_attn if hasattr(layer, "multihead_attn") else layer.cross_attn
        out.append((layer.self_attn.last_weights, cross.last_weights))
    return out


def golden(layout, outdir):
    model = tiny_model(layout)
    g = torch.Generator().manual_seed(7)
    features = torch.randn(3, CONFIG["input_dim"], generator=g)
    captions = torch.tensor([[1, 4, 5, 7, 9, 10], [1, 4, 6, 8, 2, 0], [1, 0, 0, 3, 11, 2]])
    with torch.no_grad():
        scores = model(features, captions)
        weights = attention_weights(model)
        x = torch.randn(3, 6, CONFIG["wordvec_dim"], generator=g)
        grid = torch.randn(3, 9, CONFIG["wordvec_dim"], generator=g)  # an (N, M, W) memory
        mask = torch.tril(torch.ones(6, 6))
        layer0 = model.transformer.layers[0]
        layer_out = layer0(x, grid, tgt_mask=mask)
    tokens = torch.from_numpy(model.sample(features, max_length=10).astype(np.int64))
    out = OrderedDict()
    out["features"] = features
    out["captions"] = captions
    out["scores"] = scores
    for i, (s, c) in enumerate(weights):
        out[f"self_weights.{i}"] = s
        out[f"cross_weights.{i}"] = c
    out["layer_x"] = x
    out["layer_memory"] = grid
    out["layer_out"] = layer_out
    out["sample_tokens"] = tokens
    torch.save(out, os.path.join(outdir, f"golden_{layout}.pt"))
    # What students have: a bare state_dict (an OrderedDict with _metadata).
    torch.save(model.state_dict(), os.path.join(outdir, f"course_{layout}.pt"))


def golden_mha(outdir):
    torch.manual_seed(99)
    mha = MultiHeadAttention(16, 4).eval()
    g = torch.Generator().manual_seed(5)
    q = torch.randn(2, 5, 16, generator=g)
    kv = torch.randn(2, 7, 16, generator=g)
    mask = torch.tril(torch.ones(5, 5))
    with torch.no_grad():
        masked = mha(q, q, q, attn_mask=mask)
        masked_w = mha.last_weights
        cross = mha(q, kv, kv)
    out = OrderedDict(mha.state_dict())
    out.update(q=q, kv=kv, masked=masked, masked_weights=masked_w, cross=cross,
               pe=PositionalEncoding(16, max_len=12).pe)
    torch.save(out, os.path.join(outdir, "golden_mha.pt"))


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    golden_mha(outdir)
    for layout in ("2021", "2025"):
        golden(layout, outdir)
    order = list(range(len(WORDS)))[::-1]  # word_to_idx deliberately not in index order
    vocab = {"idx_to_word": WORDS, "word_to_idx": {WORDS[i]: i for i in order}}
    with open(os.path.join(outdir, "tiny_vocab.json"), "w") as f:
        json.dump(vocab, f)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "golden"))
