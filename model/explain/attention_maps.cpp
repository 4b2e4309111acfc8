#include "model/explain/maps.h"

namespace cl::explain {

namespace {
// The last query position's row of a (1, H, T, K) weight tensor -> (H, K).
torch::Tensor lastRow(const torch::Tensor& w) {
    return w.select(0, 0).select(1, w.size(2) - 1);
}
} // namespace

torch::Tensor attentionMap(const std::vector<LayerAttention>& w, int64_t layer, int64_t head) {
    return lastRow(w.at(static_cast<size_t>(layer)).cross).select(0, head);
}

torch::Tensor attentionMeanMap(const std::vector<LayerAttention>& w, int64_t layer) {
    return lastRow(w.at(static_cast<size_t>(layer)).cross).mean(0);
}

torch::Tensor rolloutMap(const std::vector<LayerAttention>& w) {
    const auto& first = w.front().cross; // (1, H, T, M)
    auto r = torch::zeros({first.size(2), first.size(3)}, first.options());
    const auto eye = torch::eye(first.size(2), first.options());
    for (const auto& layer : w) {
        const auto self = layer.self.select(0, 0).mean(0);   // (T, T)
        const auto cross = layer.cross.select(0, 0).mean(0); // (T, M)
        r = torch::matmul(0.5 * (eye + self), r);
        r = 0.5 * (r + cross);
    }
    return r.select(0, r.size(0) - 1);
}

} // namespace cl::explain
