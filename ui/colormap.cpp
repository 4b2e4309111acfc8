#include "colormap.h"

#include <qcustomplot.h>

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

QCPColorGradient viridisGradient() {
    QMap<double, QColor> stops;
    for (size_t i = 0; i < kViridis.size(); ++i)
        stops[double(i) / (kViridis.size() - 1)] =
            QColor(kViridis[i][0], kViridis[i][1], kViridis[i][2]);
    QCPColorGradient g;
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(235, 235, 235)); // the causal mask: visibly empty
    return g;
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

QImage attentionOverlay(const QImage& image, const std::vector<float>& grid, int side,
                        double opacity, ColourRange range) {
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    if (side <= 0 || grid.size() != size_t(side) * side || out.isNull())
        return out;
    const int w = out.width(), h = out.height();
    const double span = range.upper - range.lower;
    auto at = [&](int gx, int gy) {
        return grid[size_t(std::clamp(gy, 0, side - 1)) * side + std::clamp(gx, 0, side - 1)];
    };
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        const double gy = (y + 0.5) * side / h - 0.5;
        const int y0 = static_cast<int>(std::floor(gy));
        const double fy = gy - y0;
        for (int x = 0; x < w; ++x) {
            const double gx = (x + 0.5) * side / w - 0.5;
            const int x0 = static_cast<int>(std::floor(gx));
            const double fx = gx - x0;
            const double v = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
                             fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
            const double t = std::clamp((v - range.lower) / span, 0.0, 1.0);
            const QColor c = viridis(t);
            const QRgb p = line[x];
            // Weak attention stays see-through so the image remains readable under the map.
            const double alpha = opacity * (0.3 + 0.7 * std::sqrt(t));
            auto blend = [&](int a, int b) {
                return static_cast<int>(std::lround(a + alpha * (b - a)));
            };
            line[x] = qRgb(blend(qRed(p), c.red()), blend(qGreen(p), c.green()),
                           blend(qBlue(p), c.blue()));
        }
    }
    return out;
}

QImage differenceOverlay(const QImage& image, const std::vector<float>& diff, int side,
                         double scale) {
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    if (side <= 0 || diff.size() != size_t(side) * side || out.isNull() || scale <= 0)
        return out;
    const int w = out.width(), h = out.height();
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        const int gy = std::min(side - 1, y * side / h);
        for (int x = 0; x < w; ++x) {
            const int gx = std::min(side - 1, x * side / w);
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
