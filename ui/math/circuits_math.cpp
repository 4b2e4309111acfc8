#include "ui/math/circuits_math.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cl::ui {

namespace {

float figure(const PatchSite& s, bool estimate) {
    return float(estimate ? s.estimated : s.restored);
}

int positionsOf(const PatchReport& r, const QStringList& words) {
    int64_t most = -1;
    for (const auto& s : r.sites)
        most = std::max(most, s.position);
    return std::max(int(most + 1), int(words.size()));
}

SiteGrid emptyGrid(int rows, int cols, const QStringList& words) {
    SiteGrid g;
    g.rows = rows;
    g.cols = cols;
    g.values.assign(size_t(rows) * size_t(cols), std::numeric_limits<float>::quiet_NaN());
    for (int c = 0; c < cols; ++c)
        g.colLabels << (c < words.size() ? words[c] : QString::number(c));
    return g;
}

void put(SiteGrid& g, int row, int64_t col, float v) {
    if (row >= 0 && row < g.rows && col >= 0 && col < g.cols)
        g.values[size_t(row) * size_t(g.cols) + size_t(col)] = v;
}

} // namespace

int reportLayers(const PatchReport& report) {
    int64_t most = 0;
    for (const auto& s : report.sites)
        if (s.kind != PatchKind::ImageCell)
            most = std::max(most, s.layer);
    return int(most);
}

int reportHeads(const PatchReport& report) {
    int64_t most = 0;
    for (const auto& s : report.sites)
        if (s.kind == PatchKind::Head)
            most = std::max(most, s.head);
    return int(most);
}

SiteGrid headGrid(const PatchReport& report, const QStringList& words, bool estimate, int kind) {
    const int layers = reportLayers(report), heads = reportHeads(report);
    const int kinds = kind < 0 ? 2 : 1;
    SiteGrid g = emptyGrid(layers * kinds * heads, positionsOf(report, words), words);
    for (int l = 1; l <= layers; ++l)
        for (int cross = 0; cross < 2; ++cross)
            if (kind < 0 || kind == cross)
                for (int h = 1; h <= heads; ++h)
                    g.rowLabels << QStringLiteral("L%1 %2 H%3")
                                       .arg(l)
                                       .arg(cross ? QStringLiteral("cross")
                                                  : QStringLiteral("self"))
                                       .arg(h);
    for (const auto& s : report.sites) {
        const int cross = s.cross ? 1 : 0;
        if (s.kind != PatchKind::Head || (kind >= 0 && kind != cross))
            continue;
        const int block = kind < 0 ? int(s.layer - 1) * 2 + cross : int(s.layer - 1);
        put(g, block * heads + int(s.head) - 1, s.position, figure(s, estimate));
    }
    return g;
}

SiteGrid layerGrid(const PatchReport& report, const QStringList& words, bool estimate) {
    const int layers = reportLayers(report);
    SiteGrid g = emptyGrid(1 + 2 * layers, positionsOf(report, words), words);
    g.rowLabels << QCoreApplication::translate("cl::ui::circuits", "embeddings");
    for (int l = 1; l <= layers; ++l)
        g.rowLabels << QCoreApplication::translate("cl::ui::circuits", "L%1 FFN").arg(l)
                    << QCoreApplication::translate("cl::ui::circuits", "after L%1").arg(l);
    for (const auto& s : report.sites) {
        if (s.kind == PatchKind::Resid)
            put(g, s.layer == 0 ? 0 : int(2 * s.layer), s.position, figure(s, estimate));
        else if (s.kind == PatchKind::Ffn)
            put(g, int(2 * s.layer - 1), s.position, figure(s, estimate));
    }
    return g;
}

std::vector<float> cellValues(const PatchReport& report, bool estimate) {
    const size_t cells = report.gridSide > 0 ? size_t(report.gridSide * report.gridSide) : 1;
    std::vector<float> out(cells, 0.f);
    for (const auto& s : report.sites)
        if (s.kind == PatchKind::ImageCell && s.cell >= 0 && size_t(s.cell) < cells)
            out[size_t(s.cell)] = figure(s, estimate);
    return out;
}

QString sitesCsv(const PatchReport& report) {
    QString out =
        QStringLiteral("kind,layer,head,sublayer,position,row,column,restored,estimated\n");
    const auto num = [](int64_t v) { return v < 0 ? QString() : QString::number(v); };
    const int64_t side = std::max<int64_t>(report.gridSide, 1);
    for (const auto& s : report.sites) {
        static const char* kinds[] = {"image_cell", "resid", "head", "ffn"};
        const bool cell = s.kind == PatchKind::ImageCell, head = s.kind == PatchKind::Head;
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                   .arg(QString::fromLatin1(kinds[int(s.kind)]), cell ? QString() : num(s.layer),
                        head ? num(s.head) : QString(),
                        head ? QString::fromLatin1(s.cross ? "cross" : "self") : QString(),
                        cell ? QString() : num(s.position), cell ? num(s.cell / side) : QString(),
                        cell ? num(s.cell % side) : QString())
                   .arg(s.restored, 0, 'g', 8)
                   .arg(s.estimated, 0, 'g', 8);
    }
    return out;
}

const LogitAttribution* attributionAt(const LensReport& lens, int64_t position) {
    for (const auto& a : lens.attribution)
        if (a.position == position)
            return &a;
    return nullptr;
}

} // namespace cl::ui
