#include "ui/math/attention_math.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cl::ui {

std::vector<float> selfMatrix(const CaptionTrace& tr, int layer, int head) {
    const int t = static_cast<int>(tr.steps.size());
    std::vector<float> m(size_t(t) * t, std::numeric_limits<float>::quiet_NaN());
    for (int q = 0; q < t; ++q)
        for (int k = 0; k <= q; ++k) {
            if (head >= 0) {
                m[size_t(q) * t + k] = tr.selfWeight(layer, head, q, k);
                continue;
            }
            float sum = 0;
            for (int h = 0; h < tr.heads; ++h)
                sum += tr.selfWeight(layer, h, q, k);
            m[size_t(q) * t + k] = sum / tr.heads;
        }
    return m;
}

std::vector<float> crossRow(const CaptionTrace& tr, int layer, int head, int step) {
    if (step < 0 || step >= int(tr.steps.size()))
        return {};
    if (head >= 0)
        return tr.crossRow(layer, head, step);
    if (tr.memoryTokens <= 0 || tr.heads <= 0)
        return {};
    std::vector<float> avg(size_t(tr.memoryTokens), 0.f);
    for (int h = 0; h < tr.heads; ++h) {
        const auto row = tr.crossRow(layer, h, step);
        for (size_t i = 0; i < row.size(); ++i)
            avg[i] += row[i] / tr.heads;
    }
    return avg;
}

double meanEntropyBits(const std::vector<float>& m, int rows, int cols) {
    if (cols <= 0)
        return 0;
    rows = std::min<int>(rows, int(m.size() / size_t(cols))); // only the rows that are there
    if (rows <= 0)
        return 0;
    double total = 0;
    for (int r = 0; r < rows; ++r) {
        double h = 0;
        for (int c = 0; c < cols; ++c) {
            const double p = m[size_t(r) * cols + c];
            if (std::isfinite(p) && p > 0)
                h -= p * std::log2(p);
        }
        total += h;
    }
    return total / rows;
}

double crossEntropyBits(const CaptionTrace& tr, int layer, int head) {
    std::vector<float> all;
    int rows = 0;
    for (int t = 0; t < int(tr.steps.size()); ++t) {
        const auto row = crossRow(tr, layer, head, t);
        if (int64_t(row.size()) != tr.memoryTokens)
            continue; // a step the trace holds no whole row for
        all.insert(all.end(), row.begin(), row.end());
        ++rows;
    }
    return meanEntropyBits(all, rows, int(tr.memoryTokens));
}

Focus mostFocused(const CaptionTrace& tr) {
    Focus best{0, int(tr.layers) - 1};
    float peak = -1;
    if (tr.memoryTokens <= 1)
        return best;
    for (int t = 0; t < int(tr.steps.size()); ++t)
        for (int l = 0; l < tr.layers; ++l) {
            const auto row = crossRow(tr, l, -1, t);
            if (row.empty())
                continue;
            const float m = *std::max_element(row.begin(), row.end());
            if (m > peak) {
                peak = m;
                best = {t, l};
            }
        }
    return best;
}

QStringList inputTokens(const CaptionTrace& tr) {
    QStringList out{"<START>"};
    for (size_t i = 0; i + 1 < tr.steps.size(); ++i)
        out << QString::fromStdString(tr.steps[i].token);
    return out;
}

QStringList outputTokens(const CaptionTrace& tr) {
    QStringList out;
    for (const auto& s : tr.steps)
        out << QString::fromStdString(s.token);
    return out;
}

QString headName(int layer, int head) {
    return head < 0 ? QCoreApplication::translate("cl::ui::attention", "L%1 avg").arg(layer + 1)
                    : QStringLiteral("L%1 H%2").arg(layer + 1).arg(head + 1);
}

GridMap unitGridMap(const CaptionTrace& trace, const QImage& image) {
    if (trace.gridSide <= 0 || image.isNull())
        return {};
    const GridMap px = gridMap(image.width(), image.height(), trace.gridSide,
                               trace.inputSide > 0 ? trace.inputSide : trace.gridSide,
                               trace.letterboxed, trace.seen);
    const double w = image.width(), h = image.height();
    return {px.grid, px.x0 / w, px.y0 / h, px.cellW / w, px.cellH / h};
}

int cellAt(const GridMap& c, double fx, double fy) {
    if (c.grid <= 0 || c.cellW <= 0 || c.cellH <= 0)
        return -1;
    const auto gx = static_cast<int64_t>(std::floor((fx - c.x0) / c.cellW)),
               gy = static_cast<int64_t>(std::floor((fy - c.y0) / c.cellH));
    if (gx < 0 || gy < 0 || gx >= c.grid || gy >= c.grid)
        return -1;
    return int(gy * c.grid + gx);
}

} // namespace cl::ui
