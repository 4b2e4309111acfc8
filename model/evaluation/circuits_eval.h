#pragma once
// Activation patching scored on ground truth (issue 39): counterfactual pairs of the classic
// world (model/shapes/counterfactual.h), each kind of change in turn, and per kind how much of
// the image cells' restoration falls on the changed object (beside the share of the measured
// word's cross-attention that does), which heads restore the word most, and how attribution
// patching's estimates correlate with real patching.
#include "model/api/captioner.h"
#include "model/shapes/counterfactual.h"

#include <string>
#include <vector>

namespace cl {

struct CircuitsEvalOptions {
    int64_t pairs = 100; // per kind of change
    uint64_t firstSeed = 0;
    double tolerance = 8; // pixels around an object's box whose cells are "on" it
};

struct HeadRestoration {
    int64_t layer = 0, head = 0; // 1-based
    bool cross = false;
    double mean = 0; // mean restored at the measured position, over the kind's pairs
};

struct CircuitsKind {
    Change change = Change::Colour;
    int64_t pairs = 0;     // pairs measured
    int64_t unchanged = 0; // pairs whose captions did not part (nothing to measure)
    int64_t skipped = 0;   // scenes where the change could not be made
    double onObject = 0;   // mean share of the positive image-cell restoration on the object
    double attentionOnObject = 0; // the same share of the word's last-layer cross-attention
    double correlation = 0;       // mean Pearson r of attribution against real patching
    std::vector<HeadRestoration> heads; // every head, most restoring first
};

struct CircuitsEvalResult {
    std::vector<CircuitsKind> kinds;
    std::string toJson() const;
};

CircuitsEvalResult evaluateCircuits(Captioner& model, const CircuitsEvalOptions& options);

} // namespace cl
