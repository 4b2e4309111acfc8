#pragma once
// The seed's CaptioningTransformer. Parameter names are the course's state_dict keys
// (visual_projection, embedding, positional_encoding.pe, transformer.layers.i.*, output), plus
// encoder.* for our image models.
#include "model/nn/decoder_layer.h"
#include "model/nn/fast_weights.h"
#include "model/nn/image_encoder.h"
#include "model/nn/positional_encoding.h"

namespace cl {

struct FoldedCross; // folded_cross.cpp

class CaptioningTransformerImpl : public torch::nn::Module {
  public:
    CaptioningTransformerImpl(const ModelConfig& config, int64_t nullId);

    // Image models: images (N, 3, S, S) -> features (N, M, D), and with `activations` every
    // encoder convolution's output. Feature models: identity.
    torch::Tensor encode(const torch::Tensor& input,
                         std::vector<torch::Tensor>* activations = nullptr);
    // features (N, D) or (N, M, D) -> memory (N, 1, W) or (N, M, W)
    torch::Tensor memory(const torch::Tensor& features);
    // memory (N, M, W), captions (N, T) -> scores (N, T, V); per-layer weights when asked.
    torch::Tensor decode(const torch::Tensor& memory, const torch::Tensor& captions,
                         std::vector<LayerAttention>* weights = nullptr);
    // The same with every layer's cross-attention keys and values of the memory given.
    torch::Tensor decode(const std::vector<KVCache>& memory, const torch::Tensor& captions,
                         std::vector<LayerAttention>* weights = nullptr);
    // The seed's forward: features (N, D) or images, captions (N, T) -> scores (N, T, V).
    torch::Tensor forward(const torch::Tensor& input, const torch::Tensor& captions) {
        return decode(memory(encode(input)), captions);
    }

    const ModelConfig& config() const { return m_config; }
    // fast_decode.cpp's copies of the weights, for this model only.
    FastWeightsSlot& fastWeightsSlot() { return *m_fastWeights; }
    // folded_cross.cpp's folded memory path, for this model only.
    WeightCache<FoldedCross>& foldedCrossSlot() { return *m_foldedCross; }

    torch::nn::Linear visual_projection{nullptr}, output{nullptr};
    torch::nn::Embedding embedding{nullptr};
    PositionalEncoding positional_encoding{nullptr};
    TransformerDecoder transformer{nullptr};
    ImageEncoder encoder{nullptr};

  private:
    void initWeights();
    ModelConfig m_config;
    std::unique_ptr<FastWeightsSlot> m_fastWeights = std::make_unique<FastWeightsSlot>();
    std::unique_ptr<WeightCache<FoldedCross>> m_foldedCross =
        std::make_unique<WeightCache<FoldedCross>>();
};
TORCH_MODULE(CaptioningTransformer);

} // namespace cl
