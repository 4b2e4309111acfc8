#include "model/evaluation/evaluation.h"

#include "model/evaluation/bleu.h"
#include "model/core/letterbox.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

namespace cl {

namespace {

using Tokens = std::vector<std::string>;

Tokens split(const std::string& s) {
    Tokens w;
    std::istringstream in(s);
    for (std::string x; in >> x;)
        w.push_back(x);
    return w;
}

int matches(const Mention& m, const SceneObject& o) {
    return (m.size == sizeName(o.size)) + (m.colour == colourName(o.colour)) +
           (m.shape == shapeName(o.shape));
}

// Best assignment of mentions to objects (at most 3 of each: try every permutation).
std::vector<int> assign(const std::vector<Mention>& ms, const SceneSpec& spec, int* best) {
    std::vector<int> perm(spec.objects.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::vector<int> chosen;
    *best = -1;
    do {
        int score = 0;
        for (size_t k = 0; k < std::min(ms.size(), perm.size()); ++k)
            score += matches(ms[k], spec.objects[perm[k]]);
        if (score > *best) {
            *best = score;
            chosen = perm;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
    chosen.resize(std::min(ms.size(), chosen.size()));
    return chosen; // chosen[k]: object of mention k
}

std::string generatedRelation(const Tokens& t) {
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == "above" || t[i] == "below")
            return t[i];
        if ((t[i] == "left" || t[i] == "right") && i + 1 < t.size() && t[i + 1] == "of")
            return t[i] + " of";
    }
    return "";
}

// The caption's relation between its first two mentions is right for the objects they were
// paired with, or for another pair the two mentions name equally well (two objects alike: the
// pairing picked one of them, the caption may mean the other).
bool relationRight(const Tokens& words, const std::vector<Mention>& ms,
                   const std::vector<int>& objectOf, const SceneSpec& spec) {
    if (objectOf.size() < 2)
        return false;
    const std::string said = generatedRelation(words);
    const auto& o = spec.objects;
    const int first = matches(ms[0], o[objectOf[0]]), second = matches(ms[1], o[objectOf[1]]);
    for (size_t i = 0; i < o.size(); ++i)
        for (size_t j = 0; j < o.size(); ++j)
            if (i != j && matches(ms[0], o[i]) == first && matches(ms[1], o[j]) == second &&
                said == relation(o[i], o[j]))
                return true;
    return false;
}

int argmax(const std::vector<float>& v) {
    return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

struct Pointing {
    std::vector<int64_t> hits, avgHits;
    int64_t words = 0;
};

void scorePointing(const CaptionTrace& tr, const std::vector<Mention>& ms,
                   const std::vector<int>& objectOf, const SceneSpec& spec, double tol,
                   Pointing& p) {
    const GridMap grid =
        gridMap(spec.width(), spec.height(), tr.gridSide, tr.inputSide, tr.letterboxed, tr.seen);
    auto hit = [&](const std::vector<float>& row, const Box& box) {
        const int i = argmax(row);
        return box.contains(grid.centreX(i), grid.centreY(i), tol);
    };
    for (size_t k = 0; k < objectOf.size(); ++k) {
        const Box box = spec.objects[objectOf[k]].box();
        for (int64_t step : {ms[k].colourStep, ms[k].shapeStep}) {
            if (step < 0)
                continue;
            ++p.words;
            for (int64_t l = 0; l < tr.layers; ++l) {
                std::vector<float> avg(static_cast<size_t>(tr.memoryTokens), 0.f);
                for (int64_t h = 0; h < tr.heads; ++h) {
                    const auto row = tr.crossRow(l, h, step);
                    p.hits[l * tr.heads + h] += hit(row, box);
                    for (size_t j = 0; j < row.size(); ++j)
                        avg[j] += row[j];
                }
                p.avgHits[l] += hit(avg, box);
            }
        }
    }
}

} // namespace

std::vector<Mention> parseMentions(const Tokens& t) {
    std::vector<Mention> out;
    for (size_t i = 0; i + 3 < t.size() + 0 && i < t.size(); ++i) {
        if (t[i] != "a")
            continue;
        Mention m{t[i + 1], t[i + 2], t[i + 3], static_cast<int64_t>(i + 2),
                  static_cast<int64_t>(i + 3)};
        out.push_back(m);
    }
    return out;
}

// The one corpus BLEU-4 of the project (model/api/bleu.h) over words given ids on the fly.
double corpusBleu4(const std::vector<Tokens>& cands, const std::vector<std::vector<Tokens>>& refs) {
    std::map<std::string, int64_t> ids;
    auto encode = [&](const Tokens& w) {
        cl::Words out;
        for (const auto& word : w)
            out.push_back(ids.emplace(word, static_cast<int64_t>(ids.size())).first->second);
        return out;
    };
    CorpusBleu bleu;
    for (size_t i = 0; i < cands.size(); ++i) {
        std::vector<cl::Words> r;
        for (const auto& ref : refs[i])
            r.push_back(encode(ref));
        bleu.add(encode(cands[i]), r);
    }
    return bleu.score();
}

namespace {

std::vector<CaptionTrace> decodeAll(Captioner& model, const std::vector<RgbImage>& images,
                                    const DecodeOptions& d, const BeamOptions& beam) {
    if (beam.width <= 0)
        return model.captionImages(images, d);
    std::vector<CaptionTrace> out;
    for (auto& b : model.beamImages(images, d, beam))
        out.push_back(std::move(b.trace));
    return out;
}

} // namespace

EvalResult evaluate(Captioner& model, const EvalOptions& o) {
    EvalResult res;
    const auto& cfg = model.info().config;
    res.layers = cfg.numLayers;
    res.heads = cfg.numHeads;
    Pointing p;
    p.hits.assign(static_cast<size_t>(res.layers * res.heads), 0);
    p.avgHits.assign(static_cast<size_t>(res.layers), 0);
    std::vector<Tokens> cands;
    std::vector<std::vector<Tokens>> refs;
    int64_t exact = 0, attrHits = 0, attrTotal = 0, relHits = 0;
    int64_t missed = 0, invented = 0, wrongAttribute = 0, wrongRelation = 0;
    DecodeOptions d;
    d.maxLength = cfg.maxLength;
    for (int64_t first = 0; first < o.scenes; first += o.batch) {
        const int64_t n = std::min(o.batch, o.scenes - first);
        std::vector<Scene> scenes;
        std::vector<RgbImage> images;
        for (int64_t i = 0; i < n; ++i) {
            scenes.push_back(generateScene(o.firstSeed + first + i, o.world));
            const auto& spec = scenes.back().spec;
            images.push_back({spec.width(), spec.height(), scenes.back().rgb});
        }
        const auto traces = decodeAll(model, images, d, o.beam);
        for (int64_t i = 0; i < n; ++i) {
            const auto& s = scenes[i];
            const Tokens words = traces[i].words();
            cands.push_back(words);
            refs.emplace_back();
            for (const auto& c : s.captions)
                refs.back().push_back(split(c));
            exact += std::find(s.captions.begin(), s.captions.end(), traces[i].text()) !=
                     s.captions.end();
            const auto ms = parseMentions(words);
            int score = 0;
            const auto objectOf = assign(ms, s.spec, &score);
            attrHits += std::max(score, 0);
            attrTotal += 3 * static_cast<int64_t>(s.spec.objects.size());
            const size_t drawn = s.spec.objects.size();
            missed += ms.size() < drawn;
            invented += ms.size() > drawn;
            wrongAttribute += score < 3 * static_cast<int>(objectOf.size());
            if (drawn >= 2) {
                ++res.relationScenes;
                const bool right = relationRight(words, ms, objectOf, s.spec);
                relHits += right;
                wrongRelation += objectOf.size() >= 2 && !right;
            }
            if (traces[i].gridSide > 0)
                scorePointing(traces[i], ms, objectOf, s.spec, o.tolerance, p);
        }
    }
    res.scenes = o.scenes;
    res.exactMatch = double(exact) / std::max<int64_t>(1, o.scenes);
    res.bleu4 = corpusBleu4(cands, refs);
    res.attributeAccuracy = double(attrHits) / std::max<int64_t>(1, attrTotal);
    res.relationAccuracy = double(relHits) / std::max<int64_t>(1, res.relationScenes);
    const double scenes = double(std::max<int64_t>(1, o.scenes));
    res.missed = double(missed) / scenes;
    res.invented = double(invented) / scenes;
    res.wrongAttribute = double(wrongAttribute) / scenes;
    res.wrongRelation = double(wrongRelation) / scenes;
    res.pointingWords = p.words;
    for (size_t i = 0; i < p.hits.size(); ++i) {
        res.pointing.push_back(double(p.hits[i]) / std::max<int64_t>(1, p.words));
        if (res.pointing.back() > res.pointingBest) {
            res.pointingBest = res.pointing.back();
            res.pointingBestName =
                "layer " + std::to_string(i / res.heads) + " head " + std::to_string(i % res.heads);
        }
    }
    for (auto h : p.avgHits)
        res.pointingAverage.push_back(double(h) / std::max<int64_t>(1, p.words));
    return res;
}

std::string EvalResult::toJson() const {
    std::ostringstream j;
    j.precision(6);
    auto list = [&](const std::vector<double>& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? ", " : "") + std::to_string(v[i]);
        return s + "]";
    };
    j << "{\"scenes\": " << scenes << ", \"exact_match\": " << exactMatch
      << ", \"bleu4\": " << bleu4 << ", \"attribute_accuracy\": " << attributeAccuracy
      << ", \"relation_accuracy\": " << relationAccuracy
      << ", \"relation_scenes\": " << relationScenes << ", \"pointing_words\": " << pointingWords
      << ", \"pointing_per_head\": " << list(pointing)
      << ", \"pointing_head_average\": " << list(pointingAverage)
      << ", \"pointing_best\": " << pointingBest << ", \"pointing_best_head\": \""
      << pointingBestName << "\", \"layers\": " << layers << ", \"heads\": " << heads
      << ", \"errors\": {\"missed\": " << missed << ", \"invented\": " << invented
      << ", \"wrong_attribute\": " << wrongAttribute << ", \"wrong_relation\": " << wrongRelation
      << "}}";
    return j.str();
}

} // namespace cl
