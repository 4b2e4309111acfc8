// Course state_dicts carry no config: every shape is read off the tensors (checkpoint.h).

#include "model/core/errors.h"
#include "model/core/fail.h"
#include "model/io/checkpoint.h"

#include <stdexcept>

namespace cl {

namespace {

const torch::Tensor& tensor(const StateDict& sd, const std::string& key) {
    for (const auto& [k, t] : sd)
        if (k == key)
            return t;
    fail("the state_dict lacks the key " + key);
}

// N of a key "transformer.layers.N.<rest>", -1 for any other key; linear in the key's length (a
// std::regex recursed once per digit: hundreds of thousands of them crashed the import). No course
// model has 10,000 layers: a longer index is refused, not parsed.
int64_t layerIndexOf(const std::string& key) {
    static const std::string prefix = "transformer.layers.";
    constexpr size_t kMaxDigits = 4;
    if (key.compare(0, prefix.size(), prefix) != 0)
        return -1;
    size_t i = prefix.size();
    int64_t index = 0;
    while (i < key.size() && key[i] >= '0' && key[i] <= '9') {
        if (i - prefix.size() == kMaxDigits)
            fail("the state_dict's key \"" + printable(key, 60) + "\" names a layer beyond " +
                 "the 10,000 this reader accepts");
        index = index * 10 + (key[i] - '0');
        ++i;
    }
    return i > prefix.size() && i < key.size() && key[i] == '.' ? index : -1;
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
    int64_t layers = 0;
    for (const auto& [k, t] : sd)
        layers = std::max<int64_t>(layers, layerIndexOf(k) + 1);
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
