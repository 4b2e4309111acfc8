#pragma once
// Plain value types that carry a decode out of model/: no tensors, no torch headers, so ui/ and
// the CLI can use them directly.
#include "model/core/letterbox.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct Candidate {
    int64_t id = 0;
    std::string token;
    float prob = 0.f;
};

// One greedy step t: the query at position t (the token fed in) picks token t.
struct DecodeStep {
    int64_t id = 0;
    std::string token;
    float prob = 0.f; // softmax probability of the chosen token
    bool forced = false;
    std::vector<Candidate> topK;
    std::vector<float> logits;    // every vocabulary logit, when requested (temperature views)
    std::vector<float> selfAttn;  // [layer][head][t + 1]: the query row over keys 0..t
    std::vector<float> crossAttn; // [layer][head][M]
};

struct CaptionTrace {
    int64_t layers = 0, heads = 0;
    int64_t memoryTokens = 0; // M; 1 for course feature models
    int64_t gridSide = 0;     // sqrt(M) for image models, 0 for feature models
    int64_t inputSide = 0;    // the encoder's input side (image models)
    bool letterboxed = false; // the image was letterboxed into the input (api/letterbox.h)
    CropRect seen;            // the image pixels the encoder saw (letterboxed: empty background
                              // cut off a long canvas); width 0: all of it
    // The out-of-world check (model/novelty): the image's distance from the training world over
    // the model's calibrated threshold (above 1: out of world). Unknown for feature models and
    // checkpoints without world statistics.
    bool worldChecked = false;
    double worldScore = 0;
    // What gave the image away, when out of world (model/novelty): "features" (the encoder's
    // statistics of the image), "sentence" (the caption is not a sentence of the world) or
    // "colour" (the caption names worldColour, which the image does not hold).
    std::string worldReason;
    std::string worldColour;
    bool outOfWorld() const { return worldChecked && worldScore > 1.0; }
    // Why, in words for the CLI's note and the caption panel ("its caption is not a sentence of
    // the model's world"); "" when in world.
    std::string worldWhy() const;
    std::vector<DecodeStep> steps;

    // The caption's words: the chosen tokens up to (not including) <END>.
    std::vector<std::string> words() const;
    std::string text() const; // words joined by spaces
    // Self-attention weight of the query at step t over key k (0 when k > t: the causal mask).
    float selfWeight(int64_t layer, int64_t head, int64_t t, int64_t k) const;
    // The cross-attention row of step t (M weights). Both read only inside the trace: a layer,
    // head or step it does not have gives 0 (selfWeight) or no row (crossRow), never a throw.
    std::vector<float> crossRow(int64_t layer, int64_t head, int64_t t) const;
};

struct DecodeOptions {
    int64_t maxLength = 30;
    int64_t topK = 5;
    bool stopAtEnd = true;
    bool keepLogits = false;
    std::vector<int64_t> forcedPrefix; // token ids forced at steps 0..n-1
    bool positionalEncoding = true;    // false: the ablation, nothing added to the embeddings
    // Heads switched off (their attention output zeroed): [layer][0 self / 1 cross][head] as
    // layer * 2 * heads + kind * heads + head, 1 = off. Empty: every head on.
    std::vector<uint8_t> headsOff;
};

} // namespace cl
