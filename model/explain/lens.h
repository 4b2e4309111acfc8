#pragma once
// The logit lens and direct logit attribution (core/lens.h) on tensors: one teacher-forced pass
// over the tokens fed in, the residual stream kept as a sum of named parts through every
// LayerNorm with its statistics frozen.
#include "model/core/lens.h"
#include "model/core/trace.h"
#include "model/core/vocabulary.h"
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

// memory (1, M, W); fed: <START> and the caption's tokens, (T); predicted: the token each
// position predicts (the caption's, then <END>), (T); words: the vocabulary. Eval mode.
LensReport logitLens(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                     const std::vector<int64_t>& fed, const std::vector<int64_t>& predicted,
                     const std::vector<std::string>& words, int64_t top);

// The lens of a decoded caption over `memory`: fed <START> and the caption's tokens but the last,
// each position predicting the caption's next token. LibTorch's errors become one line.
LensReport lensOfTrace(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                       const torch::Tensor& memory, const CaptionTrace& trace, int64_t top);

} // namespace cl::explain
