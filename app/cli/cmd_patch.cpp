// captionlens-cli patch: activation patching of a clean and a corrupted image (issue 39).
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/core/errors.h"
#include "model/data/npy.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace cl::cli {

namespace {

struct PatchCliOptions {
    std::string checkpoint, clean, corrupt, features;
    int64_t word = -1, cleanRow = -1, corruptRow = -1;
    bool noising = false, json = false;
};

const char* kindName(PatchKind k) {
    switch (k) {
    case PatchKind::ImageCell:
        return "image_cell";
    case PatchKind::Resid:
        return "resid";
    case PatchKind::Head:
        return "head";
    case PatchKind::Ffn:
        return "ffn";
    }
    return "";
}

nlohmann::json orNull(int64_t v) {
    return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

nlohmann::json siteJson(const PatchSite& s, int64_t grid) {
    nlohmann::json cell = nullptr;
    if (s.kind == PatchKind::ImageCell)
        cell = grid > 0 ? nlohmann::json{s.cell / grid, s.cell % grid} : nlohmann::json{0, 0};
    return {{"kind", kindName(s.kind)},
            {"layer", orNull(s.layer)},
            {"head", orNull(s.head)},
            {"sublayer", s.kind == PatchKind::Head ? nlohmann::json(s.cross ? "cross" : "self")
                                                   : nlohmann::json(nullptr)},
            {"position", orNull(s.position)},
            {"cell", cell},
            {"restored", s.restored},
            {"attribution", s.estimated}};
}

nlohmann::json reportJson(const PatchReport& r) {
    nlohmann::json sites = nlohmann::json::array();
    for (const auto& s : r.sites)
        sites.push_back(siteJson(s, r.gridSide));
    return {{"clean_caption", r.cleanCaption},
            {"corrupt_caption", r.corruptCaption},
            {"position", r.position},
            {"clean_word", r.cleanWord},
            {"corrupt_word", r.corruptWord},
            {"clean_logit_diff", r.cleanLogitDiff},
            {"corrupt_logit_diff", r.corruptLogitDiff},
            {"direction", r.noising ? "noising" : "denoising"},
            {"attribution_correlation", r.estimateCorrelation},
            {"sites", sites}};
}

// The pair, the measure, and the ten sites that restore most.
void printReport(const PatchReport& r) {
    std::printf("clean:     %s\ncorrupted: %s\n", terminalSafe(r.cleanCaption).c_str(),
                terminalSafe(r.corruptCaption).c_str());
    std::printf("position %lld: \"%s\" vs \"%s\", logit difference %.3f clean, %.3f corrupted "
                "(%s)\n",
                static_cast<long long>(r.position), terminalSafe(r.cleanWord).c_str(),
                terminalSafe(r.corruptWord).c_str(), r.cleanLogitDiff, r.corruptLogitDiff,
                r.noising ? "noising: corrupted activations into the clean run"
                          : "denoising: clean activations into the corrupted run");
    std::printf("attribution patching (one backward pass) against real patching: r = %.3f\n",
                r.estimateCorrelation);
    auto sites = r.sites;
    std::sort(sites.begin(), sites.end(),
              [](const PatchSite& a, const PatchSite& b) { return a.restored > b.restored; });
    for (size_t i = 0; i < std::min<size_t>(10, sites.size()); ++i) {
        const auto& s = sites[i];
        std::printf("  %-10s layer %2lld head %2lld %-5s position %2lld cell %3lld  restored %.3f"
                    " (estimate %.3f)\n",
                    kindName(s.kind), static_cast<long long>(s.layer),
                    static_cast<long long>(s.head),
                    s.kind == PatchKind::Head ? (s.cross ? "cross" : "self") : "",
                    static_cast<long long>(s.position), static_cast<long long>(s.cell),
                    s.restored, s.estimated);
    }
}

RgbImage load(const std::string& path) {
    auto loaded = loadImage(QString::fromStdString(path));
    if (!loaded.ok())
        throw std::runtime_error(loaded.error.toStdString());
    return std::move(loaded.rgb);
}

// Two rows of a feature file (course feature models).
PatchReport patchRows(Captioner& model, const PatchCliOptions& o, const PatchOptions& p) {
    const NpyMatrix m = readNpy(o.features);
    const int64_t width = model.info().config.inputDim;
    for (int64_t row : {o.cleanRow, o.corruptRow})
        if (row < 0 || row >= m.rows || m.cols != width)
            throw std::invalid_argument(o.features + " has no row " + std::to_string(row) +
                                        " of width " + std::to_string(width));
    return model.patchFeatures(m.finiteRows(o.cleanRow, 1, o.features),
                               m.finiteRows(o.corruptRow, 1, o.features), {}, p);
}

void runPatch(const PatchCliOptions& o) {
    auto model = Captioner::open(o.checkpoint);
    PatchOptions p;
    p.position = o.word;
    p.noising = o.noising;
    const bool imageModel = model->info().config.memory == MemoryKind::ImageGrid;
    if (imageModel && (o.clean.empty() || o.corrupt.empty()))
        throw std::invalid_argument("this model captions images: give --clean IMG --corrupt IMG");
    if (!imageModel && (o.features.empty() || o.cleanRow < 0 || o.corruptRow < 0))
        throw std::invalid_argument("this model reads feature vectors: give --features F.npy "
                                    "--clean-row I --corrupt-row J");
    const PatchReport r = imageModel ? model->patchImages(load(o.clean), load(o.corrupt), {}, p)
                                     : patchRows(*model, o, p);
    if (o.json)
        std::cout << reportJson(r).dump() << "\n";
    else
        printReport(r);
}

} // namespace

void addPatchCommand(CLI::App& app) {
    static PatchCliOptions o;
    auto* cmd = app.add_subcommand(
        "patch", "Activation patching: which image cells, residual streams, heads and FFNs "
                 "carry the difference between a clean and a corrupted image");
    addCheckpointOption(cmd, o.checkpoint)->required();
    cmd->add_option("--clean", o.clean, "The clean image (its caption is fed to both runs)");
    cmd->add_option("--corrupt", o.corrupt, "The corrupted image");
    cmd->add_option("--features", o.features, "Feature models: a NumPy .npy of feature rows");
    cmd->add_option("--clean-row", o.cleanRow, "With --features: the clean row");
    cmd->add_option("--corrupt-row", o.corruptRow, "With --features: the corrupted row");
    cmd->add_option("--word", o.word,
                    "The input position measured (0 = <START>; default: where the captions part)");
    cmd->add_flag("--noising", o.noising,
                  "Corrupted activations into the clean run (default: clean into corrupted)");
    addJsonFlag(cmd, o.json, "Every site as JSON");
    cmd->callback([] { runPatch(o); });
}

} // namespace cl::cli
