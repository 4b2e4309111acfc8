#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/core/errors.h"
#include "model/core/json_limits.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace cl::cli {

namespace {

// The figures eval --store keeps in a checkpoint, as JSON text: one row each.
struct StoredFigures {
    const char* key; // under metadata in --json
    std::string Metadata::*text;
    const char* what; // for the budget's message
};
const StoredFigures kStoredFigures[] = {
    {"eval", &Metadata::evalJson, "the checkpoint's stored eval figures"},
    {"head_importance", &Metadata::headImportanceJson, "the checkpoint's stored head importance"},
    {"robustness", &Metadata::robustnessJson, "the checkpoint's stored robustness figures"},
    {"circuits", &Metadata::circuitsJson, "the checkpoint's stored circuits figures"},
};

// Budget-checks the stored JSON, parses it and files it under meta[key]; nothing when the
// checkpoint has none.
void fileStoredFigures(nlohmann::json& meta, const char* key, const std::string& text,
                       const char* what) {
    if (text.empty())
        return;
    checkJsonBudget(text, 32, 1u << 20, what);
    meta[key] = nlohmann::json::parse(text, nullptr, false);
}

nlohmann::json infoJson(const ModelInfo& info, int64_t vocabSize) {
    const auto& c = info.config;
    nlohmann::json j = {{"path", info.path},
                        {"vocab_size", vocabSize},
                        {"parameters", info.parameters},
                        {"config",
                         {{"input_dim", c.inputDim},
                          {"wordvec_dim", c.wordvecDim},
                          {"num_heads", c.numHeads},
                          {"num_layers", c.numLayers},
                          {"ffn_dim", c.ffnDim},
                          {"max_length", c.maxLength},
                          {"layout", layoutName(c.layout)},
                          {"memory", memoryKindName(c.memory)}}},
                        {"metadata",
                         {{"steps", info.meta.steps},
                          {"dataset", info.meta.dataset},
                          {"date", info.meta.date},
                          {"source", info.meta.source}}},
                        {"warnings", info.warnings}};
    if (c.memory == MemoryKind::ImageGrid)
        j["config"]["encoder"] = {
            {"image_size", c.encoder.imageSize}, {"grid", c.encoder.grid},
            {"channels", c.encoder.channels},    {"position2d", c.encoder.position2d},
            {"letterbox", c.encoder.letterbox},  {"scale_cue", c.encoder.scaleCue}};
    if (!info.meta.headsNote.empty())
        j["metadata"]["heads_note"] = info.meta.headsNote;
    if (c.memory == MemoryKind::ImageGrid) // feature models have no out-of-world check
        j["world_check"] = info.worldCalibrated;
    for (const auto& f : kStoredFigures)
        fileStoredFigures(j["metadata"], f.key, info.meta.*f.text, f.what);
    return j;
}

std::string headsNote(const nlohmann::json& meta) {
    if (!meta.contains("heads_note"))
        return "";
    return " (" + terminalSafe(meta["heads_note"].get<std::string>()) + ")";
}

// The figures eval --data --store kept (a course model), as --json shows them.
void printCourseEval(const nlohmann::json& meta) {
    if (!meta.contains("eval") || !meta["eval"].is_object())
        return;
    const auto& e = meta["eval"];
    const auto number = [&](const char* key) {
        return e.contains(key) && e[key].is_number() ? e[key].get<double>() : -1.0;
    };
    if (!e.contains("split") || !e["split"].is_string() || number("bleu4") < 0)
        return;
    std::printf("course eval  %s, %lld images: BLEU-1 %.4f, BLEU-4 %.4f, exact %.2f%%, loss %.4f\n",
                terminalSafe(e["split"].get<std::string>()).c_str(),
                static_cast<long long>(number("images")), number("bleu1"), number("bleu4"),
                100 * number("exact"), number("loss"));
}

void printPlain(const nlohmann::json& j) {
    const auto& c = j["config"];
    std::cout << "checkpoint   " << terminalSafe(j["path"].get<std::string>()) << "\n"
              << "memory       " << c["memory"].get<std::string>() << "\n"
              << "layout       " << c["layout"].get<std::string>() << "\n"
              << "layers       " << c["num_layers"] << "\n"
              << "heads        " << c["num_heads"] << headsNote(j["metadata"]) << "\n"
              << "width        " << c["wordvec_dim"] << " (input " << c["input_dim"]
              << ", feed-forward " << c["ffn_dim"] << ")\n"
              << "max length   " << c["max_length"] << "\n"
              << "vocabulary   " << j["vocab_size"] << " words\n"
              << "parameters   " << j["parameters"] << "\n"
              << "trained      " << j["metadata"]["steps"] << " steps on "
              << terminalSafe(j["metadata"]["dataset"].get<std::string>()) << "\n"
              << "written      " << terminalSafe(j["metadata"]["date"].get<std::string>()) << "\n";
    if (c.contains("encoder"))
        std::cout << "encoder      " << c["encoder"]["image_size"] << " px in, "
                  << c["encoder"]["grid"] << "x" << c["encoder"]["grid"] << " grid, "
                  << (c["encoder"]["position2d"].get<bool>() ? "with" : "without")
                  << " 2D position code, "
                  << (c["encoder"]["letterbox"].get<bool>() ? "letterboxed" : "squashed")
                  << " input" << (c["encoder"]["scale_cue"].get<bool>() ? " with its scale" : "")
                  << "\n";
    if (j.contains("world_check"))
        std::cout << "world check  "
                  << (j["world_check"].get<bool>() ? "calibrated (out-of-world notice on)"
                                                   : "not calibrated (captionlens-cli calibrate)")
                  << "\n";
    const auto& meta = j["metadata"];
    printCourseEval(meta);
    if (meta.contains("robustness") && meta["robustness"].is_object())
        for (const auto& item : meta["robustness"].items()) {
            const auto& f = item.value();
            if (f.is_object() && f.contains("scenes") && f["scenes"].is_number_integer() &&
                f.contains("right") && f["right"].is_number())
                std::printf(
                    "robustness   suite %s: %d scenes, %.1f%% right (--json: per category)\n",
                    terminalSafe(item.key()).c_str(), f["scenes"].get<int>(),
                    100 * f["right"].get<double>());
        }
    for (const auto& w : j["warnings"])
        std::cout << "warning      " << terminalSafe(w.get<std::string>()) << "\n";
}

} // namespace

void addInfoCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("info", "Show a checkpoint's config, vocabulary and metadata");
    static std::string path;
    static bool json = false;
    cmd->add_option("checkpoint", path, "Checkpoint file")->required();
    addJsonFlag(cmd, json, "Print JSON");
    cmd->callback([] {
        auto model = Captioner::open(path);
        const auto j = infoJson(model->info(), model->vocab().size());
        if (json)
            std::cout << j.dump(2) << "\n";
        else
            printPlain(j);
    });
}

} // namespace cl::cli
