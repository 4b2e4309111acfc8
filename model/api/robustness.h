#pragma once
// Judging captions of scenes drawn by other programs (tests/robust_suite.py): one or two objects
// with a colour and a shape each, and for two, the relation of the first to the second. Sizes
// are not judged (another renderer's "large" is not ours).
#include <string>
#include <vector>

namespace cl {

struct SuiteObject {
    std::string colour, shape;
};

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
    // Right: every object named with its colour and shape, nothing more, relation right.
    bool right() const {
        return countRight && attributesRight == attributes && (!hasRelation || relationRight);
    }
};

SuiteJudgement judgeCaption(const std::vector<std::string>& words, const SuiteScene& truth);

} // namespace cl
