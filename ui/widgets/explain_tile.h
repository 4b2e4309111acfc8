#pragma once
// One explanation map for the Explain panel: the map over the image (an AttentionTile), its
// deletion and insertion curves as a small chart, and its figures (pointing game, AUCs, time).
#include "ui/widgets/attention_tile.h"

#include <QWidget>

class QLabel;

namespace cl::ui {

// Deletion (red) and insertion (blue) curves: the word's probability (0..1, up) against the
// fraction of pixels removed or restored (0..1, right).
class CurveStrip final : public QWidget {
    Q_OBJECT
  public:
    explicit CurveStrip(QWidget* parent = nullptr);
    void setCurves(const std::vector<double>& deletion, const std::vector<double>& insertion);
    const std::vector<double>& deletion() const { return m_deletion; }
    QSize sizeHint() const override { return {160, 44}; }

  protected:
    void paintEvent(QPaintEvent*) override;

  private:
    std::vector<double> m_deletion, m_insertion;
};

class ExplainTile final : public QWidget {
    Q_OBJECT
  public:
    explicit ExplainTile(QWidget* parent = nullptr);
    AttentionTile* map() const { return m_map; }
    CurveStrip* curves() const { return m_curves; }
    QLabel* figures() const { return m_figures; }

  private:
    AttentionTile* m_map;
    CurveStrip* m_curves;
    QLabel* m_figures;
};

} // namespace cl::ui
