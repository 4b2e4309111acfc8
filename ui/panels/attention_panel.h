#pragma once
// Every attention head at once. Top: the masked self-attention of each (layer, head) as
// thumbnails (bertviz's model view) and the selected one large, with hover read-out and entropy.
// Bottom: the selected word's cross-attention over the image for every (layer, head), and the
// selected head's map for every word of the caption.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QCheckBox;
namespace cl::ui {

class WorldNotice;
class FlowLayout;
class OpacitySlider;
} // namespace cl::ui
class QGridLayout;
class QLabel;
class QStackedWidget;

namespace cl::ui {

class AttentionTile;
class HeatmapPlot;
class Selection;

class AttentionPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    AttentionPanel(Selection* selection, QWidget* parent = nullptr);
    QString worldNotice() const; // the out-of-world sentence shown above it, or empty
    QString headCountText() const; // "2 heads per layer", and whether it was assumed
    void setView(const CaptionView& view) override;

    int thumbnailCount() const { return static_cast<int>(m_thumbs.size()); }
    HeatmapPlot* thumbnail(int layer, int head) const; // head -1: the average column
    HeatmapPlot* largePlot() const { return m_large; }
    int crossTileCount() const { return static_cast<int>(m_crossTiles.size()); }
    int stripTileCount() const { return static_cast<int>(m_stripTiles.size()); }
    // The selected (layer, head)'s self-attention matrix as CSV (rows: queries).
    QString selectedMatrixCsv() const;

  private:
    WorldNotice* m_world;
    void rebuild();
    void refresh();
    void clearGrid(QLayout* grid);
    void sizeStripTiles(); // every word's title fits; the flow wraps them
    void changeEvent(QEvent* event) override;

    Selection* m_selection;
    CaptionView m_view;
    QGridLayout* m_thumbGrid;
    QGridLayout* m_crossGrid;
    FlowLayout* m_stripGrid;
    HeatmapPlot* m_large;
    QCheckBox* m_autoContrast;
    OpacitySlider* m_opacity; // this panel's own
    QLabel* m_crossTitle;
    QLabel* m_stripTitle;
    QLabel* m_heads; // the head count, said to be assumed for imported course models
    QStackedWidget* m_crossStack;
    std::vector<HeatmapPlot*> m_thumbs;       // [layer * (heads + 1) + head + 1]
    std::vector<AttentionTile*> m_crossTiles; // same indexing
    std::vector<AttentionTile*> m_stripTiles; // one per step
    int m_builtLayers = -1, m_builtHeads = -1, m_builtSteps = -1;
};

} // namespace cl::ui
