#pragma once
// Counterfactual pairs of the shapes world (issue 39): a clean scene and the same scene with one
// known thing of one object changed, so a causal method's answer can be scored on ground truth.
#include "model/shapes/scene.h"

#include <optional>
#include <string>

namespace cl {

enum class Change { Colour, Shape, Size, Position, Remove };
inline constexpr int kChangeCount = 5;

std::string changeName(Change c); // "colour", "shape", "size", "position", "remove"

// `clean` with object `index` changed: the next colour but one, the next shape, the other size,
// mirrored across the nearest other object along the axis of their relation (so the relation
// flips; where that leaves the canvas, the two trade places), or removed. Nothing when the change cannot be made there: the object would leave the canvas or
// come too close to another, or the scene has one object (position, remove).
std::optional<SceneSpec> counterfactual(const SceneSpec& clean, size_t index, Change change);

} // namespace cl
