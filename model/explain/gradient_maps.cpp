#include "model/explain/maps.h"

#include <algorithm>
#include <cmath>

namespace cl::explain {

GradientMaps gradientMaps(const WordObjective& f, const torch::Tensor& x) {
    auto input = x.detach().clone().requires_grad_(true);
    std::vector<torch::Tensor> activations;
    const auto y = f.logProb(input, &activations).sum();
    const auto& cam = activations.back(); // (1, C, g, g): the last grid activation
    const auto grads = torch::autograd::grad({y}, {input, cam});
    GradientMaps out;
    // The colour planes only: a scale cue's plane is no pixel of the image.
    out.gradInput = (grads[0] * input.detach()).narrow(1, 0, kColourPlanes).sum(1).select(0, 0);
    const auto alpha = grads[1].mean({2, 3}, true); // a channel's weight: its mean gradient
    out.gradCam = torch::relu((alpha * cam.detach()).sum(1)).select(0, 0);
    return out;
}

namespace {

// A gradient sample on the straight path baseline + alpha (x - baseline): f there, its slope
// along the path (grad . (x - baseline)) and the gradient.
struct Sample {
    torch::Tensor grad; // (1, 3, S, S)
    double value = 0, slope = 0;
};

// One piece [a, b] of the path with samples at both ends and the midpoint (indices into the
// samples). Simpson's rule on the slopes estimates f's change over the piece, which the ends'
// values give exactly: the difference is the piece's error.
struct Piece {
    double a = 0, b = 0;
    size_t lo = 0, mid = 0, hi = 0;

    double error(const std::vector<Sample>& s) const {
        return (b - a) / 6 * (s[lo].slope + 4 * s[mid].slope + s[hi].slope) -
               (s[hi].value - s[lo].value);
    }
};

// Appends the gradients and values of f at the path points `alphas`, in batches.
void sampleGradients(const WordObjective& f, const torch::Tensor& baseline,
                     const torch::Tensor& delta, const std::vector<double>& alphas,
                     std::vector<Sample>& out) {
    constexpr size_t kBatch = 32;
    for (size_t i = 0; i < alphas.size(); i += kBatch) {
        const size_t n = std::min(kBatch, alphas.size() - i);
        const auto a = torch::tensor(std::vector<double>(alphas.begin() + long(i),
                                                         alphas.begin() + long(i + n)),
                                     delta.options())
                           .view({-1, 1, 1, 1});
        // Channels-last: oneDNN's convolutions run forward and backward a quarter faster so
        // (and forward alone slower, so only here).
        auto points = (baseline + a * delta)
                          .contiguous(torch::MemoryFormat::ChannelsLast)
                          .detach()
                          .requires_grad_(true);
        const auto y = f.logProb(points);
        const auto g = torch::autograd::grad({y.sum()}, {points})[0];
        const auto v = y.detach().to(torch::kDouble).contiguous();
        const auto slopes = (g * delta).sum({1, 2, 3}).to(torch::kDouble).contiguous();
        for (size_t k = 0; k < n; ++k)
            out.push_back({g.narrow(0, int64_t(k), 1), v.data_ptr<double>()[k],
                           slopes.data_ptr<double>()[k]});
    }
}

// Splits the pieces with the largest error in two (each half gets a new midpoint; the old
// midpoint becomes a shared end): an eighth of them a round, so the samples go where f bends
// and the batches still grow with the path. Returns the samples spent.
int64_t refine(const WordObjective& f, const torch::Tensor& baseline, const torch::Tensor& delta,
               std::vector<Piece>& pieces, std::vector<Sample>& samples, int64_t budget) {
    std::vector<size_t> order(pieces.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
        return std::abs(pieces[i].error(samples)) > std::abs(pieces[j].error(samples));
    });
    const size_t split =
        std::min<size_t>(std::max<size_t>(1, pieces.size() / 8), static_cast<size_t>(budget / 2));
    std::vector<double> alphas;
    for (size_t k = 0; k < split; ++k) {
        const Piece& p = pieces[order[k]];
        alphas.push_back(p.a + 0.25 * (p.b - p.a));
        alphas.push_back(p.a + 0.75 * (p.b - p.a));
    }
    const size_t first = samples.size();
    sampleGradients(f, baseline, delta, alphas, samples);
    for (size_t k = 0; k < split; ++k) {
        const Piece p = pieces[order[k]];
        const double mid = 0.5 * (p.a + p.b);
        pieces[order[k]] = {p.a, mid, p.lo, first + 2 * k, p.mid};
        pieces.push_back({mid, p.b, p.mid, first + 2 * k + 1, p.hi});
    }
    return static_cast<int64_t>(alphas.size());
}

// The first `n` uniform pieces: 2n + 1 evenly spaced samples, both ends included.
std::vector<Piece> uniformPieces(const WordObjective& f, const torch::Tensor& baseline,
                                 const torch::Tensor& delta, int64_t n,
                                 std::vector<Sample>& samples) {
    std::vector<double> alphas;
    for (int64_t k = 0; k <= 2 * n; ++k)
        alphas.push_back(double(k) / double(2 * n));
    sampleGradients(f, baseline, delta, alphas, samples);
    std::vector<Piece> pieces;
    for (int64_t k = 0; k < n; ++k)
        pieces.push_back({double(k) / double(n), double(k + 1) / double(n), size_t(2 * k),
                          size_t(2 * k + 1), size_t(2 * k + 2)});
    return pieces;
}

} // namespace

const double kGapFloorNats = 0.1;
const int64_t kIgUniformPieces = 3;
const int64_t kIgFirstSamples = 2 * kIgUniformPieces + 1;

torch::Tensor integratedGradients(const WordObjective& f, const torch::Tensor& x,
                                  const torch::Tensor& baseline, int64_t steps, double* gap,
                                  int64_t* samples) {
    // The gap is exact (the returned attributions against f itself), so refining stops just under
    // the 1 % completeness bar, with a fifth of it kept for rounding.
    constexpr double kTarget = 0.008;
    const auto delta = (x - baseline).detach();
    // Start uniform, then split where Simpson's rule disagrees with f most. While refining, the
    // gap comes from the pieces' slopes (one number each); the returned one from the
    // attributions.
    const int64_t first = std::clamp<int64_t>((steps - 1) / 2, 1, kIgUniformPieces);
    std::vector<Sample> nodes;
    std::vector<Piece> pieces = uniformPieces(f, baseline, delta, first, nodes);
    const double f0 = nodes.front().value, f1 = nodes[size_t(2 * first)].value;
    const double scale = std::max(std::abs(f1 - f0), kGapFloorNats);
    auto sampledGap = [&] {
        double sum = 0;
        for (const auto& p : pieces)
            sum += p.error(nodes);
        return std::abs(sum) / scale;
    };
    int64_t spent = 2 * first + 1;
    while (spent + 2 <= steps && sampledGap() > kTarget)
        spent += refine(f, baseline, delta, pieces, nodes, steps - spent);
    // Each sample's weight: the sum of its pieces' Simpson weights.
    std::vector<double> weights(nodes.size(), 0.0);
    for (const auto& p : pieces) {
        weights[p.lo] += (p.b - p.a) / 6;
        weights[p.mid] += 4 * (p.b - p.a) / 6;
        weights[p.hi] += (p.b - p.a) / 6;
    }
    std::vector<torch::Tensor> grads;
    for (const auto& n : nodes)
        grads.push_back(n.grad);
    const auto w = torch::tensor(weights, x.options()).view({-1, 1, 1, 1});
    const auto attr = (delta * (torch::cat(grads) * w).sum(0, true)).detach();
    if (gap)
        *gap = std::abs(attr.sum().item<double>() - (f1 - f0)) / scale;
    if (samples)
        *samples = spent;
    return attr.sum(1).select(0, 0);
}

torch::Tensor blackImage(const torch::Tensor& x) {
    auto black = x.detach().clone();
    black.narrow(1, 0, kColourPlanes).fill_(-1);
    return black;
}

torch::Tensor backgroundFill(const torch::Tensor& x) {
    const int64_t s = x.size(2);
    const auto ring =
        torch::cat({x.select(2, 0), x.select(2, s - 1), x.select(3, 0), x.select(3, x.size(3) - 1)},
                   -1); // (1, 3, 2S + 2S)
    return ring.mean(-1).view({1, x.size(1), 1, 1});
}

torch::Tensor blurred(const torch::Tensor& x, double sigma) {
    namespace F = torch::nn::functional;
    const auto r = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(3 * sigma)));
    const auto t = torch::arange(-r, r + 1, x.options());
    auto k = torch::exp(-0.5 * (t / sigma).pow(2));
    k = k / k.sum();
    const int64_t c = x.size(1), n = 2 * r + 1;
    const auto rows = k.view({1, 1, 1, n}).expand({c, 1, 1, n}).contiguous();
    const auto cols = k.view({1, 1, n, 1}).expand({c, 1, n, 1}).contiguous();
    const auto groups = F::Conv2dFuncOptions().groups(c);
    auto y = F::pad(x, F::PadFuncOptions({r, r, 0, 0}).mode(torch::kReplicate));
    y = F::conv2d(y, rows, groups);
    y = F::pad(y, F::PadFuncOptions({0, 0, r, r}).mode(torch::kReplicate));
    return F::conv2d(y, cols, groups);
}

} // namespace cl::explain
