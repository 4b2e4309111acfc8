// The varied world (scene.h randomVariedSpec): the classic grammar and layout rules, drawn the
// many ways people draw shapes. Every choice comes from the seed's own RNG stream.
#include "model/shapes/scene.h"

#include "model/shapes/rng.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

using shapes::Rng;

uint8_t byte(double v) {
    return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

std::array<uint8_t, 3> grey(double v) {
    return {byte(v), byte(v), byte(v)};
}

// A canvas of any aspect ratio; the short side is the classic 128 px.
void randomCanvas(Rng& rng, SceneSpec& spec) {
    const double u = rng.uniform(0, 1);
    const double ratio = u < 0.4 ? rng.uniform(1, 1.4) : u < 0.75 ? rng.uniform(1.4, 2)
                                                                  : rng.uniform(2, 3.3);
    const int longSide = static_cast<int>(std::lround(128 * ratio));
    const bool wide = rng.chance(0.6);
    spec.side = 128;
    spec.canvasWidth = wide ? longSide : 128;
    spec.canvasHeight = wide ? 128 : longSide;
}

void randomBackground(Rng& rng, SceneSpec& spec, bool& dark) {
    auto& bg = spec.background;
    const int kind = rng.below(100);
    dark = false;
    if (kind < 28) { // white or near-white slide
        bg.from = bg.to = grey(rng.chance(0.5) ? 255 : rng.uniform(232, 255));
    } else if (kind < 43) { // pastel
        bg.from = bg.to = hsvToRgb(rng.uniform(0, 360), rng.uniform(0.05, 0.22),
                                   rng.uniform(0.88, 1.0));
    } else if (kind < 63) { // paper: warm light grey, grain added by the look
        const double v = rng.uniform(200, 245);
        bg.from = bg.to = {byte(v + rng.uniform(0, 8)), byte(v + rng.uniform(-2, 4)),
                           byte(v - rng.uniform(0, 14))};
        spec.look.texture = rng.uniform(2, 9);
    } else if (kind < 75) { // dark slide
        bg.from = grey(rng.uniform(10, 60));
        bg.to = rng.chance(0.5) ? bg.from : grey(rng.uniform(10, 70));
        dark = true;
    } else { // light or muted gradients
        const double lo = rng.uniform(110, 230), hi = rng.uniform(lo, 255);
        bg.from = hsvToRgb(rng.uniform(0, 360), rng.uniform(0, 0.2), lo / 255);
        bg.to = hsvToRgb(rng.uniform(0, 360), rng.uniform(0, 0.2), hi / 255);
    }
    bg.direction = rng.below(8);
    bg.noise = rng.chance(0.3) ? rng.below(6) : 0;
    bg.noiseSeed = rng.next();
}

// A photographed sheet's light (scene_photo.cpp), drawn from a stream of its own so every other
// choice of the scene stays what it was before these looks existed.
void randomPhotoLight(Look& l) {
    Rng rng(shapes::mix64(l.seed ^ 0x5048'4F54'4F4C'4954ULL));
    if (!rng.chance(0.75))
        return;
    const double pi = 3.14159265358979;
    l.lamp = rng.uniform(0.1, 0.45);
    l.lampAngle = rng.uniform(0, 2 * pi);
    if (rng.chance(0.5)) {
        l.castShadow = rng.uniform(0.15, 0.5);
        l.castAngle = rng.uniform(0, 2 * pi);
        l.castEdge = rng.uniform(0.1, 0.45);
        l.castSoftness = rng.uniform(0.02, 0.15);
    }
    if (rng.chance(0.6))
        l.vignette = rng.uniform(0.05, 0.3);
    if (rng.chance(0.35)) {
        l.crease = rng.uniform(0.05, 0.15);
        l.creaseAngle = rng.uniform(0, pi);
        l.creaseOffset = rng.uniform(-0.3, 0.3);
        l.creaseWidth = rng.uniform(0.004, 0.012);
    }
    if (rng.chance(0.6)) {
        const bool cool = rng.chance(0.3);
        const double g = rng.uniform(0.9, 1.0), b = rng.uniform(0.75, 1.0);
        l.whiteBalance = cool ? std::array<double, 3>{b, g, 1.0} : std::array<double, 3>{1.0, g, b};
    }
}

void randomLook(Rng& rng, SceneSpec& spec, bool paper) {
    auto& l = spec.look;
    l.seed = rng.next();
    l.hardEdges = rng.chance(0.25);
    if (rng.chance(0.15)) {
        l.frame = 2 + rng.below(9);
        l.frameRgb = grey(rng.uniform(0, 90));
    }
    if (paper || rng.chance(0.2)) {
        l.light = rng.uniform(0.03, paper ? 0.3 : 0.15);
        l.lightDirection = rng.below(8);
    }
    if (paper && rng.chance(0.4)) {
        l.shadow = rng.uniform(0.05, 0.3);
        l.shadowX = rng.uniform(0, 1);
        l.shadowY = rng.uniform(0, 1);
    }
    if (rng.chance(paper ? 0.7 : 0.3))
        l.blur = rng.uniform(0.3, 1.6);
    if (rng.chance(paper ? 0.8 : 0.3))
        l.sensorNoise = 1 + rng.below(10);
    if (rng.chance(paper ? 0.6 : 0.25))
        l.jpegQuality = 25 + rng.below(66);
    if (paper)
        randomPhotoLight(l);
}

std::array<uint8_t, 3> colourIn(Rng& rng, Colour c) {
    const ColourRegion r = colourRegion(c);
    return hsvToRgb(rng.uniform(r.hueLo, r.hueHi), rng.uniform(r.satLo, r.satHi),
                    rng.uniform(r.valLo, r.valHi));
}

struct Style {
    Fill fill;
    double stroke;
};

void drawStyle(Rng& rng, SceneObject& o, const Style& s, bool dark) {
    o.fill = s.fill;
    o.stroke = s.stroke * rng.uniform(0.85, 1.15);
    if (o.fill != Fill::Bordered)
        return;
    const int k = rng.below(10);
    if (k < 5)
        o.edgeRgb = dark ? grey(rng.uniform(200, 255)) : grey(rng.uniform(0, 70));
    else if (k < 8)
        o.edgeRgb = {byte(o.rgb[0] * 0.5), byte(o.rgb[1] * 0.5), byte(o.rgb[2] * 0.5)};
    else
        o.edgeRgb = dark ? grey(rng.uniform(0, 40)) : grey(255);
}

SceneObject randomObject(Rng& rng, const SceneSpec& spec, const Style& style, bool dark) {
    SceneObject o;
    o.shape = static_cast<Shape>(rng.below(kShapeCount));
    o.colour = static_cast<Colour>(rng.below(kColourCount));
    o.size = rng.below(2) ? Size::Large : Size::Small;
    o.radius = o.size == Size::Large ? rng.uniform(18, 28) : rng.uniform(9, 14.5);
    o.rgb = colourIn(rng, o.colour);
    if (o.shape != Shape::Circle && rng.chance(0.5))
        o.angle = rng.uniform(-0.4, 0.4);
    drawStyle(rng, o, style, dark);
    const double margin = o.radius + o.stroke + 2 + spec.look.frame;
    o.cx = rng.uniform(margin, spec.width() - margin);
    o.cy = rng.uniform(margin, spec.height() - margin);
    return o;
}

Style randomStyle(Rng& rng) {
    const int k = rng.below(100);
    if (k < 42)
        return {Fill::Solid, 0};
    if (k < 62)
        return {Fill::Bordered, rng.uniform(0.8, 4)};
    return {Fill::Outline, rng.uniform(0.6, 4.5)};
}

} // namespace

SceneSpec randomVariedSpec(uint64_t seed) {
    Rng rng(seed ^ 0x7661726965645F31ULL); // a stream of its own ("varied_1")
    if (rng.chance(0.15))
        return randomSpec(seed); // the classic world stays in the mix
    SceneSpec spec;
    randomCanvas(rng, spec);
    bool dark = false;
    randomBackground(rng, spec, dark);
    randomLook(rng, spec, spec.look.texture > 0);
    Style style = randomStyle(rng);
    const bool mixed = rng.chance(0.15); // each object its own style
    const int count = 1 + rng.below(3);
    for (int attempt = 0; attempt < 1000 && static_cast<int>(spec.objects.size()) < count;
         ++attempt) {
        if (mixed)
            style = randomStyle(rng);
        const auto o = randomObject(rng, spec, style, dark);
        if (std::all_of(spec.objects.begin(), spec.objects.end(),
                        [&](const SceneObject& p) { return clearlyApart(o, p); }))
            spec.objects.push_back(o);
    }
    return spec;
}

} // namespace cl
