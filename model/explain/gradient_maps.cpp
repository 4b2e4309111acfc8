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
// gradient at its midpoint (a Riemann sample).
struct Segment {
    double a = 0, b = 0, fa = 0, fb = 0, fMid = 0;
    torch::Tensor grad; // (1, 3, S, S) at the midpoint
};

// Each segment's |sampled change of f - true change|, in one batched product.
std::vector<double> segmentErrors(const std::vector<Segment>& segments,
                                  const torch::Tensor& delta) {
    std::vector<torch::Tensor> grads;
    for (const auto& s : segments)
        grads.push_back(s.grad);
    const auto dots = (torch::cat(grads) * delta).sum({1, 2, 3}).to(torch::kDouble).contiguous();
    std::vector<double> out;
    for (size_t i = 0; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        out.push_back(std::abs(dots.data_ptr<double>()[i] * (s.b - s.a) - (s.fb - s.fa)));
    }
    return out;
}

// Gradients and values of f at path points baseline + alpha (x - baseline), in batches.
void sampleGradients(const WordObjective& f, const torch::Tensor& baseline,
                     const torch::Tensor& delta, const std::vector<double>& alphas,
                     std::vector<torch::Tensor>& grads, std::vector<double>& values) {
    constexpr size_t kBatch = 32;
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
        for (size_t k = 0; k < n; ++k) {
            grads.push_back(g.narrow(0, int64_t(k), 1));
            values.push_back(v.data_ptr<double>()[k]);
        }
    }
}

// Splits the segments with the largest error in two (each half sampled at its midpoint; the
// old midpoint becomes a boundary whose f is already known). Returns the samples spent.
int64_t refine(const WordObjective& f, const torch::Tensor& baseline, const torch::Tensor& delta,
               std::vector<Segment>& segments, int64_t budget) {
    std::vector<size_t> order(segments.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const std::vector<double> errors = segmentErrors(segments, delta);
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return errors[i] > errors[j]; });
    const size_t split = std::min<size_t>(std::max<size_t>(1, segments.size() / 4),
                                          static_cast<size_t>(budget / 2));
    std::vector<double> alphas;
    for (size_t k = 0; k < split; ++k) {
        const Segment& s = segments[order[k]];
        alphas.push_back(s.a + 0.25 * (s.b - s.a));
        alphas.push_back(s.a + 0.75 * (s.b - s.a));
    }
    std::vector<torch::Tensor> grads;
    std::vector<double> values;
    sampleGradients(f, baseline, delta, alphas, grads, values);
    for (size_t k = 0; k < split; ++k) {
        Segment& s = segments[order[k]];
        const double mid = 0.5 * (s.a + s.b);
        Segment right{mid, s.b, s.fMid, s.fb, values[2 * k + 1], grads[2 * k + 1]};
        s = Segment{s.a, mid, s.fa, s.fMid, values[2 * k], grads[2 * k]};
        segments.push_back(right);
    }
    return static_cast<int64_t>(alphas.size());
}

} // namespace

const double kGapFloorNats = 0.1;

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
    // Start uniform (midpoint rule), then split where the samples disagree with f most.
    const int64_t first = std::min<int64_t>(steps, 16);
    std::vector<double> edges{f0}, mids;
    std::vector<double> alphas, boundaryAlphas;
    for (int64_t k = 0; k < first; ++k)
        alphas.push_back((double(k) + 0.5) / double(first));
    for (int64_t k = 1; k < first; ++k)
        boundaryAlphas.push_back(double(k) / double(first));
    std::vector<torch::Tensor> grads;
    sampleGradients(f, baseline, delta, alphas, grads, mids);
    if (!boundaryAlphas.empty()) {
        torch::NoGradGuard noGrad;
        const auto a = torch::tensor(boundaryAlphas, delta.options()).view({-1, 1, 1, 1});
        const auto v = f.logProb(baseline + a * delta).to(torch::kDouble).contiguous();
        edges.insert(edges.end(), v.data_ptr<double>(), v.data_ptr<double>() + v.numel());
    }
    edges.push_back(f1);
    std::vector<Segment> segments;
    for (int64_t k = 0; k < first; ++k)
        segments.push_back({double(k) / double(first), double(k + 1) / double(first),
                            edges[size_t(k)], edges[size_t(k + 1)], mids[size_t(k)],
                            grads[size_t(k)]});
    auto attribution = [&] {
        auto total = torch::zeros_like(x);
        for (const auto& s : segments)
            total += s.grad * (s.b - s.a);
        return (delta * total).detach();
    };
    auto relativeGap = [&](const torch::Tensor& attr) {
        return std::abs(attr.sum().item<double>() - (f1 - f0)) /
               std::max(std::abs(f1 - f0), kGapFloorNats);
    };
    int64_t spent = first;
    auto attr = attribution();
    while (spent + 2 <= steps && relativeGap(attr) > kTarget) {
        spent += refine(f, baseline, delta, segments, steps - spent);
        attr = attribution();
    }
    if (gap)
        *gap = relativeGap(attr);
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
