#include "model/nn/captioning_transformer.h"

#include "model/nn/linear_rows.h"

namespace cl {

CaptioningTransformerImpl::CaptioningTransformerImpl(const ModelConfig& c, int64_t nullId)
    : m_config(c) {
    c.validate();
    const auto w = c.wordvecDim;
    if (c.memory == MemoryKind::ImageGrid)
        encoder = register_module("encoder", ImageEncoder(c.encoder, c.inputDim));
    visual_projection = register_module("visual_projection", torch::nn::Linear(c.inputDim, w));
    embedding = register_module(
        "embedding",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(c.vocabSize, w).padding_idx(nullId)));
    positional_encoding =
        register_module("positional_encoding", PositionalEncoding(w, c.dropout, c.maxLength));
    transformer = register_module("transformer", TransformerDecoder(c));
    output = register_module("output", torch::nn::Linear(w, c.vocabSize));
    initWeights();
}

void CaptioningTransformerImpl::initWeights() {
    // The seed's _init_weights: N(0, 0.02) for Linear/Embedding weights, zero biases, unit norms.
    // The encoder keeps PyTorch's default convolution initialisation.
    torch::NoGradGuard noGrad;
    for (auto& item : named_parameters()) {
        const auto& name = item.key();
        auto& p = item.value();
        // The seed applies it before creating `output`, which keeps PyTorch's default.
        if (name.rfind("encoder.", 0) == 0 || name.rfind("output.", 0) == 0)
            continue;
        const bool isNorm = name.find("norm") != std::string::npos;
        const bool isBias = name.size() > 5 && name.compare(name.size() - 5, 5, ".bias") == 0;
        if (isBias)
            p.zero_();
        else if (isNorm)
            p.fill_(1.0);
        else
            p.normal_(0.0, 0.02);
    }
}

torch::Tensor CaptioningTransformerImpl::encode(const torch::Tensor& input,
                                                std::vector<torch::Tensor>* activations) {
    if (m_config.memory == MemoryKind::Features)
        return input;
    const int64_t planes = m_config.encoder.inputChannels();
    TORCH_CHECK(input.dim() == 4 && input.size(1) == planes, "image model expects (N, ", planes,
                ", S, S) input");
    return encoder->forward(input, activations);
}

torch::Tensor CaptioningTransformerImpl::memory(const torch::Tensor& features) {
    TORCH_CHECK(features.size(-1) == m_config.inputDim, "features have width ", features.size(-1),
                " but the model expects ", m_config.inputDim);
    auto projected = linearRows(features, visual_projection);
    return projected.dim() == 2 ? projected.unsqueeze(1) : projected; // (N, M, W)
}

torch::Tensor CaptioningTransformerImpl::decode(const torch::Tensor& memory,
                                                const torch::Tensor& captions,
                                                std::vector<LayerAttention>* weights) {
    const auto t = captions.size(1);
    auto x = positional_encoding(embedding(captions)); // (N, T, W)
    auto mask = torch::tril(torch::ones({t, t}, x.options()));
    x = transformer->forward(x, memory, mask, weights);
    return output(x); // (N, T, V)
}

torch::Tensor CaptioningTransformerImpl::decode(const std::vector<KVCache>& memory,
                                                const torch::Tensor& captions,
                                                std::vector<LayerAttention>* weights) {
    const auto t = captions.size(1);
    auto x = positional_encoding(embedding(captions)); // (N, T, W)
    auto mask = torch::tril(torch::ones({t, t}, x.options()));
    return output(transformer->forward(x, memory, mask, weights));
}

} // namespace cl
