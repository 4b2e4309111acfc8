#pragma once
// The seed's post-norm TransformerDecoderLayer, in either course layout (REFERENCE.md):
//   x = LN1(x + Drop(SelfAttn(x, causal)))
//   x = LN2(x + Drop(CrossAttn(x, memory)))
//   x = LN3(x + Drop(W2 Drop(act(W1 x))))
#include "model/core/config.h"
#include "model/nn/attention.h"

namespace cl {

// The attention weights one layer produced in a forward pass.
struct LayerAttention {
    torch::Tensor self;  // (N, H, S, S)
    torch::Tensor cross; // (N, H, S, M)
};

// The 2025 layout's feed-forward block, registered as "ffn" with "fc1" and "fc2".
class FeedForwardImpl : public torch::nn::Module {
  public:
    FeedForwardImpl(int64_t width, int64_t hidden);
    torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(FeedForward);

class TransformerDecoderLayerImpl : public torch::nn::Module {
  public:
    explicit TransformerDecoderLayerImpl(const ModelConfig& config);

    // x (N, S, W), memory (N, M, W), mask (S, S) -> (N, S, W)
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& memory,
                          const torch::Tensor& mask, LayerAttention* weights = nullptr);

    // The same with the memory's keys and values given (MultiHeadAttentionImpl::project of it).
    torch::Tensor forward(const torch::Tensor& x, const KVCache& memory,
                          const torch::Tensor& mask, LayerAttention* weights = nullptr);

    // One new position x (N, 1, W) against cached keys/values -> (N, 1, W).
    torch::Tensor step(const torch::Tensor& x, KVCache& selfCache, const KVCache& crossCache,
                       LayerAttention* weights);

    const torch::nn::Linear& fc1() const { return m_fc1; }
    const torch::nn::Linear& fc2() const { return m_fc2; }
    bool gelu() const { return m_gelu; } // the 2025 layout's GELU, else ReLU

    MultiHeadAttention self_attn{nullptr}, cross_attn{nullptr};
    torch::nn::LayerNorm norm_self{nullptr}, norm_cross{nullptr}, norm_ffn{nullptr};

  private:
    torch::Tensor feedForward(const torch::Tensor& x);
    template <typename Cross>
    torch::Tensor forwardWith(const torch::Tensor& x, const torch::Tensor& mask,
                              LayerAttention* weights, const Cross& cross);

    torch::nn::Linear m_fc1{nullptr}, m_fc2{nullptr};
    torch::nn::Dropout m_dropSelf{nullptr}, m_dropCross{nullptr}, m_dropFfn{nullptr},
        m_dropHidden{nullptr};
    bool m_gelu;
};
TORCH_MODULE(TransformerDecoderLayer);

// A stack of decoder layers registered as "layers.0", "layers.1", ... (no final norm).
class TransformerDecoderImpl : public torch::nn::Module {
  public:
    explicit TransformerDecoderImpl(const ModelConfig& config);
    // tgt (N, S, W), memory (N, M, W), mask (S, S) -> (N, S, W); one LayerAttention per layer.
    torch::Tensor forward(const torch::Tensor& tgt, const torch::Tensor& memory,
                          const torch::Tensor& mask,
                          std::vector<LayerAttention>* weights = nullptr);
    // The same with every layer's cross-attention keys and values of the memory given.
    torch::Tensor forward(const torch::Tensor& tgt, const std::vector<KVCache>& memory,
                          const torch::Tensor& mask,
                          std::vector<LayerAttention>* weights = nullptr);
    TransformerDecoderLayerImpl& layer(size_t i) {
        return *layers->ptr<TransformerDecoderLayerImpl>(i);
    }
    size_t size() const { return layers->size(); }
    torch::nn::ModuleList layers{nullptr};
};
TORCH_MODULE(TransformerDecoder);

} // namespace cl
