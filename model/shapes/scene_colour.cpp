// Colour names as regions of hue, saturation and value (scene.h).
#include "model/shapes/scene.h"

#include <algorithm>
#include <cmath>

namespace cl {

ColourRegion colourRegion(Colour c) {
    // Hue gaps of at least 20 degrees between names; yellow needs light, or it turns olive.
    static const ColourRegion regions[] = {
        {-14, 12, 0.55, 1.0, 0.55, 1.0},  // red
        {92, 150, 0.45, 1.0, 0.45, 0.95}, // green
        {205, 240, 0.5, 1.0, 0.5, 1.0},   // blue
        {44, 60, 0.55, 1.0, 0.82, 1.0},   // yellow
        {266, 298, 0.4, 0.95, 0.45, 0.95} // purple
    };
    return regions[static_cast<int>(c)];
}

std::array<uint8_t, 3> hsvToRgb(double hue, double s, double v) {
    hue = std::fmod(std::fmod(hue, 360.0) + 360.0, 360.0) / 60.0;
    const int sector = static_cast<int>(hue) % 6;
    const double f = hue - std::floor(hue), p = v * (1 - s), q = v * (1 - s * f),
                 t = v * (1 - s * (1 - f));
    double r = v, g = t, b = p;
    switch (sector) {
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    case 5: r = v, g = p, b = q; break;
    default: break;
    }
    auto byte = [](double x) {
        return static_cast<uint8_t>(std::clamp(std::lround(x * 255), 0L, 255L));
    };
    return {byte(r), byte(g), byte(b)};
}

} // namespace cl
