#include "app/cli/commands.h"
#include "app/cli/model_input.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/core/errors.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace cl::cli {

namespace {

struct QkCliOptions {
    std::string checkpoint, image, features, word = "0", forcePrefix;
    int64_t row = 0;
    bool json = false;
    WalkthroughOptions walk;
};

nlohmann::json walkthroughToJson(const AttentionWalkthrough& w) {
    return {{"layer", w.options.layer},     {"head", w.options.head},
            {"step", w.options.step},       {"kind", w.options.cross ? "cross" : "self"},
            {"head_dim", w.headDim},        {"scale", w.scale},
            {"query", w.query},             {"keys", w.keys},
            {"values", w.values},           {"key_labels", w.keyLabels},
            {"dots", w.dots},               {"masked", w.masked},
            {"scaled", w.scaled},           {"weights", w.weights},
            {"output", w.output},           {"contribution", w.contribution},
            {"contribution_norm", w.contributionNorm}, {"block_norm", w.blockNorm},
            {"head_off", w.headOff},        {"ms", w.milliseconds}};
}

void printWalkthrough(const AttentionWalkthrough& w, const std::string& token) {
    std::printf("layer %lld, head %lld, %s-attention; the query of step %lld (\"%s\")\n",
                static_cast<long long>(w.options.layer + 1),
                static_cast<long long>(w.options.head + 1), w.options.cross ? "cross" : "self",
                static_cast<long long>(w.options.step), terminalSafe(token).c_str());
    std::printf("scores = q . k / sqrt(W/H) = q . k / %.3f, then softmax over the keys\n", w.scale);
    std::printf("%-20s %10s %10s %9s\n", "key", "q . k", "/ scale", "weight");
    for (size_t k = 0; k < w.dots.size(); ++k) {
        if (w.masked[k]) {
            std::printf("%-20s %10.3f %10s %9s\n", terminalSafe(w.keyLabels[k]).c_str(), w.dots[k], "masked",
                        "0");
            continue;
        }
        std::printf("%-20s %10.3f %10.3f %9.4f\n", terminalSafe(w.keyLabels[k]).c_str(), w.dots[k],
                    w.scaled[k], w.weights[k]);
    }
    std::printf("the head adds a vector of length %.3f to the block's output of length %.3f%s\n",
                w.contributionNorm, w.blockNorm, w.headOff ? " (switched off)" : "");
}

void runQk(QkCliOptions o) {
    auto model = Captioner::open(o.checkpoint);
    DecodeOptions d;
    d.forcedPrefix = model->vocab().encode(o.forcePrefix);
    const ModelInput in = readModelInput(*model, o.image, o.features, o.row);
    const bool imageModel = in.image;
    const RgbImage& image = in.rgb;
    const std::vector<float>& row = in.row;
    const CaptionTrace trace = imageModel ? model->captionImages({image}, d).front()
                                          : model->captionFeatures(row, 1, d).front();
    o.walk.step = wordIndex(o.word, trace);
    const AttentionWalkthrough w = imageModel ? model->walkthroughImage(image, d, o.walk)
                                              : model->walkthroughFeatures(row, d, o.walk);
    if (!o.json)
        return printWalkthrough(w, trace.steps[size_t(o.walk.step)].token);
    auto j = walkthroughToJson(w);
    j["caption"] = trace.text();
    j["token"] = trace.steps[size_t(o.walk.step)].token;
    std::cout << j.dump() << "\n";
}

} // namespace

void addQkCommand(CLI::App& app) {
    static QkCliOptions o;
    auto* cmd = app.add_subcommand(
        "qk", "How one head's attention weights come out of Q and K, for one query word");
    addCheckpointOption(cmd, o.checkpoint)->required();
    cmd->add_option("image", o.image, "Image file (image models)");
    cmd->add_option("--features", o.features, "NumPy .npy of feature rows (feature models)");
    cmd->add_option("--row", o.row, "With --features: the row")->capture_default_str();
    cmd->add_option("--word", o.word, "The query: its step in the caption (0 first) or the word")
        ->capture_default_str();
    cmd->add_option("--layer", o.walk.layer, "Layer (0 first)")->capture_default_str();
    cmd->add_option("--head", o.walk.head, "Head (0 first)")->capture_default_str();
    cmd->add_flag("--cross", o.walk.cross, "Cross-attention over the image (default: self)");
    cmd->add_option("--force-prefix", o.forcePrefix, "The caption these words start");
    addJsonFlag(cmd, o.json, "Every number as one JSON object");
    cmd->callback([] { runQk(o); });
}

} // namespace cl::cli
