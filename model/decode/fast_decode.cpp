#include "model/decode/fast_decode.h"

#include "model/nn/attention_cpu.h"

#include <cmath>
#include <vector>

namespace cl {

namespace {

struct Norm {
    const float *gamma, *beta;
    double eps;
};

Norm normOf(const torch::nn::LayerNorm& n) {
    return {n->weight.data_ptr<float>(), n->bias.data_ptr<float>(), n->options.eps()};
}

// x = LayerNorm(x + r), as torch's layer_norm: population variance, eps inside the root.
void addNorm(float* x, const float* r, int64_t n, const Norm& norm) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) {
        x[i] += r[i];
        mean += x[i];
    }
    mean /= n;
    for (int64_t i = 0; i < n; ++i)
        var += (x[i] - mean) * (x[i] - mean);
    const float m = static_cast<float>(mean),
                rstd = static_cast<float>(1.0 / std::sqrt(var / n + norm.eps));
    for (int64_t i = 0; i < n; ++i)
        x[i] = (x[i] - m) * rstd * norm.gamma[i] + norm.beta[i];
}

std::vector<float> keepOf(const MultiHeadAttentionImpl& a) {
    std::vector<float> keep(static_cast<size_t>(a.numHeads()), 1.f);
    if (a.headMask().defined()) {
        const auto m = a.headMask().to(torch::kFloat).contiguous();
        keep.assign(m.data_ptr<float>(), m.data_ptr<float>() + m.numel());
    }
    return keep;
}

struct Layer {
    const FastLayerWeights* w;
    Norm normSelf, normCross, normFfn;
    torch::Tensor crossK, crossV;                         // (H, M, hs)
    std::vector<float> selfK, selfV, selfKeep, crossKeep; // keys/values [H][capacity][hs]
    bool gelu = false;
};

Layer layerOf(TransformerDecoderLayerImpl& l, const FastLayerWeights& w,
              const torch::Tensor& memory, int64_t steps) {
    Layer r;
    auto& s = *l.self_attn;
    auto& c = *l.cross_attn;
    r.w = &w;
    r.normSelf = normOf(l.norm_self);
    r.normCross = normOf(l.norm_cross);
    r.normFfn = normOf(l.norm_ffn);
    const auto kv = c.project(memory, memory);
    r.crossK = kv.k.squeeze(0).contiguous();
    r.crossV = kv.v.squeeze(0).contiguous();
    const auto width = s.proj->weight.size(0);
    r.selfK.assign(static_cast<size_t>(steps * width), 0.f);
    r.selfV = r.selfK;
    r.selfKeep = keepOf(s);
    r.crossKeep = keepOf(c);
    r.gelu = l.gelu();
    return r;
}

class FastCpuSource final : public StepSource {
  public:
    FastCpuSource(CaptioningTransformerImpl& model, const torch::Tensor& memory, int64_t steps)
        : m_model(model), m_width(model.config().wordvecDim), m_heads(model.config().numHeads),
          m_hs(m_width / m_heads), m_memory(memory.size(1)), m_capacity(steps),
          m_scale(static_cast<float>(1.0 / std::sqrt(static_cast<double>(m_hs)))), m_x(m_width),
          m_r(m_width), m_att(m_width), m_qkv(3 * m_width), m_ffn(model.config().ffnDim),
          m_weights(fastWeightsOf(model)) {
        for (size_t l = 0; l < model.transformer->size(); ++l)
            m_layers.push_back(
                layerOf(model.transformer->layer(l), m_weights->layers[l], memory, steps));
    }

    StepOutput next(const torch::Tensor& tokens) override {
        TORCH_CHECK(m_t < m_capacity, "decode cache is full (", m_t, ")");
        embed(tokens.item<int64_t>());
        const int64_t layers = static_cast<int64_t>(m_layers.size());
        auto self = torch::empty({1, layers, m_heads, m_t + 1});
        auto cross = torch::empty({1, layers, m_heads, m_memory});
        for (int64_t l = 0; l < layers; ++l) {
            auto& layer = m_layers[static_cast<size_t>(l)];
            selfBlock(layer, self.data_ptr<float>() + l * m_heads * (m_t + 1));
            crossBlock(layer, cross.data_ptr<float>() + l * m_heads * m_memory);
            ffnBlock(layer);
        }
        FastVector logits(m_weights->output.outputs());
        m_weights->output(m_x, logits);
        ++m_t;
        return {logits.t.view({1, -1}), self, cross};
    }

  private:
    // x = embedding[id] + pe[t] (the ablation leaves pe out).
    void embed(int64_t id) {
        const auto& e = m_model.embedding->weight;
        TORCH_CHECK(id >= 0 && id < e.size(0), "token id ", id, " out of range");
        const float* row = e.data_ptr<float>() + id * m_width;
        const auto& pe = *m_model.positional_encoding;
        const float* p = pe.pe.data_ptr<float>() + m_t * m_width;
        for (int64_t i = 0; i < m_width; ++i)
            m_x.p[i] = pe.enabled() ? row[i] + p[i] : row[i];
    }

    void selfBlock(Layer& l, float* weights) {
        l.w->qkv(m_x, m_qkv);
        for (int64_t h = 0; h < m_heads; ++h) {
            const int64_t at = (h * m_capacity + m_t) * m_hs;
            std::copy_n(m_qkv.p + m_width + h * m_hs, m_hs, l.selfK.data() + at);
            std::copy_n(m_qkv.p + 2 * m_width + h * m_hs, m_hs, l.selfV.data() + at);
        }
        for (int64_t h = 0; h < m_heads; ++h) {
            const int64_t base = h * m_capacity * m_hs;
            attendHead(m_qkv.p + h * m_hs, l.selfK.data() + base, l.selfV.data() + base, m_t + 1,
                       m_hs, m_hs, m_scale, l.selfKeep[h], weights + h * (m_t + 1),
                       m_att.p + h * m_hs);
        }
        l.w->selfProj(m_att, m_r);
        addNorm(m_x.p, m_r.p, m_width, l.normSelf);
    }

    void crossBlock(Layer& l, float* weights) {
        l.w->crossQuery(m_x, m_r);
        const float* k = l.crossK.data_ptr<float>();
        const float* v = l.crossV.data_ptr<float>();
        for (int64_t h = 0; h < m_heads; ++h) {
            const int64_t base = h * m_memory * m_hs;
            attendHead(m_r.p + h * m_hs, k + base, v + base, m_memory, m_hs, m_hs, m_scale,
                       l.crossKeep[h], weights + h * m_memory, m_att.p + h * m_hs);
        }
        l.w->crossProj(m_att, m_r);
        addNorm(m_x.p, m_r.p, m_width, l.normCross);
    }

    void ffnBlock(Layer& l) {
        l.w->fc1(m_x, m_ffn);
        const int64_t n = m_ffn.t.numel();
        for (int64_t i = 0; i < n; ++i) {
            const float f = m_ffn.p[i];
            m_ffn.p[i] =
                l.gelu ? 0.5f * f * (1.f + std::erf(f * 0.70710678118654752f)) : std::max(f, 0.f);
        }
        l.w->fc2(m_ffn, m_r);
        addNorm(m_x.p, m_r.p, m_width, l.normFfn);
    }

    CaptioningTransformerImpl& m_model;
    const int64_t m_width, m_heads, m_hs, m_memory, m_capacity;
    const float m_scale;
    int64_t m_t = 0;
    FastVector m_x, m_r, m_att, m_qkv, m_ffn;
    std::shared_ptr<const FastWeights> m_weights;
    std::vector<Layer> m_layers;
};

bool allFloat(CaptioningTransformerImpl& model) {
    for (const auto& p : model.parameters())
        if (p.scalar_type() != torch::kFloat || !p.device().is_cpu() || !p.is_contiguous())
            return false;
    return true;
}

} // namespace

std::unique_ptr<StepSource> fastCpuSource(CaptioningTransformerImpl& model,
                                          const torch::Tensor& memory, int64_t steps) {
    if (model.is_training() || memory.size(0) != 1 || !memory.device().is_cpu() ||
        memory.scalar_type() != torch::kFloat || !allFloat(model))
        return nullptr;
    return std::make_unique<FastCpuSource>(model, memory, steps);
}

} // namespace cl
