// The CLI's checkpoint operations (model/api/checkpoint_tools.h): tensors stay in model/.
#include "model/api/checkpoint_tools.h"

#include "model/api/vocabulary.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"

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

void storeEvaluation(const std::string& path, const std::string& evalJson) {
    Checkpoint ck = readCheckpoint(path);
    ck.meta.evalJson = evalJson;
    writeCheckpoint(path, ck);
}

} // namespace cl
