// Course state_dicts carry no config: every shape is read off the tensors (checkpoint.h).

#include "model/api/fail.h"
#include "model/io/checkpoint.h"

#include <regex>
#include <stdexcept>

namespace cl {

namespace {

const torch::Tensor& tensor(const StateDict& sd, const std::string& key) {
    for (const auto& [k, t] : sd)
        if (k == key)
            return t;
    fail("the state_dict lacks the key " + key);
}

bool anyKeyContains(const StateDict& sd, const std::string& part) {
    for (const auto& [k, t] : sd)
        if (k.find(part) != std::string::npos)
            return true;
    return false;
}

void requireDims(const torch::Tensor& t, int64_t dims, const std::string& key) {
    if (t.dim() != dims)
        fail(key + " has " + std::to_string(t.dim()) + " dimensions, expected " +
             std::to_string(dims));
}

} // namespace

Layout detectLayout(const StateDict& sd) {
    const bool old = anyKeyContains(sd, ".multihead_attn.") || anyKeyContains(sd, ".linear1.");
    const bool neu = anyKeyContains(sd, ".cross_attn.") || anyKeyContains(sd, ".ffn.fc1.");
    if (old && !neu)
        return Layout::Course2021;
    if (neu && !old)
        return Layout::Course2025;
    if (old && neu)
        fail("the state_dict mixes 2021 keys (multihead_attn) and 2025 keys (cross_attn)");
    fail("the state_dict has neither 2021 (multihead_attn) nor 2025 (cross_attn) decoder keys");
}

ModelConfig courseConfig(const StateDict& sd, int64_t vocabSize, int64_t heads, Layout layout) {
    ModelConfig c;
    c.layout = layout;
    c.memory = MemoryKind::Features;
    const auto& emb = tensor(sd, "embedding.weight");
    const auto& proj = tensor(sd, "visual_projection.weight");
    const auto& pe = tensor(sd, "positional_encoding.pe");
    requireDims(emb, 2, "embedding.weight");
    requireDims(proj, 2, "visual_projection.weight");
    c.vocabSize = emb.size(0);
    c.wordvecDim = emb.size(1);
    c.inputDim = proj.size(1);
    if (vocabSize != c.vocabSize)
        fail("embedding.weight has " + std::to_string(c.vocabSize) +
             " rows but the vocabulary has " + std::to_string(vocabSize) + " words");
    if (pe.dim() < 2 || pe.dim() > 3)
        fail("positional_encoding.pe has an unexpected shape");
    c.maxLength = pe.size(pe.dim() - 2);
    const std::regex layerKey(R"(^transformer\.layers\.(\d+)\.)");
    int64_t layers = 0;
    for (const auto& [k, t] : sd) {
        std::smatch m;
        if (std::regex_search(k, m, layerKey))
            layers = std::max<int64_t>(layers, std::stoll(m[1]) + 1);
    }
    if (layers == 0)
        fail("the state_dict has no transformer.layers.* keys");
    c.numLayers = layers;
    const auto fc1 = layout == Layout::Course2021 ? "transformer.layers.0.linear1.weight"
                                                  : "transformer.layers.0.ffn.fc1.weight";
    c.ffnDim = tensor(sd, fc1).size(0);
    c.numHeads = heads;
    if (heads <= 0 || c.wordvecDim % heads != 0)
        fail("--heads " + std::to_string(heads) + " does not divide the width " +
             std::to_string(c.wordvecDim) + " of embedding.weight");
    c.validate();
    return c;
}

} // namespace cl
