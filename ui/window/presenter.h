#pragma once
// Presenter mode for teaching in front of a class: larger fonts and thicker lines in every panel
// and plot, readable from the back of a room.
#include <QWidget>

namespace cl::ui {

// Scales every font under `root` (widgets and QCustomPlot axes, titles, legends) by `factor`
// relative to the sizes remembered on the first call, and widens plot pens; factor 1 restores.
void applyPresenterScale(QWidget* root, double factor);

} // namespace cl::ui
