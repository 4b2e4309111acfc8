#include "model/decode/greedy.h"

#include "model/decode/fast_decode.h"
#include "model/nn/linear_rows.h"
#include "model/decode/step_choice.h"
#include "model/decode/step_source.h"

#include <stdexcept>

namespace cl {

namespace {

class CachedSource final : public StepSource {
  public:
    CachedSource(CaptioningTransformerImpl& model, const torch::Tensor& memory, int64_t steps)
        : m_model(model) {
        for (size_t l = 0; l < model.transformer->size(); ++l) {
            auto& layer = model.transformer->layer(l);
            m_cross.push_back(layer.cross_attn->project(memory, memory));
            m_self.push_back(layer.self_attn->selfCache(memory.size(0), steps, memory.options()));
        }
    }
    StepOutput next(const torch::Tensor& tokens) override {
        auto x = m_model.positional_encoding(m_model.embedding(tokens), m_t++); // (N, 1, W)
        std::vector<torch::Tensor> self, cross;
        for (size_t l = 0; l < m_self.size(); ++l) {
            LayerAttention w;
            x = m_model.transformer->layer(l).step(x, m_self[l], m_cross[l], &w);
            self.push_back(w.self.squeeze(2));   // (N, H, t + 1)
            cross.push_back(w.cross.squeeze(2)); // (N, H, M)
        }
        return {linearRows(x, m_model.output).squeeze(1), torch::stack(self, 1),
                torch::stack(cross, 1)};
    }

  private:
    CaptioningTransformerImpl& m_model;
    std::vector<KVCache> m_self, m_cross;
    int64_t m_t = 0;
};

class FullRerunSource final : public StepSource {
  public:
    FullRerunSource(CaptioningTransformerImpl& model, const torch::Tensor& memory)
        : m_model(model), m_memory(memory) {}
    StepOutput next(const torch::Tensor& tokens) override {
        m_prefix = m_prefix.defined() ? torch::cat({m_prefix, tokens}, 1) : tokens;
        std::vector<LayerAttention> w;
        auto scores = m_model.decode(m_memory, m_prefix, &w); // (N, T, V)
        std::vector<torch::Tensor> self, cross;
        for (const auto& lw : w) {
            self.push_back(lw.self.select(2, -1));   // last query row (N, H, T)
            cross.push_back(lw.cross.select(2, -1)); // (N, H, M)
        }
        return {scores.select(1, -1), torch::stack(self, 1), torch::stack(cross, 1)};
    }

  private:
    CaptioningTransformerImpl& m_model;
    torch::Tensor m_memory, m_prefix;
};

std::vector<CaptionTrace> run(StepSource& source, CaptioningTransformerImpl& model,
                              const torch::Tensor& memory, const Vocabulary& vocab,
                              const DecodeOptions& opt) {
    const auto& c = model.config();
    const int64_t n = memory.size(0), steps = decodeSteps(model, opt);
    const int64_t k = std::min<int64_t>(std::max<int64_t>(opt.topK, 1), c.vocabSize);
    for (auto id : opt.forcedPrefix)
        if (id < 0 || id >= c.vocabSize)
            throw std::invalid_argument("forced token id out of range");
    std::vector<CaptionTrace> traces(static_cast<size_t>(n));
    for (auto& tr : traces) {
        tr.layers = c.numLayers;
        tr.heads = c.numHeads;
        tr.memoryTokens = memory.size(1);
        tr.gridSide = c.memory == MemoryKind::ImageGrid ? c.encoder.grid : 0;
        tr.inputSide = c.memory == MemoryKind::ImageGrid ? c.encoder.imageSize : 0;
        tr.letterboxed = c.memory == MemoryKind::ImageGrid && c.encoder.letterbox;
    }
    std::vector<bool> done(static_cast<size_t>(n), false);
    auto tokens =
        torch::full({n, 1}, vocab.startId(), torch::dtype(torch::kLong).device(memory.device()));
    for (int64_t t = 0; t < steps; ++t) {
        auto out = source.next(tokens);
        const int64_t forced =
            t < static_cast<int64_t>(opt.forcedPrefix.size()) ? opt.forcedPrefix[t] : -1;
        // Everything the trace keeps comes to the CPU once per step, as contiguous blocks read
        // through raw pointers: per-element tensor indexing costs more than the model at batch 64.
        const auto choice = chooseTokens(out.logits, k, forced);
        const auto self = out.self.to(torch::kCPU, torch::kFloat).contiguous(),
                   cross = out.cross.to(torch::kCPU, torch::kFloat).contiguous();
        const auto logits = opt.keepLogits ? out.logits.to(torch::kCPU, torch::kFloat).contiguous()
                                           : torch::Tensor();
        const int64_t* ids = choice.ids.data_ptr<int64_t>();
        const float* pChosen = choice.prob.data_ptr<float>();
        const float* pTop = choice.topP.data_ptr<float>();
        const int64_t* iTop = choice.topI.data_ptr<int64_t>();
        const int64_t selfSize = self.numel() / n, crossSize = cross.numel() / n;
        const float* pSelf = self.data_ptr<float>();
        const float* pCross = cross.data_ptr<float>();
        bool allDone = true;
        for (int64_t b = 0; b < n; ++b) {
            if (done[b])
                continue;
            DecodeStep s;
            s.id = ids[b];
            s.token = vocab.word(s.id);
            s.prob = pChosen[b];
            s.forced = t < static_cast<int64_t>(opt.forcedPrefix.size());
            s.topK.reserve(static_cast<size_t>(k));
            for (int64_t j = 0; j < k; ++j)
                s.topK.push_back({iTop[b * k + j], vocab.word(iTop[b * k + j]), pTop[b * k + j]});
            s.selfAttn.assign(pSelf + b * selfSize, pSelf + (b + 1) * selfSize);
            s.crossAttn.assign(pCross + b * crossSize, pCross + (b + 1) * crossSize);
            if (logits.defined()) {
                const int64_t v = logits.size(1);
                const float* pl = logits.data_ptr<float>() + b * v;
                s.logits.assign(pl, pl + v);
            }
            traces[b].steps.push_back(std::move(s));
            done[b] = opt.stopAtEnd && traces[b].steps.back().id == vocab.endId();
            allDone = allDone && done[b];
        }
        if (allDone)
            break;
        tokens = choice.ids.view({n, 1}).to(memory.device());
    }
    return traces;
}

} // namespace

int64_t decodeSteps(const CaptioningTransformerImpl& model, const DecodeOptions& options) {
    if (options.maxLength < 1)
        throw std::invalid_argument("max length must be at least 1");
    return std::min(options.maxLength, model.positional_encoding->maxLength());
}

std::vector<CaptionTrace> greedyDecode(CaptioningTransformerImpl& model,
                                       const torch::Tensor& memory, const Vocabulary& vocab,
                                       const DecodeOptions& options) {
    torch::InferenceMode guard;
    const int64_t steps = decodeSteps(model, options);
    if (auto fast = fastCpuSource(model, memory, steps))
        return run(*fast, model, memory, vocab, options);
    CachedSource source(model, memory, steps);
    return run(source, model, memory, vocab, options);
}

std::vector<CaptionTrace> greedyDecodeFullRerun(CaptioningTransformerImpl& model,
                                                const torch::Tensor& memory,
                                                const Vocabulary& vocab,
                                                const DecodeOptions& options) {
    torch::InferenceMode guard;
    FullRerunSource source(model, memory);
    return run(source, model, memory, vocab, options);
}

} // namespace cl
