#pragma once
// The trainer's loss per caption word: cross-entropy, optionally focal (Lin et al. 2017).
#include <torch/torch.h>

namespace cl {

// scores (N, T, V) and target (N, T) -> (N * T) cross-entropy terms, 0 where the target is <NULL>.
inline torch::Tensor wordLosses(const torch::Tensor& scores, const torch::Tensor& target,
                                int64_t nullId) {
    namespace F = torch::nn::functional;
    return F::cross_entropy(
        scores.reshape({-1, scores.size(-1)}), target.reshape({-1}),
        F::CrossEntropyFuncOptions().ignore_index(nullId).reduction(torch::kNone));
}

// Those terms scaled by (1 - p)^focal, p = exp(-term) the probability given to the right word:
// words the model already gets right weigh less, the hard ones (a faint outline's shape, a small
// object's colour) more. focal 0: the terms unchanged.
inline torch::Tensor focalTerms(const torch::Tensor& ce, double focal) {
    return focal > 0 ? ce * (1 - torch::exp(-ce)).pow(focal) : ce;
}

} // namespace cl
