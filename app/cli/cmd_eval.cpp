#include "app/cli/commands.h"
#include "model/api/captioner.h"
#include "model/api/checkpoint_tools.h"
#include "model/api/course_eval.h"
#include "model/api/evaluation.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace cl::cli {

namespace {

void printPlain(const EvalResult& r) {
    std::printf("held-out scenes      %lld\n", static_cast<long long>(r.scenes));
    std::printf("exact match          %.2f%%\n", 100 * r.exactMatch);
    std::printf("BLEU-4 (corpus)      %.4f\n", r.bleu4);
    std::printf("attribute accuracy   %.2f%%\n", 100 * r.attributeAccuracy);
    std::printf("relation accuracy    %.2f%% (%lld scenes)\n", 100 * r.relationAccuracy,
                static_cast<long long>(r.relationScenes));
    std::printf("pointing game        (%lld colour/shape words)\n",
                static_cast<long long>(r.pointingWords));
    for (int64_t l = 0; l < r.layers; ++l) {
        std::printf("  layer %lld:", static_cast<long long>(l));
        for (int64_t h = 0; h < r.heads; ++h)
            std::printf("  head %lld %.1f%%", static_cast<long long>(h),
                        100 * r.pointing[l * r.heads + h]);
        std::printf("  | head average %.1f%%\n", 100 * r.pointingAverage[l]);
    }
    std::printf("  best: %s, %.2f%%\n", r.pointingBestName.c_str(), 100 * r.pointingBest);
}

// The course's val split: BLEU-1, BLEU-4, exact match and loss of a feature model.
std::string courseJson(const CourseEvalResult& r, const std::string& split) {
    nlohmann::json j{
        {"split", split},   {"images", r.images}, {"bleu1", r.bleu1},           {"bleu4", r.bleu4},
        {"exact", r.exact}, {"loss", r.loss},     {"loss_tokens", r.lossTokens}};
    return j.dump();
}

void runCourseEval(Captioner& model, const std::string& data, const std::string& split,
                   int64_t limit, bool json, bool store, const std::string& checkpoint) {
    if (model.info().config.memory != MemoryKind::Features)
        throw std::invalid_argument("eval --data needs a feature model (this one takes images)");
    const CourseData course(data);
    CourseEvalOptions o;
    o.split = splitFromName(split);
    o.limit = limit;
    const auto r = evaluateCourse(model, course, o);
    const std::string j = courseJson(r, split);
    if (json) {
        std::cout << nlohmann::json::parse(j).dump(2) << "\n";
    } else {
        std::printf("%s images         %lld\n", split.c_str(), static_cast<long long>(r.images));
        std::printf("BLEU-1 (per image)  %.4f\n", r.bleu1);
        std::printf("BLEU-4 (corpus)     %.4f\n", r.bleu4);
        std::printf("exact match         %.2f%%\n", 100 * r.exact);
        std::printf("loss (per token)    %.4f over %lld tokens\n", r.loss,
                    static_cast<long long>(r.lossTokens));
    }
    if (store)
        storeEvaluation(checkpoint, j);
}

} // namespace

void addEvalCommand(CLI::App& app) {
    static std::string checkpoint;
    static EvalOptions o;
    static bool json = false, store = false;
    static std::string data, split = "val";
    static int64_t limit = 0;
    auto* cmd = app.add_subcommand(
        "eval", "Evaluate an image model on held-out shapes scenes, or a feature model on the "
                "course's data (--data)");
    cmd->add_option("--checkpoint", checkpoint, "Checkpoint file")->required();
    cmd->add_option("--scenes", o.scenes, "Held-out scenes to caption")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd->add_option("--first-seed", o.firstSeed, "First held-out seed")->capture_default_str();
    cmd->add_option("--tolerance", o.tolerance,
                    "Pointing game: pixels around the box that still count")
        ->capture_default_str();
    cmd->add_option("--data", data, "The course's coco_captioning folder (feature models)");
    cmd->add_option("--split", split, "With --data: val or train")
        ->check(CLI::IsMember({"val", "train"}))
        ->capture_default_str();
    cmd->add_option("--limit", limit, "With --data: only the first N images of the split")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--json", json, "Print JSON");
    cmd->add_flag("--store", store,
                  "Also store the figures in the checkpoint's metadata (training timeline)");
    cmd->callback([] {
        if (o.firstSeed + static_cast<uint64_t>(o.scenes) > 1000000000ULL)
            throw std::invalid_argument("held-out seeds end at 1e9; training uses the rest");
        auto model = Captioner::open(checkpoint);
        if (!data.empty())
            return runCourseEval(*model, data, split, limit, json, store, checkpoint);
        if (model->info().config.memory != MemoryKind::ImageGrid)
            throw std::invalid_argument("this is a feature model: evaluate it on the course's "
                                        "data with --data DIR (coco_captioning)");
        const auto r = evaluate(*model, o);
        if (json)
            std::cout << nlohmann::json::parse(r.toJson()).dump(2) << "\n";
        else
            printPlain(r);
        if (store)
            storeEvaluation(checkpoint, r.toJson());
    });
}

} // namespace cl::cli
