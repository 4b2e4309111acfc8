#pragma once
// Coloured (and optionally bold) text without a style sheet: a style sheet pins a widget's font,
// so presenter mode could not enlarge it.
#include <QColor>
#include <QWidget>

namespace cl::ui {

inline void setTextColour(QWidget* w, const QColor& colour, bool bold = false) {
    QPalette p = w->palette();
    p.setColor(QPalette::WindowText, colour);
    w->setPalette(p);
    if (bold) {
        QFont f = w->font();
        f.setBold(true);
        w->setFont(f);
    }
}

} // namespace cl::ui
