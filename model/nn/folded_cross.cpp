#include "model/nn/folded_cross.h"

namespace cl {

// Per layer its keys then its values.
struct FoldedCross {
    std::vector<FoldedProjection> projections;
};

namespace {

std::shared_ptr<const FoldedCross> fold(CaptioningTransformerImpl& model) {
    c10::InferenceMode plainTensors(false); // kept for later calls, gradients or not
    torch::NoGradGuard noGrad;
    const auto& enc = *model.encoder;
    const auto out = enc.out->weight.flatten(1); // (D, C)
    auto tokenBias = enc.out->bias.unsqueeze(0); // (1, D)
    if (enc.positionAdded())
        tokenBias = tokenBias + enc.pos2d; // (M, D)
    const auto& vp = *model.visual_projection;
    const auto memWeight = torch::matmul(vp.weight, out);                   // (W, C)
    const auto memBias = torch::matmul(tokenBias, vp.weight.t()) + vp.bias; // (M or 1, W)
    auto folded = std::make_shared<FoldedCross>();
    for (size_t i = 0; i < model.transformer->size(); ++i) {
        auto& c = *model.transformer->layer(i).cross_attn;
        for (const auto* lin : {&c.key, &c.value})
            folded->projections.push_back(
                {torch::matmul((*lin)->weight, memWeight).t().contiguous(),
                 torch::matmul(memBias, (*lin)->weight.t()) + (*lin)->bias});
    }
    return folded;
}

} // namespace

std::vector<FoldedProjection> foldedProjections(CaptioningTransformerImpl& model) {
    auto key = signatureOf(model.parameters());
    if (!key.empty())
        key.emplace_back(nullptr, model.encoder->positionAdded()); // the position switch too
    return model.foldedCrossSlot().get(std::move(key), [&] { return fold(model); })->projections;
}

std::vector<KVCache> foldedCross(CaptioningTransformerImpl& model, const torch::Tensor& hidden) {
    const std::vector<FoldedProjection> folded = foldedProjections(model);
    const int64_t n = hidden.size(0), m = hidden.size(2) * hidden.size(3);
    const int64_t cells = model.encoder->pos2d.size(0), heads = model.config().numHeads;
    TORCH_CHECK(m == cells, "foldedCross takes the whole grid (", cells, " cells), not ", m);
    const auto rows = hidden.flatten(2).transpose(1, 2); // (N, M, C)
    // One product per projection: their backward passes only add (N, M, C) gradients, where
    // one product split four ways would concatenate four (N, M, D) ones.
    auto project = [&](const FoldedProjection& f) {
        const int64_t width = f.weight.size(1);
        return torch::matmul(rows, f.weight)
            .add_(f.bias)
            .view({n, m, heads, width / heads})
            .transpose(1, 2); // (N, H, M, hs)
    };
    std::vector<KVCache> out;
    for (size_t i = 0; i < folded.size(); i += 2) {
        KVCache c;
        c.k = project(folded[i]);
        c.v = project(folded[i + 1]);
        c.length = m;
        out.push_back(c);
    }
    return out;
}

} // namespace cl
