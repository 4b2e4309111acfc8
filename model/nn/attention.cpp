#include "model/nn/attention.h"

#include "model/nn/attention_cpu.h"
#include "model/nn/batched_matmul.h"
#include "model/nn/linear_rows.h"

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
    auto scores = batchedMatmul(q, k.transpose(-2, -1)); // (N, H, S, T)
    if (mask.defined())
        scores = scores.masked_fill(mask == 0, -INFINITY);
    scores = scores / std::sqrt(static_cast<double>(m_headDim));
    auto attn = torch::softmax(scores, -1);
    if (weights)
        *weights = attn;
    attn = attn_drop(attn);
    auto out = batchedMatmul(attn, v); // (N, H, S, hs)
    if (m_headKeep.defined()) // (H) for every row, or (N, H): a mask per row
        out = out * m_headKeep.view({m_headKeep.dim() == 2 ? m_headKeep.size(0) : 1, m_heads, 1, 1});
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
    cache.k = splitHeads(linearRows(k, key));
    cache.v = splitHeads(linearRows(v, value));
    cache.length = cache.k.size(2);
    return cache;
}

KVCache MultiHeadAttentionImpl::selfCache(int64_t batch, int64_t capacity,
                                          const torch::TensorOptions& options) {
    KVCache cache;
    cache.k = torch::zeros({batch, m_heads, capacity, m_headDim}, options);
    cache.v = torch::zeros_like(cache.k);
    std::tie(cache.qkvWeight, cache.qkvBias) = stackedQkv();
    return cache;
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::stackedQkv() const {
    return {torch::cat({query->weight, key->weight, value->weight}, 0),
            torch::cat({query->bias, key->bias, value->bias}, 0)};
}

torch::Tensor MultiHeadAttentionImpl::attendOne(const torch::Tensor& q, const torch::Tensor& k,
                                                const torch::Tensor& v, torch::Tensor* weights) {
    const int64_t n = q.size(0), t = k.size(2), e = m_heads * m_headDim;
    const double scale = 1.0 / std::sqrt(static_cast<double>(m_headDim)); // the seed's
    TORCH_CHECK(!m_headKeep.defined() || m_headKeep.dim() == 1,
                "a per-row head mask applies to forward() only");
    if (attendHeadsCpuApplies(q, k, v)) {
        auto [attn, out] = attendHeadsCpu(q, k, v, m_headKeep, static_cast<float>(scale));
        if (weights)
            *weights = attn.view({n, m_heads, 1, t});
        return linearRows(out.view({n, 1, e}), proj);
    }
    // Elsewhere (a GPU): scores as elementwise products summed over hs; bmm would run each of
    // the N*H one-row products as its own call.
    const auto qh = q.reshape({n * m_heads, 1, m_headDim});
    auto scores = (qh * k.reshape({n * m_heads, t, m_headDim})).sum(-1).mul_(scale);
    auto attn = at::softmax(scores, -1); // (N*H, T)
    if (weights)
        *weights = attn.view({n, m_heads, 1, t});
    auto out = (attn.unsqueeze(-1) * v.reshape({n * m_heads, t, m_headDim})).sum(1); // (N*H, hs)
    if (m_headKeep.defined())
        out = out * m_headKeep.repeat({n}).view({n * m_heads, 1});
    return linearRows(out.view({n, 1, e}), proj);
}

torch::Tensor MultiHeadAttentionImpl::stepSelf(const torch::Tensor& x, KVCache& cache,
                                               torch::Tensor* weights) {
    TORCH_CHECK(cache.length < cache.k.size(2), "decode cache is full (", cache.length, ")");
    const int64_t n = x.size(0), e = m_heads * m_headDim;
    if (is_training() || !cache.qkvWeight.defined()) { // the plain path (dropout on weights)
        cache.k.narrow(2, cache.length, 1).copy_(splitHeads(key(x)));
        cache.v.narrow(2, cache.length, 1).copy_(splitHeads(value(x)));
        ++cache.length;
        const auto k = cache.k.narrow(2, 0, cache.length);
        const auto v = cache.v.narrow(2, 0, cache.length);
        return attend(splitHeads(query(x)), k, v, {}, weights);
    }
    const auto qkv = linearRows(x.view({n, e}), cache.qkvWeight, cache.qkvBias); // (N, 3E)
    cache.k.select(2, cache.length).copy_(qkv.narrow(1, e, e).view({n, m_heads, m_headDim}));
    cache.v.select(2, cache.length).copy_(qkv.narrow(1, 2 * e, e).view({n, m_heads, m_headDim}));
    ++cache.length;
    return attendOne(qkv.narrow(1, 0, e), cache.k.narrow(2, 0, cache.length),
                     cache.v.narrow(2, 0, cache.length), weights);
}

torch::Tensor MultiHeadAttentionImpl::attendCached(const torch::Tensor& x, const KVCache& cache,
                                                   torch::Tensor* weights) {
    // attendOne's loops keep no autograd graph: gradients (Integrated Gradients through given
    // keys and values) take the plain path.
    const bool graph = torch::GradMode::is_enabled() &&
                       (x.requires_grad() || cache.k.requires_grad() || cache.v.requires_grad());
    if (is_training() || x.size(1) != 1 || graph)
        return attend(splitHeads(query(x)), cache.k, cache.v, {}, weights);
    const int64_t n = x.size(0), e = m_heads * m_headDim;
    return attendOne(linearRows(x.view({n, e}), query), cache.k, cache.v, weights);
}

} // namespace cl
