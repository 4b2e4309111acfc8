#pragma once
// eval --head-importance: each head's drop over held-out scenes (core/head_importance.h holds one
// caption's figures).
#include "model/core/head_importance.h"
#include "model/shapes/scene.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cl {

struct HeadImportanceEvalOptions {
    int64_t scenes = 200;
    uint64_t firstSeed = 0;
    World world = World::Varied;
};

struct HeadImportanceEvalResult {
    int64_t scenes = 0, layers = 0, heads = 0;
    double exactMatch = 0;               // every head on
    std::vector<double> meanDrop;        // per head (as HeadImportance::drop): mean over scenes
    std::vector<double> captionsChanged; // fraction of scenes whose caption changes without it
    std::vector<double> exactWithout;    // exact match with only that head off
    double seconds = 0;
    // {"scenes", "layers", "heads", "exact_match", "seconds", "heads_by_name": [{"name",
    // "layer", "kind", "head", "mean_drop", "captions_changed", "exact_without"}]}; stored in a
    // checkpoint's metadata by `eval --head-importance --store` for the Heads panel.
    std::string toJson() const;
};

class Captioner;
// `progress(done, total)` after each head, when given.
HeadImportanceEvalResult
evaluateHeadImportance(Captioner& model, const HeadImportanceEvalOptions& options,
                       const std::function<void(int64_t, int64_t)>& progress = {});

} // namespace cl
