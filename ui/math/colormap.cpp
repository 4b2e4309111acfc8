#include "ui/math/colormap.h"


#include <algorithm>
#include <array>
#include <cmath>

namespace cl::ui {

namespace {
// Nine samples of matplotlib's viridis.
constexpr std::array<std::array<int, 3>, 9> kViridis = {{{68, 1, 84},
                                                         {71, 44, 122},
                                                         {59, 81, 139},
                                                         {44, 113, 142},
                                                         {33, 144, 141},
                                                         {39, 173, 129},
                                                         {92, 200, 99},
                                                         {170, 220, 50},
                                                         {253, 231, 37}}};
} // namespace

QColor viridis(double t) {
    if (!std::isfinite(t))
        t = 0;
    t = std::clamp(t, 0.0, 1.0) * (kViridis.size() - 1);
    const auto i = std::min<size_t>(static_cast<size_t>(t), kViridis.size() - 2);
    const double f = t - i;
    auto mix = [&](int k) {
        return static_cast<int>(
            std::lround(kViridis[i][k] + f * (kViridis[i + 1][k] - kViridis[i][k])));
    };
    return QColor(mix(0), mix(1), mix(2));
}

std::vector<std::pair<double, QColor>> viridisStops() {
    std::vector<std::pair<double, QColor>> stops;
    for (size_t i = 0; i < kViridis.size(); ++i)
        stops.emplace_back(double(i) / (kViridis.size() - 1),
                           QColor(kViridis[i][0], kViridis[i][1], kViridis[i][2]));
    return stops;
}

ColourRange colourRange(const std::vector<float>& values, bool autoContrast) {
    if (!autoContrast)
        return {0.0, 1.0};
    double lo = INFINITY, hi = -INFINITY;
    for (float v : values)
        if (std::isfinite(v)) {
            lo = std::min(lo, double(v));
            hi = std::max(hi, double(v));
        }
    if (!std::isfinite(lo))
        return {0.0, 1.0};
    if (hi - lo < 1e-6)
        hi = lo + 1e-6;
    return {lo, hi};
}

namespace {

// viridis and the overlay's alpha curve sampled once: the overlay runs per pixel of every tile.
struct OverlayLut {
    static constexpr int kSize = 1024;
    std::array<std::array<float, 3>, kSize> colour;
    std::array<float, kSize> alpha; // sqrt(t), before the opacity: the low end is see-through
    OverlayLut() {
        for (int i = 0; i < kSize; ++i) {
            const double t = double(i) / (kSize - 1);
            const QColor c = viridis(t);
            colour[size_t(i)] = {float(c.red()), float(c.green()), float(c.blue())};
            alpha[size_t(i)] = float(std::sqrt(t));
        }
    }
};

const OverlayLut& overlayLut() {
    static const OverlayLut lut;
    return lut;
}

// Bilinear sampling positions along one axis: the two cells and the weight of the second.
struct Tap {
    int a, b;
    float f;
};

// origin and cell: where the grid lies along this axis, in fractions of the image.
std::vector<Tap> taps(int pixels, int side, double origin, double cell) {
    std::vector<Tap> out(static_cast<size_t>(pixels));
    for (int p = 0; p < pixels; ++p) {
        const double g = ((p + 0.5) / pixels - origin) / cell - 0.5;
        const int g0 = static_cast<int>(std::floor(g));
        out[size_t(p)] = {std::clamp(g0, 0, side - 1), std::clamp(g0 + 1, 0, side - 1),
                          float(g - g0)};
    }
    return out;
}

} // namespace

QImage attentionOverlay(const QImage& image, const std::vector<float>& grid, const GridMap& cells,
                        double opacity, ColourRange range) {
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    const int side = int(cells.grid);
    if (side <= 0 || grid.size() != size_t(side) * side || out.isNull() || cells.cellW <= 0 ||
        cells.cellH <= 0)
        return out;
    const int w = out.width(), h = out.height();
    const auto& lut = overlayLut();
    const float lower = float(range.lower),
                scale = float((OverlayLut::kSize - 1) / (range.upper - range.lower));
    const auto xs = taps(w, side, cells.x0, cells.cellW), ys = taps(h, side, cells.y0, cells.cellH);
    std::vector<float> row(static_cast<size_t>(side));
    for (int y = 0; y < h; ++y) {
        // Interpolate the grid vertically once per line, then horizontally per pixel.
        const Tap& ty = ys[size_t(y)];
        for (int gx = 0; gx < side; ++gx)
            row[size_t(gx)] =
                (1 - ty.f) * grid[size_t(ty.a) * side + gx] + ty.f * grid[size_t(ty.b) * side + gx];
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const Tap& tx = xs[size_t(x)];
            const float v = (1 - tx.f) * row[size_t(tx.a)] + tx.f * row[size_t(tx.b)];
            const float fi = std::clamp((v - lower) * scale, 0.f, float(OverlayLut::kSize - 1));
            const size_t i = std::isfinite(fi) ? size_t(fi + 0.5f) : 0;
            const auto& c = lut.colour[i];
            // Weak attention stays see-through so the image remains readable under the map.
            const float a = float(opacity) * lut.alpha[i];
            const QRgb p = line[x];
            auto blend = [&](int from, float to) { return int(from + a * (to - from) + 0.5f); };
            line[x] = qRgb(blend(qRed(p), c[0]), blend(qGreen(p), c[1]), blend(qBlue(p), c[2]));
        }
    }
    return out;
}

QImage differenceOverlay(const QImage& image, const std::vector<float>& diff, const GridMap& cells,
                         double scale) {
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    const int side = int(cells.grid);
    if (side <= 0 || diff.size() != size_t(side) * side || out.isNull() || scale <= 0 ||
        cells.cellW <= 0 || cells.cellH <= 0)
        return out;
    const int w = out.width(), h = out.height();
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        const int gy = std::clamp(int(std::floor(((y + 0.5) / h - cells.y0) / cells.cellH)), 0,
                                  side - 1);
        for (int x = 0; x < w; ++x) {
            const int gx = std::clamp(
                int(std::floor(((x + 0.5) / w - cells.x0) / cells.cellW)), 0, side - 1);
            const double t = std::clamp(diff[size_t(gy) * side + gx] / scale, -1.0, 1.0);
            // Faded grey base so the objects stay recognisable under the colours.
            const int grey = 200 + qGray(line[x]) / 5;
            const QColor target = t >= 0 ? QColor(178, 24, 43) : QColor(33, 102, 172);
            const double a = std::sqrt(std::abs(t));
            auto mix = [&](int c) { return static_cast<int>(std::lround(grey + a * (c - grey))); };
            line[x] = qRgb(mix(target.red()), mix(target.green()), mix(target.blue()));
        }
    }
    return out;
}

} // namespace cl::ui
