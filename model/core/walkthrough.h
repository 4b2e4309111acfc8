#pragma once
// How one attention weight comes out of Q and K (issue 18, part 3): for a layer, a head and the
// query of one caption step, self- or cross-attention, every number from the query vector to
// the head's contribution to the layer's output. Plain values: no torch types.
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct WalkthroughOptions {
    int64_t layer = 0, head = 0;
    int64_t step = 0;   // the query: the position that produced caption token `step`
    bool cross = false; // cross-attention over the image (or features); else self-attention
};

struct AttentionWalkthrough {
    WalkthroughOptions options;
    int64_t headDim = 0; // W / H
    double scale = 0;    // sqrt(W / H): the dot products are divided by it
    std::vector<float> query;                     // (headDim) the query's slice for this head
    std::vector<std::vector<float>> keys, values; // per key: (headDim)
    std::vector<std::string> keyLabels; // the token fed in at the key's position, or the cell
    std::vector<float> dots;            // q . k per key
    std::vector<uint8_t> masked;        // 1: the causal mask hides the key (a later word)
    std::vector<float> scaled;          // dots / scale (masked keys: 0, see `masked`)
    std::vector<float> weights;         // softmax over the unmasked scaled dots
    std::vector<float> output;          // sum_k weights[k] values[k], (headDim)
    // The head's share of the attention block's output at the query (its block of the output
    // projection applied to `output`), and its size next to the whole block's output (every
    // head, projection bias excluded). Zero when the head is switched off.
    std::vector<float> contribution;
    double contributionNorm = 0, blockNorm = 0;
    bool headOff = false;
    double milliseconds = 0;
};

} // namespace cl
