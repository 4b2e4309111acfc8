#include "ui/widgets/explain_tile.h"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QVBoxLayout>

namespace cl::ui {

CurveStrip::CurveStrip(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(36);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Red: the word's probability as the most salient pixels are covered "
                  "(deletion; falls fast when the map is faithful). Blue: as they are restored "
                  "into a blurred copy (insertion; rises fast when faithful)."));
}

void CurveStrip::setCurves(const std::vector<double>& deletion,
                           const std::vector<double>& insertion) {
    m_deletion = deletion;
    m_insertion = insertion;
    update();
}

void CurveStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF box = QRectF(rect()).adjusted(4, 3, -4, -3);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(box);
    auto draw = [&](const std::vector<double>& curve, const QColor& colour) {
        if (curve.size() < 2)
            return;
        QPainterPath path;
        for (size_t i = 0; i < curve.size(); ++i) {
            const QPointF pt(box.left() + box.width() * double(i) / double(curve.size() - 1),
                             box.bottom() - box.height() * std::clamp(curve[i], 0.0, 1.0));
            i ? path.lineTo(pt) : path.moveTo(pt);
        }
        p.setPen(QPen(colour, 2));
        p.drawPath(path);
    };
    draw(m_deletion, QColor(215, 60, 50));
    draw(m_insertion, QColor(40, 110, 210));
}

ExplainTile::ExplainTile(QWidget* parent) : QWidget(parent) {
    m_map = new AttentionTile(this);
    m_curves = new CurveStrip(this);
    m_figures = new QLabel(this);
    m_figures->setWordWrap(true);
    m_figures->setTextFormat(Qt::RichText);
    m_figures->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(m_map, 1);
    layout->addWidget(m_curves);
    m_curves->hide(); // until there are curves
    layout->addWidget(m_figures);
}

} // namespace cl::ui
