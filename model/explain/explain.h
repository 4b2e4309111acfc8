#pragma once
// One word's explanation: every method of api/explain.h on the model's input tensor, with the
// pointing game and the faithfulness curves. The caller has switched the model's heads and
// positional encoding as the caption was decoded, with autograd on (captioner.cpp).
#include "model/core/explain.h"
#include "model/nn/captioning_transformer.h"

namespace cl::explain {

struct ExplainInput {
    torch::Tensor x; // (1, 3, S, S), the model's preprocessed input
    int64_t imageWidth = 0, imageHeight = 0;
    bool letterboxed = false;
    CropRect seen; // the image pixels in x (api/trace.h)
    int64_t startId = 0;
};

// Throws std::invalid_argument for a word, layer, head or step count out of range.
void checkExplainOptions(const ModelConfig& c, const CaptionTrace& trace, const ExplainOptions& o);

Explanation explainWord(CaptioningTransformerImpl& model, const ExplainInput& in,
                        const CaptionTrace& trace, const ExplainOptions& o);

} // namespace cl::explain
