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
    out.gradInput = (grads[0] * input.detach()).sum(1).select(0, 0);
    const auto alpha = grads[1].mean({2, 3}, true); // a channel's weight: its mean gradient
    out.gradCam = torch::relu((alpha * cam.detach()).sum(1)).select(0, 0);
    return out;
}

namespace {

// One piece [a, b] of the straight path from the baseline to x, with f at its ends and the
// gradient at its midpoint (a Riemann sample); `slope` = grad . (x - baseline), so the piece's
// sampled change of f is slope (b - a).
struct Segment {
    double a = 0, b = 0, fa = 0, fb = 0, fMid = 0, slope = 0;
    torch::Tensor grad; // (1, 3, S, S) at the midpoint

    double error() const { return slope * (b - a) - (fb - fa); }
};

struct Sample {
    torch::Tensor grad;
    double value = 0, slope = 0;
};

// Gradients and values of f at path points baseline + alpha (x - baseline), in batches.
std::vector<Sample> sampleGradients(const WordObjective& f, const torch::Tensor& baseline,
                                    const torch::Tensor& delta, const std::vector<double>& alphas) {
    constexpr size_t kBatch = 32;
    std::vector<Sample> out;
    for (size_t i = 0; i < alphas.size(); i += kBatch) {
        const size_t n = std::min(kBatch, alphas.size() - i);
        const auto a = torch::tensor(std::vector<double>(alphas.begin() + long(i),
                                                         alphas.begin() + long(i + n)),
                                     delta.options())
                           .view({-1, 1, 1, 1});
        auto points = (baseline + a * delta).detach().requires_grad_(true);
        const auto y = f.logProb(points);
        const auto g = torch::autograd::grad({y.sum()}, {points})[0];
        const auto v = y.detach().to(torch::kDouble).contiguous();
        const auto slopes = (g * delta).sum({1, 2, 3}).to(torch::kDouble).contiguous();
        for (size_t k = 0; k < n; ++k)
            out.push_back({g.narrow(0, int64_t(k), 1), v.data_ptr<double>()[k],
                           slopes.data_ptr<double>()[k]});
    }
    return out;
}

// Splits the pieces with the largest error in two (each half sampled at its midpoint; the old
// midpoint becomes a boundary whose f is already known): an eighth of them a round, so the
// samples go where f bends and the batches still grow with the path. Returns the samples spent.
int64_t refine(const WordObjective& f, const torch::Tensor& baseline, const torch::Tensor& delta,
               std::vector<Segment>& segments, int64_t budget) {
    std::vector<size_t> order(segments.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) {
        return std::abs(segments[i].error()) > std::abs(segments[j].error());
    });
    const size_t split =
        std::min<size_t>(std::max<size_t>(1, segments.size() / 8), static_cast<size_t>(budget / 2));
    std::vector<double> alphas;
    for (size_t k = 0; k < split; ++k) {
        const Segment& s = segments[order[k]];
        alphas.push_back(s.a + 0.25 * (s.b - s.a));
        alphas.push_back(s.a + 0.75 * (s.b - s.a));
    }
    const std::vector<Sample> samples = sampleGradients(f, baseline, delta, alphas);
    for (size_t k = 0; k < split; ++k) {
        const Segment s = segments[order[k]];
        const double mid = 0.5 * (s.a + s.b);
        const Sample& l = samples[2 * k];
        const Sample& r = samples[2 * k + 1];
        segments[order[k]] = {s.a, mid, s.fa, s.fMid, l.value, l.slope, l.grad};
        segments.push_back({mid, s.b, s.fMid, s.fb, r.value, r.slope, r.grad});
    }
    return static_cast<int64_t>(alphas.size());
}

// The first pieces: `n` uniform ones (midpoint rule), f at their inner boundaries without
// gradients.
std::vector<Segment> uniformSegments(const WordObjective& f, const torch::Tensor& baseline,
                                     const torch::Tensor& delta, int64_t n, double f0, double f1) {
    std::vector<double> alphas, edges{f0};
    for (int64_t k = 0; k < n; ++k)
        alphas.push_back((double(k) + 0.5) / double(n));
    if (n > 1) {
        torch::NoGradGuard noGrad;
        const auto a = torch::arange(1, n, delta.options()).div_(double(n)).view({-1, 1, 1, 1});
        const auto v = f.logProb(baseline + a * delta).to(torch::kDouble).contiguous();
        edges.insert(edges.end(), v.data_ptr<double>(), v.data_ptr<double>() + v.numel());
    }
    edges.push_back(f1);
    const std::vector<Sample> samples = sampleGradients(f, baseline, delta, alphas);
    std::vector<Segment> segments;
    for (int64_t k = 0; k < n; ++k) {
        const Sample& m = samples[size_t(k)];
        segments.push_back({double(k) / double(n), double(k + 1) / double(n), edges[size_t(k)],
                            edges[size_t(k + 1)], m.value, m.slope, m.grad});
    }
    return segments;
}

} // namespace

const double kGapFloorNats = 0.1;
const int64_t kIgUniformPieces = 8;

torch::Tensor integratedGradients(const WordObjective& f, const torch::Tensor& x,
                                  const torch::Tensor& baseline, int64_t steps, double* gap,
                                  int64_t* samples) {
    // The gap is exact (the returned attributions against f itself), so refining stops just under
    // the 1 % completeness bar, with a fifth of it kept for rounding.
    constexpr double kTarget = 0.008;
    const auto delta = (x - baseline).detach();
    double f0 = 0, f1 = 0;
    {
        torch::NoGradGuard noGrad;
        const auto ends = f.logProb(torch::cat({baseline, x})).to(torch::kDouble);
        f0 = ends[0].item<double>();
        f1 = ends[1].item<double>();
    }
    const double scale = std::max(std::abs(f1 - f0), kGapFloorNats);
    // Start uniform, then split where the samples disagree with f most. While refining, the gap
    // comes from the pieces' slopes (one number each); the returned one from the attributions.
    const int64_t first = std::min<int64_t>(steps, kIgUniformPieces);
    std::vector<Segment> segments = uniformSegments(f, baseline, delta, first, f0, f1);
    auto sampledGap = [&] {
        double sum = 0;
        for (const auto& s : segments)
            sum += s.error();
        return std::abs(sum) / scale;
    };
    int64_t spent = first;
    while (spent + 2 <= steps && sampledGap() > kTarget)
        spent += refine(f, baseline, delta, segments, steps - spent);
    std::vector<torch::Tensor> grads;
    std::vector<double> widths;
    for (const auto& s : segments) {
        grads.push_back(s.grad);
        widths.push_back(s.b - s.a);
    }
    const auto w = torch::tensor(widths, x.options()).view({-1, 1, 1, 1});
    const auto attr = (delta * (torch::cat(grads) * w).sum(0, true)).detach();
    if (gap)
        *gap = std::abs(attr.sum().item<double>() - (f1 - f0)) / scale;
    if (samples)
        *samples = spent;
    return attr.sum(1).select(0, 0);
}

torch::Tensor backgroundFill(const torch::Tensor& x) {
    const int64_t s = x.size(2);
    const auto ring = torch::cat({x.select(2, 0), x.select(2, s - 1), x.select(3, 0),
                                  x.select(3, x.size(3) - 1)},
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
