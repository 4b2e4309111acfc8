// captionlens-cli lens: the logit lens and direct logit attribution of one caption (issue 39).
#include "app/cli/commands.h"
#include "app/cli/model_input.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/core/errors.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace cl::cli {

namespace {

struct LensCliOptions {
    std::string checkpoint, image, features, forcePrefix;
    int64_t row = 0, top = 5;
    bool json = false;
};

nlohmann::json lensToJson(const LensReport& r) {
    nlohmann::json lens = nlohmann::json::array(), dla = nlohmann::json::array();
    for (const auto& row : r.logitLens) {
        nlohmann::json top = nlohmann::json::array();
        for (const auto& w : row.top)
            top.push_back({{"word", w.word}, {"p", w.p}});
        lens.push_back({{"layer", row.layer}, {"position", row.position}, {"top", top}});
    }
    for (const auto& a : r.attribution) {
        nlohmann::json parts = nlohmann::json::array();
        for (const auto& p : a.parts)
            parts.push_back({{"name", p.name}, {"value", p.value}});
        dla.push_back(
            {{"position", a.position}, {"word", a.word}, {"logit", a.logit}, {"components", parts}});
    }
    return {{"words", r.words}, {"logit_lens", lens}, {"dla", dla}};
}

// Per position: the top word at every layer, then the three largest parts of the logit.
void printLens(const LensReport& r) {
    const int64_t layers = r.logitLens.empty() ? 0 : r.logitLens.back().layer + 1;
    const auto positions = int64_t(r.words.size());
    for (int64_t t = 0; t < positions; ++t) {
        std::printf("%2lld %-10s", static_cast<long long>(t), terminalSafe(r.words[size_t(t)]).c_str());
        for (int64_t l = 0; l < layers; ++l) {
            const auto& top = r.logitLens[size_t(l * positions + t)].top.front();
            std::printf("  L%lld %s %.2f", static_cast<long long>(l), terminalSafe(top.word).c_str(),
                        top.p);
        }
        const auto& a = r.attribution[size_t(t)];
        auto parts = a.parts;
        std::sort(parts.begin(), parts.end(), [](const LogitPart& x, const LogitPart& y) {
            return std::abs(x.value) > std::abs(y.value);
        });
        std::printf("  | %s logit %.2f:", terminalSafe(a.word).c_str(), a.logit);
        for (size_t k = 0; k < std::min<size_t>(3, parts.size()); ++k)
            std::printf(" %s %+.2f", parts[k].name.c_str(), parts[k].value);
        std::printf("\n");
    }
}

void runLens(const LensCliOptions& o) {
    auto model = Captioner::open(o.checkpoint);
    DecodeOptions d;
    d.forcedPrefix = model->vocab().encode(o.forcePrefix);
    const ModelInput in = readModelInput(*model, o.image, o.features, o.row);
    const LensReport r =
        in.image ? model->lensImage(in.rgb, d, o.top) : model->lensFeatures(in.row, d, o.top);
    if (o.json)
        std::cout << lensToJson(r).dump() << "\n";
    else
        printLens(r);
}

} // namespace

void addLensCommand(CLI::App& app) {
    static LensCliOptions o;
    auto* cmd = app.add_subcommand(
        "lens", "The logit lens (every layer read through the output layer) and direct logit "
                "attribution (each head's, FFN's, the embeddings' share of each word's logit)");
    addCheckpointOption(cmd, o.checkpoint)->required();
    cmd->add_option("image", o.image, "Image file (image models)");
    cmd->add_option("--features", o.features, "NumPy .npy of feature rows (feature models)");
    cmd->add_option("--row", o.row, "With --features: the row")->capture_default_str();
    cmd->add_option("--top", o.top, "Words per position and layer")
        ->check(CLI::Range(1, 50))
        ->capture_default_str();
    cmd->add_option("--force-prefix", o.forcePrefix, "The caption these words start");
    addJsonFlag(cmd, o.json, "words, logit_lens and dla as one JSON object");
    cmd->callback([] { runLens(o); });
}

} // namespace cl::cli
