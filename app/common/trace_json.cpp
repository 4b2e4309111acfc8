#include "app/common/trace_json.h"

namespace cl {

namespace {

nlohmann::json selfMatrices(const CaptionTrace& tr) {
    const auto t = static_cast<int64_t>(tr.steps.size());
    auto layers = nlohmann::json::array();
    for (int64_t l = 0; l < tr.layers; ++l) {
        auto heads = nlohmann::json::array();
        for (int64_t h = 0; h < tr.heads; ++h) {
            auto rows = nlohmann::json::array();
            for (int64_t q = 0; q < t; ++q) {
                std::vector<float> row(static_cast<size_t>(t), 0.f);
                for (int64_t k = 0; k <= q; ++k)
                    row[k] = tr.selfWeight(l, h, q, k);
                rows.push_back(row);
            }
            heads.push_back(rows);
        }
        layers.push_back(heads);
    }
    return layers;
}

nlohmann::json crossMatrices(const CaptionTrace& tr) {
    auto layers = nlohmann::json::array();
    for (int64_t l = 0; l < tr.layers; ++l) {
        auto heads = nlohmann::json::array();
        for (int64_t h = 0; h < tr.heads; ++h) {
            auto rows = nlohmann::json::array();
            for (size_t q = 0; q < tr.steps.size(); ++q)
                rows.push_back(tr.crossRow(l, h, static_cast<int64_t>(q)));
            heads.push_back(rows);
        }
        layers.push_back(heads);
    }
    return layers;
}

} // namespace

nlohmann::json traceToJson(const CaptionTrace& tr, bool attention) {
    nlohmann::json j;
    j["caption"] = tr.text();
    auto tokens = nlohmann::json::array(), ids = nlohmann::json::array();
    auto steps = nlohmann::json::array();
    for (const auto& s : tr.steps) {
        tokens.push_back(s.token);
        ids.push_back(s.id);
        auto top = nlohmann::json::array();
        for (const auto& c : s.topK)
            top.push_back({{"token", c.token}, {"id", c.id}, {"prob", c.prob}});
        steps.push_back({{"token", s.token},
                         {"id", s.id},
                         {"prob", s.prob},
                         {"forced", s.forced},
                         {"top_k", top}});
    }
    j["tokens"] = tokens;
    j["token_ids"] = ids;
    j["steps"] = steps;
    // Every object says whether the image is out of world; the score is null where the model
    // cannot tell (feature models, uncalibrated checkpoints).
    j["out_of_world"] = tr.outOfWorld();
    j["world_score"] = tr.worldChecked ? nlohmann::json(tr.worldScore) : nlohmann::json(nullptr);
    // What gave it away: "features", "sentence" or "colour" (then "world_colour" names it).
    j["world_reason"] = tr.outOfWorld() ? nlohmann::json(tr.worldReason) : nlohmann::json(nullptr);
    if (tr.outOfWorld() && tr.worldReason == "colour")
        j["world_colour"] = tr.worldColour;
    if (attention) {
        j["self_attention"] = selfMatrices(tr);
        j["cross_attention"] = crossMatrices(tr);
        if (tr.gridSide > 0) {
            j["grid"] = {tr.gridSide, tr.gridSide};
            j["input_side"] = tr.inputSide;
            j["letterboxed"] = tr.letterboxed;
            // The image pixels the encoder saw, [x0, y0, width, height].
            j["input_crop"] = {tr.seen.x0, tr.seen.y0, tr.seen.width, tr.seen.height};
        }
    }
    return j;
}

nlohmann::json beamToJson(const BeamResult& beam, const BeamOptions& options) {
    nlohmann::json hyps = nlohmann::json::array(), tree = nlohmann::json::array();
    for (const auto& h : beam.hypotheses)
        hyps.push_back({{"caption", h.text()},
                        {"tokens", h.tokens},
                        {"log_prob", h.logProb},
                        {"score", h.score},
                        {"finished", h.finished}});
    for (const auto& step : beam.tree) {
        nlohmann::json nodes = nlohmann::json::array();
        for (const auto& n : step)
            nodes.push_back({{"parent", n.parent},
                             {"token", n.token},
                             {"id", n.id},
                             {"log_prob", n.logProb},
                             {"kept", n.kept},
                             {"finished", n.finished}});
        tree.push_back(std::move(nodes));
    }
    return {{"width", options.width},
            {"length_penalty", options.lengthPenalty},
            {"hypotheses", std::move(hyps)},
            {"tree", std::move(tree)}};
}

} // namespace cl
