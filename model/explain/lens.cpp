#include "model/explain/lens.h"

#include "model/explain/head_outputs.h"

#include <stdexcept>

namespace cl::explain {

namespace {

// The residual stream of one sequence as named parts, (K, T, W), plus the biases, (T, W).
struct Stream {
    std::vector<std::string> names;
    std::vector<torch::Tensor> parts; // each (T, W)
    torch::Tensor biases;             // (T, W)

    torch::Tensor sum() const { return torch::stack(parts).sum(0) + biases; }
};

// A post-norm LayerNorm of y = stream + added parts, as a linear map with y's statistics
// frozen: every part is centred and scaled, the shift joins the biases. Returns LN(y).
torch::Tensor normalise(Stream& s, torch::nn::LayerNorm& norm) {
    const auto y = s.sum();
    const auto var = y.var(-1, /*unbiased=*/false, /*keepdim=*/true);
    const auto scale = norm->weight / torch::sqrt(var + norm->options.eps()); // (T, W)
    auto apply = [&](const torch::Tensor& part) {
        return (part - part.mean(-1, true)) * scale;
    };
    for (auto& part : s.parts)
        part = apply(part);
    s.biases = apply(s.biases) + norm->bias;
    return norm(y);
}

void addHeads(Stream& s, const torch::Tensor& heads, const torch::Tensor& bias,
              const std::string& prefix) {
    for (int64_t j = 0; j < heads.size(0); ++j) {
        s.names.push_back(prefix + " H" + std::to_string(j + 1));
        s.parts.push_back(heads[j]);
    }
    s.biases = s.biases + bias;
}

void lensRows(CaptioningTransformerImpl& model, const torch::Tensor& x, int64_t layer,
              const std::vector<std::string>& words, int64_t top, LensReport& out) {
    const auto p = torch::softmax(model.output(x), -1);
    const auto best = p.topk(std::min<int64_t>(top, p.size(-1)), -1);
    const auto values = std::get<0>(best), ids = std::get<1>(best);
    for (int64_t t = 0; t < x.size(0); ++t) {
        LensRow row{layer, t, {}};
        for (int64_t k = 0; k < values.size(1); ++k)
            row.top.push_back({words.at(size_t(ids[t][k].item<int64_t>())),
                               values[t][k].item<double>()});
        out.logitLens.push_back(std::move(row));
    }
}

// One decoder layer, the stream kept as parts; returns the layer's output.
torch::Tensor layerParts(TransformerDecoderLayerImpl& layer, Stream& s, const torch::Tensor& x,
                         const torch::Tensor& memory, const torch::Tensor& mask,
                         const std::string& name) {
    addHeads(s, headOutputs(*layer.self_attn, x.unsqueeze(0), x.unsqueeze(0), mask)[0],
             layer.self_attn->proj->bias, name + " self");
    auto h = normalise(s, layer.norm_self);
    addHeads(s, headOutputs(*layer.cross_attn, h.unsqueeze(0), memory.unsqueeze(0), {})[0],
             layer.cross_attn->proj->bias, name + " cross");
    h = normalise(s, layer.norm_cross);
    auto f = torch::nn::functional::linear(h, layer.fc1()->weight, layer.fc1()->bias);
    f = layer.gelu() ? torch::gelu(f) : torch::relu(f);
    s.names.push_back(name + " FFN");
    s.parts.push_back(torch::matmul(f, layer.fc2()->weight.t()));
    s.biases = s.biases + layer.fc2()->bias;
    return normalise(s, layer.norm_ffn);
}

} // namespace

LensReport logitLens(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                     const std::vector<int64_t>& fed, const std::vector<int64_t>& predicted,
                     const std::vector<std::string>& words, int64_t top) {
    if (fed.empty() || fed.size() != predicted.size())
        throw std::invalid_argument("the lens needs as many predicted tokens as tokens fed in");
    torch::NoGradGuard noGrad;
    const auto t = int64_t(fed.size());
    const auto ids = torch::tensor(fed, torch::kLong).to(memory.device()).unsqueeze(0);
    const auto embedded = model.embedding(ids);
    auto x = model.positional_encoding(embedded)[0]; // (T, W)
    Stream s{{"embedding", "position code"}, {embedded[0], x - embedded[0]}, torch::zeros_like(x)};
    const auto mask = torch::tril(torch::ones({t, t}, x.options()));
    const auto mem = memory[0];
    LensReport out;
    for (int64_t i = 0; i < t; ++i)
        out.words.push_back(words.at(size_t(fed[size_t(i)])));
    lensRows(model, x, 0, words, top, out);
    for (size_t l = 0; l < model.transformer->size(); ++l) {
        x = layerParts(model.transformer->layer(l), s, x, mem, mask, "L" + std::to_string(l + 1));
        lensRows(model, x, int64_t(l) + 1, words, top, out);
    }
    const auto logits = model.output(x); // (T, V)
    const auto& w = model.output->weight;
    for (int64_t i = 0; i < t; ++i) {
        const int64_t word = predicted[size_t(i)];
        LogitAttribution a{i, words.at(size_t(word)), logits[i][word].item<double>(), {}};
        for (size_t k = 0; k < s.parts.size(); ++k)
            a.parts.push_back({s.names[k], torch::dot(w[word], s.parts[k][i]).item<double>()});
        a.parts.push_back({"biases", torch::dot(w[word], s.biases[i]).item<double>() +
                                         model.output->bias[word].item<double>()});
        out.attribution.push_back(std::move(a));
    }
    return out;
}

LensReport lensOfTrace(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                       const torch::Tensor& memory, const CaptionTrace& trace, int64_t top) {
    std::vector<int64_t> fed{vocab.startId()}, predicted;
    for (size_t t = 0; t < trace.steps.size(); ++t) {
        predicted.push_back(trace.steps[t].id);
        if (t + 1 < trace.steps.size())
            fed.push_back(trace.steps[t].id);
    }
    if (predicted.empty())
        throw std::invalid_argument("the caption is empty: nothing to read through the lens");
    try {
        return logitLens(model, memory, fed, predicted, vocab.words(), top);
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("the logit lens failed: ") +
                                 e.what_without_backtrace());
    }
}

} // namespace cl::explain
