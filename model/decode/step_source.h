#pragma once
// What greedy decoding asks of a decoder, one step at a time (greedy.cpp, fast_decode.cpp).
#include <torch/torch.h>

namespace cl {

// What one step produces for the whole batch.
struct StepOutput {
    torch::Tensor logits; // (N, V)
    torch::Tensor self;   // (N, L, H, t + 1)
    torch::Tensor cross;  // (N, L, H, M)
};

class StepSource {
  public:
    virtual ~StepSource() = default;
    virtual StepOutput next(const torch::Tensor& tokens) = 0; // tokens (N, 1): fed at step t
};

} // namespace cl
