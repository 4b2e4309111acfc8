#include "model/explain/head_outputs.h"

#include <cmath>

namespace cl::explain {

torch::Tensor headOutputs(MultiHeadAttentionImpl& attn, const torch::Tensor& x,
                          const torch::Tensor& kv, const torch::Tensor& mask) {
    const int64_t n = x.size(0), t = x.size(1), m = kv.size(1), w = x.size(2);
    const int64_t h = attn.numHeads(), hs = w / h;
    auto split = [&](const torch::Tensor& y, int64_t len) {
        return y.view({n, len, h, hs}).permute({0, 2, 1, 3});
    };
    const auto q = split(attn.query(x), t), k = split(attn.key(kv), m), v = split(attn.value(kv), m);
    auto scores = torch::matmul(q, k.transpose(-2, -1));
    if (mask.defined())
        scores = scores.masked_fill(mask == 0, -INFINITY);
    auto out = torch::matmul(torch::softmax(scores / std::sqrt(double(hs)), -1), v);
    if (attn.headMask().defined() && attn.headMask().dim() == 1)
        out = out * attn.headMask().view({1, h, 1, 1});
    const auto blocks = attn.proj->weight.view({w, h, hs}).permute({1, 2, 0}); // (H, hs, W)
    return torch::matmul(out, blocks);
}

} // namespace cl::explain
