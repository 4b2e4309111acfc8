#pragma once
// Every layer's cross-attention keys and values straight from the encoder's last hidden grid.
// The encoder's 1x1 output convolution, its position code, the visual projection and each
// layer's key and value projections are all affine, so they fold into one (4 D x C) matrix and
// a per-cell constant: one product over C = 64 channels instead of five over D = 128 (and the
// tokens themselves never made). For input gradients (Integrated Gradients' batches): the folded
// matrices are constants, so no gradient reaches the weights.
#include "model/nn/captioning_transformer.h"

namespace cl {

// One projection folded: keys or values of one layer = rows (N, M, C) weight^T + bias (M, D).
struct FoldedProjection {
    torch::Tensor weight, bias;
};

// Per layer its keys then its values: computed once per model and kept until a parameter changes
// or the position code is switched (weight_cache.h); folding costs about as much as one gradient
// sample, and Integrated Gradients takes a batch of samples many times a word.
std::vector<FoldedProjection> foldedProjections(CaptioningTransformerImpl& model);

// hidden (N, C, g, g), the image model's encoder->hidden() -> per layer {k, v} (N, H, g*g, hs),
// equal (to rounding) to projecting model.memory(model.encode(images)).
std::vector<KVCache> foldedCross(CaptioningTransformerImpl& model, const torch::Tensor& hidden);

} // namespace cl
