// captionlens-cli export-anim: an animated GIF for slides (issue 40): greedy decoding step by
// step, a word's attention through every layer and head, or a training run's snapshots.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/core/files.h"
#include "ui/animation/frames.h"
#include "ui/imaging/image_loader.h"
#include "ui/math/natural_order.h"

#include <CLI/CLI.hpp>

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace cl::cli {

namespace {

constexpr int kMaxSnapshots = 64;

struct ExportAnimOptions {
    std::string image, checkpoint, what = "decode", out, run, word;
    int frameMs = 900, width = 960;
    int64_t layer = -1, head = -1;
};

// The run's checkpoints (regular *.pt files) in the order people read them: step1000 before
// step48000.
std::vector<std::string> snapshotFiles(const std::string& folder) {
    const QString dir = QString::fromStdString(folder);
    if (!QFileInfo(dir).isDir())
        throw std::invalid_argument(folder + " is not a folder of snapshots");
    QStringList names = QDir(dir).entryList({"*.pt"}, QDir::Files | QDir::Readable);
    std::sort(names.begin(), names.end(),
              [](const QString& a, const QString& b) { return ui::naturalCompare(a, b) < 0; });
    std::vector<std::string> out;
    for (const QString& n : names) {
        const std::string path = QDir(dir).filePath(n).toStdString();
        if (files::notRegularReason(path).empty())
            out.push_back(path);
    }
    if (out.empty())
        throw std::invalid_argument(folder + " holds no checkpoints (*.pt)");
    if (out.size() > size_t(kMaxSnapshots))
        throw std::invalid_argument(folder + " holds " + std::to_string(out.size()) +
                                    " checkpoints; an animation takes at most " +
                                    std::to_string(kMaxSnapshots));
    return out;
}

CaptionTrace captionWith(Captioner& model, const LoadedImage& pixels) {
    if (model.info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("an animation shows an image; this checkpoint reads feature "
                                    "vectors");
    DecodeOptions d;
    d.maxLength = model.info().config.maxLength;
    return model.captionImages({pixels.rgb}, d).front();
}

std::vector<ui::Snapshot> snapshots(const std::string& folder, const LoadedImage& pixels) {
    std::vector<ui::Snapshot> out;
    for (const std::string& path : snapshotFiles(folder)) {
        auto model = Captioner::open(path);
        out.push_back({QFileInfo(QString::fromStdString(path)).completeBaseName(),
                       captionWith(*model, pixels)});
    }
    return out;
}

ui::AnimationFrames frames(const ExportAnimOptions& o, const LoadedImage& pixels,
                           const ui::AnimationStyle& style) {
    if (o.what == "timeline") {
        const std::string run = !o.run.empty() ? o.run : bundledData() + "/models/default-run";
        const auto shots = snapshots(run, pixels);
        const int64_t step = o.word.empty() ? 1 : wordIndex(o.word, shots.back().trace);
        return ui::timelineFrames(shots, pixels.image, int(step), style);
    }
    auto model = Captioner::open(!o.checkpoint.empty() ? o.checkpoint : bundledModel());
    const CaptionTrace trace = captionWith(*model, pixels);
    if (o.what == "heads")
        return ui::headFrames(trace, pixels.image,
                              int(o.word.empty() ? 1 : wordIndex(o.word, trace)), style);
    return ui::decodeFrames(trace, pixels.image, style);
}

void runExportAnim(const ExportAnimOptions& o) {
    const LoadedImage loaded = loadImage(QString::fromStdString(o.image));
    if (!loaded.ok())
        throw std::runtime_error(loaded.error.toStdString());
    ui::AnimationStyle style;
    style.width = o.width;
    style.frameMs = o.frameMs;
    style.layer = int(o.layer);
    style.head = int(o.head);
    const ui::AnimationFrames a = frames(o, loaded, style);
    if (a.frames.empty())
        throw std::runtime_error("the caption is empty: nothing to animate");
    const ui::GifResult gif = ui::encodeGif(a);
    if (!gif.error.isEmpty())
        throw std::runtime_error(gif.error.toStdString());
    files::write(o.out, gif.bytes.toStdString());
    std::printf("wrote %s: %zu frames, %dx%d, %.0f KB\n", o.out.c_str(), a.frames.size(),
                a.frames.front().width(), a.frames.front().height(), gif.bytes.size() / 1024.0);
}

} // namespace

void addExportAnimCommand(CLI::App& app) {
    static ExportAnimOptions o;
    auto* cmd = app.add_subcommand(
        "export-anim", "An animated GIF for slides: greedy decoding step by step (decode), a "
                       "word's attention through every layer and head (heads), or a training "
                       "run's snapshots (timeline)");
    cmd->add_option("image", o.image, "Image file")->required();
    cmd->add_option("--what", o.what, "decode, heads or timeline")
        ->check(CLI::IsMember({"decode", "heads", "timeline"}))
        ->capture_default_str();
    cmd->add_option("-o,--out", o.out, "The GIF to write")->required();
    addCheckpointOption(cmd, o.checkpoint, "Checkpoint file (default: the bundled model)");
    cmd->add_option("--run", o.run,
                    "timeline: the folder of a training run's snapshots (default: the bundled "
                    "model's)");
    cmd->add_option("--word", o.word,
                    "heads, timeline: the word shown (an index, 0 first, or the word; default 1)");
    cmd->add_option("--layer", o.layer, "The layer of the attention shown (-1: the last)")
        ->capture_default_str();
    cmd->add_option("--head", o.head, "The head of the attention shown (-1: the head average)")
        ->capture_default_str();
    cmd->add_option("--frame-ms", o.frameMs,
                    "Each frame's time in ms (the last stays 3 times as long)")
        ->check(CLI::Range(20, 60000))
        ->capture_default_str();
    cmd->add_option("--width", o.width, "Frame width in pixels (height: 9/16 of it)")
        ->check(CLI::Range(320, 1920))
        ->capture_default_str();
    cmd->callback([] { runExportAnim(o); });
}

} // namespace cl::cli
