// The CLI's checkpoint operations (model/api/checkpoint_tools.h): tensors stay in model/.
#include "model/api/checkpoint_tools.h"

#include "model/api/captioner.h"
#include "model/api/course_eval.h"
#include "model/api/vocabulary.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"

#include <algorithm>
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
    writeCheckpoint(import.output, ck);
    report.config = ck.config;
    return report;
}

HeadCountChoice chooseHeadCount(const CourseImport& import, const std::string& dataFolder,
                                int64_t images, int64_t fallback, double margin) {
    const CourseData data(dataFolder);
    const Vocabulary vocab(import.vocab);
    const StateDict sd = readStateDict(import.input);
    const Layout layout =
        import.layout == "auto" ? detectLayout(sd) : layoutFromName(import.layout);
    const int64_t width = courseConfig(sd, vocab.size(), 1, layout).wordvecDim;
    HeadCountChoice choice;
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
    const auto best = std::min_element(
        choice.scores.begin(), choice.scores.end(),
        [](const HeadCountScore& a, const HeadCountScore& b) { return a.loss < b.loss; });
    choice.decided = std::all_of(choice.scores.begin(), choice.scores.end(), [&](const auto& s) {
        return s.heads == best->heads || s.loss >= best->loss * (1 + margin);
    });
    choice.chosen = choice.decided ? best->heads : fallback;
    return choice;
}

void storeEvaluation(const std::string& path, const std::string& evalJson) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.evalJson = evalJson;
    writeCheckpoint(path, ck);
}

void storeHeadImportance(const std::string& path, const std::string& json) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.headImportanceJson = json;
    writeCheckpoint(path, ck);
}

void storeRobustness(const std::string& path, const std::string& json) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.robustnessJson = json;
    writeCheckpoint(path, ck);
}

} // namespace cl
