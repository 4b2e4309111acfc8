// Shapes as signed distances: anti-aliased coverage is clamp(0.5 - distance, 0, 1).
#include "model/shapes/shape_geometry.h"

#include <algorithm>
#include <cmath>

namespace cl::shapes {

namespace {

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

// Unit outline of a shape (circumscribed radius 1, pointing up).
const std::vector<Vec>& unitOutline(Shape shape) {
    static const std::vector<Vec> square = {{-0.75, -0.75}, {0.75, -0.75}, {0.75, 0.75},
                                            {-0.75, 0.75}};
    static const std::vector<Vec> triangle = {{0, -1}, {0.8660254, 0.5}, {-0.8660254, 0.5}};
    static const std::vector<Vec> star = [] {
        std::vector<Vec> v;
        for (int k = 0; k < 10; ++k) {
            const double a = -M_PI / 2 + k * M_PI / 5, r = k % 2 ? 0.45 : 1.0;
            v.push_back({r * std::cos(a), r * std::sin(a)});
        }
        return v;
    }();
    return shape == Shape::Square ? square : shape == Shape::Triangle ? triangle : star;
}

} // namespace

ShapeGeometry::ShapeGeometry(const SceneObject& o)
    : m_o(o), m_cos(std::cos(o.angle)), m_sin(std::sin(o.angle)) {
    if (o.shape == Shape::Circle)
        return;
    for (const auto& p : unitOutline(o.shape)) {
        m_local.push_back({(p.x * m_cos - p.y * m_sin) * o.radius,
                           (p.x * m_sin + p.y * m_cos) * o.radius});
        m_corners.push_back({o.cx + m_local.back().x, o.cy + m_local.back().y});
    }
}

double ShapeGeometry::distance(double x, double y) const {
    const double px = x - m_o.cx, py = y - m_o.cy, r = m_o.radius;
    if (m_o.shape == Shape::Circle)
        return std::hypot(px, py) - r;
    if (m_o.shape == Shape::Square) { // exact box distance in the square's own frame
        const double ux = px * m_cos + py * m_sin, uy = -px * m_sin + py * m_cos;
        const double h = 0.75 * r, qx = std::abs(ux) - h, qy = std::abs(uy) - h;
        return std::hypot(std::max(qx, 0.0), std::max(qy, 0.0)) + std::min(std::max(qx, qy), 0.0);
    }
    return polygonDistance({px, py}, m_local);
}

} // namespace cl::shapes

namespace cl {

Box SceneObject::box() const {
    const double pad = fill == Fill::Solid ? 0.0 : stroke / 2;
    if (shape == Shape::Circle)
        return {cx - radius - pad, cy - radius - pad, cx + radius + pad, cy + radius + pad};
    const shapes::ShapeGeometry g(*this);
    Box b{1e300, 1e300, -1e300, -1e300};
    for (const auto& p : g.corners()) {
        b.x0 = std::min(b.x0, p.x);
        b.y0 = std::min(b.y0, p.y);
        b.x1 = std::max(b.x1, p.x);
        b.y1 = std::max(b.y1, p.y);
    }
    return {b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad};
}

} // namespace cl
