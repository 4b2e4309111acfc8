#include "model/evaluation/explain_eval.h"

#include "model/evaluation/evaluation.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <sstream>

namespace cl {

namespace {

const std::vector<std::string> kTypes = {"size", "colour", "shape", "relation"};

struct Word {
    int64_t step = 0;
    size_t type = 0;
    std::optional<ExplainTarget> target;
};

bool isRelationWord(const std::string& w) {
    return w == "above" || w == "below" || w == "left" || w == "right";
}

std::optional<ExplainTarget> mentionTarget(const Mention& m, const SceneSpec& spec,
                                           double tolerance) {
    const auto named = [&](const SceneObject& o) {
        return colourName(o.colour) == m.colour && shapeName(o.shape) == m.shape;
    };
    if (std::count_if(spec.objects.begin(), spec.objects.end(), named) != 1)
        return std::nullopt;
    const Box b = std::find_if(spec.objects.begin(), spec.objects.end(), named)->box();
    return ExplainTarget{b.x0, b.y0, b.x1, b.y1, tolerance};
}

// The words of a caption worth explaining, with their object where known.
std::vector<Word> wordsOf(const std::vector<std::string>& words, const SceneSpec& spec,
                          double tolerance) {
    std::vector<Word> out;
    for (const Mention& m : parseMentions(words)) {
        const auto target = mentionTarget(m, spec, tolerance);
        out.push_back({m.colourStep - 1, 0, target});
        out.push_back({m.colourStep, 1, target});
        out.push_back({m.shapeStep, 2, target});
    }
    for (size_t t = 0; t < words.size(); ++t)
        if (isRelationWord(words[t]))
            out.push_back({static_cast<int64_t>(t), 3, std::nullopt});
    return out;
}

void tally(ExplainEvalResult& r, const Explanation& e, size_t type) {
    const SaliencyMap* occlusion = e.find(ExplainMethod::Occlusion);
    for (size_t m = 0; m < e.maps.size(); ++m) {
        const SaliencyMap& s = e.maps[m];
        ExplainEvalCell& c = r.cells[m][type];
        ++c.words;
        if (s.pointingHit >= 0) {
            ++c.pointingWords;
            c.hits += s.pointingHit;
        }
        c.deletionAuc += s.deletionAuc;
        c.insertionAuc += s.insertionAuc;
        // Peaks compared as cells of occlusion's grid (pixel maps: the cell holding the peak).
        const auto cellOf = [&](const SaliencyMap& x) {
            const int64_t g = occlusion->side, f = x.side / g;
            return (x.peak / x.side / f) * g + (x.peak % x.side) / f;
        };
        if (occlusion)
            c.agreesWithOcclusion += cellOf(s) == occlusion->peak;
    }
}

double mean(double sum, int64_t n) {
    return n > 0 ? sum / double(n) : 0;
}

} // namespace

std::optional<ExplainTarget> explainTarget(const std::vector<std::string>& words, int64_t step,
                                           const SceneSpec& spec, double tolerance) {
    for (const Mention& m : parseMentions(words))
        if (step >= m.colourStep - 1 && step <= m.shapeStep)
            return mentionTarget(m, spec, tolerance);
    return std::nullopt;
}

ExplainEvalResult evaluateExplanations(Captioner& model, const ExplainEvalOptions& o,
                                       const std::function<void(int64_t, int64_t)>& progress) {
    ExplainEvalResult r;
    r.wordTypes = kTypes;
    r.methods = allExplainMethods();
    r.cells.assign(r.methods.size(), std::vector<ExplainEvalCell>(kTypes.size()));
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < o.scenes; ++i) {
        const Scene s = generateScene(o.firstSeed + static_cast<uint64_t>(i), o.world);
        const RgbImage image{s.spec.width(), s.spec.height(), s.rgb};
        DecodeOptions d;
        const CaptionTrace trace = model.captionImages({image}, d).front();
        for (const auto& id : trace.steps)
            d.forcedPrefix.push_back(id.id); // every word explains this caption, decoded once
        for (const Word& w : wordsOf(trace.words(), s.spec, o.tolerance)) {
            ExplainOptions e;
            e.word = w.step;
            e.igSteps = o.igSteps;
            e.curveSteps = o.curveSteps;
            e.target = w.target;
            tally(r, model.explainImage(image, d, e), w.type);
            ++r.words;
        }
        if (progress)
            progress(i + 1, o.scenes);
    }
    r.scenes = o.scenes;
    r.secondsPerWord =
        mean(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
             r.words);
    return r;
}

std::string ExplainEvalResult::toJson() const {
    std::ostringstream j;
    j << "{\"scenes\": " << scenes << ", \"words\": " << words
      << ", \"seconds_per_word\": " << secondsPerWord << ", \"methods\": {";
    for (size_t m = 0; m < methods.size(); ++m) {
        j << (m ? ", " : "") << "\"" << explainMethodName(methods[m]) << "\": {";
        for (size_t t = 0; t < wordTypes.size(); ++t) {
            const ExplainEvalCell& c = cells[m][t];
            j << (t ? ", " : "") << "\"" << wordTypes[t] << "\": {\"words\": " << c.words
              << ", \"pointing_words\": " << c.pointingWords
              << ", \"pointing\": " << mean(double(c.hits), c.pointingWords)
              << ", \"deletion_auc\": " << mean(c.deletionAuc, c.words)
              << ", \"insertion_auc\": " << mean(c.insertionAuc, c.words)
              << ", \"peak_is_occlusion_peak\": " << mean(double(c.agreesWithOcclusion), c.words)
              << "}";
        }
        j << "}";
    }
    j << "}}";
    return j.str();
}

} // namespace cl
