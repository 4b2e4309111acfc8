#include "ui/widgets/attention_tile.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPainter>

namespace cl::ui {

AttentionTile::AttentionTile(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setMinimumSize(64, 76);
}

void AttentionTile::setContent(const QImage& image, const std::vector<float>& grid,
                               const GridMap& cells, double opacity, ColourRange range,
                               const QString& title) {
    // The overlay is computed per pixel: at the size the tile shows, not a photo's full size.
    const int limit = std::max(256, int(std::max(width(), height()) * devicePixelRatioF()));
    if (image.cacheKey() != m_sourceKey || m_scaled.isNull() || limit != m_scaledLimit) {
        m_sourceKey = image.cacheKey();
        m_scaledLimit = limit;
        m_scaled = std::max(image.width(), image.height()) > limit
                       ? image.scaled(limit, limit, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                       : image;
    }
    m_composed = grid.empty() ? m_scaled : attentionOverlay(m_scaled, grid, cells, opacity, range);
    m_title = title;
    update();
}

// Titles take one line, or two when the tile is narrow (presenter mode, small screens).
QRect AttentionTile::titleBounds() const {
    return fontMetrics().boundingRect(QRect(0, 0, std::max(1, width() - 4), 100000),
                                      Qt::AlignHCenter | Qt::TextWordWrap, m_title);
}

int AttentionTile::titleHeight() const {
    if (m_title.isEmpty())
        return 0;
    return std::min(titleBounds().height(), 2 * fontMetrics().lineSpacing()) + 4;
}

bool AttentionTile::titleFits() const {
    const QRect need = titleBounds();
    return need.width() <= width() - 4 && need.height() <= 2 * fontMetrics().lineSpacing();
}

void AttentionTile::setLeastMapSide(int side) {
    m_leastSide = side;
    if (side > 0)
        setMinimumSize(side + 4, side + 4 + 2 * fontMetrics().lineSpacing() + 4);
}

void AttentionTile::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange && m_leastSide > 0)
        setLeastMapSide(m_leastSide); // presenter mode's larger title lines
    QWidget::changeEvent(event);
}

void AttentionTile::setHighlighted(bool on) {
    m_highlighted = on;
    update();
}

void AttentionTile::setTitleFont(const QFont& font) {
    setFont(font);
    update();
}

QRect AttentionTile::imageRect() const {
    const int textH = titleHeight();
    const QRect area = rect().adjusted(2, 2, -2, -2 - textH);
    if (m_composed.isNull())
        return {};
    const QSize s = m_composed.size().scaled(area.size(), Qt::KeepAspectRatio);
    return {area.x() + (area.width() - s.width()) / 2, area.y(), s.width(), s.height()};
}

void AttentionTile::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int textH = titleHeight();
    if (!m_composed.isNull()) {
        const QRect target = imageRect();
        p.setRenderHint(QPainter::SmoothPixmapTransform, true);
        p.drawImage(target, m_composed);
        if (m_highlighted) {
            p.setPen(QPen(QColor(230, 60, 60), 3));
            p.drawRect(target.adjusted(1, 1, -1, -1));
        }
        if (textH) {
            p.setPen(palette().color(QPalette::WindowText));
            // The title may use the tile's whole width, not only the image's.
            p.drawText(QRect(2, target.bottom() + 2, width() - 4, textH),
                       Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_title);
        }
    }
}

void AttentionTile::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    emit clicked();
    const QRect r = imageRect();
    if (r.contains(event->pos()))
        emit clickedAt(double(event->pos().x() - r.x()) / r.width(),
                       double(event->pos().y() - r.y()) / r.height());
}

} // namespace cl::ui
