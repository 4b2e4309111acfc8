// Rendering of a scene layout: each pixel's coverage by an object is clamp(0.5 - signed
// distance, 0, 1), sampled at the pixel centre (a step at the edge with hard edges), then the
// look of the whole picture (scene_look.cpp).
#include "model/shapes/scene.h"

#include "model/shapes/rng.h"
#include "model/shapes/scene_look.h"
#include "model/shapes/shape_geometry.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

using shapes::mix64;
using shapes::Vec;

void paintBackground(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    static const Vec dirs[8] = {
        {1, 0},  {0.70710678, 0.70710678},   {0, 1},  {-0.70710678, 0.70710678},
        {-1, 0}, {-0.70710678, -0.70710678}, {0, -1}, {0.70710678, -0.70710678}};
    const auto& bg = spec.background;
    const Vec d = dirs[bg.direction & 7];
    const int w = spec.width(), h = spec.height();
    const int n = spec.side; // the classic scale (gradients span the square's side)
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double t = std::clamp(
                ((x + 0.5 - w / 2.0) * d.x + (y + 0.5 - h / 2.0) * d.y) / n + 0.5, 0.0, 1.0);
            const uint64_t hash = mix64(bg.noiseSeed ^ (static_cast<uint64_t>(y) * w + x));
            const int noise = bg.noise ? static_cast<int>(hash % (2 * bg.noise + 1)) - bg.noise : 0;
            for (int k = 0; k < 3; ++k) {
                const double v = bg.from[k] + (bg.to[k] - bg.from[k]) * t + noise;
                rgb[(static_cast<size_t>(y) * w + x) * 3 + k] =
                    static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
            }
        }
}

// How much of the pixel the ink covers at signed distance d: soft or hard edged.
double coverage(double d, bool hard) {
    return hard ? (d < 0 ? 1.0 : 0.0) : std::clamp(0.5 - d, 0.0, 1.0);
}

void blend(uint8_t* px, const std::array<uint8_t, 3>& ink, double cover) {
    for (int k = 0; k < 3; ++k)
        px[k] = static_cast<uint8_t>(std::lround(px[k] + (ink[k] - px[k]) * cover));
}

void paintObject(const SceneObject& o, const SceneSpec& spec, std::vector<uint8_t>& rgb,
                 std::vector<uint8_t>& mask) {
    const int w = spec.width(), h = spec.height();
    const bool hard = spec.look.hardEdges;
    const Box b = o.box();
    const int x0 = std::max(0, static_cast<int>(b.x0) - 2),
              x1 = std::min(w, static_cast<int>(b.x1) + 3);
    const int y0 = std::max(0, static_cast<int>(b.y0) - 2),
              y1 = std::min(h, static_cast<int>(b.y1) + 3);
    const shapes::ShapeGeometry shape(o);
    const double halfStroke = o.fill == Fill::Solid ? 0.0 : o.stroke / 2;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const double d = shape.distance(x + 0.5, y + 0.5);
            const size_t i = static_cast<size_t>(y) * w + x;
            if (d - halfStroke <= 0)
                mask[i] = 1; // the object's region: inside its outline, stroke included
            uint8_t* px = &rgb[i * 3];
            if (o.fill != Fill::Outline) {
                const double cover = coverage(d, hard);
                if (cover > 0)
                    blend(px, o.rgb, cover);
            }
            if (o.fill != Fill::Solid) {
                const double cover = coverage(std::abs(d) - halfStroke, hard);
                if (cover > 0)
                    blend(px, o.fill == Fill::Outline ? o.rgb : o.edgeRgb, cover);
            }
        }
}

} // namespace

Scene renderScene(const SceneSpec& spec) {
    Scene s;
    s.spec = spec;
    const size_t pixels = static_cast<size_t>(spec.width()) * spec.height();
    s.rgb.assign(pixels * 3, 0);
    paintBackground(spec, s.rgb);
    shapes::paintTexture(spec, s.rgb);
    for (const auto& o : spec.objects) {
        s.masks.emplace_back(pixels, 0);
        paintObject(o, spec, s.rgb, s.masks.back());
    }
    shapes::applyLook(spec, s.rgb);
    s.captions = sceneCaptions(spec);
    return s;
}

} // namespace cl
