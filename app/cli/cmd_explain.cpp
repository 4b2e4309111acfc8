#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "app/cli/explain_overlay.h"
#include "app/common/explain_json.h"
#include "model/api/captioner.h"
#include "model/core/errors.h"
#include "model/core/files.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace cl::cli {

// --word: a step index, or the first step whose word it is.
int64_t wordIndex(const std::string& word, const CaptionTrace& trace) {
    if (!word.empty() && word.find_first_not_of("0123456789") == std::string::npos)
        return std::stoll(word.substr(0, 9));
    for (size_t t = 0; t < trace.steps.size(); ++t)
        if (trace.steps[t].token == word)
            return static_cast<int64_t>(t);
    throw std::invalid_argument("the caption '" + trace.text() + "' has no word '" + word + "'");
}

namespace {

struct ExplainCliOptions {
    std::string checkpoint, device = "cpu", image, word = "0", forcePrefix, out;
    std::vector<std::string> methods{"all"};
    std::vector<double> target; // x0 y0 x1 y1
    double tolerance = 15.0;
    bool json = false, noCurves = false;
    ExplainOptions explain;
};

void printTable(const Explanation& e) {
    std::printf("caption \"%s\", word %lld \"%s\" (p = %.3f)\n", terminalSafe(e.trace.text()).c_str(),
                static_cast<long long>(e.word), terminalSafe(e.token).c_str(), e.probability);
    std::printf("%-32s %8s %12s %9s %10s %10s\n", "method", "ms", "peak (x, y)", "pointing",
                "deletion", "insertion");
    for (const auto& m : e.maps) {
        char peak[32];
        std::snprintf(peak, sizeof peak, "%.0f, %.0f", m.peakX, m.peakY);
        std::printf("%-32s %8.1f %12s %9s %10.3f %10.3f\n", explainMethodTitle(m.method).c_str(),
                    m.milliseconds, peak,
                    m.pointingHit < 0 ? "-" : (m.pointingHit ? "hit" : "miss"), m.deletionAuc,
                    m.insertionAuc);
    }
}

void writeOutputs(const ExplainCliOptions& o, const RgbImage& image, const Explanation& e,
                  nlohmann::json& j) {
    std::filesystem::create_directories(o.out);
    for (size_t i = 0; i < e.maps.size(); ++i) {
        const auto path = (std::filesystem::path(o.out) /
                           (explainMethodName(e.maps[i].method) + ".png"))
                              .string();
        saveRgbPng(explanationOverlay(image, e, e.maps[i]), path);
        j["methods"][i]["png"] = path;
    }
    files::write((std::filesystem::path(o.out) / "explain.json").string(), j.dump(1));
}

void runExplain(ExplainCliOptions o) {
    auto loaded = loadImage(QString::fromStdString(o.image));
    if (!loaded.ok())
        throw std::runtime_error(loaded.error.toStdString());
    auto model = Captioner::open(o.checkpoint, o.device);
    if (model->info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("explanations need an image model; " + o.checkpoint +
                                    " reads feature vectors");
    DecodeOptions d;
    d.forcedPrefix = model->vocab().encode(o.forcePrefix);
    for (const auto& m : o.methods)
        if (m != "all")
            o.explain.methods.push_back(explainMethodFromName(m));
    if (o.target.size() == 4)
        o.explain.target = ExplainTarget{o.target[0], o.target[1], o.target[2], o.target[3],
                                         o.tolerance};
    else if (!o.target.empty())
        throw std::invalid_argument("--target needs four numbers: x0,y0,x1,y1");
    o.explain.curves = !o.noCurves;
    o.explain.word = wordIndex(o.word, model->captionImages({loaded.rgb}, d).front());
    const Explanation e = model->explainImage(loaded.rgb, d, o.explain);
    nlohmann::json j = explanationToJson(e);
    j["input"] = o.image;
    if (!o.out.empty())
        writeOutputs(o, loaded.rgb, e, j);
    if (o.json)
        std::cout << j.dump() << "\n";
    else
        printTable(e);
}

} // namespace

void addExplainCommand(CLI::App& app) {
    static ExplainCliOptions o;
    auto* cmd = app.add_subcommand(
        "explain", "Explain one word of an image's caption: attention, rollout, gradients, "
                   "Integrated Gradients, Grad-CAM and occlusion, with faithfulness curves");
    addCheckpointOption(cmd, o.checkpoint, "Checkpoint file (an image model)")->required();
    cmd->add_option("image", o.image, "Image file")->required();
    cmd->add_option("--word", o.word, "The word: its index in the caption (0 first) or the word")
        ->capture_default_str();
    cmd->add_option("--method", o.methods,
                    "attention, attention-mean, rollout, grad-input, ig-black, ig-blur, gradcam, "
                    "occlusion or all (repeatable, or comma-separated)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--layer", o.explain.layer, "Attention map's layer (-1: the last)")
        ->capture_default_str();
    cmd->add_option("--head", o.explain.head, "Attention map's head")->capture_default_str();
    cmd->add_option(
           "--ig-steps", o.explain.igSteps,
           "Integrated Gradients: most gradient samples (adaptive until complete within 0.8 %)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    cmd->add_option("--curve-steps", o.explain.curveSteps, "Points of the deletion curves - 1")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd->add_option("--blur-sigma", o.explain.blurSigma,
                    "Blurred baseline's sigma in input pixels (0: a side / 8)")
        ->capture_default_str();
    cmd->add_flag("--no-curves", o.noCurves, "Skip the deletion/insertion curves");
    cmd->add_option("--target", o.target,
                    "The word's object as x0,y0,x1,y1 image pixels: scores the pointing game")
        ->delimiter(',');
    cmd->add_option("--tolerance", o.tolerance, "Pointing game tolerance, pixels")
        ->capture_default_str();
    cmd->add_option("--force-prefix", o.forcePrefix, "Explain the caption these words start");
    cmd->add_option("--out", o.out, "Folder for explain.json and one overlay PNG per method");
    addJsonFlag(cmd, o.json, "Print the explanation as one JSON object");
    addDeviceOption(cmd, o.device);
    cmd->callback([] { runExplain(o); });
}

} // namespace cl::cli
