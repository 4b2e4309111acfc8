#pragma once
// Every tab title in view: when the window's font (presenter mode) makes the row of tab titles
// wider than the window, the tab bar alone takes a smaller font, never under 70 % of the
// window's, instead of hiding tabs behind scroll arrows (Train on a 960 px wide HiDPI screen).
#include <QTabWidget>

namespace cl::ui {

// Watches `tabs` (resize, font change) and refits its tab bar's font; returns at once.
void keepTabTitlesInView(QTabWidget* tabs);

} // namespace cl::ui
