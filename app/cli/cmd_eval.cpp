#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/api/captioner.h"
#include "model/evaluation/checkpoint_tools.h"
#include "model/evaluation/course_eval.h"
#include "model/core/errors.h"
#include "model/evaluation/circuits_eval.h"
#include "model/evaluation/evaluation.h"
#include "model/evaluation/explain_eval.h"
#include "model/evaluation/head_importance_eval.h"
#include "model/core/files.h"
#include "model/core/json_limits.h"
#include "model/evaluation/robustness.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QFileInfo>

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
    std::printf("errors (of scenes)   missed an object %.2f%%, invented one %.2f%%, wrong "
                "attribute %.2f%%, wrong relation %.2f%%\n",
                100 * r.missed, 100 * r.invented, 100 * r.wrongAttribute, 100 * r.wrongRelation);
}

// The course's val split: BLEU-1, BLEU-4, exact match and loss of a feature model.
nlohmann::json courseJson(const CourseEvalResult& r, const std::string& split) {
    return {{"split", split},
            {"images", r.images},
            {"bleu1", r.bleu1},
            {"bleu4", r.bleu4},
            {"exact", r.exact},
            {"exact_unk_blind", r.exactUnkBlind},
            {"loss", r.loss},
            {"loss_tokens", r.lossTokens}};
}

nlohmann::json courseCaptionsJson(const CourseEvalResult& r) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& s : r.perImage)
        rows.push_back({{"image", s.image},
                        {"caption", s.caption},
                        {"references", s.references},
                        {"exact", s.exact},
                        {"bleu1", s.bleu1}});
    return rows;
}

void printCourseCaptions(const CourseEvalResult& r) {
    for (const auto& s : r.perImage) {
        std::printf("%6lld %s %s\n", static_cast<long long>(s.image), s.exact ? "=" : " ",
                    terminalSafe(s.caption).c_str());
        for (const auto& ref : s.references)
            std::printf("         ref: %s\n", terminalSafe(ref).c_str());
    }
}

struct CourseEvalRequest {
    std::string data, split = "val", checkpoint;
    int64_t limit = 0;
    bool json = false, store = false, captions = false;
};

void runCourseEval(Captioner& model, const CourseEvalRequest& q) {
    if (model.info().config.memory != MemoryKind::Features)
        throw std::invalid_argument("eval --data needs a feature model (this one takes images)");
    const CourseData course(q.data);
    CourseEvalOptions o;
    o.split = splitFromName(q.split);
    o.limit = q.limit;
    const auto r = evaluateCourse(model, course, o);
    const nlohmann::json summary = courseJson(r, q.split);
    if (q.json) {
        nlohmann::json out = summary;
        if (q.captions)
            out["captions"] = courseCaptionsJson(r);
        std::cout << out.dump(2) << "\n";
    } else {
        if (q.captions)
            printCourseCaptions(r);
        std::printf("%s images         %lld\n", terminalSafe(q.split).c_str(),
                    static_cast<long long>(r.images));
        std::printf("BLEU-1 (per image)  %.4f\n", r.bleu1);
        std::printf("BLEU-4 (corpus)     %.4f\n", r.bleu4);
        std::printf("exact match         %.2f%% (word for word, <UNK> included)\n", 100 * r.exact);
        std::printf("  <UNK> ignored     %.2f%%\n", 100 * r.exactUnkBlind);
        std::printf("loss (per token)    %.4f over %lld tokens\n", r.loss,
                    static_cast<long long>(r.lossTokens));
    }
    if (q.store)
        storeEvaluation(q.checkpoint, summary.dump());
}

// A robustness suite (tests/robust_suite.py): DIR/<category>/<scene>.{png,jpg} with its
// <scene>.json ground truth.
SuiteScene suiteTruth(const std::string& path) {
    const std::string text = files::readRegular(path, 1 << 20, "ground truth");
    checkJsonBudget(text, 8, 4096, path);
    const auto j = nlohmann::json::parse(text);
    SuiteScene s;
    if (!j.at("objects").is_array() || j.at("objects").size() > kMaxSuiteObjects)
        throw std::runtime_error(path + ": \"objects\" is not a list of at most " +
                                 std::to_string(kMaxSuiteObjects) + " objects");
    for (const auto& o : j.at("objects")) {
        SuiteObject object{o.at("colour").get<std::string>(), o.at("shape").get<std::string>()};
        if (o.contains("box") && o.at("box").is_array() && o.at("box").size() == 4) {
            for (size_t k = 0; k < 4; ++k)
                object.box[k] = o.at("box").at(k).get<double>();
            object.hasBox = true;
        }
        s.objects.push_back(object);
    }
    if (j.contains("relation") && j.at("relation").is_string())
        s.relation = j.at("relation").get<std::string>();
    return s;
}

struct SuiteTally {
    int64_t scenes = 0, right = 0, counted = 0, attributesRight = 0, attributes = 0, relations = 0,
            relationsRight = 0, outOfWorld = 0, missed = 0, invented = 0, wrongAttribute = 0,
            wrongRelation = 0;
    SuitePointing pointing;
    double bestHead() const {
        int64_t best = 0;
        for (int64_t h : pointing.headHits)
            best = std::max(best, h);
        return pointing.words ? double(best) / double(pointing.words) : 0.0;
    }
    nlohmann::json json() const {
        auto ratio = [](int64_t a, int64_t b) { return b ? double(a) / double(b) : 0.0; };
        return {{"scenes", scenes},
                {"right", ratio(right, scenes)},
                {"count_right", ratio(counted, scenes)},
                {"attribute_accuracy", ratio(attributesRight, attributes)},
                {"relation_accuracy", ratio(relationsRight, relations)},
                {"relation_scenes", relations},
                {"out_of_world", outOfWorld}, // false alarms of the out-of-world notice
                {"errors", // fractions of the scenes (issue 38: an invented object is an error)
                 {{"missed", ratio(missed, scenes)},
                  {"invented", ratio(invented, scenes)},
                  {"wrong_attribute", ratio(wrongAttribute, scenes)},
                  {"wrong_relation", ratio(wrongRelation, scenes)}}},
                {"pointing_words", pointing.words},
                {"pointing_last_layer_average", ratio(pointing.averageHits, pointing.words)},
                {"pointing_best_head", bestHead()}};
    }
};

SuiteTally judgeCategory(Captioner& model, const QString& folder) {
    const QStringList images =
        QDir(folder).entryList({"*.png", "*.jpg", "*.jpeg", "*.bmp"}, QDir::Files, QDir::Name);
    DecodeOptions d;
    d.topK = 1;
    SuiteTally t;
    for (const QString& name : images) {
        const QString stem = folder + "/" + QFileInfo(name).completeBaseName();
        if (!QFileInfo::exists(stem + ".json"))
            continue;
        const auto loaded = loadImage(folder + "/" + name);
        if (!loaded.ok())
            throw std::runtime_error(loaded.error.toStdString());
        const auto trace = model.captionImages({loaded.rgb}, d).front();
        const SuiteScene truth = suiteTruth((stem + ".json").toStdString());
        const auto j = judgeCaption(trace.words(), truth);
        pointSuite(trace, truth, loaded.rgb.width, loaded.rgb.height, 15.0, t.pointing);
        ++t.scenes;
        t.right += j.right();
        t.counted += j.countRight;
        t.attributesRight += j.attributesRight;
        t.attributes += j.attributes;
        t.relations += j.hasRelation;
        t.relationsRight += j.hasRelation && j.relationRight;
        t.outOfWorld += trace.outOfWorld();
        t.missed += j.missed > 0;
        t.invented += j.invented > 0;
        t.wrongAttribute += j.wrongAttribute;
        t.wrongRelation += j.wrongRelation;
    }
    return t;
}

// Greedy and beam search side by side on the same held-out scenes.
void runBeamEval(Captioner& model, const EvalOptions& o, bool json) {
    if (model.info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("eval --beam needs an image model");
    EvalOptions greedy = o;
    greedy.beam.width = 0;
    const EvalResult g = evaluate(model, greedy), b = evaluate(model, o);
    if (json) {
        std::cout << nlohmann::json{{"greedy", nlohmann::json::parse(g.toJson())},
                                    {"beam", nlohmann::json::parse(b.toJson())},
                                    {"beam_width", o.beam.width},
                                    {"length_penalty", o.beam.lengthPenalty}}
                         .dump(2)
                  << "\n";
        return;
    }
    std::printf("%lld held-out scenes\n", static_cast<long long>(g.scenes));
    std::printf("greedy             exact %5.1f%%  BLEU-4 %.4f  attributes %5.1f%%  relations %5.1f%%\n",
                100 * g.exactMatch, g.bleu4, 100 * g.attributeAccuracy, 100 * g.relationAccuracy);
    std::printf("beam %-3lld (alpha %.2g) exact %5.1f%%  BLEU-4 %.4f  attributes %5.1f%%  relations %5.1f%%\n",
                static_cast<long long>(o.beam.width), o.beam.lengthPenalty, 100 * b.exactMatch,
                b.bleu4, 100 * b.attributeAccuracy, 100 * b.relationAccuracy);
}

// Every explanation method over held-out scenes (api/explain_eval.h), as a table or JSON.
void runExplainEval(Captioner& model, const EvalOptions& eval, bool json) {
    if (model.info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("eval --explain needs an image model");
    ExplainEvalOptions o;
    o.scenes = eval.scenes;
    o.firstSeed = eval.firstSeed;
    o.world = eval.world;
    o.tolerance = eval.tolerance;
    const auto r = evaluateExplanations(model, o, [&](int64_t done, int64_t total) {
        if (!json)
            std::fprintf(stderr, "\rexplained %lld / %lld scenes", static_cast<long long>(done),
                         static_cast<long long>(total));
    });
    if (json) {
        std::cout << nlohmann::json::parse(r.toJson()).dump(2) << "\n";
        return;
    }
    std::fprintf(stderr, "\n");
    std::printf("%lld held-out scenes, %lld words, %.2f s per word (every method and its curves)\n",
                static_cast<long long>(r.scenes), static_cast<long long>(r.words),
                r.secondsPerWord);
    std::printf("%-32s %21s %10s %10s %10s\n", "", "pointing game (%)", "deletion", "insertion",
                "peak =");
    std::printf("%-32s %6s %7s %6s %10s %10s %10s\n", "method", "size", "colour", "shape",
                "AUC", "AUC", "occlusion");
    for (size_t m = 0; m < r.methods.size(); ++m) {
        const auto& c = r.cells[m];
        auto pointing = [&](size_t t) {
            return c[t].pointingWords ? 100.0 * double(c[t].hits) / double(c[t].pointingWords)
                                      : 0.0;
        };
        ExplainEvalCell all;
        for (const auto& x : c) {
            all.words += x.words;
            all.deletionAuc += x.deletionAuc;
            all.insertionAuc += x.insertionAuc;
            all.agreesWithOcclusion += x.agreesWithOcclusion;
        }
        const double n = double(std::max<int64_t>(1, all.words));
        std::printf("%-32s %6.1f %7.1f %6.1f %10.3f %10.3f %9.1f%%\n",
                    explainMethodTitle(r.methods[m]).c_str(), pointing(0), pointing(1),
                    pointing(2), all.deletionAuc / n, all.insertionAuc / n,
                    100.0 * double(all.agreesWithOcclusion) / n);
    }
}

// The suite folder's own name, also for "." or "suite/" ("suite" for the root folder).
std::string suiteName(const std::string& dir) {
    const QString clean = QDir::cleanPath(QDir(QString::fromStdString(dir)).absolutePath());
    const QString name = QFileInfo(clean).fileName();
    return name.isEmpty() ? std::string("suite") : name.toStdString();
}

// Keeps a suite's figures in the checkpoint under the suite folder's name, beside those of the
// suites stored before (both renderers, several seeds).
void storeSuite(const Captioner& model, const std::string& dir, const nlohmann::json& figures,
                const std::string& checkpoint) {
    const std::string& stored = model.info().meta.robustnessJson;
    nlohmann::json all = nlohmann::json::object();
    if (!stored.empty()) {
        checkJsonBudget(stored, 32, 1u << 20, "the checkpoint's stored robustness figures");
        all = nlohmann::json::parse(stored, nullptr, false);
        if (!all.is_object())
            all = nlohmann::json::object();
    }
    all[suiteName(dir)] = figures;
    storeRobustness(checkpoint, all.dump());
}

void runSuite(Captioner& model, const std::string& dir, bool json, const std::string& storeTo) {
    if (model.info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("eval --suite needs an image model");
    const QStringList categories =
        QDir(QString::fromStdString(dir)).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    nlohmann::json out = nlohmann::json::object();
    SuiteTally all;
    for (const QString& c : categories) {
        const SuiteTally t = judgeCategory(model, QString::fromStdString(dir) + "/" + c);
        if (t.scenes == 0)
            continue;
        out[c.toStdString()] = t.json();
        if (!json)
            std::printf("%-10s %4lld scenes  right %5.1f%%  count %5.1f%%  attributes %5.1f%%  "
                        "relations %5.1f%% (%lld)  pointing %5.1f%% (best head %5.1f%%)  "
                        "out of world %lld  |  missed %lld, invented %lld, wrong attribute "
                        "%lld, wrong relation %lld\n",
                        c.toStdString().c_str(), static_cast<long long>(t.scenes),
                        100 * out[c.toStdString()]["right"].get<double>(),
                        100 * out[c.toStdString()]["count_right"].get<double>(),
                        100 * out[c.toStdString()]["attribute_accuracy"].get<double>(),
                        100 * out[c.toStdString()]["relation_accuracy"].get<double>(),
                        static_cast<long long>(t.relations),
                        100 * out[c.toStdString()]["pointing_last_layer_average"].get<double>(),
                        100 * t.bestHead(), static_cast<long long>(t.outOfWorld),
                        static_cast<long long>(t.missed), static_cast<long long>(t.invented),
                        static_cast<long long>(t.wrongAttribute),
                        static_cast<long long>(t.wrongRelation));
        all.scenes += t.scenes;
        all.right += t.right;
    }
    if (all.scenes == 0)
        throw std::invalid_argument(dir + " holds no category folders of images with .json truth");
    const nlohmann::json figures = {{"categories", out},
                                    {"scenes", all.scenes},
                                    {"right", double(all.right) / double(all.scenes)}};
    if (json)
        std::cout << figures.dump(2) << "\n";
    if (!storeTo.empty())
        storeSuite(model, dir, figures, storeTo);
}

} // namespace

void addEvalCommand(CLI::App& app) {
    static std::string checkpoint;
    static EvalOptions o;
    static bool json = false, store = false, explain = false, heads = false, circuits = false;
    static std::string suite;
    static CourseEvalRequest course;
    auto* cmd = app.add_subcommand(
        "eval", "Evaluate an image model on held-out shapes scenes, or a feature model on the "
                "course's data (--data)");
    addCheckpointOption(cmd, checkpoint)->required();
    cmd->add_option("--scenes", o.scenes, "Held-out scenes to caption")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    cmd->add_option("--first-seed", o.firstSeed, "First held-out seed")->capture_default_str();
    static std::string world = "classic";
    cmd->add_option("--world", world, "Held-out scenes of the classic or the varied world")
        ->check(CLI::IsMember({"classic", "varied"}))
        ->capture_default_str();
    cmd->add_option("--tolerance", o.tolerance,
                    "Pointing game: pixels around the box that still count")
        ->capture_default_str();
    cmd->add_option("--data", course.data,
                    "The course's coco_captioning folder (feature models)");
    cmd->add_option("--suite", suite,
                    "A robustness suite folder (tests/robust_suite.py): scenes right per category");
    cmd->add_option("--split", course.split, "With --data: val or train")
        ->check(CLI::IsMember({"val", "train"}))
        ->capture_default_str();
    cmd->add_option("--limit", course.limit, "With --data: only the first N images of the split")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--beam", o.beam.width,
                    "Also caption every scene by beam search of width K; report greedy and beam")
        ->check(CLI::Range(1, 100));
    cmd->add_option("--length-penalty", o.beam.lengthPenalty,
                    "With --beam: alpha of score = log P / ((5 + length) / 6)^alpha")
        ->check(CLI::Range(0.0, 10.0));
    cmd->add_flag("--explain", explain,
                  "Score every explanation method (pointing game, deletion/insertion AUC, "
                  "agreement with occlusion) per word type; 50 scenes unless --scenes");
    cmd->add_flag("--head-importance", heads,
                  "What switching each head off alone costs: the caption's log-probability "
                  "drop and exact match without it (varied world, 200 scenes unless --scenes "
                  "or --world); with --store, kept for the Heads panel");
    cmd->add_flag("--circuits", circuits,
                  "Activation patching scored on ground truth: counterfactual pairs (colour, "
                  "shape, size, position, removal), how much restoration lies on the changed "
                  "object, which heads carry each, attribution patching's correlation; 100 "
                  "pairs per kind unless --scenes");
    cmd->add_flag("--captions", course.captions,
                  "With --data: each image's caption and its references (JSON: \"captions\")");
    addJsonFlag(cmd, json, "Print JSON");
    cmd->add_flag("--store", store,
                  "Also store the figures in the checkpoint's metadata (training timeline; "
                  "with --suite, under the suite folder's name)");
    cmd->callback([cmd] {
        o.world = world == "varied" ? World::Varied : World::Classic;
        if (o.firstSeed + static_cast<uint64_t>(o.scenes) > 1000000000ULL)
            throw std::invalid_argument("held-out seeds end at 1e9; training uses the rest");
        if (o.beam.lengthPenalty != 0 && o.beam.width <= 0)
            throw std::invalid_argument("--length-penalty needs --beam K");
        if (o.beam.width > 0 && (!course.data.empty() || !suite.empty() || store))
            throw std::invalid_argument("--beam evaluates held-out shapes scenes: not with "
                                        "--data, --suite or --store");
        if (explain && (o.beam.width > 0 || store || !course.data.empty() || !suite.empty()))
            throw std::invalid_argument(
                "--explain scores held-out shapes scenes: not with --beam, --store, --data or "
                "--suite");
        if (heads && (explain || o.beam.width > 0 || !course.data.empty() || !suite.empty()))
            throw std::invalid_argument("--head-importance scores held-out shapes scenes: not "
                                        "with --explain, --beam, --data or --suite");
        if (course.captions && course.data.empty())
            throw std::invalid_argument("--captions lists the course's images: it needs --data");
        auto model = Captioner::open(checkpoint);
        if (!course.data.empty()) {
            course.json = json;
            course.store = store;
            course.checkpoint = checkpoint;
            return runCourseEval(*model, course);
        }
        if (!suite.empty())
            return runSuite(*model, suite, json, store ? checkpoint : std::string());
        if (model->info().config.memory != MemoryKind::ImageGrid)
            throw std::invalid_argument("this is a feature model: evaluate it on the course's "
                                        "data with --data DIR (coco_captioning)");
        if (heads) {
            HeadImportanceEvalOptions h;
            h.scenes = cmd->count("--scenes") ? o.scenes : 200;
            h.firstSeed = o.firstSeed;
            h.world = cmd->count("--world") ? o.world : World::Varied;
            return runHeadImportanceEval(*model, h, json, store ? checkpoint : std::string());
        }
        if (circuits) {
            CircuitsEvalOptions c;
            c.pairs = cmd->count("--scenes") ? o.scenes : 100;
            c.firstSeed = o.firstSeed;
            return runCircuitsEval(*model, c, json, store ? checkpoint : std::string());
        }
        if (explain) {
            if (cmd->count("--scenes") == 0)
                o.scenes = 50;
            return runExplainEval(*model, o, json);
        }
        if (o.beam.width > 0)
            return runBeamEval(*model, o, json);
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
