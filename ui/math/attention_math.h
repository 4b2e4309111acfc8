#pragma once
// Attention matrices and statistics read off a trace, for the panels (pure functions).
#include "model/core/letterbox.h"
#include "model/core/trace.h"

#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

namespace cl::ui {

// Self-attention of (layer, head) as a T x T row-major matrix; masked cells (k > q) are NaN.
// head < 0: the head average.
std::vector<float> selfMatrix(const CaptionTrace& trace, int layer, int head);
// Cross-attention row of step t over the M memory tokens; head < 0: the head average.
std::vector<float> crossRow(const CaptionTrace& trace, int layer, int head, int step);
// Mean entropy (bits) of the rows of an attention matrix, ignoring NaN cells.
double meanEntropyBits(const std::vector<float>& matrix, int rows, int cols);
// Mean entropy of (layer, head)'s cross-attention rows over the caption's steps.
double crossEntropyBits(const CaptionTrace& trace, int layer, int head);
// The step and layer whose head-averaged cross-attention is most peaked: a good word to show
// first. {0, last layer} for one-token memories.
struct Focus {
    int step = 0, layer = 0;
};
Focus mostFocused(const CaptionTrace& trace);
// Key labels: the token each query position saw as input (<START>, word 1, ...).
QStringList inputTokens(const CaptionTrace& trace);
// Query labels: the token each step produced.
QStringList outputTokens(const CaptionTrace& trace);
// Where the encoder's grid cells lie on `image`, in fractions of its width and height (the
// overlays' coordinates); grid 0 when the trace has no image grid.
GridMap unitGridMap(const CaptionTrace& trace, const QImage& image);
// The cell under a point given as fractions of the image; -1 off the grid.
int cellAt(const GridMap& unitCells, double fx, double fy);
// "L1 H2" or "L1 avg" (1-based for people).
QString headName(int layer, int head);

} // namespace cl::ui
