#pragma once
// Head importance on tensors (model/api/head_importance.h has the plain-value side).
#include "model/core/head_importance.h"
#include "model/core/trace.h"
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

// One batch of 1 + layers x 2 x heads rows over `memory` (1, M, W) scoring `caption` (fed
// <START> and its tokens but the last); its steps before `freeFrom` were forced (no head can
// change them). Throws std::invalid_argument for an empty caption.
HeadImportance headImportance(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                              const CaptionTrace& caption, int64_t startId, size_t freeFrom);

} // namespace cl::explain
