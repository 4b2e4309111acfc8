// eval --head-importance (api/head_importance.h): each head's drop over held-out scenes, and
// exact match with only that head off.
#include "model/api/captioner.h"
#include "model/evaluation/head_importance_eval.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

namespace cl {

namespace {

struct HeldOut {
    std::vector<RgbImage> images;
    std::vector<std::vector<std::string>> captions; // every valid phrasing
};

HeldOut heldOut(const HeadImportanceEvalOptions& o) {
    HeldOut h;
    for (int64_t i = 0; i < o.scenes; ++i) {
        Scene s = generateScene(o.firstSeed + uint64_t(i), o.world);
        h.images.push_back({s.spec.width(), s.spec.height(), std::move(s.rgb)});
        h.captions.push_back(std::move(s.captions));
    }
    return h;
}

double exactMatch(Captioner& model, const HeldOut& h, const DecodeOptions& d) {
    constexpr size_t kBatch = 50;
    int64_t exact = 0;
    for (size_t first = 0; first < h.images.size(); first += kBatch) {
        const size_t n = std::min(kBatch, h.images.size() - first);
        const std::vector<RgbImage> batch(h.images.begin() + long(first),
                                          h.images.begin() + long(first + n));
        const auto traces = model.captionImages(batch, d);
        for (size_t i = 0; i < n; ++i) {
            const auto& refs = h.captions[first + i];
            exact += std::find(refs.begin(), refs.end(), traces[i].text()) != refs.end();
        }
    }
    return double(exact) / double(std::max<size_t>(1, h.images.size()));
}

} // namespace

HeadImportanceEvalResult
evaluateHeadImportance(Captioner& model, const HeadImportanceEvalOptions& o,
                       const std::function<void(int64_t, int64_t)>& progress) {
    const auto& c = model.info().config;
    if (c.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("eval --head-importance needs an image model");
    const auto start = std::chrono::steady_clock::now();
    HeadImportanceEvalResult r;
    r.scenes = o.scenes;
    r.layers = c.numLayers;
    r.heads = c.numHeads;
    const size_t count = size_t(r.layers * 2 * r.heads);
    r.meanDrop.assign(count, 0.0);
    r.captionsChanged.assign(count, 0.0);
    const HeldOut h = heldOut(o);
    DecodeOptions d;
    d.maxLength = c.maxLength;
    for (const auto& image : h.images) {
        const HeadImportance hi = model.headImportanceImage(image, d);
        for (size_t i = 0; i < count; ++i) {
            r.meanDrop[i] += hi.drop[i] / double(o.scenes);
            r.captionsChanged[i] += hi.changesAt[i] >= 0 ? 1.0 / double(o.scenes) : 0.0;
        }
    }
    r.exactMatch = exactMatch(model, h, d);
    for (size_t i = 0; i < count; ++i) {
        DecodeOptions without = d;
        without.headsOff.assign(count, 0);
        without.headsOff[i] = 1;
        r.exactWithout.push_back(exactMatch(model, h, without));
        if (progress)
            progress(int64_t(i + 1), int64_t(count));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::string HeadImportanceEvalResult::toJson() const {
    std::ostringstream j;
    j << "{\"scenes\": " << scenes << ", \"layers\": " << layers << ", \"heads\": " << heads
      << ", \"exact_match\": " << exactMatch << ", \"seconds\": " << seconds
      << ", \"heads_by_name\": [";
    for (int64_t l = 0, i = 0; l < layers; ++l)
        for (int64_t kind = 0; kind < 2; ++kind)
            for (int64_t h = 0; h < heads; ++h, ++i) {
                const auto k = size_t(i);
                j << (i ? ", " : "") << "{\"name\": \"" << headName(l, kind, h)
                  << "\", \"layer\": " << l << ", \"kind\": \"" << (kind ? "cross" : "self")
                  << "\", \"head\": " << h << ", \"mean_drop\": " << meanDrop[k]
                  << ", \"captions_changed\": " << captionsChanged[k]
                  << ", \"exact_without\": " << exactWithout[k] << "}";
            }
    j << "]}";
    return j.str();
}

} // namespace cl
