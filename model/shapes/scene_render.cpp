// Anti-aliased rendering of a scene layout: each pixel's coverage by an object is
// clamp(0.5 - signed distance, 0, 1), sampled at the pixel centre.
#include "model/api/scene.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

struct Vec {
    double x, y;
};

// Signed distance to a closed polygon (negative inside), after Inigo Quilez.
double polygonDistance(Vec p, const std::vector<Vec>& v) {
    double d = (p.x - v[0].x) * (p.x - v[0].x) + (p.y - v[0].y) * (p.y - v[0].y);
    double s = 1.0;
    for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i, ++i) {
        const Vec e{v[j].x - v[i].x, v[j].y - v[i].y}, w{p.x - v[i].x, p.y - v[i].y};
        const double t = std::clamp((w.x * e.x + w.y * e.y) / (e.x * e.x + e.y * e.y), 0.0, 1.0);
        const Vec b{w.x - e.x * t, w.y - e.y * t};
        d = std::min(d, b.x * b.x + b.y * b.y);
        const bool c1 = p.y >= v[i].y, c2 = p.y<v[j].y, c3 = e.x * w.y> e.y * w.x;
        if ((c1 && c2 && c3) || (!c1 && !c2 && !c3))
            s = -s;
    }
    return s * std::sqrt(d);
}

// Unit outline of a shape (circumscribed radius 1, pointing up), for polygons.
const std::vector<Vec>& outline(Shape shape) {
    static const std::vector<Vec> triangle = {{0, -1}, {0.8660254, 0.5}, {-0.8660254, 0.5}};
    static const std::vector<Vec> star = [] {
        std::vector<Vec> v;
        for (int k = 0; k < 10; ++k) {
            const double a = -M_PI / 2 + k * M_PI / 5, r = k % 2 ? 0.45 : 1.0;
            v.push_back({r * std::cos(a), r * std::sin(a)});
        }
        return v;
    }();
    return shape == Shape::Triangle ? triangle : star;
}

double signedDistance(const SceneObject& o, const std::vector<Vec>& polygon, double x, double y) {
    const double px = x - o.cx, py = y - o.cy, r = o.radius;
    switch (o.shape) {
    case Shape::Circle:
        return std::hypot(px, py) - r;
    case Shape::Square: {
        const double h = 0.75 * r, qx = std::abs(px) - h, qy = std::abs(py) - h;
        return std::hypot(std::max(qx, 0.0), std::max(qy, 0.0)) + std::min(std::max(qx, qy), 0.0);
    }
    default:
        return polygonDistance({px, py}, polygon);
    }
}

uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void paintBackground(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    static const Vec dirs[8] = {
        {1, 0},  {0.70710678, 0.70710678},   {0, 1},  {-0.70710678, 0.70710678},
        {-1, 0}, {-0.70710678, -0.70710678}, {0, -1}, {0.70710678, -0.70710678}};
    const auto& bg = spec.background;
    const Vec d = dirs[bg.direction & 7];
    const int n = spec.side;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const double t = std::clamp(
                ((x + 0.5 - n / 2.0) * d.x + (y + 0.5 - n / 2.0) * d.y) / n + 0.5, 0.0, 1.0);
            const uint64_t h = mix64(bg.noiseSeed ^ (static_cast<uint64_t>(y) * n + x));
            const int noise = bg.noise ? static_cast<int>(h % (2 * bg.noise + 1)) - bg.noise : 0;
            for (int k = 0; k < 3; ++k) {
                const double v = bg.from[k] + (bg.to[k] - bg.from[k]) * t + noise;
                rgb[(static_cast<size_t>(y) * n + x) * 3 + k] =
                    static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
            }
        }
}

void paintObject(const SceneObject& o, int n, std::vector<uint8_t>& rgb,
                 std::vector<uint8_t>& mask) {
    const Box b = o.box();
    const int x0 = std::max(0, static_cast<int>(b.x0) - 2),
              x1 = std::min(n, static_cast<int>(b.x1) + 3);
    const int y0 = std::max(0, static_cast<int>(b.y0) - 2),
              y1 = std::min(n, static_cast<int>(b.y1) + 3);
    std::vector<Vec> polygon;
    if (o.shape == Shape::Triangle || o.shape == Shape::Star)
        for (const auto& p : outline(o.shape))
            polygon.push_back({p.x * o.radius, p.y * o.radius});
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const double cover =
                std::clamp(0.5 - signedDistance(o, polygon, x + 0.5, y + 0.5), 0.0, 1.0);
            if (cover <= 0)
                continue;
            const size_t i = static_cast<size_t>(y) * n + x;
            if (cover >= 0.5)
                mask[i] = 1;
            for (int k = 0; k < 3; ++k) {
                const double v = rgb[i * 3 + k] + (o.rgb[k] - rgb[i * 3 + k]) * cover;
                rgb[i * 3 + k] = static_cast<uint8_t>(std::lround(v));
            }
        }
}

} // namespace

Scene renderScene(const SceneSpec& spec) {
    Scene s;
    s.spec = spec;
    const size_t pixels = static_cast<size_t>(spec.side) * spec.side;
    s.rgb.assign(pixels * 3, 0);
    paintBackground(spec, s.rgb);
    for (const auto& o : spec.objects) {
        s.masks.emplace_back(pixels, 0);
        paintObject(o, spec.side, s.rgb, s.masks.back());
    }
    s.captions = sceneCaptions(spec);
    return s;
}

} // namespace cl
