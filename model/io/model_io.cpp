#include "model/io/model_io.h"

#include <map>
#include <stdexcept>

namespace cl {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

std::string shapeText(c10::IntArrayRef s) {
    return c10::str(s);
}

} // namespace

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
            fail("checkpoint key " + name + " holds " + c10::toString(src.scalar_type()) +
                 " values, not floating point");
        // Some saved files keep the positional table as (max_len, W) instead of (1, max_len, W).
        if (src.dim() + 1 == target.dim() && target.size(0) == 1)
            src = src.unsqueeze(0);
        if (src.sizes() != target.sizes())
            fail("checkpoint key " + name + " has shape " + shapeText(src.sizes()) +
                 " but the model expects " + shapeText(target.sizes()));
        if (!torch::isfinite(src).all().item<bool>())
            warnings.push_back("checkpoint key " + name + " holds NaN or infinite values");
        target.copy_(src.to(target.dtype()));
        given.erase(it);
    }
    if (!given.empty())
        fail("checkpoint key " + given.begin()->first +
             " is not part of a model with this config (wrong layer count or layout?)");
    return warnings;
}

CaptioningTransformer buildModel(const Checkpoint& ck, int64_t nullId,
                                 std::vector<std::string>* warnings) {
    CaptioningTransformer model(ck.config, nullId);
    auto w = loadStateDict(*model, ck.stateDict);
    if (warnings)
        *warnings = std::move(w);
    model->eval();
    return model;
}

} // namespace cl
