#include "app/cli/explain_overlay.h"

#include "model/core/letterbox.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cl::cli {

namespace {

// Black -> red -> yellow -> white, t in [0, 1].
std::array<double, 3> heat(double t) {
    const double r = std::clamp(3 * t, 0.0, 1.0), g = std::clamp(3 * t - 1, 0.0, 1.0),
                 b = std::clamp(3 * t - 2, 0.0, 1.0);
    return {255 * r, 255 * g, 255 * b};
}

// The map's value at fractional cell coordinates (u, v), bilinear, clamped at the edges.
double sample(const SaliencyMap& m, double u, double v) {
    const double x = std::clamp(u - 0.5, 0.0, double(m.side - 1)),
                 y = std::clamp(v - 0.5, 0.0, double(m.side - 1));
    const auto x0 = static_cast<int64_t>(x), y0 = static_cast<int64_t>(y);
    const int64_t x1 = std::min(x0 + 1, m.side - 1), y1 = std::min(y0 + 1, m.side - 1);
    const double fx = x - double(x0), fy = y - double(y0);
    auto at = [&](int64_t cx, int64_t cy) { return double(m.values[size_t(cy * m.side + cx)]); };
    return (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x1, y0)) +
           fy * ((1 - fx) * at(x0, y1) + fx * at(x1, y1));
}

} // namespace

RgbImage explanationOverlay(const RgbImage& image, const Explanation& e, const SaliencyMap& map) {
    RgbImage out = image;
    // Pixel maps (gradients) scale to their 99th percentile: a handful of pixels would
    // otherwise leave the rest invisible.
    std::vector<float> sorted = map.values;
    const auto k = sorted.begin() + long(map.side >= 32 ? sorted.size() * 99 / 100 : sorted.size() - 1);
    std::nth_element(sorted.begin(), k, sorted.end());
    const double top = *k > 0 ? double(*k) : *std::max_element(sorted.begin(), sorted.end());
    const GridMap cells =
        gridMap(image.width, image.height, map.side, e.inputSide, e.letterboxed, e.trace.seen);
    for (int64_t y = 0; y < image.height; ++y)
        for (int64_t x = 0; x < image.width; ++x) {
            uint8_t* p = &out.pixels[size_t((y * image.width + x) * 3)];
            const double grey = 0.6 * (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
            const double v = sample(map, (x + 0.5 - cells.x0) / cells.cellW,
                                    (y + 0.5 - cells.y0) / cells.cellH);
            const double t = top > 0 ? std::clamp(v / top, 0.0, 1.0) : 0.0;
            const auto c = heat(t);
            const double alpha = 0.75 * std::sqrt(t);
            for (int k = 0; k < 3; ++k)
                p[k] = static_cast<uint8_t>(std::lround((1 - alpha) * grey + alpha * c[size_t(k)]));
        }
    return out;
}

} // namespace cl::cli
