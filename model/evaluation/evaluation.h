#pragma once
// Evaluation of an image model on held-out shapes scenes (seeds below the training range):
// exact match, corpus BLEU-4, attribute and relation accuracy, and the pointing game for every
// layer and head and for each layer's head average.
#include "model/api/captioner.h"
#include "model/shapes/scene.h"

#include <string>
#include <vector>

namespace cl {

struct EvalOptions {
    int64_t scenes = 1000;
    uint64_t firstSeed = 0;
    int64_t batch = 50;
    double tolerance = 15.0; // pixels around the box that still count (Zhang et al. 2016: 15 px)
    World world = World::Classic; // held-out scenes of the classic or the varied world
    BeamOptions beam{0, 0};       // width 0: greedy decoding; else every caption by beam search
};

struct EvalResult {
    int64_t scenes = 0, layers = 0, heads = 0;
    double exactMatch = 0, bleu4 = 0, attributeAccuracy = 0, relationAccuracy = 0;
    int64_t relationScenes = 0, pointingWords = 0;
    std::vector<double> pointing;        // [layer * heads + head]
    std::vector<double> pointingAverage; // [layer]: the head-averaged map
    double pointingBest = 0;
    std::string pointingBestName; // e.g. "layer 1 head 2"
    // What went wrong, each as a fraction of the scenes (a scene may have several): fewer
    // objects named than drawn, more (a hallucinated object), a paired object named with a
    // wrong size, colour or shape, the relation of two named objects wrong.
    double missed = 0, invented = 0, wrongAttribute = 0, wrongRelation = 0;
    std::string toJson() const;
};

EvalResult evaluate(Captioner& model, const EvalOptions& options);

// Corpus-level BLEU-4 (Papineni et al. 2002): clipped n-gram precisions over all candidates,
// geometric mean, brevity penalty against the closest reference length.
double corpusBleu4(const std::vector<std::vector<std::string>>& candidates,
                   const std::vector<std::vector<std::vector<std::string>>>& references);

// One "a SIZE COLOUR SHAPE" phrase of a caption, with the steps that produced its words.
struct Mention {
    std::string size, colour, shape;
    int64_t colourStep = -1, shapeStep = -1;
};
std::vector<Mention> parseMentions(const std::vector<std::string>& tokens);

} // namespace cl
