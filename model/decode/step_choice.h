#pragma once
// The token a greedy step picks and the candidates the trace shows, from that step's logits.
#include <torch/torch.h>

namespace cl {

// CPU tensors, contiguous: ids (N) int64, prob (N, 1) float, topP/topI (N, K).
struct StepChoice {
    torch::Tensor ids, prob, topP, topI;
};

// softmax over the vocabulary, argmax (or `forced` when >= 0), its probability and the top k.
// NaN counts as the largest value, as in ATen's argmax and topk.
StepChoice chooseTokens(const torch::Tensor& logits, int64_t k, int64_t forced);

} // namespace cl
