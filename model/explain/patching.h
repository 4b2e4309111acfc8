#pragma once
// Activation patching (core/patching.h) on tensors: the clean and corrupted runs recorded, then
// every site patched in one batched pass of the decoder, one row per site.
#include "model/core/patching.h"
#include "model/core/trace.h"
#include "model/core/vocabulary.h"
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

struct PatchNumbers {
    double cleanLogitDiff = 0, corruptLogitDiff = 0;
    std::vector<PatchSite> sites; // every site of core/patching.h, `restored` and `estimated`
    double estimateCorrelation = 0;
};

// cleanMemory, corruptMemory (1, M, W); fed: <START> and the clean caption's tokens (T); the
// position measured and the two words compared there. Throws std::invalid_argument when the two
// runs' logit differences at `position` are equal (nothing to restore).
PatchNumbers patchEverySite(CaptioningTransformerImpl& model, const torch::Tensor& cleanMemory,
                            const torch::Tensor& corruptMemory, const std::vector<int64_t>& fed,
                            int64_t position, int64_t cleanWord, int64_t corruptWord,
                            bool noising);

// Attribution patching alone: every site's `estimated`, `restored` left 0 (bench: its cost
// beside real patching's).
std::vector<PatchSite> attributionPatch(CaptioningTransformerImpl& model,
                                        const torch::Tensor& cleanMemory,
                                        const torch::Tensor& corruptMemory,
                                        const std::vector<int64_t>& fed, int64_t position,
                                        int64_t cleanWord, int64_t corruptWord, bool noising);

// The same with only `sites` patched, all of them in one run: the metric of that run (tests:
// every image cell at once restores 1, none 0).
double patchTogether(CaptioningTransformerImpl& model, const torch::Tensor& cleanMemory,
                     const torch::Tensor& corruptMemory, const std::vector<int64_t>& fed,
                     int64_t position, int64_t cleanWord, int64_t corruptWord, bool noising,
                     const std::vector<PatchSite>& sites);

// The pair as patching needs it: both memories, the tokens fed (<START> and the clean caption's
// but the last), the position measured and the two words compared there.
struct PatchPair {
    CaptionTrace clean, corrupt;
    torch::Tensor cleanMemory, corruptMemory;
    std::vector<int64_t> fed;
    int64_t position = 0, cleanWord = 0, corruptWord = 0;
};

// The position (where the captions part unless options.position says), the two words and every
// site of a pair whose traces and memories are known; LibTorch's errors become one line.
PatchReport patchPair(CaptioningTransformerImpl& model, const Vocabulary& vocab, PatchPair p,
                      const PatchOptions& options);

} // namespace cl::explain
