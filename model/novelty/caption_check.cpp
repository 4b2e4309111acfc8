#include "model/novelty/caption_check.h"

#include "model/shapes/scene.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cl {

namespace {

constexpr int64_t kViewShortSide = 128; // the varied world's canvases: short side 128 px
// A thin outline anti-aliased onto a light background keeps its hue but not its saturation, so
// the test is hue and chroma (saturation x value), not the region's saturation floor.
constexpr double kHueSlack = 10, kMinChroma = 0.12, kValueFloorScale = 0.45;
constexpr double kMinEvidence = 5; // pixels; chosen on the seed-0 suites (README)

bool oneOf(const std::string& w, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return w == n; });
}

bool isColour(const std::string& w) {
    for (int c = 0; c < kColourCount; ++c)
        if (w == colourName(static_cast<Colour>(c)))
            return true;
    return false;
}

bool isShape(const std::string& w) {
    for (int s = 0; s < kShapeCount; ++s)
        if (w == shapeName(static_cast<Shape>(s)))
            return true;
    return false;
}

// "a SIZE COLOUR SHAPE" at words[at..at+4).
bool objectAt(const std::vector<std::string>& w, size_t at) {
    return at + 4 <= w.size() && w[at] == "a" && oneOf(w[at + 1], {"large", "small"}) &&
           isColour(w[at + 2]) && isShape(w[at + 3]);
}

// Words of a relation at words[at..]: 2 ("left of"), 1 ("above") or 0 (none).
size_t relationAt(const std::vector<std::string>& w, size_t at) {
    if (at < w.size() && oneOf(w[at], {"above", "below"}))
        return 1;
    if (at + 1 < w.size() && oneOf(w[at], {"left", "right"}) && w[at + 1] == "of")
        return 2;
    return 0;
}

// The image area-averaged into bins until its short side is at most kViewShortSide: (h, w, 3).
std::vector<float> view(const uint8_t* rgb, int64_t height, int64_t width, int64_t& vh,
                        int64_t& vw) {
    const double scale = std::min(1.0, double(kViewShortSide) / double(std::min(height, width)));
    vh = std::max<int64_t>(1, std::lround(double(height) * scale));
    vw = std::max<int64_t>(1, std::lround(double(width) * scale));
    // Rows first (a plain vector sum over whole rows), then columns: 4,096 x 3,072 in a few ms.
    std::vector<float> out(static_cast<size_t>(vh * vw * 3), 0.f);
    std::vector<uint32_t> band(static_cast<size_t>(width * 3));
    int64_t y = 0;
    for (int64_t oy = 0; oy < vh; ++oy) {
        std::fill(band.begin(), band.end(), 0u);
        const int64_t y0 = y;
        for (; y < height && y * vh / height == oy; ++y) {
            const uint8_t* p = rgb + y * width * 3;
            for (size_t i = 0; i < band.size(); ++i)
                band[i] += p[i];
        }
        const int64_t rows = std::max<int64_t>(1, y - y0);
        for (int64_t ox = 0; ox < vw; ++ox) {
            const int64_t x0 = (ox * width + vw - 1) / vw, x1 = ((ox + 1) * width + vw - 1) / vw;
            uint64_t acc[3] = {0, 0, 0};
            for (int64_t x = x0; x < x1; ++x)
                for (int c = 0; c < 3; ++c)
                    acc[c] += band[size_t(x * 3 + c)];
            const float n = float(std::max<int64_t>(1, x1 - x0) * rows) * 255.f;
            for (int c = 0; c < 3; ++c)
                out[size_t((oy * vw + ox) * 3 + c)] = float(acc[c]) / n;
        }
    }
    return out;
}

bool inRegion(const float* p, const ColourRegion& r) {
    const float mx = std::max({p[0], p[1], p[2]}), mn = std::min({p[0], p[1], p[2]});
    const float d = mx - mn;
    if (mx <= 0 || d <= 0)
        return false;
    const double s = d / mx, v = mx;
    double h = mx == p[0]   ? std::fmod((p[1] - p[2]) / d + 6.0, 6.0)
               : mx == p[1] ? (p[2] - p[0]) / d + 2.0
                            : (p[0] - p[1]) / d + 4.0;
    h *= 60.0;
    if (r.hueLo < 0 && h > 180)
        h -= 360;
    return h >= r.hueLo - kHueSlack && h <= r.hueHi + kHueSlack && s * v >= kMinChroma &&
           v >= r.valLo * kValueFloorScale;
}

int64_t largestRegion(std::vector<uint8_t>& mask, int64_t h, int64_t w) {
    int64_t best = 0;
    std::vector<int64_t> stack;
    for (int64_t start = 0; start < h * w; ++start) {
        if (!mask[size_t(start)])
            continue;
        int64_t n = 0;
        mask[size_t(start)] = 0;
        stack.push_back(start);
        while (!stack.empty()) {
            const int64_t at = stack.back(), y = at / w, x = at % w;
            stack.pop_back();
            ++n;
            for (int64_t yy = std::max<int64_t>(0, y - 1); yy <= std::min(h - 1, y + 1); ++yy)
                for (int64_t xx = std::max<int64_t>(0, x - 1); xx <= std::min(w - 1, x + 1); ++xx)
                    if (mask[size_t(yy * w + xx)]) {
                        mask[size_t(yy * w + xx)] = 0;
                        stack.push_back(yy * w + xx);
                    }
        }
        best = std::max(best, n);
    }
    return best;
}

int64_t evidenceIn(const std::vector<float>& v, int64_t h, int64_t w, Colour colour) {
    const ColourRegion r = colourRegion(colour);
    std::vector<uint8_t> mask(size_t(h * w));
    for (size_t o = 0; o < mask.size(); ++o)
        mask[o] = inRegion(&v[o * 3], r) ? 1 : 0;
    return largestRegion(mask, h, w);
}

int colourIndex(const std::string& name) {
    for (int c = 0; c < kColourCount; ++c)
        if (name == colourName(static_cast<Colour>(c)))
            return c;
    return -1;
}

} // namespace

bool isWorldSentence(const std::vector<std::string>& w) {
    if (!objectAt(w, 0))
        return false;
    size_t at = 4;
    for (int object = 1; object < 3 && at < w.size(); ++object) {
        const size_t link = object == 1 ? relationAt(w, at) : (w[at] == "and" ? 1 : 0);
        if (link == 0 || !objectAt(w, at + link))
            return false;
        at += link + 4;
    }
    return at == w.size();
}

int64_t colourEvidence(const uint8_t* rgb, int64_t height, int64_t width,
                       const std::string& colour) {
    const int c = colourIndex(colour);
    if (c < 0 || height < 1 || width < 1)
        return -1;
    int64_t vh = 0, vw = 0;
    const auto v = view(rgb, height, width, vh, vw);
    return evidenceIn(v, vh, vw, static_cast<Colour>(c));
}

CaptionCheck checkCaption(const std::vector<std::string>& words, const uint8_t* rgb,
                          int64_t height, int64_t width) {
    CaptionCheck out;
    if (!isWorldSentence(words)) {
        out.score = 10;
        out.reason = "sentence";
        return out;
    }
    int64_t vh = 0, vw = 0;
    const auto v = view(rgb, height, width, vh, vw);
    for (const auto& word : words) {
        const int c = colourIndex(word);
        if (c < 0)
            continue;
        const double e = double(evidenceIn(v, vh, vw, static_cast<Colour>(c)));
        const double score = kMinEvidence / std::max(e, 0.5);
        if (score > out.score) {
            out.score = score;
            out.colour = word;
        }
    }
    out.reason = out.score > 1 ? "colour" : "";
    if (out.reason.empty())
        out.colour.clear();
    return out;
}

} // namespace cl
