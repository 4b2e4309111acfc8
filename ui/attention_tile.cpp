#include "attention_tile.h"

#include <QMouseEvent>
#include <QPainter>

namespace cl::ui {

AttentionTile::AttentionTile(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMinimumSize(64, 76);
}

void AttentionTile::setContent(const QImage& image, const std::vector<float>& grid, int side,
                               double opacity, ColourRange range, const QString& title) {
    m_composed = grid.empty() ? image : attentionOverlay(image, grid, side, opacity, range);
    m_title = title;
    update();
}

void AttentionTile::setHighlighted(bool on) {
    m_highlighted = on;
    update();
}

void AttentionTile::setTitleFont(const QFont& font) {
    setFont(font);
    update();
}

void AttentionTile::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int textH = m_title.isEmpty() ? 0 : fontMetrics().height() + 4;
    const QRect area = rect().adjusted(2, 2, -2, -2 - textH);
    if (!m_composed.isNull()) {
        QSize s = m_composed.size().scaled(area.size(), Qt::KeepAspectRatio);
        const QRect target(area.x() + (area.width() - s.width()) / 2, area.y(), s.width(), s.height());
        p.setRenderHint(QPainter::SmoothPixmapTransform, true);
        p.drawImage(target, m_composed);
        if (m_highlighted) {
            p.setPen(QPen(QColor(230, 60, 60), 3));
            p.drawRect(target.adjusted(1, 1, -1, -1));
        }
        if (textH) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRect(target.x(), target.bottom() + 2, target.width(), textH),
                       Qt::AlignHCenter | Qt::AlignTop, fontMetrics().elidedText(m_title, Qt::ElideRight, target.width()));
        }
    }
}

void AttentionTile::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) emit clicked();
}

}  // namespace cl::ui
