#pragma once
// The geometry of one drawn object: its outline, signed distance and extent, rotation included.
#include "model/shapes/scene.h"

#include <vector>

namespace cl::shapes {

struct Vec {
    double x, y;
};

// An object's outline prepared once for many distance queries.
class ShapeGeometry {
  public:
    explicit ShapeGeometry(const SceneObject& o);
    // Signed distance from (x, y) (pixels) to the shape's edge, negative inside.
    double distance(double x, double y) const;
    // The outline's corners in pixels (empty for circles).
    const std::vector<Vec>& corners() const { return m_corners; }

  private:
    const SceneObject& m_o;
    double m_cos, m_sin;
    std::vector<Vec> m_local, m_corners; // rotated, relative to the centre / in pixels
};

} // namespace cl::shapes
