#include "ui/widgets/flow_layout.h"

#include <QWidget>

namespace cl::ui {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), m_spacing(spacing) {
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    place(rect, true);
}

// The widest item, plus the margins; an empty layout is 0 x 0 (QSize() is -1 x -1, which a
// SetMinimumSize constraint hands to its widget: "Negative sizes (-1,-1)" at start-up).
QSize FlowLayout::minimumSize() const {
    QSize size(0, 0);
    for (const auto* item : m_items)
        size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

int FlowLayout::place(const QRect& rect, bool apply) const {
    int x = rect.x(), y = rect.y(), lineHeight = 0;
    for (auto* item : m_items) {
        const QSize hint = item->sizeHint();
        if (x + hint.width() > rect.right() + 1 && lineHeight > 0) {
            x = rect.x();
            y += lineHeight + m_spacing;
            lineHeight = 0;
        }
        if (apply)
            item->setGeometry(QRect(QPoint(x, y), hint));
        x += hint.width() + m_spacing;
        lineHeight = std::max(lineHeight, hint.height());
    }
    return y + lineHeight - rect.y();
}

} // namespace cl::ui
