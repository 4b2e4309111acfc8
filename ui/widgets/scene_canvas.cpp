#include "ui/widgets/scene_canvas.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cl::ui {

SceneCanvas::SceneCanvas(QWidget* parent) : QWidget(parent) {
    setMinimumSize(256, 256);
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
}

void SceneCanvas::setSpec(const SceneSpec& spec) {
    m_spec = spec;
    const Scene scene = renderScene(m_spec);
    m_image =
        QImage(scene.rgb.data(), spec.side, spec.side, spec.side * 3, QImage::Format_RGB888).copy();
    m_overlay = {};
    if (m_selected >= int(m_spec.objects.size()))
        m_selected = -1;
    update();
}

void SceneCanvas::setSelected(int index) {
    m_selected = index >= 0 && index < int(m_spec.objects.size()) ? index : -1;
    update();
    emit selectionChanged();
}

void SceneCanvas::setOverlay(const QImage& overlay) {
    m_overlay = overlay;
    update();
}

QRect SceneCanvas::target() const {
    const int side = std::max(1, std::min(width(), height()) - 8);
    return {(width() - side) / 2, (height() - side) / 2, side, side};
}

QPointF SceneCanvas::toScene(const QPoint& p) const {
    const QRect t = target();
    return {(p.x() - t.x()) * double(m_spec.side) / t.width(),
            (p.y() - t.y()) * double(m_spec.side) / t.height()};
}

QPoint SceneCanvas::toWidget(double x, double y) const {
    const QRect t = target();
    return {t.x() + int(std::lround(x * t.width() / m_spec.side)),
            t.y() + int(std::lround(y * t.height() / m_spec.side))};
}

int SceneCanvas::objectAt(double x, double y) const {
    for (int i = int(m_spec.objects.size()) - 1; i >= 0; --i) {
        const auto& o = m_spec.objects[size_t(i)];
        if (std::hypot(x - o.cx, y - o.cy) <= o.radius)
            return i;
    }
    return -1;
}

void SceneCanvas::moveObject(int index, double x, double y) {
    if (index < 0 || index >= int(m_spec.objects.size()))
        return;
    auto& o = m_spec.objects[size_t(index)];
    o.cx = std::clamp(x, o.radius, m_spec.side - o.radius);
    o.cy = std::clamp(y, o.radius, m_spec.side - o.radius);
    const int keep = m_selected;
    setSpec(m_spec);
    m_selected = keep;
    emit edited();
}

void SceneCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect t = target();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(t, m_overlay.isNull() ? m_image : m_overlay);
    if (m_selected < 0)
        return;
    const auto& o = m_spec.objects[size_t(m_selected)];
    const QPoint a = toWidget(o.cx - o.radius - 2, o.cy - o.radius - 2);
    const QPoint b = toWidget(o.cx + o.radius + 2, o.cy + o.radius + 2);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(Qt::white, 3));
    p.drawRect(QRect(a, b));
    p.setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    p.drawRect(QRect(a, b));
}

void SceneCanvas::mousePressEvent(QMouseEvent* event) {
    const QPointF s = toScene(event->position().toPoint());
    const int hit = objectAt(s.x(), s.y());
    if (hit != m_selected)
        setSelected(hit);
    if (hit >= 0) {
        const auto& o = m_spec.objects[size_t(hit)];
        m_grab = {s.x() - o.cx, s.y() - o.cy};
        m_dragging = true;
        setCursor(Qt::ClosedHandCursor);
    }
}

void SceneCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPointF s = toScene(event->position().toPoint());
    if (m_dragging && m_selected >= 0)
        return moveObject(m_selected, s.x() - m_grab.x(), s.y() - m_grab.y());
    setCursor(objectAt(s.x(), s.y()) >= 0 ? Qt::OpenHandCursor : Qt::ArrowCursor);
}

void SceneCanvas::mouseReleaseEvent(QMouseEvent*) {
    m_dragging = false;
    unsetCursor();
}

} // namespace cl::ui
