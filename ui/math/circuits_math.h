#pragma once
// The Circuits panel's pictures read off a patching report (pure functions, tested in
// tests/tst_ui_logic.cpp): the sites as grids, the image cells, and the report as CSV.
#include "model/core/lens.h"
#include "model/core/patching.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace cl::ui {

// A matrix of sites, rows x cols row-major; NaN where no site was patched.
struct SiteGrid {
    std::vector<float> values;
    int rows = 0, cols = 0;
    QStringList rowLabels, colLabels;
};

// The layers and heads a report's sites cover (0 when it has none of that kind).
int reportLayers(const PatchReport& report);
int reportHeads(const PatchReport& report);

// Every head's output (rows "L1 self H1" .. "L1 cross H1" .., layer by layer) at every input
// position (columns, labelled with `words`, the input tokens). estimate: attribution patching's
// figure instead of the real one. kind: 0 self-attention heads only, 1 cross-attention only,
// -1 both.
SiteGrid headGrid(const PatchReport& report, const QStringList& words, bool estimate,
                  int kind = -1);
// The residual stream and the feed-forward blocks (rows "embeddings", "L1 FFN", "after L1", ..)
// at every input position.
SiteGrid layerGrid(const PatchReport& report, const QStringList& words, bool estimate);
// Each memory cell's figure, row-major over the grid (gridSide squared; one value for a
// one-token memory).
std::vector<float> cellValues(const PatchReport& report, bool estimate);

// Every site as CSV: kind, layer, head, sublayer, position, row, column, restored, estimated
// (1-based layers and heads as the CLI's JSON; empty where a field does not apply).
QString sitesCsv(const PatchReport& report);
// The direct logit attribution of `position` (nullptr when the lens has no such row).
const LogitAttribution* attributionAt(const LensReport& lens, int64_t position);

} // namespace cl::ui
