#include "model/explain/maps.h"

#include <cmath>

namespace cl::explain {

torch::Tensor occlusionMap(const WordObjective& f, const torch::Tensor& x,
                           const torch::Tensor& fill, int64_t grid) {
    const int64_t s = x.size(2);
    auto masks = torch::zeros({grid * grid, 1, s, s}, x.options());
    for (int64_t i = 0; i < grid * grid; ++i) {
        const int64_t y0 = i / grid * s / grid, y1 = (i / grid + 1) * s / grid;
        const int64_t x0 = i % grid * s / grid, x1 = (i % grid + 1) * s / grid;
        masks[i].narrow(1, y0, y1 - y0).narrow(2, x0, x1 - x0).fill_(1);
    }
    const auto covered = x * (1 - masks) + fill * masks;
    const auto p = f.probability(torch::cat({x, covered}));
    return (p[0] - p.slice(0, 1)).view({grid, grid});
}

Curves faithfulness(const WordObjective& f, const torch::Tensor& x, const torch::Tensor& fill,
                    const torch::Tensor& blurredX, const torch::Tensor& map, int64_t steps) {
    namespace F = torch::nn::functional;
    const int64_t s = x.size(2), pixels = s * s;
    const auto up = F::interpolate(map.to(x.dtype()).view({1, 1, map.size(0), map.size(1)}),
                                   F::InterpolateFuncOptions()
                                       .size(std::vector<int64_t>{s, s})
                                       .mode(torch::kNearest))
                        .flatten();
    const auto order = std::get<1>(torch::sort(up, /*stable=*/true, 0, /*descending=*/true));
    auto rank = torch::empty({pixels}, torch::kLong);
    rank.index_put_({order}, torch::arange(pixels));
    std::vector<torch::Tensor> masks;
    for (int64_t k = 0; k <= steps; ++k) {
        const auto count = static_cast<int64_t>(std::llround(double(k) * pixels / steps));
        masks.push_back(rank.lt(count).to(x.dtype()).view({1, 1, s, s}));
    }
    const auto m = torch::cat(masks); // (n + 1, 1, S, S): 1 = the salient pixels so far
    const auto p = f.probability(
        torch::cat({x * (1 - m) + fill * m, blurredX * (1 - m) + x * m}));
    const auto values = p.to(torch::kDouble).contiguous();
    const double* v = values.data_ptr<double>();
    Curves out;
    out.deletion.assign(v, v + steps + 1);
    out.insertion.assign(v + steps + 1, v + 2 * (steps + 1));
    return out;
}

double areaUnder(const std::vector<double>& curve) {
    if (curve.size() < 2)
        return curve.empty() ? 0 : curve.front();
    double sum = 0;
    for (size_t i = 0; i + 1 < curve.size(); ++i)
        sum += 0.5 * (curve[i] + curve[i + 1]);
    return sum / double(curve.size() - 1);
}

} // namespace cl::explain
