#include "model/io/model_io.h"

#include "model/core/errors.h"
#include "model/core/fail.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

namespace cl {

namespace {

std::string shapeText(c10::IntArrayRef s) {
    return c10::str(s);
}

} // namespace

// A config naming ffn_dim 2^22 over small tensors used to allocate 4.4 GB and fail only after.
void checkConfigAgainstTensors(const ModelConfig& c, const StateDict& sd) {
    std::set<int64_t> sizes;
    int64_t layers = 0;
    const std::string prefix = "transformer.layers.";
    for (const auto& [name, t] : sd) {
        for (auto d : t.sizes())
            sizes.insert(d);
        if (name.compare(0, prefix.size(), prefix) == 0)
            layers = std::max<int64_t>(layers, std::atoll(name.c_str() + prefix.size()) + 1);
    }
    auto need = [&](int64_t value, const std::string& what) {
        if (!sizes.count(value))
            fail("the checkpoint's config says " + what + " " + std::to_string(value) +
                 ", but none of its tensors has that size (a damaged or foreign config)");
    };
    need(c.vocabSize, "vocab_size");
    need(c.wordvecDim, "wordvec_dim");
    need(c.inputDim, "input_dim");
    need(c.ffnDim, "ffn_dim");
    need(c.maxLength, "max_length");
    if (c.memory == MemoryKind::ImageGrid) {
        need(c.encoder.channels, "encoder_channels");
        need(c.encoder.grid * c.encoder.grid, "encoder_grid squared");
    }
    if (layers != c.numLayers)
        fail("the checkpoint's config says " + std::to_string(c.numLayers) +
             " layers, but its tensors hold " + std::to_string(layers));
}

StateDict stateDictOf(const torch::nn::Module& model) {
    StateDict out;
    for (const auto& p : model.named_parameters())
        out.emplace_back(p.key(), p.value());
    for (const auto& b : model.named_buffers())
        out.emplace_back(b.key(), b.value());
    return out;
}

std::vector<std::string> loadStateDict(torch::nn::Module& model, const StateDict& sd) {
    std::map<std::string, torch::Tensor> given(sd.begin(), sd.end());
    std::vector<std::string> warnings;
    torch::NoGradGuard noGrad;
    for (auto& [name, target] : stateDictOf(model)) {
        auto it = given.find(name);
        if (it == given.end())
            fail("the checkpoint lacks the key " + name + " that a model with this config has");
        auto src = it->second;
        if (!src.is_floating_point())
            fail("checkpoint key " + printable(name) + " holds " +
                 c10::toString(src.scalar_type()) + " values, not floating point");
        // Some saved files keep the positional table as (max_len, W) instead of (1, max_len, W).
        if (src.dim() + 1 == target.dim() && target.size(0) == 1)
            src = src.unsqueeze(0);
        if (src.sizes() != target.sizes())
            fail("checkpoint key " + printable(name) + " has shape " + shapeText(src.sizes()) +
                 " but the model expects " + shapeText(target.sizes()));
        if (!torch::isfinite(src).all().item<bool>())
            warnings.push_back("checkpoint key " + name + " holds NaN or infinite values");
        target.copy_(src.to(target.dtype()));
        given.erase(it);
    }
    if (!given.empty())
        fail("checkpoint key " + printable(given.begin()->first) +
             " is not part of a model with this config (wrong layer count or layout?)");
    return warnings;
}

CaptioningTransformer buildModel(const Checkpoint& ck, int64_t nullId,
                                 std::vector<std::string>* warnings) {
    checkConfigAgainstTensors(ck.config, ck.stateDict);
    CaptioningTransformer model(ck.config, nullId);
    auto w = loadStateDict(*model, ck.stateDict);
    if (warnings)
        *warnings = std::move(w);
    model->eval();
    return model;
}

} // namespace cl
