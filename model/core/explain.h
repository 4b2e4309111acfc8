#pragma once
// Explanations of one caption word (model/explain/): which parts of the image the word comes
// from, by attention and by methods that test it (gradients, occlusion), each map scored by the
// pointing game (when the word's object is known) and by deletion/insertion curves (Petsiuk et
// al. 2018). Plain values: no torch types.
#include "model/core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cl {

enum class ExplainMethod {
    Attention,     // cross-attention of one layer and head (what the Attention panel draws)
    AttentionMean, // that layer's head average
    Rollout,       // attention rollout through self- and cross-attention (README)
    GradInput,     // gradient x input of the word's log-probability, per pixel
    IgBlack,       // Integrated Gradients from a black image
    IgBlur,        // Integrated Gradients from the image blurred
    GradCam,       // Grad-CAM on the encoder's last grid activation
    Occlusion,     // the drop in the word's probability when each grid cell is covered
};
const std::vector<ExplainMethod>& allExplainMethods();
std::string explainMethodName(ExplainMethod m); // "attention", "ig-black", ...
std::string explainMethodTitle(ExplainMethod m); // "Integrated Gradients (black)", ...
// Throws std::invalid_argument naming the methods there are.
ExplainMethod explainMethodFromName(const std::string& name);

// The word's object, in the image's own pixels (for the pointing game).
struct ExplainTarget {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    double tolerance = 15.0; // pixels around the box that still count (Zhang et al. 2016)
};

struct ExplainOptions {
    int64_t word = 0;             // the caption step explained (0: the first word)
    int64_t layer = -1, head = 0; // the attention map's layer (-1: the last) and head
    std::vector<ExplainMethod> methods; // empty: every method
    // Integrated Gradients: the most gradient samples (3..1024). 7 evenly spaced samples (3
    // pieces, each with both ends and its midpoint), then the pieces whose Simpson estimate
    // disagrees most with f's change are halved (an eighth of them a round) until the
    // completeness gap is under 0.8 % (adaptive Simpson's rule) or the samples are spent.
    int64_t igSteps = 128;
    double blurSigma = 0;               // blurred baseline, input pixels; 0: side / 8
    int64_t curveSteps = 16;            // deletion/insertion at fractions k / curveSteps
    bool curves = true;
    std::optional<ExplainTarget> target;
};

struct SaliencyMap {
    ExplainMethod method = ExplainMethod::Attention;
    int64_t side = 0;          // side x side values over the model's square input, row-major
    std::vector<float> values; // signed: positive is evidence for the word
    int64_t peak = 0;          // index of the largest value
    double peakX = 0, peakY = 0; // the peak cell's centre in the image's pixels
    int pointingHit = -1;        // 1 hit, 0 miss, -1 no target given
    // The word's probability as the most salient pixels are removed (deletion: covered with
    // the background colour) or restored into the blurred image (insertion), at fractions
    // 0, 1/n, ..., 1; the areas under them (lower deletion, higher insertion: more faithful).
    std::vector<double> deletion, insertion;
    double deletionAuc = 0, insertionAuc = 0;
    // Integrated Gradients only: |sum of attributions - (f(x) - f(baseline))| divided by
    // |f(x) - f(baseline)|, or by 0.1 nats when the word's log-probability changes less along
    // the path (then the sum is within 0.1 x gap nats); and the gradient samples spent.
    double completenessGap = 0;
    int64_t gradientSamples = 0;
    double milliseconds = 0; // computing the map (not its curves)
};

struct Explanation {
    CaptionTrace trace; // the caption whose word is explained
    int64_t word = 0;
    std::string token;
    double probability = 0; // of the word at its step, teacher-forced
    int64_t imageWidth = 0, imageHeight = 0;
    int64_t inputSide = 0;    // the model's square input, which every map covers
    bool letterboxed = false; // how the image sits in it (api/letterbox.h)
    std::vector<SaliencyMap> maps;
    const SaliencyMap* find(ExplainMethod m) const;
};

} // namespace cl
