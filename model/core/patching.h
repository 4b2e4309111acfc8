#pragma once
// Activation patching of one counterfactual pair (issue 39): a clean and a corrupted input, the
// clean caption teacher-forced in both runs, and at one input position the logit difference
// between the clean run's word and the corrupted run's. Each site's activation is copied from
// one run into the other (denoising: clean into corrupted; noising: corrupted into clean) and the
// difference measured again, normalised so 0 is the corrupted run and 1 the clean run.
// Plain values: no torch types.
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

enum class PatchKind { ImageCell, Resid, Head, Ffn };

struct PatchSite {
    PatchKind kind = PatchKind::ImageCell;
    int64_t layer = -1;    // Resid: 0 = embeddings + position code, l = after layer l; Head, Ffn:
                           // the layer, 1-based; ImageCell: -1
    int64_t head = -1;     // Head: 1-based
    bool cross = false;    // Head: cross-attention (else self-attention)
    int64_t position = -1; // Resid, Head, Ffn: the input position (0 = <START>)
    int64_t cell = -1;     // ImageCell: the memory cell, row-major over the grid
    double restored = 0;   // the normalised metric with this site patched
    double estimated = 0;  // attribution patching's estimate of `restored` (one backward pass)
};

struct PatchOptions {
    int64_t position = -1; // the input position measured; -1: where the two captions part
    bool noising = false;  // corrupted activations into the clean run
};

struct PatchReport {
    std::string cleanCaption, corruptCaption;
    int64_t position = 0;
    std::string cleanWord, corruptWord;
    double cleanLogitDiff = 0, corruptLogitDiff = 0; // logit(clean word) - logit(corrupt word)
    int64_t gridSide = 0;                           // memory cells: gridSide x gridSide (0: one)
    bool noising = false;
    std::vector<PatchSite> sites;
    // Pearson correlation of the estimates with the real patching over every site: where the
    // cheap estimate can be trusted.
    double estimateCorrelation = 0;
};

} // namespace cl
