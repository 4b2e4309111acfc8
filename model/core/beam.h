#pragma once
// Beam search as plain values (no torch): the hypotheses a beam of width K finished with, and the
// tree of candidates it weighed step by step, for the CLI's JSON and the app.
#include "model/core/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct BeamOptions {
    int64_t width = 1;        // K; 1 is greedy decoding exactly
    double lengthPenalty = 0; // alpha of Wu et al. 2016: score = log P / ((5 + length) / 6)^alpha
};

struct BeamHypothesis {
    std::vector<int64_t> ids; // the tokens after <START>, <END> included when finished
    std::vector<std::string> tokens;
    double logProb = 0; // summed log-probabilities of the tokens
    double score = 0;   // logProb under the length penalty
    bool finished = false; // ended with <END> (else cut at the length limit)
    std::string text() const { // the words before <END>, joined by spaces
        std::string out;
        for (const auto& t : tokens) {
            if (t == "<END>")
                break;
            if (t != "<NULL>")
                out += (out.empty() ? "" : " ") + t;
        }
        return out;
    }
};

// One candidate of one step: a kept hypothesis's parent extended by one token.
struct BeamNode {
    int64_t parent = -1; // index into the previous step's kept nodes (-1 at step 0: <START>)
    int64_t id = 0;
    std::string token;
    double logProb = 0; // cumulative
    bool kept = false;     // carried to the next step
    bool finished = false; // the token is <END>: a finished hypothesis
};

struct BeamResult {
    std::vector<BeamHypothesis> hypotheses; // best score first, at most K
    // Per step, the best 2K candidates weighed (kept, finished or pruned), best first; a node's
    // parent indexes the previous step's kept nodes in their order.
    std::vector<std::vector<BeamNode>> tree;
};

struct BeamCaption {
    CaptionTrace trace; // the best hypothesis with every attention map, as a greedy trace has
    BeamResult beam;
};

} // namespace cl
