#include "app/common/explain_json.h"

namespace cl {

namespace {

nlohmann::json mapToJson(const SaliencyMap& s) {
    nlohmann::json j = {{"method", explainMethodName(s.method)},
                        {"title", explainMethodTitle(s.method)},
                        {"side", s.side},
                        {"values", s.values},
                        {"peak", {{"index", s.peak}, {"x", s.peakX}, {"y", s.peakY}}},
                        {"pointing_hit", nullptr},
                        {"ms", s.milliseconds}};
    if (s.pointingHit >= 0)
        j["pointing_hit"] = s.pointingHit == 1;
    if (!s.deletion.empty()) {
        j["deletion"] = s.deletion;
        j["insertion"] = s.insertion;
        j["deletion_auc"] = s.deletionAuc;
        j["insertion_auc"] = s.insertionAuc;
    }
    if (s.method == ExplainMethod::IgBlack || s.method == ExplainMethod::IgBlur) {
        j["completeness_gap"] = s.completenessGap;
        j["gradient_samples"] = s.gradientSamples;
    }
    return j;
}

} // namespace

nlohmann::json explanationToJson(const Explanation& e) {
    nlohmann::json methods = nlohmann::json::array();
    for (const auto& s : e.maps)
        methods.push_back(mapToJson(s));
    return {{"caption", e.trace.text()},
            {"word", e.word},
            {"token", e.token},
            {"probability", e.probability},
            {"image_width", e.imageWidth},
            {"image_height", e.imageHeight},
            {"methods", methods}};
}

} // namespace cl
