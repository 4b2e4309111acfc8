#pragma once
// What the CLI does to checkpoint files, without handling a tensor: import a course state_dict
// into our format, and store evaluation figures in a checkpoint's metadata.
#include "model/core/config.h"

#include <functional>
#include <string>
#include <vector>

namespace cl {

struct CourseImport {
    std::string input;              // torch.save(model.state_dict()) of the course model
    std::vector<std::string> vocab; // words by id (coco2014_vocab.json)
    int64_t heads = 2;              // not stored in a state_dict; the notebook uses 2
    std::string layout = "auto";    // key layout: auto, 2021 or 2025
    std::string output;             // our checkpoint, written atomically
    int64_t steps = 0;              // training steps behind it, for the timeline (--steps)
    std::string headsNote;          // how `heads` was set, kept in the metadata (info shows it)
};

struct ImportReport {
    ModelConfig config;                // as read off the tensors
    std::vector<std::string> warnings; // e.g. non-finite weights
    std::vector<std::string> notes;    // what was unwrapped ('model' entry, 'module.' prefix)
};

// Builds the model once, so every key and shape is checked before anything is written.
ImportReport importCourseCheckpoint(const CourseImport& import);

// --heads auto: a state_dict does not record its head count. Each divisor of the width is scored
// by the teacher-forced loss of the ground truth on the first `images` val images of the course
// data. A model read with more heads than it has can score as well as with its own count, never
// with fewer: the smallest count whose loss is within `tolerance` (relative, 2 %) of the best is
// taken. When every count is within it the data cannot tell them apart and `fallback` is kept.
struct HeadCountScore {
    int64_t heads = 0;
    double loss = 0;
};
struct HeadCountChoice {
    std::vector<HeadCountScore> scores; // by head count, ascending
    int64_t chosen = 2;
    int64_t best = 0;     // the count of the lowest loss
    int64_t images = 0;   // val images scored
    double tolerance = 0; // as given
    bool decided = false; // false: the data cannot tell, `fallback` was kept
};
HeadCountChoice chooseHeadCount(const CourseImport& import, const std::string& dataFolder,
                                int64_t images = 150, int64_t fallback = 2,
                                double tolerance = 0.02);

// Rewrites the checkpoint at `path` (atomically) with `evalJson` in its metadata.
void storeEvaluation(const std::string& path, const std::string& evalJson);
// The same for eval --head-importance's figures (api/head_importance.h).
void storeHeadImportance(const std::string& path, const std::string& json);
// eval --circuits --store: activation patching scored on counterfactual pairs.
void storeCircuits(const std::string& path, const std::string& json);
// The same for eval --suite's figures: `json` maps each stored suite's folder name to them.
void storeRobustness(const std::string& path, const std::string& json);

// Calibrates the out-of-world check of the image model at `path` on `scenes` training-world
// scenes and rewrites the file (atomically) with the statistics; returns how many encoder
// layers the check reads.
int64_t calibrateWorldCheck(const std::string& path, int64_t scenes = 4096,
                            const std::function<bool()>& keepGoing = {});

} // namespace cl
