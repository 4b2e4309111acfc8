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

// The rectangle of grid cells covering cell i can change: rows y0..y1, columns x0..x1.
struct CellBox {
    int64_t y0, y1, x0, x1;
};

CellBox changedCells(int64_t i, int64_t grid, const Reach& r) {
    const int64_t row = i / grid, col = i % grid;
    return {std::max<int64_t>(0, row - r.before), std::min(grid - 1, row + r.after),
            std::max<int64_t>(0, col - r.before), std::min(grid - 1, col + r.after)};
}

// Every layer's cross-attention keys and values of the clean memory, repeated for n images,
// with `rows` (flat indices image * M + cell) replaced by those of `tokens` (R, D).
std::vector<KVCache> patchedCross(CaptioningTransformerImpl& model,
                                  const std::vector<KVCache>& clean, int64_t n,
                                  const torch::Tensor& rows, const torch::Tensor& tokens) {
    const auto memory = model.memory(tokens.unsqueeze(0)); // (1, R, W)
    std::vector<KVCache> out;
    for (size_t l = 0; l < clean.size(); ++l) {
        const auto kv = model.transformer->layer(l).cross_attn->project(memory, memory);
        auto patch = [&](const torch::Tensor& all, const torch::Tensor& changed) {
            const int64_t m = all.size(2);
            auto flat = all.transpose(1, 2).expand({n, m, all.size(1), all.size(3)}).contiguous();
            flat = flat.view({n * m, all.size(1), all.size(3)});
            flat.index_copy_(0, rows, changed.squeeze(0).transpose(0, 1)); // (R, H, hs)
            return flat.view({n, m, all.size(1), all.size(3)}).transpose(1, 2);
        };
        KVCache c;
        c.k = patch(clean[l].k, kv.k);
        c.v = patch(clean[l].v, kv.v);
        c.length = clean[l].length;
        out.push_back(c);
    }
    return out;
}

// Occlusion through the encoder's locality: covering a cell changes only the grid cells within
// its reach, so each covered image is encoded on its window alone, and only those cells' memory
// rows, keys and values are recomputed (exactly the full computation: every changed cell's
// receptive field lies in its window or ends at the image's true border). On a 12 x 12 grid:
// 7 x 7-cell windows, and 16 of 144 memory rows.
torch::Tensor coveredProbabilities(const WordObjective& f, const torch::Tensor& x,
                                   const torch::Tensor& fill, int64_t grid, const Reach& r) {
    auto& model = f.model;
    auto& encoder = *model.encoder;
    const auto clean = encoder.trunk(x); // (1, D, g, g)
    const auto cleanMemory = model.memory(encoder.tokens(clean));
    std::vector<KVCache> cleanCross;
    for (size_t l = 0; l < model.transformer->size(); ++l)
        cleanCross.push_back(
            model.transformer->layer(l).cross_attn->project(cleanMemory, cleanMemory));
    std::vector<torch::Tensor> p{f.logProbOfCross(cleanCross).exp()};
    const auto [crops, starts] = coveredWindows(x, fill, grid, encoder.stride(), r);
    const int64_t cells = grid * grid;
    constexpr int64_t kBatch = 16;
    for (int64_t i0 = 0; i0 < cells; i0 += kBatch) {
        const int64_t n = std::min(kBatch, cells - i0);
        const auto part = encoder.trunk(crops.narrow(0, i0, n)); // (n, D, w, w)
        auto grids = clean.expand({n, -1, -1, -1}).clone();
        std::vector<int64_t> rows;
        for (int64_t k = 0; k < n; ++k) {
            const int64_t i = i0 + k, y = starts[size_t(2 * i)], x0 = starts[size_t(2 * i + 1)];
            const CellBox b = changedCells(i, grid, r);
            const int64_t h = b.y1 - b.y0 + 1, w = b.x1 - b.x0 + 1;
            grids[k].narrow(1, b.y0, h).narrow(2, b.x0, w).copy_(
                part[k].narrow(1, b.y0 - y, h).narrow(2, b.x0 - x0, w));
            for (int64_t cy = b.y0; cy <= b.y1; ++cy)
                for (int64_t cx = b.x0; cx <= b.x1; ++cx)
                    rows.push_back(k * cells + cy * grid + cx);
        }
        const auto index = torch::tensor(rows, torch::kLong);
        const auto tokens = encoder.tokens(grids).reshape({n * cells, -1}).index_select(0, index);
        p.push_back(f.logProbOfCross(patchedCross(model, cleanCross, n, index, tokens)).exp());
    }
    return torch::cat(p);
}

} // namespace

torch::Tensor occlusionMap(const WordObjective& f, const torch::Tensor& x,
                           const torch::Tensor& fill, int64_t grid) {
    const int64_t s = x.size(2);
    auto& encoder = *f.model.encoder;
    const Reach r = reachOf(encoder.stride(), encoder.reach());
    if (s == grid * encoder.stride() && r.window < grid) {
        torch::NoGradGuard noGrad;
        const auto p = coveredProbabilities(f, x, fill, grid, r);
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
