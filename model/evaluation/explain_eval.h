#pragma once
// eval --explain (issue 18): every explanation method over held-out shapes scenes, per word
// type: how often its peak lies on the word's object (the pointing game, size, colour and shape
// words of a mention that names exactly one object), its deletion and insertion AUCs, and how
// often its peak is occlusion's peak (is the most-attended cell the one that matters?).
#include "model/api/captioner.h"
#include "model/shapes/scene.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cl {

struct ExplainEvalOptions {
    int64_t scenes = 50;
    uint64_t firstSeed = 0;
    World world = World::Varied;
    double tolerance = 15.0;
    int64_t igSteps = 32, curveSteps = 16;
};

// One method on one word type.
struct ExplainEvalCell {
    int64_t words = 0;         // words explained
    int64_t pointingWords = 0; // of them with a known object
    int64_t hits = 0;
    int64_t agreesWithOcclusion = 0; // peak cell == occlusion's peak cell
    double deletionAuc = 0, insertionAuc = 0; // sums; means in toJson and the table
};

struct ExplainEvalResult {
    int64_t scenes = 0, words = 0;
    double secondsPerWord = 0;
    std::vector<std::string> wordTypes; // "size", "colour", "shape", "relation"
    std::vector<ExplainMethod> methods;
    std::vector<std::vector<ExplainEvalCell>> cells; // [method][word type]
    std::string toJson() const;
};

// The object the word at `step` of a caption refers to, for the pointing game: the word (size,
// colour or shape) of a mention "a SIZE COLOUR SHAPE" that names exactly one object of the scene
// by colour and shape; nothing otherwise.
std::optional<ExplainTarget> explainTarget(const std::vector<std::string>& words, int64_t step,
                                           const SceneSpec& spec, double tolerance = 15.0);

// `progress(done, total)` after each scene, when given.
ExplainEvalResult evaluateExplanations(Captioner& model, const ExplainEvalOptions& options,
                                       const std::function<void(int64_t, int64_t)>& progress = {});

} // namespace cl
