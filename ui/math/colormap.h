#pragma once
// Colour maps and the attention overlay: pure functions, tested without a window.
#include "model/core/letterbox.h"
#include <QColor>
#include <QImage>

#include <utility>
#include <vector>


namespace cl::ui {

struct ColourRange {
    double lower = 0.0, upper = 1.0;
};

// Viridis (perceptually uniform, colour-blind safe), t in [0, 1].
QColor viridis(double t);
// Its stops as (position 0..1, colour) pairs (ui/widgets/heatmap_plot.h makes a QCustomPlot
// gradient of them).
std::vector<std::pair<double, QColor>> viridisStops();
// Fixed 0..1 by default; with auto contrast, the values' own min..max.
ColourRange colourRange(const std::vector<float>& values, bool autoContrast);

// `grid` (cells.grid squared attention weights, row-major) laid over the image where the
// encoder's cells lie (`cells` in fractions of the image: unitGridMap), upsampled bilinearly,
// mapped through viridis and blended over `image`: a pixel's alpha is opacity * (0.3 + 0.7
// sqrt(t)), t the normalised weight, so unattended regions stay visible. Size of the result =
// image.
QImage attentionOverlay(const QImage& image, const std::vector<float>& grid, const GridMap& cells,
                        double opacity, ColourRange range);

// A signed difference (a - b, side x side cells, crisp) over a faded grey copy of `image`: red
// where a attends more, blue where b does, white-ish where they agree; |d| = scale is full colour.
QImage differenceOverlay(const QImage& image, const std::vector<float>& diff, const GridMap& cells,
                         double scale);

} // namespace cl::ui
