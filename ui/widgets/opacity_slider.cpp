#include "ui/widgets/opacity_slider.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace cl::ui {

OpacitySlider::OpacitySlider(QWidget* parent, double value)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal, this)) {
    m_slider->setRange(0, 100);
    m_slider->setValue(int(std::lround(value * 100)));
    m_slider->setMinimumWidth(80);
    m_slider->setToolTip(tr("How strongly the attention map covers the image"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Opacity"), this));
    layout->addWidget(m_slider, 1);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { emit changed(v / 100.0); });
}

double OpacitySlider::value() const {
    return m_slider->value() / 100.0;
}

void OpacitySlider::setValue(double value) {
    m_slider->setValue(int(std::lround(std::clamp(value, 0.0, 1.0) * 100)));
}

} // namespace cl::ui
