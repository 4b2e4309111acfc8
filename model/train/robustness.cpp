#include "model/api/robustness.h"

#include "model/api/evaluation.h"
#include "model/api/scene.h"

#include <algorithm>

namespace cl {

namespace {

// The words between the first two mentions ("left of", "above", ...).
std::string captionRelation(const std::vector<std::string>& words, const Mention& first) {
    const auto after = static_cast<size_t>(first.shapeStep + 1);
    std::string out;
    for (size_t i = after; i < words.size() && words[i] != "a"; ++i)
        out += (out.empty() ? "" : " ") + words[i];
    return out;
}

int score(const Mention& m, const SuiteObject& o) {
    return (m.colour == o.colour) + (m.shape == o.shape);
}

} // namespace

SuiteJudgement judgeCaption(const std::vector<std::string>& words, const SuiteScene& truth) {
    SuiteJudgement j;
    const auto mentions = parseMentions(words);
    const auto& objects = truth.objects;
    j.attributes = 2 * static_cast<int>(objects.size());
    j.countRight = mentions.size() == objects.size();
    j.hasRelation = objects.size() == 2;
    // Best pairing of mentions with objects (at most two of each): identity or swapped.
    std::vector<size_t> order(objects.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    bool swapped = false;
    do {
        int s = 0;
        for (size_t k = 0; k < order.size() && k < mentions.size(); ++k)
            s += score(mentions[k], objects[order[k]]);
        if (s > j.attributesRight) {
            j.attributesRight = s;
            swapped = order.size() == 2 && order[0] == 1;
        }
    } while (std::next_permutation(order.begin(), order.end()));
    if (j.hasRelation && mentions.size() >= 2) {
        const std::string said = captionRelation(words, mentions[0]);
        j.relationRight = said == (swapped ? inverseRelation(truth.relation) : truth.relation);
    }
    return j;
}

} // namespace cl
