#pragma once
// The positional-encoding lab: the seed's sinusoidal table as a heatmap (positions x dimensions,
// adjustable, defaulting to the loaded model's), the position-similarity matrix, chosen
// dimensions as sinusoids, the image models' 2D grid code (click a cell), and an ablation that
// captions the current image with the encoding removed.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QCustomPlot;

namespace cl::ui {

class AttentionTile;
class OpacitySlider;
class HeatmapPlot;

class PePanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit PePanel(QWidget* parent = nullptr);
    void setView(const CaptionView& view) override;  // defaults follow the model
    void setAblation(const CaptionTrace& withoutPe); // the ablated caption arrived
    void setSize(int positions, int width);
    HeatmapPlot* table() const { return m_table; }
    HeatmapPlot* similarity() const { return m_similarity; }
    QCustomPlot* lines() const { return m_lines; }
    QString ablationText() const;
    void selectCell(int cell);

  signals:
    void ablationRequested(); // caption the current input without positional encoding

  private:
    void redraw();
    void redrawGrid();
    std::vector<int> chosenDims() const;

    CaptionView m_view;
    QSpinBox* m_positions;
    QSpinBox* m_width;
    QComboBox* m_metric;
    QLineEdit* m_dims;
    QPushButton* m_ablate;
    QLabel* m_ablation;
    HeatmapPlot* m_table;
    HeatmapPlot* m_similarity;
    QCustomPlot* m_lines;
    AttentionTile* m_grid;
    QLabel* m_formula;
    OpacitySlider* m_opacity;
    int m_cell = 0;
};

} // namespace cl::ui
