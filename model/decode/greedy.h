#pragma once
// Greedy decoding with a full trace (chosen token, its probability, top-k, every attention row).
#include "model/core/trace.h"
#include "model/core/vocabulary.h"
#include "model/nn/captioning_transformer.h"

namespace cl {

// memory (N, M, W) -> N traces, one new position per step through a key/value cache.
std::vector<CaptionTrace> greedyDecode(CaptioningTransformerImpl& model,
                                       const torch::Tensor& memory, const Vocabulary& vocab,
                                       const DecodeOptions& options);

// The same decode re-running the whole prefix each step, like the seed's sample(). The
// reference for the cached decoder (tests) and the baseline of the benchmark.
std::vector<CaptionTrace> greedyDecodeFullRerun(CaptioningTransformerImpl& model,
                                                const torch::Tensor& memory,
                                                const Vocabulary& vocab,
                                                const DecodeOptions& options);

// The most steps a decode may take: the options' length capped by the positional table.
int64_t decodeSteps(const CaptioningTransformerImpl& model, const DecodeOptions& options);

} // namespace cl
