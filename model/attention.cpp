#include "attention.h"

#include <cmath>

namespace cl {

MultiHeadAttentionImpl::MultiHeadAttentionImpl(int64_t embedDim, int64_t numHeads, double dropout)
    : m_heads(numHeads), m_headDim(embedDim / numHeads) {
    TORCH_CHECK(embedDim % numHeads == 0, "head count ", numHeads, " does not divide width ",
                embedDim);
    // Registration order follows the seed (key, query, value, proj) for identical initialisation.
    key = register_module("key", torch::nn::Linear(embedDim, embedDim));
    query = register_module("query", torch::nn::Linear(embedDim, embedDim));
    value = register_module("value", torch::nn::Linear(embedDim, embedDim));
    proj = register_module("proj", torch::nn::Linear(embedDim, embedDim));
    attn_drop = register_module("attn_drop", torch::nn::Dropout(dropout));
}

torch::Tensor MultiHeadAttentionImpl::splitHeads(const torch::Tensor& x) const {
    const auto n = x.size(0), t = x.size(1);
    return x.view({n, t, m_heads, m_headDim}).transpose(1, 2); // (N, H, T, hs)
}

torch::Tensor MultiHeadAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                             const torch::Tensor& v, const torch::Tensor& mask,
                                             torch::Tensor* weights) {
    // q (N, H, S, hs), k/v (N, H, T, hs)
    auto scores = torch::matmul(q, k.transpose(-2, -1)); // (N, H, S, T)
    if (mask.defined())
        scores = scores.masked_fill(mask == 0, -INFINITY);
    scores = scores / std::sqrt(static_cast<double>(m_headDim));
    auto attn = torch::softmax(scores, -1);
    if (weights)
        *weights = attn;
    attn = attn_drop(attn);
    auto out = torch::matmul(attn, v); // (N, H, S, hs)
    if (m_headKeep.defined())
        out = out * m_headKeep.view({1, m_heads, 1, 1});
    const auto n = out.size(0), s = out.size(2);
    return proj(out.transpose(1, 2).reshape({n, s, m_heads * m_headDim})); // (N, S, E)
}

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& q, const torch::Tensor& k,
                                              const torch::Tensor& v, const torch::Tensor& mask,
                                              torch::Tensor* weights) {
    return attend(splitHeads(query(q)), splitHeads(key(k)), splitHeads(value(v)), mask, weights);
}

KVCache MultiHeadAttentionImpl::project(const torch::Tensor& k, const torch::Tensor& v) {
    KVCache cache;
    cache.k = splitHeads(key(k));
    cache.v = splitHeads(value(v));
    cache.length = cache.k.size(2);
    return cache;
}

torch::Tensor MultiHeadAttentionImpl::stepSelf(const torch::Tensor& x, KVCache& cache,
                                               torch::Tensor* weights) {
    TORCH_CHECK(cache.length < cache.k.size(2), "decode cache is full (", cache.length, ")");
    cache.k.narrow(2, cache.length, 1).copy_(splitHeads(key(x)));
    cache.v.narrow(2, cache.length, 1).copy_(splitHeads(value(x)));
    ++cache.length;
    const auto k = cache.k.narrow(2, 0, cache.length);
    const auto v = cache.v.narrow(2, 0, cache.length);
    return attend(splitHeads(query(x)), k, v, {}, weights);
}

torch::Tensor MultiHeadAttentionImpl::attendCached(const torch::Tensor& x, const KVCache& cache,
                                                   torch::Tensor* weights) {
    return attend(splitHeads(query(x)), cache.k, cache.v, {}, weights);
}

} // namespace cl
