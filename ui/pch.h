#pragma once
// Precompiled header of the ui target: Qt Widgets and QCustomPlot's single large header were
// most of each panel's compile time (10-16 s a file before).
#include <QtWidgets>

#include <qcustomplot.h>
