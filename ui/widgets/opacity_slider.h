#pragma once
// "Opacity" and a slider. Every panel that draws attention over an image has its own, so turning
// one panel's maps down never empties another panel's.
#include <QWidget>

class QSlider;

namespace cl::ui {

class OpacitySlider final : public QWidget {
    Q_OBJECT
  public:
    explicit OpacitySlider(QWidget* parent = nullptr, double value = 0.75);
    double value() const;
    void setValue(double value); // 0..1; emits changed when it differs
    QSlider* slider() const { return m_slider; }

  signals:
    void changed(double value);

  private:
    QSlider* m_slider;
};

} // namespace cl::ui
