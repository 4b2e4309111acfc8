#pragma once
// The scene editor's canvas: draws a shapes-world scene (rendered exactly as the model's training
// scenes are) and lets the user pick and drag its objects. Optionally overlays an attention map.
#include "model/shapes/scene.h"

#include <QImage>
#include <QWidget>

namespace cl::ui {

class SceneCanvas final : public QWidget {
    Q_OBJECT
  public:
    explicit SceneCanvas(QWidget* parent = nullptr);

    void setSpec(const SceneSpec& spec); // renders it; emits nothing
    const SceneSpec& spec() const { return m_spec; }
    const QImage& image() const { return m_image; } // the rendered scene, side x side
    int selected() const { return m_selected; }     // object index or -1
    void setSelected(int index);
    void setOverlay(const QImage& overlay); // same size as image(); null: none
    // Object under a point in scene pixels (topmost first), -1 when none.
    int objectAt(double x, double y) const;
    // Moves object `index` to (x, y) in scene pixels, kept inside the canvas; emits edited().
    void moveObject(int index, double x, double y);
    QPointF toScene(const QPoint& widgetPos) const;
    QPoint toWidget(double x, double y) const;
    QSize sizeHint() const override { return {480, 480}; }

  signals:
    void edited();           // the layout changed (the owner re-captions)
    void selectionChanged(); // a different object is selected

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QRect target() const;
    SceneSpec m_spec;
    QImage m_image, m_overlay;
    int m_selected = -1;
    bool m_dragging = false;
    QPointF m_grab; // pointer offset from the object's centre while dragging
};

} // namespace cl::ui
