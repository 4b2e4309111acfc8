#pragma once
// train --until-exact (issue 17, time to quality): after each save, the checkpoint's exact match
// on held-out scenes of the training world; the run stops once it reaches the target. Reports
// the wall time and steps it took, and how much of that time went into evaluating.
#include "model/shapes/scene.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace cl::cli {

class QualityWatch {
  public:
    QualityWatch(double target, int64_t scenes, World world);
    // Evaluates `checkpoint` (written at `step`); true once exact match >= target.
    bool reached(int64_t step, const std::string& checkpoint);
    // One line: reached after S steps in W s (E s evaluating), or not within the run.
    std::string summary(int64_t steps) const;

  private:
    double m_target;
    int64_t m_scenes;
    World m_world;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    double m_evalSeconds = 0, m_lastExact = -1, m_reachedSeconds = 0;
    int64_t m_reachedAt = -1;
};

} // namespace cl::cli
