#pragma once
// What one decode call of the Captioner facade switches on the shared model, undone when it
// returns (RAII): inference mode, the positional encoding, the heads switched off.
#include "model/core/trace.h"
#include "model/nn/captioning_transformer.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace cl {

// Everything one decode call switches on the shared model, undone when it returns: inference
// mode, the positional encoding, and the heads the options switch off (their output zeroed).
class DecodeScope {
  public:
    // `inference` false: autograd stays on (explanations take gradients).
    DecodeScope(CaptioningTransformer& m, const DecodeOptions& options, bool inference = true)
        : m_inference(inference), m_model(m) {
        const auto& c = m->config();
        const auto& off = options.headsOff;
        // Checked before anything changes: a constructor that throws runs no destructor.
        if (!off.empty() && static_cast<int64_t>(off.size()) != c.numLayers * 2 * c.numHeads)
            throw std::invalid_argument("head mask has " + std::to_string(off.size()) +
                                        " entries; this model needs layers x 2 x heads = " +
                                        std::to_string(c.numLayers * 2 * c.numHeads));
        if (!off.empty())
            switchHeadsOff(off);
        m_model->positional_encoding->setEnabled(options.positionalEncoding);
    }
    ~DecodeScope() {
        m_model->positional_encoding->setEnabled(true);
        for (size_t l = 0; l < m_model->transformer->size(); ++l) {
            m_model->transformer->layer(l).self_attn->setHeadMask({});
            m_model->transformer->layer(l).cross_attn->setHeadMask({});
        }
    }
    DecodeScope(const DecodeScope&) = delete;
    DecodeScope& operator=(const DecodeScope&) = delete;

  private:
    void switchHeadsOff(const std::vector<uint8_t>& off) {
        const auto& c = m_model->config();
        const auto device = m_model->parameters().front().device();
        for (int64_t l = 0; l < c.numLayers; ++l) {
            auto& layer = m_model->transformer->layer(static_cast<size_t>(l));
            for (int kind = 0; kind < 2; ++kind) {
                auto keep = torch::ones({c.numHeads});
                for (int64_t h = 0; h < c.numHeads; ++h)
                    if (off[static_cast<size_t>((l * 2 + kind) * c.numHeads + h)])
                        keep[h] = 0.0;
                (kind == 0 ? layer.self_attn : layer.cross_attn)->setHeadMask(keep.to(device));
            }
        }
    }

    c10::InferenceMode m_inference; // first: the masks above are made inside it
    CaptioningTransformer& m_model;
};

} // namespace cl
