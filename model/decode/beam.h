#pragma once
// Beam search over the cached decoder: K hypotheses advance as one batch, their key/value caches
// reordered to follow their parents.
#include "model/core/beam.h"
#include "model/core/vocabulary.h"
#include "model/nn/captioning_transformer.h"

namespace cl {

// memory (1, M, W) of one input. Every candidate of every live hypothesis is weighed each step:
// <END> candidates join the finished list (the best K kept), the best K others stay live. The
// search stops at the length limit, or once K hypotheses have finished and no live one scores
// above the K-th (exact when lengthPenalty is 0: a log-probability only falls as tokens are
// added). Hypotheses cut at the length limit compete unfinished, as greedy decoding's do.
BeamResult beamSearch(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                      const Vocabulary& vocab, const DecodeOptions& options,
                      const BeamOptions& beam);

// The score of a hypothesis of `length` tokens and summed log-probability `logProb`.
double beamScore(double logProb, int64_t length, double lengthPenalty);

} // namespace cl
