#pragma once
// The Q . K walkthrough (api/walkthrough.h) on tensors: a teacher-forced pass up to the chosen
// layer, then the chosen head's numbers step by step.
#include "model/core/walkthrough.h"
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

// memory (1, M, W); fed: the tokens fed in at positions 0..T-1 (<START> and the caption's words);
// keyLabels: the labels of memory's M cells (cross-attention). Throws std::invalid_argument for
// a layer, head or step out of range.
AttentionWalkthrough walkthrough(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                                 const std::vector<int64_t>& fed,
                                 const std::vector<std::string>& fedLabels,
                                 const std::vector<std::string>& cellLabels,
                                 const WalkthroughOptions& o);

} // namespace cl::explain
