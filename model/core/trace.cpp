#include "model/core/trace.h"

namespace cl {

std::string CaptionTrace::worldWhy() const {
    if (!outOfWorld())
        return "";
    if (worldReason == "sentence")
        return "its caption is not a sentence of the model's world";
    if (worldReason == "colour")
        return "the caption says " + worldColour + ", but the image holds no " + worldColour +
               " region";
    return "its features lie far from every training scene";
}

std::vector<std::string> CaptionTrace::words() const {
    std::vector<std::string> out;
    for (const auto& s : steps) {
        if (s.token == "<END>")
            break;
        if (s.token == "<NULL>")
            continue;
        out.push_back(s.token);
    }
    return out;
}

std::string CaptionTrace::text() const {
    std::string out;
    for (const auto& w : words())
        out += (out.empty() ? "" : " ") + w;
    return out;
}

float CaptionTrace::selfWeight(int64_t layer, int64_t head, int64_t t, int64_t k) const {
    if (k > t || k < 0 || t < 0 || t >= static_cast<int64_t>(steps.size()) || layer < 0 ||
        layer >= layers || head < 0 || head >= heads)
        return 0.f;
    const auto& row = steps[static_cast<size_t>(t)].selfAttn;
    const auto at = static_cast<size_t>((layer * heads + head) * (t + 1) + k);
    return at < row.size() ? row[at] : 0.f;
}

std::vector<float> CaptionTrace::crossRow(int64_t layer, int64_t head, int64_t t) const {
    if (t < 0 || t >= static_cast<int64_t>(steps.size()) || layer < 0 || layer >= layers ||
        head < 0 || head >= heads || memoryTokens <= 0)
        return {};
    const auto& all = steps[static_cast<size_t>(t)].crossAttn;
    const auto begin = static_cast<size_t>((layer * heads + head) * memoryTokens);
    if (begin + static_cast<size_t>(memoryTokens) > all.size())
        return {};
    return {all.begin() + static_cast<std::ptrdiff_t>(begin),
            all.begin() + static_cast<std::ptrdiff_t>(begin + static_cast<size_t>(memoryTokens))};
}

} // namespace cl
