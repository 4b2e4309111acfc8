#pragma once
// The logit lens and direct logit attribution of one caption (issue 39). Plain values: no torch.
//
// Logit lens: the residual stream after every layer (layer 0: the word embeddings plus the
// position code; the seed's layers are post-norm, so each layer's output is already normalised)
// read through the output layer, its top words per input position. Position p predicts the word
// at p + 1.
//
// Direct logit attribution: with every LayerNorm's statistics frozen at their values in this
// pass (TransformerLens's convention), the final stream is a sum of parts: the embeddings, the
// position code, every head's output (self and cross, value bias included), every feed-forward
// block (its output bias excluded), and the biases (attention output biases, feed-forward output
// biases, each LayerNorm's shift, the output layer's bias) carried through the later LayerNorms.
// Each part's logit for the word predicted at a position adds up to that word's logit.
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct LensWord {
    std::string word;
    double p = 0; // softmax probability when read at this layer
};

struct LensRow {
    int64_t layer = 0;    // 0: embeddings + position code; l: after decoder layer l (1-based)
    int64_t position = 0; // input position (0: <START>)
    std::vector<LensWord> top;
};

struct LogitPart {
    std::string name; // "embedding", "position code", "L1 self H2", "L2 cross H1", "L1 FFN", "biases"
    double value = 0;
};

struct LogitAttribution {
    int64_t position = 0;
    std::string word;  // the word predicted at position + 1 (the caption's, or <END>)
    double logit = 0;  // the model's logit for it
    std::vector<LogitPart> parts; // their values add up to `logit`
};

struct LensReport {
    std::vector<std::string> words; // the input tokens: <START>, then the greedy caption
    std::vector<LensRow> logitLens; // layer-major: every layer's row for every position
    std::vector<LogitAttribution> attribution; // one per input position
};

} // namespace cl
