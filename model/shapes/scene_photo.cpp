// Paper photographed under a desk lamp or beside a phone (scene.h Look): a smooth falloff to one
// side, a cast shadow with a soft edge, vignetting, a crease and the light's colour. What a
// photo of a sheet has and no object is: the model learns that shading is never a shape (issue
// 38: lamp-lit photos made it invent a small third object).
#include "model/shapes/scene_look.h"

#include <algorithm>
#include <cmath>

namespace cl::shapes {

namespace {

double smoothstep(double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

// The gain at (u, v), both -0.5..0.5 across the canvas.
double photoGain(const Look& l, double u, double v) {
    double gain = 1;
    if (l.lamp > 0) {
        const double c = std::cos(l.lampAngle), s = std::sin(l.lampAngle);
        const double span = 0.5 * (std::abs(c) + std::abs(s));
        gain *= 1 - l.lamp * smoothstep((u * c + v * s + span) / (2 * span));
    }
    if (l.castShadow > 0) {
        const double d = u * std::cos(l.castAngle) + v * std::sin(l.castAngle);
        gain *= 1 - l.castShadow * smoothstep((d - l.castEdge) / l.castSoftness + 0.5);
    }
    if (l.vignette > 0)
        gain *= 1 - l.vignette * 2 * (u * u + v * v);
    if (l.crease > 0) {
        const double d = u * std::cos(l.creaseAngle) + v * std::sin(l.creaseAngle) - l.creaseOffset;
        const double w = l.creaseWidth;
        gain *= 1 + l.crease * (0.7 * std::exp(-std::pow((d + w) / w, 2)) -
                                std::exp(-std::pow((d - w) / w, 2)));
    }
    return gain;
}

} // namespace

bool hasPhotoLight(const Look& l) {
    return l.lamp > 0 || l.castShadow > 0 || l.vignette > 0 || l.crease > 0 ||
           l.whiteBalance != std::array<double, 3>{1, 1, 1};
}

void paintPhotoLight(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    const Look& l = spec.look;
    const int w = spec.width(), h = spec.height();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double gain = photoGain(l, (x + 0.5) / w - 0.5, (y + 0.5) / h - 0.5);
            uint8_t* px = &rgb[(static_cast<size_t>(y) * w + x) * 3];
            for (int k = 0; k < 3; ++k)
                px[k] = static_cast<uint8_t>(
                    std::clamp(std::lround(px[k] * gain * l.whiteBalance[k]), 0L, 255L));
        }
}

} // namespace cl::shapes
