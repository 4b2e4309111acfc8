#include "app/cli/commands.h"
#include "app/common/trace_json.h"
#include "model/api/captioner.h"
#include "model/api/npy.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <stdexcept>

namespace cl::cli {

namespace {

struct CaptionOptions {
    std::string checkpoint, device = "cpu", features, forcePrefix;
    int64_t maxLength = 30, topK = 5, row = -1;
    bool json = false, attention = false;
    std::vector<std::string> inputs;
};

struct Result {
    std::string input;
    CaptionTrace trace;
};

std::vector<Result> captionFeatureRows(Captioner& model, const CaptionOptions& o,
                                       const DecodeOptions& d) {
    const NpyMatrix m = readNpy(o.features);
    if (m.cols != model.info().config.inputDim)
        throw std::runtime_error(o.features + " has rows of width " + std::to_string(m.cols) +
                                 " but the model expects " +
                                 std::to_string(model.info().config.inputDim));
    int64_t first = 0, count = m.rows;
    if (o.row >= 0) {
        if (o.row >= m.rows)
            throw std::runtime_error("--row " + std::to_string(o.row) + " is outside the " +
                                     std::to_string(m.rows) + " rows of " + o.features);
        first = o.row;
        count = 1;
    }
    const std::vector<float> rows = m.finiteRows(first, count, o.features);
    auto traces = model.captionFeatures(rows, count, d);
    std::vector<Result> out;
    for (int64_t i = 0; i < count; ++i)
        out.push_back({o.features + ":" + std::to_string(first + i), std::move(traces[i])});
    return out;
}

std::vector<Result> captionImageFiles(Captioner& model, const CaptionOptions& o,
                                      const DecodeOptions& d) {
    std::vector<RgbImage> images;
    for (const auto& path : o.inputs) {
        auto loaded = loadImage(QString::fromStdString(path));
        if (!loaded.ok())
            throw std::runtime_error(loaded.error.toStdString());
        images.push_back(std::move(loaded.rgb));
    }
    auto traces = model.captionImages(images, d);
    std::vector<Result> out;
    for (size_t i = 0; i < traces.size(); ++i)
        out.push_back({o.inputs[i], std::move(traces[i])});
    return out;
}

void runCaption(const CaptionOptions& o) {
    if (o.features.empty() == o.inputs.empty())
        throw std::invalid_argument("give image files or --features FILE.npy (not both)");
    if (o.row >= 0 && o.features.empty())
        throw std::invalid_argument("--row needs --features");
    auto model = Captioner::open(o.checkpoint, o.device);
    DecodeOptions d;
    d.maxLength = o.maxLength;
    d.topK = o.topK;
    d.forcedPrefix = model->vocab().encode(o.forcePrefix);
    for (const auto& w : model->info().warnings)
        std::cerr << "warning: " << w << "\n";
    const auto results =
        o.features.empty() ? captionImageFiles(*model, o, d) : captionFeatureRows(*model, o, d);
    for (const auto& r : results) {
        if (!o.json) {
            std::cout << r.trace.text() << "\n";
            continue;
        }
        auto j = traceToJson(r.trace, o.attention);
        j["input"] = r.input;
        std::cout << j.dump() << "\n";
    }
}

} // namespace

void addCaptionCommand(CLI::App& app) {
    static CaptionOptions o;
    auto* cmd = app.add_subcommand("caption", "Caption images (image models) or feature rows");
    cmd->add_option("--checkpoint", o.checkpoint, "Checkpoint file")->required();
    cmd->add_option("--device", o.device, "cpu or cuda")
        ->check(CLI::IsMember({"cpu", "cuda"}))
        ->capture_default_str();
    cmd->add_option("--max-length", o.maxLength, "Most tokens to generate")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cmd->add_option("--top-k", o.topK, "Candidates kept per step")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_flag("--json", o.json, "One JSON object per input, one per line");
    cmd->add_flag("--attention", o.attention, "With --json: include every attention matrix");
    cmd->add_option("--features", o.features, "NumPy .npy of shape (D,) or (N, D)");
    cmd->add_option("--row", o.row, "Caption only this row of --features")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--force-prefix", o.forcePrefix,
                    "Words forced as the first tokens; greedy decoding continues after them");
    cmd->add_option("inputs", o.inputs, "Image files");
    cmd->callback([] { runCaption(o); });
}

} // namespace cl::cli
