// A counterfactual pair's patching report from its traces and memories (explain/patching.h).
#include "model/explain/patching.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cl::explain {

namespace {

int64_t partingPosition(const CaptionTrace& a, const CaptionTrace& b) {
    for (size_t k = 0; k < std::min(a.steps.size(), b.steps.size()); ++k)
        if (a.steps[k].id != b.steps[k].id)
            return int64_t(k);
    throw std::invalid_argument("the two images get the same caption: choose the word to measure "
                                "(its position in the caption)");
}

// The corrupted run's word at `position` with the clean caption fed: its best word, or its second
// when that is the clean word (a position the user chose, where the two runs agree).
int64_t corruptedChoice(CaptioningTransformerImpl& model, const PatchPair& p) {
    torch::NoGradGuard noGrad;
    const auto ids = torch::tensor(p.fed, torch::kLong).to(p.cleanMemory.device()).unsqueeze(0);
    const auto logits = model.decode(p.corruptMemory, ids)[0][p.position];
    const auto best = std::get<1>(logits.topk(2));
    const int64_t first = best[0].item<int64_t>();
    return first != p.cleanWord ? first : best[1].item<int64_t>();
}

} // namespace

// The position, the two words and every site of a pair whose traces and memories are known.
PatchReport patchPair(CaptioningTransformerImpl& model, const Vocabulary& vocab, PatchPair p,
                      const PatchOptions& options) {
    for (size_t t = 0; t + 1 < p.clean.steps.size(); ++t)
        p.fed.push_back(p.clean.steps[t].id);
    p.position = options.position >= 0 ? options.position : partingPosition(p.clean, p.corrupt);
    if (p.position >= int64_t(p.clean.steps.size()))
        throw std::invalid_argument("the caption has no word " + std::to_string(p.position) +
                                    " (it has " + std::to_string(p.clean.steps.size()) + ")");
    p.cleanWord = p.clean.steps[size_t(p.position)].id;
    p.corruptWord = options.position >= 0 ? corruptedChoice(model, p)
                                          : p.corrupt.steps[size_t(p.position)].id;
    PatchReport r;
    try {
        auto numbers = patchEverySite(model, p.cleanMemory, p.corruptMemory, p.fed,
                                               p.position, p.cleanWord, p.corruptWord,
                                               options.noising);
        r.cleanLogitDiff = numbers.cleanLogitDiff;
        r.corruptLogitDiff = numbers.corruptLogitDiff;
        r.sites = std::move(numbers.sites);
        r.estimateCorrelation = numbers.estimateCorrelation;
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("patching failed: ") + e.what_without_backtrace());
    }
    r.cleanCaption = p.clean.text();
    r.corruptCaption = p.corrupt.text();
    r.position = p.position;
    r.cleanWord = vocab.words().at(size_t(p.cleanWord));
    r.corruptWord = vocab.words().at(size_t(p.corruptWord));
    r.gridSide = p.clean.gridSide;
    r.noising = options.noising;
    return r;
}

} // namespace cl::explain
