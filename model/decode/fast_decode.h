#pragma once
// Batch-1 greedy decoding on the CPU with one ATen call per weight matrix and plain loops for the
// rest. A batch-1 step is a handful of matrix-vector products; through ATen each small operation
// (a view, a softmax over a few keys, a layer norm of W values) costs about a microsecond of
// dispatch, which was a third of the step. Same arithmetic as the ATen decoder (greedy.cpp's
// CachedSource), checked against it and the full re-run in tst_reference.
#include "model/decode/step_source.h"
#include "model/nn/captioning_transformer.h"

#include <memory>

namespace cl {

// The fast step source for memory (1, M, W) on the CPU in float32 with the model in eval mode;
// nullptr when it does not apply (a batch, a GPU, training, another dtype).
std::unique_ptr<StepSource> fastCpuSource(CaptioningTransformerImpl& model,
                                          const torch::Tensor& memory, int64_t steps);

} // namespace cl
