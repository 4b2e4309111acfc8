#pragma once
// Precompiled header of the window tests (tests/CMakeLists.txt): Qt Widgets, Qt Test and
// QCustomPlot, the same modules for every test that links the window.
#include <QtTest>
#include <QtWidgets>

#include <qcustomplot.h>
