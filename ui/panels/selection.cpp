#include "ui/panels/selection.h"

#include <algorithm>

namespace cl::ui {

void Selection::setStep(int step) {
    if (step == m_step)
        return;
    m_step = step;
    emit changed();
}

void Selection::setLayer(int layer) {
    setLayerHead(layer, m_head);
}
void Selection::setHead(int head) {
    setLayerHead(m_layer, head);
}

void Selection::setLayerHead(int layer, int head) {
    if (layer == m_layer && head == m_head)
        return;
    m_layer = layer;
    m_head = head;
    emit changed();
}

void Selection::setOpacity(double opacity) {
    opacity = std::clamp(opacity, 0.0, 1.0);
    if (opacity == m_opacity)
        return;
    m_opacity = opacity;
    emit changed();
}

void Selection::setAutoContrast(bool on) {
    if (on == m_autoContrast)
        return;
    m_autoContrast = on;
    emit changed();
}

void Selection::clamp(int steps, int layers, int heads) {
    const int step = std::clamp(m_step, 0, std::max(0, steps - 1));
    const int layer = std::clamp(m_layer, 0, std::max(0, layers - 1));
    const int head = m_head >= heads ? -1 : m_head;
    if (step == m_step && layer == m_layer && head == m_head)
        return;
    m_step = step;
    m_layer = layer;
    m_head = head;
    emit changed();
}

} // namespace cl::ui
