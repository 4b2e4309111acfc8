#include "model/evaluation/robustness.h"

#include "model/evaluation/evaluation.h"
#include "model/core/letterbox.h"
#include "model/shapes/scene.h"

#include <algorithm>
#include <stdexcept>

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
    if (objects.size() > kMaxSuiteObjects)
        throw std::invalid_argument("a suite scene of " + std::to_string(objects.size()) +
                                    " objects (at most " + std::to_string(kMaxSuiteObjects) + ")");
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
        // Two objects alike (same colour and shape): "A left of B" and "A right of B" both
        // describe the scene, whichever the caption means by A.
        const bool alike =
            objects[0].colour == objects[1].colour && objects[0].shape == objects[1].shape;
        j.relationRight = said == (swapped ? inverseRelation(truth.relation) : truth.relation) ||
                          (alike && said == inverseRelation(truth.relation));
        j.wrongRelation = !j.relationRight;
    }
    const int paired = static_cast<int>(std::min(mentions.size(), objects.size()));
    j.missed = static_cast<int>(objects.size()) - paired;
    j.invented = static_cast<int>(mentions.size()) - paired;
    j.wrongAttribute = j.attributesRight < 2 * paired;
    return j;
}

void pointSuite(const CaptionTrace& tr, const SuiteScene& truth, int64_t imageWidth,
                int64_t imageHeight, double tolerance, SuitePointing& tally) {
    if (tr.gridSide <= 0)
        return;
    tally.headHits.resize(static_cast<size_t>(tr.layers * tr.heads), 0);
    const GridMap grid =
        gridMap(imageWidth, imageHeight, tr.gridSide, tr.inputSide, tr.letterboxed, tr.seen);
    auto hit = [&](const std::vector<float>& row, const SuiteObject& o) {
        const auto i = std::max_element(row.begin(), row.end()) - row.begin();
        const double x = grid.centreX(i), y = grid.centreY(i);
        return x >= o.box[0] - tolerance && x <= o.box[2] + tolerance &&
               y >= o.box[1] - tolerance && y <= o.box[3] + tolerance;
    };
    for (const Mention& m : parseMentions(tr.words())) {
        const auto named = [&](const SuiteObject& o) {
            return o.hasBox && o.colour == m.colour && o.shape == m.shape;
        };
        if (std::count_if(truth.objects.begin(), truth.objects.end(), named) != 1)
            continue;
        const SuiteObject& o = *std::find_if(truth.objects.begin(), truth.objects.end(), named);
        for (int64_t step : {m.colourStep, m.shapeStep}) {
            if (step < 0)
                continue;
            ++tally.words;
            std::vector<float> average(static_cast<size_t>(tr.memoryTokens), 0.f);
            for (int64_t l = 0; l < tr.layers; ++l)
                for (int64_t h = 0; h < tr.heads; ++h) {
                    const auto row = tr.crossRow(l, h, step);
                    tally.headHits[size_t(l * tr.heads + h)] += hit(row, o);
                    if (l == tr.layers - 1)
                        for (size_t j = 0; j < row.size(); ++j)
                            average[j] += row[j];
                }
            tally.averageHits += hit(average, o);
        }
    }
}

} // namespace cl
