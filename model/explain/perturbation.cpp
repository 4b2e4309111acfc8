#include "model/explain/maps.h"

#include <algorithm>
#include <cmath>

namespace cl::explain {

namespace {

// The cells a covered cell can change, and the window of cells whose pixels decide them.
struct Reach {
    int64_t before, after;   // changed cells: [a - before, a + after]
    int64_t margin, window;  // the window starts `margin` cells before a - before, `window` wide
};

Reach reachOf(int64_t stride, int64_t reach) {
    Reach r;
    r.before = reach / stride;
    r.after = (stride - 1 + reach) / stride;
    r.margin = (reach + stride - 1) / stride;
    r.window = r.margin + r.before + r.after + reach / stride + 1;
    return r;
}

// x with each cell covered in turn, cut to each cell's window -> (g * g, 3, w S, w S), and where
// each window starts (cells).
std::pair<torch::Tensor, std::vector<int64_t>> coveredWindows(const torch::Tensor& x,
                                                              const torch::Tensor& fill,
                                                              int64_t grid, int64_t stride,
                                                              const Reach& r) {
    const int64_t side = r.window * stride;
    std::vector<torch::Tensor> crops;
    std::vector<int64_t> starts;
    for (int64_t i = 0; i < grid * grid; ++i) {
        const int64_t row = i / grid, col = i % grid;
        const int64_t y = std::clamp(row - r.before - r.margin, int64_t(0), grid - r.window);
        const int64_t x0 = std::clamp(col - r.before - r.margin, int64_t(0), grid - r.window);
        auto crop = x.narrow(2, y * stride, side).narrow(3, x0 * stride, side).clone();
        crop.narrow(2, (row - y) * stride, stride).narrow(3, (col - x0) * stride, stride).copy_(
            fill.expand({1, x.size(1), stride, stride}));
        crops.push_back(crop);
        starts.push_back(y);
        starts.push_back(x0);
    }
    return {torch::cat(crops), starts};
}

// Occlusion through the encoder's locality: covering a cell changes only the grid cells within
// its reach, so each covered image is encoded on its window alone and pasted into the clean
// grid (exactly the full encoding: every changed cell's receptive field lies in its window or
// ends at the image's true border). A 12 x 12 grid encodes 7 x 7 windows, a third of the work.
torch::Tensor coveredGrids(ImageEncoderImpl& encoder, const torch::Tensor& x,
                           const torch::Tensor& fill, int64_t grid, const Reach& r) {
    const int64_t stride = encoder.stride();
    const auto clean = encoder.trunk(x); // (1, D, g, g)
    auto grids = clean.expand({grid * grid, -1, -1, -1}).clone();
    const auto [crops, starts] = coveredWindows(x, fill, grid, stride, r);
    constexpr int64_t kBatch = 16;
    for (int64_t i0 = 0; i0 < crops.size(0); i0 += kBatch) {
        const auto part = encoder.trunk(crops.narrow(0, i0, std::min(kBatch, crops.size(0) - i0)));
        for (int64_t k = 0; k < part.size(0); ++k) {
            const int64_t i = i0 + k, row = i / grid, col = i % grid;
            const int64_t y = starts[size_t(2 * i)], x0 = starts[size_t(2 * i + 1)];
            const int64_t r0 = std::max<int64_t>(0, row - r.before),
                          r1 = std::min(grid - 1, row + r.after);
            const int64_t c0 = std::max<int64_t>(0, col - r.before),
                          c1 = std::min(grid - 1, col + r.after);
            grids[i].narrow(1, r0, r1 - r0 + 1).narrow(2, c0, c1 - c0 + 1).copy_(
                part[k].narrow(1, r0 - y, r1 - r0 + 1).narrow(2, c0 - x0, c1 - c0 + 1));
        }
    }
    return torch::cat({clean, grids});
}

} // namespace

torch::Tensor occlusionMap(const WordObjective& f, const torch::Tensor& x,
                           const torch::Tensor& fill, int64_t grid) {
    const int64_t s = x.size(2);
    auto& encoder = *f.model.encoder;
    const Reach r = reachOf(encoder.stride(), encoder.reach());
    if (s == grid * encoder.stride() && r.window < grid) {
        torch::NoGradGuard noGrad;
        const auto p = f.probabilityOfGrids(coveredGrids(encoder, x, fill, grid, r));
        return (p[0] - p.slice(0, 1)).view({grid, grid});
    }
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
