#include "model/core/explain.h"

#include <stdexcept>

namespace cl {

namespace {
struct MethodName {
    ExplainMethod method;
    const char* name;
    const char* title;
};
constexpr MethodName kMethods[] = {
    {ExplainMethod::Attention, "attention", "Cross-attention (layer, head)"},
    {ExplainMethod::AttentionMean, "attention-mean", "Cross-attention (head average)"},
    {ExplainMethod::Rollout, "rollout", "Attention rollout"},
    {ExplainMethod::GradInput, "grad-input", "Gradient \u00d7 input"},
    {ExplainMethod::IgBlack, "ig-black", "Integrated Gradients (black)"},
    {ExplainMethod::IgBlur, "ig-blur", "Integrated Gradients (blurred)"},
    {ExplainMethod::GradCam, "gradcam", "Grad-CAM"},
    {ExplainMethod::Occlusion, "occlusion", "Occlusion"},
};
} // namespace

const std::vector<ExplainMethod>& allExplainMethods() {
    static const std::vector<ExplainMethod> all = [] {
        std::vector<ExplainMethod> v;
        for (const auto& m : kMethods)
            v.push_back(m.method);
        return v;
    }();
    return all;
}

std::string explainMethodName(ExplainMethod m) {
    for (const auto& k : kMethods)
        if (k.method == m)
            return k.name;
    return "?";
}

std::string explainMethodTitle(ExplainMethod m) {
    for (const auto& k : kMethods)
        if (k.method == m)
            return k.title;
    return "?";
}

ExplainMethod explainMethodFromName(const std::string& name) {
    std::string known;
    for (const auto& k : kMethods) {
        if (name == k.name)
            return k.method;
        known += (known.empty() ? "" : ", ") + std::string(k.name);
    }
    throw std::invalid_argument("unknown explanation method '" + name + "' (" + known + ")");
}

const SaliencyMap* Explanation::find(ExplainMethod m) const {
    for (const auto& s : maps)
        if (s.method == m)
            return &s;
    return nullptr;
}

} // namespace cl
