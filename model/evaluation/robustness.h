#pragma once
// Judging captions of scenes drawn by other programs (tests/robust_suite.py): one or two objects
// with a colour and a shape each, and for two, the relation of the first to the second. Sizes
// are not judged (another renderer's "large" is not ours).
#include "model/core/trace.h"

#include <string>
#include <vector>

namespace cl {

struct SuiteObject {
    std::string colour, shape;
    double box[4] = {0, 0, 0, 0}; // x0, y0, x1, y1 in the image's pixels
    bool hasBox = false;
};

// A suite's scene holds one or two objects; judging tries every pairing of mentions with
// objects, so a truth file naming more than this many is refused by its reader (20 objects took
// 20! orderings: never finished).
constexpr size_t kMaxSuiteObjects = 4;

struct SuiteScene {
    std::vector<SuiteObject> objects;
    std::string relation; // the first object relative to the second; empty for one object
};

struct SuiteJudgement {
    bool countRight = false;    // the caption names exactly as many objects as the scene holds
    int attributesRight = 0;    // colours and shapes named right, best pairing of mentions
    int attributes = 0;         // 2 per object
    bool relationRight = false; // either phrasing ("A left of B" or "B right of A")
    bool hasRelation = false;
    // What went wrong (several may): objects not named, objects named that are not there (a
    // hallucinated third shape), a named object's colour or shape wrong, the relation of two
    // named objects wrong.
    int missed = 0, invented = 0;
    bool wrongAttribute = false, wrongRelation = false;
    // Right: every object named with its colour and shape, nothing more, relation right.
    bool right() const {
        return countRight && attributesRight == attributes && (!hasRelation || relationRight);
    }
};

SuiteJudgement judgeCaption(const std::vector<std::string>& words, const SuiteScene& truth);

// The pointing game on a suite scene (Zhang et al. 2016, as eval's): every colour and shape word
// of a mention that names exactly one object of the scene (by colour and shape) hits when the
// argmax of its cross-attention (a grid cell's centre, mapped onto the image) lies within
// `tolerance` pixels of that object's box. Per head ([layer][head]) and for the last layer's head
// average.
struct SuitePointing {
    int64_t words = 0;
    std::vector<int64_t> headHits;
    int64_t averageHits = 0;
};
void pointSuite(const CaptionTrace& trace, const SuiteScene& truth, int64_t imageWidth,
                int64_t imageHeight, double tolerance, SuitePointing& tally);

} // namespace cl
