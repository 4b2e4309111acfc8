#include "model/explain/explain.h"

#include "model/core/letterbox.h"
#include "model/explain/maps.h"

#include <chrono>
#include <optional>
#include <stdexcept>

namespace cl::explain {

namespace {

void checkRange(const char* what, int64_t v, int64_t lo, int64_t hi) {
    if (v < lo || v > hi)
        throw std::invalid_argument(std::string(what) + " " + std::to_string(v) + " is outside " +
                                    std::to_string(lo) + ".." + std::to_string(hi));
}

double milliseconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
        .count();
}

// Everything the methods share for one word.
struct Context {
    const WordObjective& f;
    const ExplainInput& in;
    const ExplainOptions& o;
    std::vector<LayerAttention> weights;
    torch::Tensor fill, blur;
    std::optional<GradientMaps> gradients; // one backward pass serves two methods
    double gradientMs = 0;                 // ... and its time is each one's

    const GradientMaps& grads() {
        if (!gradients) {
            const auto start = std::chrono::steady_clock::now();
            gradients = gradientMaps(f, in.x);
            gradientMs = milliseconds(start);
        }
        return *gradients;
    }
    int64_t layer() const {
        return o.layer < 0 ? static_cast<int64_t>(weights.size()) - 1 : o.layer;
    }
};

torch::Tensor computeMap(Context& c, ExplainMethod m, SaliencyMap& s) {
    const int64_t grid = c.f.model.config().encoder.grid;
    auto onGrid = [&](const torch::Tensor& cells) { return cells.view({grid, grid}); };
    switch (m) {
    case ExplainMethod::Attention:
        return onGrid(attentionMap(c.weights, c.layer(), c.o.head));
    case ExplainMethod::AttentionMean:
        return onGrid(attentionMeanMap(c.weights, c.layer()));
    case ExplainMethod::Rollout:
        return onGrid(rolloutMap(c.weights));
    case ExplainMethod::GradInput:
        return c.grads().gradInput;
    case ExplainMethod::GradCam:
        return c.grads().gradCam;
    case ExplainMethod::IgBlack:
        return integratedGradients(c.f, c.in.x, blackImage(c.in.x), c.o.igSteps, &s.completenessGap,
                                   &s.gradientSamples);
    case ExplainMethod::IgBlur:
        return integratedGradients(c.f, c.in.x, c.blur, c.o.igSteps, &s.completenessGap,
                                   &s.gradientSamples);
    case ExplainMethod::Occlusion:
        return occlusionMap(c.f, c.in.x, c.fill, grid);
    }
    throw std::logic_error("unknown explanation method");
}

void locatePeak(SaliencyMap& s, const ExplainInput& in, const ExplainOptions& o) {
    s.peak = std::max_element(s.values.begin(), s.values.end()) - s.values.begin();
    const GridMap g =
        gridMap(in.imageWidth, in.imageHeight, s.side, in.x.size(2), in.letterboxed, in.seen);
    s.peakX = g.centreX(s.peak);
    s.peakY = g.centreY(s.peak);
    if (o.target) {
        const ExplainTarget& t = *o.target;
        s.pointingHit = s.peakX >= t.x0 - t.tolerance && s.peakX < t.x1 + t.tolerance &&
                        s.peakY >= t.y0 - t.tolerance && s.peakY < t.y1 + t.tolerance;
    }
}

SaliencyMap explainOne(Context& c, ExplainMethod m) {
    SaliencyMap s;
    s.method = m;
    const auto start = std::chrono::steady_clock::now();
    const torch::Tensor map = computeMap(c, m, s).detach();
    s.milliseconds = m == ExplainMethod::GradInput || m == ExplainMethod::GradCam
                         ? c.gradientMs
                         : milliseconds(start);
    s.side = map.size(0);
    const auto values = map.to(torch::kFloat).contiguous();
    s.values.assign(values.data_ptr<float>(), values.data_ptr<float>() + values.numel());
    locatePeak(s, c.in, c.o);
    if (c.o.curves) {
        const Curves curves = faithfulness(c.f, c.in.x, c.fill, c.blur, map, c.o.curveSteps);
        s.deletion = curves.deletion;
        s.insertion = curves.insertion;
        s.deletionAuc = areaUnder(s.deletion);
        s.insertionAuc = areaUnder(s.insertion);
    }
    return s;
}

} // namespace

void checkExplainOptions(const ModelConfig& c, const CaptionTrace& trace, const ExplainOptions& o) {
    if (c.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("explanations need an image model (this one reads feature "
                                    "vectors; its one memory token has no place in an image)");
    if (trace.steps.empty())
        throw std::invalid_argument("the caption has no words to explain");
    checkRange("--word", o.word, 0, static_cast<int64_t>(trace.steps.size()) - 1);
    checkRange("--layer", o.layer, -1, c.numLayers - 1);
    checkRange("--head", o.head, 0, c.numHeads - 1);
    checkRange("--ig-steps", o.igSteps, 3, 1024); // Simpson: both ends and a midpoint
    checkRange("--curve-steps", o.curveSteps, 1, 256);
    if (!(o.blurSigma >= 0 && o.blurSigma <= double(c.encoder.imageSize)))
        throw std::invalid_argument("--blur-sigma must lie in 0.." +
                                    std::to_string(c.encoder.imageSize) + " input pixels");
}

Explanation explainWord(CaptioningTransformerImpl& model, const ExplainInput& in,
                        const CaptionTrace& trace, const ExplainOptions& o) {
    checkExplainOptions(model.config(), trace, o);
    std::vector<int64_t> prefix{in.startId};
    for (int64_t t = 0; t < o.word; ++t)
        prefix.push_back(trace.steps[size_t(t)].id);
    const WordObjective f{model,
                          torch::tensor(prefix, torch::kLong).view({1, -1}).to(in.x.device()),
                          trace.steps[size_t(o.word)].id};
    Explanation out;
    out.trace = trace;
    out.word = o.word;
    out.token = trace.steps[size_t(o.word)].token;
    out.imageWidth = in.imageWidth;
    out.imageHeight = in.imageHeight;
    out.inputSide = in.x.size(2);
    out.letterboxed = in.letterboxed;
    Context c{f, in, o, {}, backgroundFill(in.x), {}, std::nullopt, 0};
    c.blur = blurred(in.x, o.blurSigma > 0 ? o.blurSigma : double(in.x.size(2)) / 8);
    {
        torch::NoGradGuard noGrad;
        out.probability = f.logProb(in.x, nullptr, &c.weights).exp().item<double>();
    }
    for (ExplainMethod m : o.methods.empty() ? allExplainMethods() : o.methods)
        out.maps.push_back(explainOne(c, m));
    return out;
}

} // namespace cl::explain
