#include "model/explain/head_importance.h"

#include <stdexcept>

namespace cl::explain {

namespace {

// Row 0 keeps every head; row 1 + (layer * 2 + kind) * H + h zeroes that one head. Set on every
// attention layer for one teacher-forced batch, cleared on leaving.
class OneHeadOffPerRow {
  public:
    explicit OneHeadOffPerRow(CaptioningTransformerImpl& model) : m_model(model) {
        const auto& c = model.config();
        const int64_t heads = c.numHeads, rows = 1 + c.numLayers * 2 * heads;
        const auto device = model.parameters().front().device();
        for (int64_t l = 0; l < c.numLayers; ++l)
            for (int64_t kind = 0; kind < 2; ++kind) {
                auto keep = torch::ones({rows, heads});
                for (int64_t h = 0; h < heads; ++h)
                    keep[1 + (l * 2 + kind) * heads + h][h] = 0.0;
                attention(l, kind)->setHeadMask(keep.to(device));
            }
    }
    ~OneHeadOffPerRow() {
        for (int64_t l = 0; l < m_model.config().numLayers; ++l)
            for (int64_t kind = 0; kind < 2; ++kind)
                attention(l, kind)->setHeadMask({});
    }
    OneHeadOffPerRow(const OneHeadOffPerRow&) = delete;
    OneHeadOffPerRow& operator=(const OneHeadOffPerRow&) = delete;

  private:
    MultiHeadAttention& attention(int64_t layer, int64_t kind) {
        auto& l = m_model.transformer->layer(static_cast<size_t>(layer));
        return kind == 0 ? l.self_attn : l.cross_attn;
    }
    CaptioningTransformerImpl& m_model;
};

} // namespace

HeadImportance headImportance(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                              const CaptionTrace& caption, int64_t startId, size_t freeFrom) {
    if (caption.steps.empty())
        throw std::invalid_argument("head importance needs a caption of at least one word");
    std::vector<int64_t> fed{startId}, targets;
    HeadImportance out;
    for (const auto& s : caption.steps) {
        targets.push_back(s.id);
        out.tokens.push_back(s.token);
        if (fed.size() < caption.steps.size())
            fed.push_back(s.id);
    }
    const auto& c = model.config();
    out.layers = c.numLayers;
    out.heads = c.numHeads;
    const int64_t rows = 1 + c.numLayers * 2 * c.numHeads, t = int64_t(fed.size());
    const auto device = memory.device();
    const auto captions =
        torch::tensor(fed, torch::kLong).to(device).view({1, t}).expand({rows, t});
    torch::Tensor scores;
    {
        OneHeadOffPerRow masks(model);
        scores = model.decode(memory.expand({rows, memory.size(1), memory.size(2)}), captions);
    }
    const auto want = torch::tensor(targets, torch::kLong).to(device).view({1, t, 1});
    const auto logp = torch::log_softmax(scores.to(torch::kDouble), -1)
                          .gather(2, want.expand({rows, t, 1}))
                          .squeeze(2)
                          .sum(1)
                          .cpu();
    const auto differs = scores.argmax(-1).ne(want.view({1, t})).cpu(); // (rows, t)
    out.logProb = logp[0].item<double>();
    for (int64_t r = 1; r < rows; ++r) {
        out.drop.push_back(out.logProb - logp[r].item<double>());
        int64_t at = -1;
        for (int64_t s = int64_t(freeFrom); s < t && at < 0; ++s)
            if (differs[r][s].item<bool>())
                at = s;
        out.changesAt.push_back(at);
    }
    return out;
}

} // namespace cl::explain
