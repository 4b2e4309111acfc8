#include "model/nn/decoder_layer.h"

#include "model/nn/linear_rows.h"

namespace cl {

FeedForwardImpl::FeedForwardImpl(int64_t width, int64_t hidden) {
    fc1 = register_module("fc1", torch::nn::Linear(width, hidden));
    fc2 = register_module("fc2", torch::nn::Linear(hidden, width));
}

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(const ModelConfig& c)
    : m_gelu(c.layout == Layout::Course2025) {
    const auto w = c.wordvecDim;
    const bool course2021 = c.layout == Layout::Course2021;
    self_attn = register_module("self_attn", MultiHeadAttention(w, c.numHeads, c.dropout));
    cross_attn = register_module(course2021 ? "multihead_attn" : "cross_attn",
                                 MultiHeadAttention(w, c.numHeads, c.dropout));
    if (course2021) {
        m_fc1 = register_module("linear1", torch::nn::Linear(w, c.ffnDim));
        m_fc2 = register_module("linear2", torch::nn::Linear(c.ffnDim, w));
    } else {
        auto ffn = register_module("ffn", FeedForward(w, c.ffnDim));
        m_fc1 = ffn->fc1;
        m_fc2 = ffn->fc2;
    }
    auto norm = [w] { return torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})); };
    norm_self = register_module(course2021 ? "norm1" : "norm_self", norm());
    norm_cross = register_module(course2021 ? "norm2" : "norm_cross", norm());
    norm_ffn = register_module(course2021 ? "norm3" : "norm_ffn", norm());
    m_dropSelf = register_module("dropout1", torch::nn::Dropout(c.dropout));
    m_dropCross = register_module("dropout2", torch::nn::Dropout(c.dropout));
    m_dropFfn = register_module("dropout3", torch::nn::Dropout(c.dropout));
    m_dropHidden = register_module("dropout", torch::nn::Dropout(c.dropout));
}

torch::Tensor TransformerDecoderLayerImpl::feedForward(const torch::Tensor& x) {
    auto h = m_fc1(x);
    h = m_gelu ? torch::gelu(h) : torch::relu(h);
    return m_fc2(m_dropHidden(h));
}

template <typename Cross>
torch::Tensor TransformerDecoderLayerImpl::forwardWith(const torch::Tensor& x,
                                                       const torch::Tensor& mask,
                                                       LayerAttention* weights,
                                                       const Cross& cross) {
    auto h =
        norm_self(x + m_dropSelf(self_attn(x, x, x, mask, weights ? &weights->self : nullptr)));
    h = norm_cross(h + m_dropCross(cross(h, weights ? &weights->cross : nullptr)));
    return norm_ffn(h + m_dropFfn(feedForward(h)));
}

torch::Tensor TransformerDecoderLayerImpl::forward(const torch::Tensor& x,
                                                   const torch::Tensor& memory,
                                                   const torch::Tensor& mask,
                                                   LayerAttention* weights) {
    return forwardWith(x, mask, weights, [&](const torch::Tensor& h, torch::Tensor* w) {
        return cross_attn(h, memory, memory, torch::Tensor(), w);
    });
}

torch::Tensor TransformerDecoderLayerImpl::forward(const torch::Tensor& x, const KVCache& memory,
                                                   const torch::Tensor& mask,
                                                   LayerAttention* weights) {
    return forwardWith(x, mask, weights, [&](const torch::Tensor& h, torch::Tensor* w) {
        return cross_attn->attendCached(h, memory, w);
    });
}

torch::Tensor TransformerDecoderLayerImpl::step(const torch::Tensor& x, KVCache& selfCache,
                                                const KVCache& crossCache,
                                                LayerAttention* weights) {
    // Decoding runs in eval mode, where every dropout is the identity: skipping the calls keeps
    // a step to the few ATen calls that do work (what batch-1 decoding costs).
    const bool train = is_training();
    auto drop = [train](torch::nn::Dropout& d, const torch::Tensor& t) { return train ? d(t) : t; };
    auto h =
        norm_self(x + drop(m_dropSelf,
                           self_attn->stepSelf(x, selfCache, weights ? &weights->self : nullptr)));
    h = norm_cross(h + drop(m_dropCross, cross_attn->attendCached(
                                             h, crossCache, weights ? &weights->cross : nullptr)));
    auto f = linearRows(h, m_fc1);
    f = m_gelu ? torch::gelu(f) : torch::relu_(f);
    return norm_ffn(h + drop(m_dropFfn, linearRows(drop(m_dropHidden, f), m_fc2)));
}

TransformerDecoderImpl::TransformerDecoderImpl(const ModelConfig& config) {
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < config.numLayers; ++i)
        layers->push_back(TransformerDecoderLayer(config));
}

torch::Tensor TransformerDecoderImpl::forward(const torch::Tensor& tgt, const torch::Tensor& memory,
                                              const torch::Tensor& mask,
                                              std::vector<LayerAttention>* weights) {
    if (weights)
        weights->assign(layers->size(), {});
    auto x = tgt;
    for (size_t i = 0; i < layers->size(); ++i)
        x = layers->ptr<TransformerDecoderLayerImpl>(i)->forward(
            x, memory, mask, weights ? &(*weights)[i] : nullptr);
    return x;
}

torch::Tensor TransformerDecoderImpl::forward(const torch::Tensor& tgt,
                                              const std::vector<KVCache>& memory,
                                              const torch::Tensor& mask,
                                              std::vector<LayerAttention>* weights) {
    TORCH_CHECK(memory.size() == layers->size(), "one memory cache per layer");
    if (weights)
        weights->assign(layers->size(), {});
    auto x = tgt;
    for (size_t i = 0; i < layers->size(); ++i)
        x = layers->ptr<TransformerDecoderLayerImpl>(i)->forward(
            x, memory[i], mask, weights ? &(*weights)[i] : nullptr);
    return x;
}

} // namespace cl
