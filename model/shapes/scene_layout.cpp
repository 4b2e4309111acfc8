// Random scene layouts of the classic world and the captions of any layout (scene.h).
#include "model/shapes/scene.h"

#include "model/shapes/rng.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cl {

namespace {

using shapes::Rng;

uint8_t clampByte(int v) {
    return static_cast<uint8_t>(std::clamp(v, 0, 255));
}

std::array<uint8_t, 3> mutedColour(Rng& rng) {
    const int grey = 70 + rng.below(140);
    return {clampByte(grey + rng.below(41) - 20), clampByte(grey + rng.below(41) - 20),
            clampByte(grey + rng.below(41) - 20)};
}

SceneObject randomObject(Rng& rng, int side) {
    SceneObject o;
    o.shape = static_cast<Shape>(rng.below(kShapeCount));
    o.colour = static_cast<Colour>(rng.below(kColourCount));
    o.size = rng.below(2) ? Size::Large : Size::Small;
    const double scale = side / 128.0;
    o.radius = scale * (o.size == Size::Large ? rng.uniform(19, 24) : rng.uniform(10, 13));
    const double margin = o.radius + 2 * scale;
    o.cx = rng.uniform(margin, side - margin);
    o.cy = rng.uniform(margin, side - margin);
    const auto base = namedColour(o.colour);
    for (int k = 0; k < 3; ++k)
        o.rgb[k] = clampByte(base[k] + rng.below(25) - 12);
    return o;
}

// Canonical mention order key: large first, then colour, shape, x, y.
bool mentionedBefore(const SceneObject& a, const SceneObject& b) {
    auto key = [](const SceneObject& o) {
        return std::make_tuple(o.size == Size::Large ? 0 : 1, static_cast<int>(o.colour),
                               static_cast<int>(o.shape), o.cx, o.cy);
    };
    return key(a) < key(b);
}

std::string phrase(const SceneObject& o) {
    return "a " + sizeName(o.size) + " " + colourName(o.colour) + " " + shapeName(o.shape);
}

} // namespace

std::string inverseRelation(const std::string& rel) {
    if (rel == "left of")
        return "right of";
    if (rel == "right of")
        return "left of";
    return rel == "above" ? "below" : "above";
}

bool clearlyApart(const SceneObject& a, const SceneObject& b) {
    const double dx = std::abs(a.cx - b.cx), dy = std::abs(a.cy - b.cy);
    // Strokes (outlines, borders: the varied world) reach half their width past the edge.
    const double gap = std::hypot(a.cx - b.cx, a.cy - b.cy) - a.radius - b.radius -
                       (a.stroke + b.stroke) / 2;
    return gap >= 4.0 && (dx >= 1.6 * dy || dy >= 1.6 * dx);
}

SceneSpec randomSpec(uint64_t seed, int side, int maxObjects) {
    Rng rng(seed);
    SceneSpec spec;
    spec.side = side;
    auto& bg = spec.background;
    bg.from = mutedColour(rng);
    bg.to = mutedColour(rng);
    bg.direction = rng.below(8);
    bg.noise = rng.below(10);
    bg.noiseSeed = rng.next();
    const int count = std::clamp(1 + rng.below(3), 1, std::max(1, maxObjects));
    for (int attempt = 0; attempt < 1000 && static_cast<int>(spec.objects.size()) < count;
         ++attempt) {
        const auto o = randomObject(rng, side);
        const bool fits = std::all_of(spec.objects.begin(), spec.objects.end(),
                                      [&](const SceneObject& p) { return clearlyApart(o, p); });
        if (fits)
            spec.objects.push_back(o);
    }
    return spec;
}

std::string relation(const SceneObject& a, const SceneObject& b) {
    const double dx = a.cx - b.cx, dy = a.cy - b.cy;
    if (std::abs(dx) >= std::abs(dy))
        return dx < 0 ? "left of" : "right of";
    return dy < 0 ? "above" : "below";
}

std::vector<size_t> mentionOrder(const SceneSpec& spec) {
    std::vector<size_t> order(spec.objects.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return mentionedBefore(spec.objects[a], spec.objects[b]);
    });
    return order;
}

std::vector<std::string> sceneCaptions(const SceneSpec& spec) {
    const auto order = mentionOrder(spec);
    const auto& o = spec.objects;
    if (order.empty())
        return {""};
    if (order.size() == 1)
        return {phrase(o[order[0]])};
    const auto& a = o[order[0]];
    const auto& b = o[order[1]];
    const std::string rel = relation(a, b);
    std::string tail = order.size() == 3 ? " and " + phrase(o[order[2]]) : "";
    return {phrase(a) + " " + rel + " " + phrase(b) + tail,
            phrase(b) + " " + inverseRelation(rel) + " " + phrase(a) + tail};
}

std::string shapeName(Shape s) {
    static const char* names[] = {"circle", "square", "triangle", "star"};
    return names[static_cast<int>(s)];
}
std::string colourName(Colour c) {
    static const char* names[] = {"red", "green", "blue", "yellow", "purple"};
    return names[static_cast<int>(c)];
}
std::string sizeName(Size s) {
    return s == Size::Small ? "small" : "large";
}

std::array<uint8_t, 3> namedColour(Colour c) {
    static const std::array<uint8_t, 3> rgb[] = {
        {220, 40, 40}, {40, 175, 60}, {40, 85, 225}, {240, 205, 30}, {150, 60, 200}};
    return rgb[static_cast<int>(c)];
}

std::vector<std::string> shapesVocabulary() {
    std::vector<std::string> v = {"<NULL>", "<START>", "<END>", "<UNK>", "a", "small", "large"};
    for (int c = 0; c < kColourCount; ++c)
        v.push_back(colourName(static_cast<Colour>(c)));
    for (int s = 0; s < kShapeCount; ++s)
        v.push_back(shapeName(static_cast<Shape>(s)));
    for (const char* w : {"left", "right", "of", "above", "below", "and"})
        v.push_back(w);
    return v;
}

uint64_t pixelHash(const std::vector<uint8_t>& rgb) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint8_t b : rgb)
        h = (h ^ b) * 0x100000001b3ULL;
    return h;
}

} // namespace cl
