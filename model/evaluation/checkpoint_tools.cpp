// The CLI's checkpoint operations (model/api/checkpoint_tools.h): tensors stay in model/.
#include "model/evaluation/checkpoint_tools.h"

#include "model/api/captioner.h"
#include "model/evaluation/course_eval.h"
#include "model/core/vocabulary.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/novelty/world_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <cstdio>

namespace cl {

ImportReport importCourseCheckpoint(const CourseImport& import) {
    const Vocabulary vocab(import.vocab);
    ImportReport report;
    const StateDict sd = readStateDict(import.input, &report.notes);
    const Layout layout =
        import.layout == "auto" ? detectLayout(sd) : layoutFromName(import.layout);
    Checkpoint ck;
    ck.config = courseConfig(sd, vocab.size(), import.heads, layout);
    ck.vocab = vocab.words();
    ck.stateDict = sd;
    auto model = buildModel(ck, vocab.nullId(), &report.warnings);
    ck.stateDict = stateDictOf(*model);
    ck.meta.steps = import.steps;
    ck.meta.dataset = "coco2014 (imported course checkpoint)";
    ck.meta.date = isoDateNow();
    ck.meta.source = import.input;
    ck.meta.headsNote = import.headsNote;
    writeCheckpoint(import.output, ck);
    report.config = ck.config;
    return report;
}

namespace {

// The rule of chooseHeadCount on the scores (api/checkpoint_tools.h).
void decide(HeadCountChoice& c, int64_t fallback) {
    const auto finite = [](const HeadCountScore& s) { return std::isfinite(s.loss); };
    const auto best = std::min_element(c.scores.begin(), c.scores.end(), [&](auto& a, auto& b) {
        return finite(a) && (!finite(b) || a.loss < b.loss);
    });
    if (best == c.scores.end() || !finite(*best))
        throw std::runtime_error("--heads auto: no head count gives a finite loss on this data "
                                 "(is it the data the model was trained on?)");
    c.best = best->heads;
    const auto fits = [&](const HeadCountScore& s) {
        return finite(s) && s.loss <= best->loss * (1 + c.tolerance);
    };
    c.decided = c.scores.size() == 1 || !std::all_of(c.scores.begin(), c.scores.end(), fits);
    c.chosen = c.decided ? std::find_if(c.scores.begin(), c.scores.end(), fits)->heads : fallback;
}

} // namespace

HeadCountChoice chooseHeadCount(const CourseImport& import, const std::string& dataFolder,
                                int64_t images, int64_t fallback, double tolerance) {
    const CourseData data(dataFolder);
    const Vocabulary vocab(import.vocab);
    const StateDict sd = readStateDict(import.input);
    const Layout layout =
        import.layout == "auto" ? detectLayout(sd) : layoutFromName(import.layout);
    const int64_t width = courseConfig(sd, vocab.size(), 1, layout).wordvecDim;
    HeadCountChoice choice;
    choice.tolerance = tolerance;
    choice.images = std::min<int64_t>(images, static_cast<int64_t>(data.images(Split::Val).size()));
    for (int64_t heads = 1; heads <= width; ++heads) {
        if (width % heads)
            continue;
        CourseImport trial = import;
        trial.heads = heads;
        trial.output = import.output + ".heads-" + std::to_string(heads) + ".tmp";
        try {
            importCourseCheckpoint(trial);
            auto model = Captioner::open(trial.output);
            choice.scores.push_back({heads, courseLoss(*model, data, Split::Val, images)});
        } catch (...) {
            std::remove(trial.output.c_str());
            throw;
        }
        std::remove(trial.output.c_str());
    }
    decide(choice, fallback);
    return choice;
}

void storeEvaluation(const std::string& path, const std::string& evalJson) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.evalJson = evalJson;
    ck.meta.date = isoDateNow(); // "written": this file, rewritten now
    writeCheckpoint(path, ck);
}

void storeHeadImportance(const std::string& path, const std::string& json) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.headImportanceJson = json;
    ck.meta.date = isoDateNow(); // "written": this file, rewritten now
    writeCheckpoint(path, ck);
}

void storeCircuits(const std::string& path, const std::string& json) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.circuitsJson = json;
    ck.meta.date = isoDateNow(); // "written": this file, rewritten now
    writeCheckpoint(path, ck);
}

void storeRobustness(const std::string& path, const std::string& json) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.robustnessJson = json;
    ck.meta.date = isoDateNow(); // "written": this file, rewritten now
    writeCheckpoint(path, ck);
}

int64_t calibrateWorldCheck(const std::string& path, int64_t scenes,
                            const std::function<bool()>& keepGoing) {
    Checkpoint ck = readCheckpoint(path);
    if (ck.config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument(path + " is a feature model: the out-of-world check needs an "
                                           "image model");
    const Vocabulary vocab(ck.vocab);
    auto model = buildModel(ck, vocab.nullId());
    model->eval();
    const WorldStats world = calibrateWorld(*model, scenes, keepGoing);
    ck.worldStats = worldToStateDict(world);
    writeCheckpoint(path, ck);
    return static_cast<int64_t>(world.layers.size());
}

} // namespace cl
