#pragma once
// The explanation methods on tensors (model/api/explain.h has the plain-value side). Every
// method explains the same number: the log-probability of one caption word given the words
// before it and the image (WordObjective), for the model's preprocessed input x (1, 3, S, S).
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

struct WordObjective {
    CaptioningTransformerImpl& model;
    torch::Tensor prefix; // (1, t + 1): <START> and the caption's words before the word
    int64_t target = 0;   // the word's id

    // images (B, 3, S, S) -> (B) log-probabilities, differentiable. `activations`: the
    // encoder's convolution outputs; `weights`: every layer's attention.
    torch::Tensor logProb(const torch::Tensor& images,
                          std::vector<torch::Tensor>* activations = nullptr,
                          std::vector<LayerAttention>* weights = nullptr) const;
    // The same from the encoder's tokens (B, g*g, D).
    torch::Tensor logProbOfTokens(const torch::Tensor& tokens,
                                  std::vector<LayerAttention>* weights = nullptr) const;
    // Probabilities of many images, in bounded batches, without gradients -> (B).
    torch::Tensor probability(const torch::Tensor& images) const;
    // The same from every layer's cross-attention keys and values of B memories.
    torch::Tensor logProbOfCross(const std::vector<KVCache>& cross) const;
};

// Attention maps over the M = g * g memory cells of the word's query position (the last of
// the prefix): one layer and head, that layer's head average, and the rollout.
torch::Tensor attentionMap(const std::vector<LayerAttention>& w, int64_t layer, int64_t head);
torch::Tensor attentionMeanMap(const std::vector<LayerAttention>& w, int64_t layer);
// R starts at zero (no word holds the image before the first cross-attention); every layer
// mixes words, R <- (I + mean_h A_self) / 2 R, then adds the image, R <- (R + mean_h A_cross) / 2.
torch::Tensor rolloutMap(const std::vector<LayerAttention>& w);

// Gradient x input (S, S) and Grad-CAM (g, g) from one backward pass.
struct GradientMaps {
    torch::Tensor gradInput, gradCam;
};
GradientMaps gradientMaps(const WordObjective& f, const torch::Tensor& x);

// Integrated Gradients from `baseline` (1, 3, S, S) with at most `steps` gradient samples
// (adaptive Simpson's rule, api/explain.h), summed over colour channels -> (S, S); `gap` gets
// the completeness gap, |sum - (f(x) - f(baseline))| / max(|f(x) - f(baseline)|,
// kGapFloorNats), `samples` the gradient samples spent. The floor: a word whose
// log-probability hardly changes along the path (the first "a", certain on any image) has
// attributions near zero, and a gap relative to its change would measure only rounding.
extern const double kGapFloorNats;
extern const int64_t kIgUniformPieces; // the uniform pieces refining starts from
extern const int64_t kIgFirstSamples;  // their samples: both ends and every midpoint
torch::Tensor integratedGradients(const WordObjective& f, const torch::Tensor& x,
                                  const torch::Tensor& baseline, int64_t steps, double* gap,
                                  int64_t* samples = nullptr);

// Integrated Gradients' black baseline: x with its colour planes black (-1). A scale cue's plane
// (image_encoder.h) is the same on both ends of the path, so it gets no attribution.
torch::Tensor blackImage(const torch::Tensor& x);
// The image's background colour (the mean of its outermost input pixels) -> (1, C, 1, 1): a
// constant plane (the scale cue) keeps its value, so covering a cell never changes it.
torch::Tensor backgroundFill(const torch::Tensor& x);
// Separable Gaussian blur with edge replication (a constant plane stays as it is).
torch::Tensor blurred(const torch::Tensor& x, double sigma);

// p(x) - p(x with cell c covered by `fill`) for every cell of a grid x grid tiling -> (g, g).
torch::Tensor occlusionMap(const WordObjective& f, const torch::Tensor& x,
                           const torch::Tensor& fill, int64_t grid);

// Deletion and insertion curves of a map (any side dividing S, or S itself): the word's
// probability at fractions 0, 1/n, ..., 1 of the input's pixels, most salient first.
struct Curves {
    std::vector<double> deletion, insertion;
};
Curves faithfulness(const WordObjective& f, const torch::Tensor& x, const torch::Tensor& fill,
                    const torch::Tensor& blurredX, const torch::Tensor& map, int64_t steps);
double areaUnder(const std::vector<double>& curve); // trapezoids over [0, 1]

} // namespace cl::explain
