#include "model/shapes/counterfactual.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

bool fits(const SceneSpec& spec, size_t index) {
    const SceneObject& o = spec.objects[index];
    const double margin = o.radius + 2;
    if (o.cx < margin || o.cy < margin || o.cx > spec.side - margin || o.cy > spec.side - margin)
        return false;
    for (size_t j = 0; j < spec.objects.size(); ++j)
        if (j != index && !clearlyApart(o, spec.objects[j]))
            return false;
    return true;
}

size_t nearestOther(const SceneSpec& spec, size_t index) {
    const SceneObject& o = spec.objects[index];
    size_t other = index == 0 ? 1 : 0;
    for (size_t j = 0; j < spec.objects.size(); ++j)
        if (j != index && std::hypot(spec.objects[j].cx - o.cx, spec.objects[j].cy - o.cy) <
                              std::hypot(spec.objects[other].cx - o.cx, spec.objects[other].cy - o.cy))
            other = j;
    return other;
}

// Across the other object nearest to it, along the axis of their relation.
void mirror(SceneSpec& spec, size_t index) {
    SceneObject& o = spec.objects[index];
    size_t other = index == 0 ? 1 : 0;
    for (size_t j = 0; j < spec.objects.size(); ++j)
        if (j != index && std::hypot(spec.objects[j].cx - o.cx, spec.objects[j].cy - o.cy) <
                              std::hypot(spec.objects[other].cx - o.cx, spec.objects[other].cy - o.cy))
            other = j;
    const SceneObject& b = spec.objects[other];
    if (std::abs(o.cx - b.cx) >= std::abs(o.cy - b.cy))
        o.cx = 2 * b.cx - o.cx;
    else
        o.cy = 2 * b.cy - o.cy;
}

} // namespace

std::string changeName(Change c) {
    static const char* names[] = {"colour", "shape", "size", "position", "remove"};
    return names[static_cast<int>(c)];
}

std::optional<SceneSpec> counterfactual(const SceneSpec& clean, size_t index, Change change) {
    if (index >= clean.objects.size())
        return std::nullopt;
    SceneSpec s = clean;
    SceneObject& o = s.objects[index];
    const double scale = s.side / 128.0;
    switch (change) {
    case Change::Colour:
        o.colour = static_cast<Colour>((static_cast<int>(o.colour) + 2) % kColourCount);
        o.rgb = namedColour(o.colour);
        return s;
    case Change::Shape:
        o.shape = static_cast<Shape>((static_cast<int>(o.shape) + 1) % kShapeCount);
        break;
    case Change::Size:
        o.size = o.size == Size::Large ? Size::Small : Size::Large;
        o.radius = scale * (o.size == Size::Large ? 21.5 : 11.5);
        break;
    case Change::Position: {
        if (s.objects.size() < 2)
            return std::nullopt;
        mirror(s, index);
        if (fits(s, index))
            return s;
        // Mirrored it would leave the canvas: the two objects trade places instead (the
        // relation flips all the same; the other object's old place is this one's new one).
        s = clean;
        const size_t other = nearestOther(s, index);
        std::swap(s.objects[index].cx, s.objects[other].cx);
        std::swap(s.objects[index].cy, s.objects[other].cy);
        return fits(s, index) && fits(s, other) ? std::optional<SceneSpec>(s) : std::nullopt;
    }
    case Change::Remove:
        if (s.objects.size() < 2)
            return std::nullopt;
        s.objects.erase(s.objects.begin() + std::ptrdiff_t(index));
        return s;
    }
    return fits(s, index) ? std::optional<SceneSpec>(s) : std::nullopt;
}

} // namespace cl
