#include "app/cli/train_quality.h"

#include "model/api/captioner.h"
#include "model/evaluation/evaluation.h"

#include <algorithm>
#include <cstdio>

namespace cl::cli {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

QualityWatch::QualityWatch(double target, int64_t scenes, World world)
    : m_target(target), m_scenes(scenes), m_world(world) {}

bool QualityWatch::reached(int64_t step, const std::string& checkpoint) {
    const auto t = std::chrono::steady_clock::now();
    auto model = Captioner::open(checkpoint);
    EvalOptions e;
    e.scenes = m_scenes;
    e.world = m_world;
    m_lastExact = evaluate(*model, e).exactMatch;
    m_evalSeconds += secondsSince(t);
    const double wall = secondsSince(m_start);
    std::fprintf(stderr, "\n");
    std::printf("step %lld: exact match %.1f%% on %lld held-out scenes (%.1f s wall, %.1f s of "
                "it evaluating)\n",
                static_cast<long long>(step), 100 * m_lastExact, static_cast<long long>(m_scenes),
                wall, m_evalSeconds);
    std::fflush(stdout);
    if (m_lastExact < m_target || m_reachedAt >= 0)
        return m_reachedAt >= 0;
    m_reachedAt = step;
    m_reachedSeconds = wall;
    return true;
}

std::string QualityWatch::summary(int64_t steps) const {
    char line[300];
    if (m_reachedAt >= 0)
        std::snprintf(line, sizeof line,
                      "time to quality: exact match %.1f%% >= %.1f%% after %lld steps, %.1f s "
                      "wall (%.1f s of it evaluating)",
                      100 * m_lastExact, 100 * m_target, static_cast<long long>(m_reachedAt),
                      m_reachedSeconds, m_evalSeconds);
    else
        std::snprintf(line, sizeof line,
                      "time to quality: exact match %.1f%% did not reach %.1f%% within %lld "
                      "steps (%.1f s wall)",
                      100 * std::max(0.0, m_lastExact), 100 * m_target,
                      static_cast<long long>(steps), secondsSince(m_start));
    return line;
}

} // namespace cl::cli
