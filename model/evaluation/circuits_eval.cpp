#include "model/evaluation/circuits_eval.h"

#include "model/core/letterbox.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

namespace cl {

namespace {

RgbImage imageOf(const SceneSpec& spec) {
    const Scene s = renderScene(spec);
    return {spec.width(), spec.height(), s.rgb};
}

// The boxes a change touches: the object before and after (moved, resized), or the one removed.
std::vector<Box> changedBoxes(const SceneSpec& clean, const SceneSpec& corrupt, size_t index,
                              Change change) {
    std::vector<Box> boxes{clean.objects[index].box()};
    if (change != Change::Remove && change != Change::Colour)
        boxes.push_back(corrupt.objects[index].box());
    return boxes;
}

std::vector<bool> cellsOn(const CaptionTrace& t, int64_t width, int64_t height,
                          const std::vector<Box>& boxes, double tolerance) {
    const GridMap g = gridMap(width, height, t.gridSide, t.inputSide, t.letterboxed, t.seen);
    std::vector<bool> on(size_t(t.gridSide * t.gridSide), false);
    for (size_t c = 0; c < on.size(); ++c)
        for (const Box& b : boxes)
            on[c] = on[c] || b.contains(g.centreX(int64_t(c)), g.centreY(int64_t(c)), tolerance);
    return on;
}

// Share of `values` (negative ones counted as 0) on the cells marked; -1 when they sum to 0.
double shareOn(const std::vector<double>& values, const std::vector<bool>& on) {
    double all = 0, inside = 0;
    for (size_t c = 0; c < values.size() && c < on.size(); ++c) {
        const double v = std::max(0.0, values[c]);
        all += v;
        inside += on[c] ? v : 0;
    }
    return all > 0 ? inside / all : -1;
}

struct Tally {
    CircuitsKind kind;
    double onSum = 0, attentionSum = 0, correlationSum = 0;
    int64_t onPairs = 0;
    std::map<std::tuple<int64_t, bool, int64_t>, double> heads;
};

void scorePair(Captioner& model, const SceneSpec& clean, const SceneSpec& corrupt, size_t index,
               double tolerance, Tally& t) {
    const RgbImage a = imageOf(clean), b = imageOf(corrupt);
    PatchReport r;
    try {
        r = model.patchImages(a, b, {}, {});
    } catch (const std::invalid_argument&) {
        ++t.kind.unchanged; // the same caption, or no difference at the position
        return;
    }
    const CaptionTrace trace = model.captionImages({a}, {}).front();
    const auto on = cellsOn(trace, a.width, a.height,
                            changedBoxes(clean, corrupt, index, t.kind.change), tolerance);
    std::vector<double> cells(on.size(), 0.0);
    for (const PatchSite& s : r.sites) {
        if (s.kind == PatchKind::ImageCell && size_t(s.cell) < cells.size())
            cells[size_t(s.cell)] = s.restored;
        if (s.kind == PatchKind::Head && s.position == r.position)
            t.heads[{s.layer, s.cross, s.head}] += s.restored;
    }
    std::vector<double> attention(on.size(), 0.0);
    for (int64_t h = 0; h < trace.heads; ++h) {
        const auto row = trace.crossRow(trace.layers - 1, h, r.position);
        for (size_t c = 0; c < row.size() && c < attention.size(); ++c)
            attention[c] += row[c] / double(trace.heads);
    }
    const double share = shareOn(cells, on);
    if (share >= 0) {
        t.onSum += share;
        t.attentionSum += std::max(0.0, shareOn(attention, on));
        ++t.onPairs;
    }
    t.correlationSum += r.estimateCorrelation;
    ++t.kind.pairs;
}

CircuitsKind finish(Tally& t) {
    CircuitsKind k = t.kind;
    const double n = double(std::max<int64_t>(1, k.pairs)), m = double(std::max<int64_t>(1, t.onPairs));
    k.onObject = t.onSum / m;
    k.attentionOnObject = t.attentionSum / m;
    k.correlation = t.correlationSum / n;
    for (const auto& [key, sum] : t.heads)
        k.heads.push_back({std::get<0>(key), std::get<2>(key), std::get<1>(key), sum / n});
    std::sort(k.heads.begin(), k.heads.end(),
              [](const HeadRestoration& x, const HeadRestoration& y) { return x.mean > y.mean; });
    return k;
}

} // namespace

CircuitsEvalResult evaluateCircuits(Captioner& model, const CircuitsEvalOptions& o) {
    if (model.info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("circuits need an image model (pairs of images)");
    CircuitsEvalResult out;
    for (int k = 0; k < kChangeCount; ++k) {
        Tally t;
        t.kind.change = static_cast<Change>(k);
        for (uint64_t seed = o.firstSeed; t.kind.pairs < o.pairs && seed < o.firstSeed + 20 * uint64_t(o.pairs) + 20; ++seed) {
            const SceneSpec clean = randomSpec(seed, 128, 3);
            if (clean.objects.size() < 2) // every kind on the same kind of scene
                continue;
            const size_t index = size_t(seed % clean.objects.size());
            const auto corrupt = counterfactual(clean, index, t.kind.change);
            if (!corrupt) {
                ++t.kind.skipped;
                continue;
            }
            scorePair(model, clean, *corrupt, index, o.tolerance, t);
        }
        out.kinds.push_back(finish(t));
    }
    return out;
}

std::string CircuitsEvalResult::toJson() const {
    nlohmann::json kindsJson = nlohmann::json::object();
    for (const auto& k : kinds) {
        nlohmann::json heads = nlohmann::json::array();
        for (const auto& h : k.heads)
            heads.push_back({{"layer", h.layer},
                             {"head", h.head},
                             {"sublayer", h.cross ? "cross" : "self"},
                             {"mean_restored", h.mean}});
        kindsJson[changeName(k.change)] = {{"pairs", k.pairs},
                                           {"unchanged", k.unchanged},
                                           {"skipped", k.skipped},
                                           {"restoration_on_object", k.onObject},
                                           {"attention_on_object", k.attentionOnObject},
                                           {"attribution_correlation", k.correlation},
                                           {"heads", heads}};
    }
    return nlohmann::json{{"circuits", kindsJson}}.dump();
}

} // namespace cl
