// selfCheck() of benchmark.h: invariants of the model on any device, no files needed.
#include "model/bench/benchmark.h"

#include "model/decode/greedy.h"
#include "model/nn/captioning_transformer.h"

#include <functional>

namespace cl {

namespace {

using Check = std::function<void(bool, const std::string&)>;

// Two decodes of the same rows: same tokens, attention within 1e-5, rows summing to 1.
void compareTraces(const CaptionTrace& x, const CaptionTrace& y, const std::string& what,
                   const Check& check) {
    check(x.steps.size() == y.steps.size(), what + ": different lengths");
    for (size_t t = 0; t < std::min(x.steps.size(), y.steps.size()); ++t) {
        const auto &a = x.steps[t], &b = y.steps[t];
        check(a.id == b.id, what + ": different tokens");
        float diff = std::abs(a.prob - b.prob), rowSum = 0;
        for (size_t i = 0; i < std::min(a.selfAttn.size(), b.selfAttn.size()); ++i)
            diff = std::max(diff, std::abs(a.selfAttn[i] - b.selfAttn[i]));
        for (size_t i = 0; i < std::min(a.crossAttn.size(), b.crossAttn.size()); ++i)
            diff = std::max(diff, std::abs(a.crossAttn[i] - b.crossAttn[i]));
        for (size_t i = 0; i <= t && i < a.selfAttn.size(); ++i)
            rowSum += a.selfAttn[i];
        check(diff < 1e-5f,
              what + ": attention or probabilities differ by " + std::to_string(diff));
        check(std::abs(rowSum - 1.f) < 1e-5f, what + ": a self-attention row does not sum to 1");
    }
}

CaptioningTransformer randomModel(const ModelConfig& c, const Vocabulary& vocab,
                                  const torch::Device& d) {
    torch::manual_seed(5);
    CaptioningTransformer model(c, vocab.nullId());
    {
        torch::NoGradGuard ng;
        for (auto& p : model->parameters())
            p.normal_(0, 0.4);
    }
    model->eval();
    model->to(d);
    return model;
}

} // namespace

std::vector<std::string> selfCheck(const std::string& device) {
    std::vector<std::string> failures;
    const Check check = [&](bool ok, const std::string& what) {
        if (!ok)
            failures.push_back(what);
    };
    const torch::Device d = device == "cuda" ? torch::kCUDA : torch::kCPU;
    if (d.is_cuda() && !torch::cuda::is_available())
        return {"cuda is not available"};
    ModelConfig c = presets::tinyTest();
    c.numHeads = 4; // more heads than the goldens' two: every head split is exercised
    const Vocabulary vocab = Vocabulary::numbered(c.vocabSize);
    auto model = randomModel(c, vocab, d);
    torch::InferenceMode guard;
    const auto memory = torch::randn({3, 9, 16}, torch::TensorOptions().device(d));
    DecodeOptions opt;
    opt.maxLength = 10;
    opt.stopAtEnd = false;
    const auto a = greedyDecode(*model, memory, vocab, opt);
    const auto b = greedyDecodeFullRerun(*model, memory, vocab, opt);
    for (size_t n = 0; n < a.size(); ++n) {
        compareTraces(a[n], b[n], "cached and full decodes", check);
        // One row alone takes the batch-1 path (on the CPU: fast_decode.cpp).
        const auto one = greedyDecode(*model, memory.narrow(0, int64_t(n), 1), vocab, opt);
        compareTraces(one[0], a[n], "one row alone and in a batch", check);
    }
    std::vector<LayerAttention> w;
    model->decode(memory, torch::ones({3, 5}, torch::TensorOptions().dtype(torch::kLong).device(d)),
                  &w);
    check(torch::triu(w[0].self, 1).abs().max().item<float>() == 0.f,
          "the causal upper triangle is not 0");
    const auto pe0 = model->positional_encoding->pe[0][0].cpu();
    check(pe0[0].item<float>() == 0.f && pe0[1].item<float>() == 1.f,
          "PE row 0 is not [0, 1, ...]");
    return failures;
}

} // namespace cl
