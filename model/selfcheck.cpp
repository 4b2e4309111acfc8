// selfCheck() of benchmark.h: invariants of the model on any device, no files needed.
#include "benchmark.h"

#include "captioning_transformer.h"
#include "greedy.h"

namespace cl {

std::vector<std::string> selfCheck(const std::string& device) {
    std::vector<std::string> failures;
    auto check = [&](bool ok, const std::string& what) {
        if (!ok)
            failures.push_back(what);
    };
    const torch::Device d = device == "cuda" ? torch::kCUDA : torch::kCPU;
    if (d.is_cuda() && !torch::cuda::is_available())
        return {"cuda is not available"};
    ModelConfig c;
    c.vocabSize = 12;
    c.inputDim = 16;
    c.wordvecDim = 16;
    c.numHeads = 4;
    c.numLayers = 2;
    c.ffnDim = 32;
    c.maxLength = 10;
    std::vector<std::string> words = {"<NULL>", "<START>", "<END>", "<UNK>"};
    for (int i = 4; i < 12; ++i)
        words.push_back("w" + std::to_string(i));
    const Vocabulary vocab(words);
    torch::manual_seed(5);
    CaptioningTransformer model(c, vocab.nullId());
    {
        torch::NoGradGuard ng;
        for (auto& p : model->parameters())
            p.normal_(0, 0.4);
    }
    model->eval();
    model->to(d);
    torch::InferenceMode guard;
    const auto memory = torch::randn({3, 9, 16}, torch::TensorOptions().device(d));
    DecodeOptions opt;
    opt.maxLength = 10;
    opt.stopAtEnd = false;
    const auto a = greedyDecode(*model, memory, vocab, opt);
    const auto b = greedyDecodeFullRerun(*model, memory, vocab, opt);
    for (size_t n = 0; n < a.size(); ++n)
        for (size_t t = 0; t < a[n].steps.size(); ++t) {
            const auto &x = a[n].steps[t], &y = b[n].steps[t];
            check(x.id == y.id, "cached and full decodes chose different tokens");
            float diff = 0, rowSum = 0;
            for (size_t i = 0; i < x.selfAttn.size(); ++i)
                diff = std::max(diff, std::abs(x.selfAttn[i] - y.selfAttn[i]));
            for (size_t i = 0; i < x.crossAttn.size(); ++i)
                diff = std::max(diff, std::abs(x.crossAttn[i] - y.crossAttn[i]));
            for (size_t i = 0; i <= t; ++i)
                rowSum += x.selfAttn[i];
            check(diff < 1e-5f, "cached and full attention differ by " + std::to_string(diff));
            check(std::abs(rowSum - 1.f) < 1e-5f, "a self-attention row does not sum to 1");
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
