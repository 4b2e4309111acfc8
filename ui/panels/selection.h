#pragma once
// What the user is looking at, shared by every panel: the word (decode step), the layer and head
// (-1 = the head average), the Caption panel's overlay opacity (other panels keep their own) and
// the colour range mode. Panels follow its signal.
#include <QObject>

namespace cl::ui {

class Selection final : public QObject {
    Q_OBJECT
  public:
    explicit Selection(QObject* parent = nullptr) : QObject(parent) {}

    int step() const { return m_step; }
    int layer() const { return m_layer; }
    int head() const { return m_head; }
    double opacity() const { return m_opacity; }
    bool autoContrast() const { return m_autoContrast; }

    void setStep(int step);
    void setLayer(int layer);
    void setHead(int head);
    void setLayerHead(int layer, int head);
    void setOpacity(double opacity);
    void setAutoContrast(bool on);
    // Keeps the selection valid for a new caption / model shape.
    void clamp(int steps, int layers, int heads);

  signals:
    void changed();

  private:
    int m_step = 0, m_layer = 0, m_head = -1;
    double m_opacity = 0.75;
    // On by default: each map spans 0..its peak, so a weak map's peak is as visible as a strong
    // one's (on the fixed 0..1 scale the average of heads is a faint glow). Off: fixed 0..1.
    bool m_autoContrast = true;
};

} // namespace cl::ui
