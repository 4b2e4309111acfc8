#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "app/common/trace_json.h"
#include "model/api/captioner.h"
#include "model/data/course_data.h"
#include "model/evaluation/course_eval.h"
#include "model/core/errors.h"
#include "model/data/npy.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <optional>
#include <iostream>
#include <stdexcept>

namespace cl::cli {

namespace {

struct CaptionOptions {
    std::string checkpoint, device = "cpu", features, forcePrefix, data, split = "val";
    int64_t maxLength = 30, topK = 5, row = -1, captionIndex = -1, beam = 0;
    double lengthPenalty = 0;
    bool json = false, attention = false;
    std::vector<std::string> inputs;
    std::vector<int64_t> images; // --image: rows of the course data split
};

struct Result {
    std::string input;
    CaptionTrace trace;
    int64_t image = -1; // course data: the image row, its references and URL
    std::vector<std::string> references;
    std::string url;
    std::optional<BeamResult> beam; // --beam: the search; trace is its best hypothesis
    std::string greedy;             // --beam: the greedy caption beside it
};

// Greedy decoding, or with --beam K the beam's best hypotheses (each with its greedy caption).
// decode(options) greedy-decodes the inputs; search(options, beam) beam-searches them.
template <class Decode, class Search>
std::vector<Result> decoded(const CaptionOptions& o, const DecodeOptions& d, Decode decode,
                            Search search) {
    std::vector<Result> out;
    auto traces = decode(d);
    if (o.beam <= 0) {
        for (auto& t : traces)
            out.push_back({"", std::move(t), -1, {}, {}, {}, {}});
        return out;
    }
    auto beams = search(d, BeamOptions{o.beam, o.lengthPenalty});
    for (size_t i = 0; i < beams.size(); ++i)
        out.push_back({"", std::move(beams[i].trace), -1, {}, {}, std::move(beams[i].beam),
                       traces[i].text()});
    return out;
}

bool isHdf5(const std::string& path) {
    for (const char* suffix : {".h5", ".hdf5"}) {
        const std::string s = suffix;
        if (path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0)
            return true;
    }
    return false;
}

// The rows asked for (--row R, else every row of a file of at most 256 when it is an .h5), checked
// finite, from a .npy or from the `features` dataset of an .h5 file read lazily: only those rows,
// after the width is checked (a dense matrix of every declared row cost 1.9 GB for a 68 KB sparse
// file declaring 33 million rows: fuzz_h5_structure).
std::vector<float> featureRows(const std::string& path, int64_t row, int64_t width, int64_t* first,
                               int64_t* count) {
    const auto requireWidth = [&](int64_t cols) {
        if (cols != width)
            throw std::runtime_error(path + " has rows of width " + std::to_string(cols) +
                                     " but the model expects " + std::to_string(width));
    };
    const auto pick = [&](int64_t rows) {
        if (row >= rows)
            throw std::runtime_error("--row " + std::to_string(row) + " is outside the " +
                                     std::to_string(rows) + " rows of " + path);
        *first = std::max<int64_t>(row, 0);
        *count = row >= 0 ? 1 : rows;
    };
    if (!isHdf5(path)) {
        const NpyMatrix m = readNpy(path);
        requireWidth(m.cols);
        pick(m.rows);
        return m.finiteRows(*first, *count, path);
    }
    int64_t cols = 0;
    const int64_t rows = h5FeatureRows(path, &cols);
    if (row < 0 && rows > 256)
        throw std::invalid_argument(path + " holds " + std::to_string(rows) +
                                    " rows; pick one with --row");
    pick(rows);
    requireWidth(cols);
    std::vector<float> values = h5Features(path, *first, *count);
    requireFiniteRows(values, *first, cols, path);
    return values;
}

std::vector<Result> captionCourseImages(Captioner& model, const CaptionOptions& o,
                                        const DecodeOptions& d) {
    const CourseData data(o.data);
    const Split split = splitFromName(o.split);
    std::vector<int64_t> images = o.images;
    if (o.captionIndex >= 0)
        images.push_back(data.captionImage(split, o.captionIndex));
    if (images.empty())
        throw std::invalid_argument("--data needs --image I or --caption-index K");
    const int64_t width = model.info().config.inputDim;
    std::vector<float> rows;
    for (auto image : images) {
        const auto f = data.features(split, image, width);
        rows.insert(rows.end(), f.begin(), f.end());
    }
    const auto count = static_cast<int64_t>(images.size());
    auto out = decoded(
        o, d, [&](const DecodeOptions& x) { return model.captionFeatures(rows, count, x); },
        [&](const DecodeOptions& x, const BeamOptions& b) {
            return model.beamFeatures(rows, count, x, b);
        });
    for (size_t i = 0; i < images.size(); ++i) {
        Result& r = out[i];
        r.input = o.split + ":" + std::to_string(images[i]);
        r.image = images[i];
        r.url = data.url(split, images[i]);
        for (const auto& ref : data.references(split, images[i]))
            r.references.push_back(captionText(ref, model.vocab()));
    }
    return out;
}

std::vector<Result> captionFeatureRows(Captioner& model, const CaptionOptions& o,
                                       const DecodeOptions& d) {
    int64_t first = 0, count = 0;
    const std::vector<float> rows =
        featureRows(o.features, o.row, model.info().config.inputDim, &first, &count);
    auto out = decoded(
        o, d, [&](const DecodeOptions& x) { return model.captionFeatures(rows, count, x); },
        [&](const DecodeOptions& x, const BeamOptions& b) {
            return model.beamFeatures(rows, count, x, b);
        });
    for (int64_t i = 0; i < count; ++i)
        out[size_t(i)].input = o.features + ":" + std::to_string(first + i);
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
    auto out = decoded(
        o, d, [&](const DecodeOptions& x) { return model.captionImages(images, x); },
        [&](const DecodeOptions& x, const BeamOptions& b) {
            return model.beamImages(images, x, b);
        });
    for (size_t i = 0; i < out.size(); ++i)
        out[i].input = o.inputs[i];
    return out;
}

void runCaption(const CaptionOptions& o) {
    const int sources = !o.features.empty() + !o.inputs.empty() + !o.data.empty();
    if (sources != 1)
        throw std::invalid_argument(
            "give image files, --features FILE.npy|FILE.h5 or --data DIR (exactly one)");
    if (o.row >= 0 && o.features.empty())
        throw std::invalid_argument("--row needs --features");
    if ((!o.images.empty() || o.captionIndex >= 0) && o.data.empty())
        throw std::invalid_argument("--image and --caption-index need --data DIR");
    if (o.lengthPenalty != 0 && o.beam <= 0)
        throw std::invalid_argument("--length-penalty needs --beam K");
    auto model = Captioner::open(o.checkpoint, o.device);
    DecodeOptions d;
    d.maxLength = o.maxLength;
    d.topK = o.topK;
    d.forcedPrefix = model->vocab().encode(o.forcePrefix);
    for (const auto& w : model->info().warnings)
        std::cerr << "warning: " << terminalSafe(w) << "\n";
    const auto results = !o.data.empty()      ? captionCourseImages(*model, o, d)
                         : o.features.empty() ? captionImageFiles(*model, o, d)
                                              : captionFeatureRows(*model, o, d);
    for (const auto& r : results) {
        if (r.trace.outOfWorld())
            std::cerr << "note: " << terminalSafe(r.input)
                      << " looks unlike anything the model was trained on ("
                      << r.trace.worldWhy() << "; out-of-world score " << r.trace.worldScore
                      << " > 1); its caption is a guess\n";
        if (!o.json) {
            std::cout << terminalSafe(r.trace.text()) << "\n";
            continue;
        }
        auto j = traceToJson(r.trace, o.attention);
        j["input"] = r.input;
        if (r.image >= 0) {
            j["image_index"] = r.image;
            j["references"] = r.references;
            j["url"] = r.url;
        }
        if (r.beam) {
            j["beam"] = beamToJson(*r.beam, BeamOptions{o.beam, o.lengthPenalty});
            j["greedy"] = r.greedy;
        }
        std::cout << j.dump() << "\n";
    }
}

} // namespace

void addCaptionCommand(CLI::App& app) {
    static CaptionOptions o;
    auto* cmd = app.add_subcommand("caption", "Caption images (image models) or feature rows");
    addCheckpointOption(cmd, o.checkpoint)->required();
    addDeviceOption(cmd, o.device);
    cmd->add_option("--max-length", o.maxLength, "Most tokens to generate")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cmd->add_option("--top-k", o.topK, "Candidates kept per step")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    addJsonFlag(cmd, o.json, "One JSON object per input, one per line");
    cmd->add_flag("--attention", o.attention, "With --json: include every attention matrix");
    cmd->add_option("--features", o.features,
                    "NumPy .npy of shape (D,) or (N, D), or an .h5 file's 'features' dataset");
    cmd->add_option("--data", o.data, "The course's coco_captioning folder");
    cmd->add_option("--split", o.split, "With --data: val or train")
        ->check(CLI::IsMember({"val", "train"}))
        ->capture_default_str();
    cmd->add_option("--image", o.images, "With --data: caption this image row (repeatable)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--caption-index", o.captionIndex,
                    "With --data: caption the image of this ground-truth caption")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--row", o.row, "Caption only this row of --features")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--force-prefix", o.forcePrefix,
                    "Words forced as the first tokens; greedy decoding continues after them");
    cmd->add_option("--beam", o.beam,
                    "Beam search of width K instead of greedy decoding (1 is greedy exactly)")
        ->check(CLI::Range(1, 100));
    cmd->add_option("--length-penalty", o.lengthPenalty,
                    "With --beam: alpha of score = log P / ((5 + length) / 6)^alpha")
        ->check(CLI::Range(0.0, 10.0))
        ->capture_default_str();
    cmd->add_option("inputs", o.inputs, "Image files");
    cmd->callback([] { runCaption(o); });
}

} // namespace cl::cli
