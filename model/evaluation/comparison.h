#pragma once
// Comparing checkpoints on one input: each model's own caption, each model's teacher-forced
// probabilities of every other model's caption, and attention divergences between head pairs.
// Built on the Captioner facade only (no torch types), so the GUI and the CLI share it.
#include "model/api/captioner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct ModelRun {
    std::string error; // why this model could not caption the input; empty when it did
    CaptionTrace own;  // its greedy caption
    // forced[j]: this model fed model j's tokens (teacher forcing); forced[i] == own.
    // A step whose token is missing from this model's vocabulary is forced as <UNK> and marked.
    std::vector<CaptionTrace> forced;
    std::vector<std::vector<bool>> known; // known[j][t]: model j's token t is in this vocabulary
};

// models: the loaded checkpoints (one may appear twice). An image model needs `image`, a
// feature model `features` (one row); a model that cannot read the input gets an error.
// headsOff[i]: the heads switched off in model i (DecodeOptions::headsOff), for its own caption
// and its teacher-forced ones; missing or empty: every head on.
std::vector<ModelRun> compareModels(const std::vector<Captioner*>& models, const RgbImage& image,
                                    const std::vector<float>& features, int64_t maxLength,
                                    bool teacherForce = true,
                                    const std::vector<std::vector<uint8_t>>& headsOff = {});

// Jensen-Shannon divergence in bits (0 for identical distributions, at most 1).
double jensenShannon(const float* p, const float* q, size_t n);

enum class AttentionKind { Self, Cross };

struct HeadDivergence {
    std::string reason;         // why nothing can be compared; empty when `values` is filled
    int64_t rows = 0, cols = 0; // rows: a's (layer, head) pairs, cols: b's
    std::vector<double> values; // mean JSD over the steps both traces share, row-major
};

// a and b must be decodes of the same token sequence (b teacher-forced on a's tokens). Cross-
// attention over image grids of different sides (8 x 8 against 12 x 12) is compared on their
// common refinement (24 x 24), each cell's weight spread evenly over the cells it covers: both
// grids tile the same square input.
HeadDivergence headDivergence(const CaptionTrace& a, const CaptionTrace& b, AttentionKind kind);

// The side of the finest grid both square image grids divide (their least common multiple), or 0
// when a memory is not a square grid of more than one cell or the grid would pass 64 x 64.
int64_t commonGridSide(int64_t tokensA, int64_t tokensB);

// A cross-attention row of a side x side grid on a finer common x common one (common a multiple
// of side): each cell's weight spread evenly over the fine cells it covers. Any other row is
// returned as it is.
std::vector<float> refinedRow(const std::vector<float>& row, int64_t side, int64_t common);

// The attention row of (layer, head) at step t: self (t + 1 keys) or cross (M memory tokens).
std::vector<float> attentionRow(const CaptionTrace& trace, AttentionKind kind, int64_t layer,
                                int64_t head, int64_t t);

// Word-level difference of two captions (longest common subsequence): true marks a word of a
// (first) or b (second) that the other caption does not share in order.
std::pair<std::vector<bool>, std::vector<bool>> diffWords(const std::vector<std::string>& a,
                                                          const std::vector<std::string>& b);

} // namespace cl
