#include "model/explain/maps.h"

namespace cl::explain {

torch::Tensor WordObjective::logProb(const torch::Tensor& images,
                                     std::vector<torch::Tensor>* activations,
                                     std::vector<LayerAttention>* weights) const {
    const auto memory = model.memory(model.encode(images, activations));
    const auto captions = prefix.expand({images.size(0), prefix.size(1)});
    const auto scores = model.decode(memory, captions, weights); // (B, T, V)
    return torch::log_softmax(scores.select(1, prefix.size(1) - 1), -1).select(1, target);
}

torch::Tensor WordObjective::probability(const torch::Tensor& images) const {
    constexpr int64_t kBatch = 64; // bounds the encoder's activations (64 x 64 x 32 x 32 floats)
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < images.size(0); i += kBatch)
        parts.push_back(
            logProb(images.narrow(0, i, std::min(kBatch, images.size(0) - i))).exp());
    return torch::cat(parts);
}

} // namespace cl::explain
