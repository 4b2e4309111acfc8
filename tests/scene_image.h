#pragma once
// A held-out shapes scene (varied world unless told) as a captioner's input, for tests of the
// model's plain-value API.
#include "model/api/captioner.h"
#include "model/shapes/scene.h"

namespace cltest {

inline cl::RgbImage sceneImage(uint64_t seed, cl::World world = cl::World::Varied) {
    const cl::Scene s = cl::generateScene(seed, world);
    return {s.spec.width(), s.spec.height(), s.rgb};
}

} // namespace cltest
