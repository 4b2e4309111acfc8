#include "model/explain/maps.h"

#include "model/nn/folded_cross.h"

namespace cl::explain {

torch::Tensor WordObjective::logProb(const torch::Tensor& images,
                                     std::vector<torch::Tensor>* activations,
                                     std::vector<LayerAttention>* weights) const {
    if (weights) // the maps: exactly the caption's weights, through the memory tokens
        return logProbOfTokens(model.encode(images, activations), weights);
    return logProbOfCross(foldedCross(model, model.encoder->hidden(images, activations)));
}

torch::Tensor WordObjective::logProbOfTokens(const torch::Tensor& tokens,
                                             std::vector<LayerAttention>* weights) const {
    const auto memory = model.memory(tokens);
    const auto captions = prefix.expand({tokens.size(0), prefix.size(1)});
    const auto scores = model.decode(memory, captions, weights); // (B, T, V)
    return torch::log_softmax(scores.select(1, prefix.size(1) - 1), -1).select(1, target);
}

torch::Tensor WordObjective::probability(const torch::Tensor& images) const {
    // Bounds the encoder's activations (16 x 32 x 32 x 32 floats): as fast per image as 64 once
    // warm, and a fresh process touches a quarter of the memory (occlusion's first run: 43 ms
    // on one core against 78 ms with batches of 64).
    constexpr int64_t kBatch = 16;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < images.size(0); i += kBatch)
        parts.push_back(
            logProb(images.narrow(0, i, std::min(kBatch, images.size(0) - i))).exp());
    return torch::cat(parts);
}

torch::Tensor WordObjective::logProbOfCross(const std::vector<KVCache>& cross) const {
    const auto captions = prefix.expand({cross.front().k.size(0), prefix.size(1)});
    const auto scores = model.decode(cross, captions); // (B, T, V)
    return torch::log_softmax(scores.select(1, prefix.size(1) - 1), -1).select(1, target);
}

} // namespace cl::explain
