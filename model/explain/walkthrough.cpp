#include "model/explain/walkthrough.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace cl::explain {

namespace {

std::vector<float> values(const torch::Tensor& t) {
    const auto c = t.detach().to(torch::kFloat).contiguous().cpu();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

std::vector<std::vector<float>> rows(const torch::Tensor& t) {
    std::vector<std::vector<float>> out;
    for (int64_t i = 0; i < t.size(0); ++i)
        out.push_back(values(t[i]));
    return out;
}

void check(const ModelConfig& c, const std::vector<int64_t>& fed, const WalkthroughOptions& o) {
    auto range = [](const char* what, int64_t v, int64_t hi) {
        if (v < 0 || v > hi)
            throw std::invalid_argument(std::string(what) + " " + std::to_string(v) +
                                        " is outside 0.." + std::to_string(hi));
    };
    range("layer", o.layer, c.numLayers - 1);
    range("head", o.head, c.numHeads - 1);
    range("step", o.step, static_cast<int64_t>(fed.size()) - 1);
}

} // namespace

AttentionWalkthrough walkthrough(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                                 const std::vector<int64_t>& fed,
                                 const std::vector<std::string>& fedLabels,
                                 const std::vector<std::string>& cellLabels,
                                 const WalkthroughOptions& o) {
    check(model.config(), fed, o);
    const auto start = std::chrono::steady_clock::now();
    c10::InferenceMode inference;
    const auto ids = torch::tensor(fed, torch::kLong).view({1, -1}).to(memory.device());
    const int64_t t = ids.size(1);
    auto x = model.positional_encoding(model.embedding(ids));
    const auto mask = torch::tril(torch::ones({t, t}, x.options()));
    for (int64_t l = 0; l < o.layer; ++l)
        x = model.transformer->layer(size_t(l)).forward(x, memory, mask);
    auto& layer = model.transformer->layer(size_t(o.layer));
    MultiHeadAttention att = o.cross ? layer.cross_attn : layer.self_attn;
    torch::Tensor queryIn = x, keyIn = x;
    if (o.cross) {
        queryIn = layer.norm_self(x + layer.self_attn(x, x, x, mask));
        keyIn = memory;
    }
    AttentionWalkthrough w;
    w.options = o;
    w.headDim = model.config().headDim();
    w.scale = std::sqrt(double(w.headDim));
    const int64_t h0 = o.head * w.headDim;
    const auto q = att->query(queryIn)[0][o.step].narrow(0, h0, w.headDim); // (hs)
    const auto k = att->key(keyIn)[0].narrow(1, h0, w.headDim);             // (K, hs)
    const auto v = att->value(keyIn)[0].narrow(1, h0, w.headDim);
    const auto dots = torch::matmul(k, q); // (K)
    auto hidden = torch::zeros({k.size(0)}, torch::kBool);
    if (!o.cross)
        hidden.slice(0, o.step + 1).fill_(true); // a word never sees the words after it
    hidden = hidden.to(dots.device());
    const auto scaled = dots.masked_fill(hidden, 0) / w.scale;
    const auto weights = torch::softmax(dots.masked_fill(hidden, -INFINITY) / w.scale, 0);
    const auto out = torch::matmul(weights, v); // (hs)
    const auto& keep = att->headMask();
    w.headOff = keep.defined() && keep[o.head].item<double>() == 0.0;
    const auto projBlock = att->proj->weight.narrow(1, h0, w.headDim); // (W, hs)
    const auto contribution = w.headOff ? torch::zeros({projBlock.size(0)}, out.options())
                                        : torch::matmul(projBlock, out);
    const auto block = att(queryIn, keyIn, keyIn, o.cross ? torch::Tensor() : mask)[0][o.step] -
                       att->proj->bias;
    w.query = values(q);
    w.keys = rows(k);
    w.values = rows(v);
    w.keyLabels = o.cross ? cellLabels : fedLabels;
    w.dots = values(dots);
    w.masked.assign(size_t(k.size(0)), 0);
    for (int64_t i = o.cross ? k.size(0) : o.step + 1; i < k.size(0); ++i)
        w.masked[size_t(i)] = 1;
    w.scaled = values(scaled);
    w.weights = values(weights);
    w.output = values(out);
    w.contribution = values(contribution);
    w.contributionNorm = contribution.norm().item<double>();
    w.blockNorm = block.norm().item<double>();
    w.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return w;
}

} // namespace cl::explain
