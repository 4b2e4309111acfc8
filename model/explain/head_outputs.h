#pragma once
// Each head's output of an attention block, value bias included, before the heads are summed:
// the heads plus the output projection's bias are the block's output. For the logit lens, direct
// logit attribution and activation patching.
#include "model/nn/attention.h"

namespace cl::explain {

// x (N, T, W) queries, kv (N, M, W) keys and values, mask (T, M) of 1 = may attend, or
// undefined -> (N, H, T, W). A head switched off (the attention's head mask) gives zeros.
torch::Tensor headOutputs(MultiHeadAttentionImpl& attn, const torch::Tensor& x,
                          const torch::Tensor& kv, const torch::Tensor& mask);

} // namespace cl::explain
