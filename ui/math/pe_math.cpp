#include "ui/math/pe_math.h"

#include <cmath>

namespace cl::ui {

std::vector<float> positionalTable(int positions, int width) {
    std::vector<float> pe(size_t(positions) * width, 0.f);
    for (int i = 0; i < width / 2; ++i) {
        // float32 like the seed: t = 1e-4 ** (2i / W), then sin/cos(pos * t).
        const float t = std::pow(1e-4f, float(2 * i) / float(width));
        for (int pos = 0; pos < positions; ++pos) {
            const float a = float(pos) * t;
            pe[size_t(pos) * width + 2 * i] = std::sin(a);
            pe[size_t(pos) * width + 2 * i + 1] = std::cos(a);
        }
    }
    return pe;
}

std::vector<float> positionSimilarity(const std::vector<float>& table, int positions, int width,
                                      bool cosine) {
    std::vector<float> sim(size_t(positions) * positions);
    std::vector<double> norm(positions, 0.0);
    for (int p = 0; p < positions; ++p)
        for (int d = 0; d < width; ++d)
            norm[p] += double(table[size_t(p) * width + d]) * table[size_t(p) * width + d];
    for (int a = 0; a < positions; ++a)
        for (int b = 0; b < positions; ++b) {
            double dot = 0;
            for (int d = 0; d < width; ++d)
                dot += double(table[size_t(a) * width + d]) * table[size_t(b) * width + d];
            sim[size_t(a) * positions + b] =
                float(cosine ? dot / std::sqrt(norm[a] * norm[b] + 1e-12) : dot);
        }
    return sim;
}

std::vector<float> gridCode(int grid, int width) {
    const int half = width / 2;
    const auto table = positionalTable(grid, half);
    std::vector<float> code(size_t(grid) * grid * width);
    for (int r = 0; r < grid; ++r)
        for (int c = 0; c < grid; ++c)
            for (int d = 0; d < half; ++d) {
                code[(size_t(r) * grid + c) * width + d] = table[size_t(r) * half + d];
                code[(size_t(r) * grid + c) * width + half + d] = table[size_t(c) * half + d];
            }
    return code;
}

std::vector<float> cellSimilarity(const std::vector<float>& code, int cells, int width, int cell) {
    const auto sim = positionSimilarity(code, cells, width, true);
    return {sim.begin() + size_t(cell) * cells, sim.begin() + size_t(cell + 1) * cells};
}

} // namespace cl::ui
