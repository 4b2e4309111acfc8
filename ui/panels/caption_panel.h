#pragma once
// The image and its caption: word chips, and the selected word's cross-attention over the image
// for a chosen layer and head (or the head average), with opacity and a colour scale.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QCheckBox;
class QCustomPlot;
class QCPColorScale;

namespace cl::ui {

class AttentionTile;
class Selection;
class WordChips;
class WorldNotice;

class CaptionPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    CaptionPanel(Selection* selection, QWidget* parent = nullptr);
    void setView(const CaptionView& view) override;
    WordChips* chips() const { return m_chips; }
    AttentionTile* imageTile() const { return m_image; }
    QString captionText() const;
    QString ablationText() const; // empty when every head is on
    QString beamText() const;     // empty unless a beam hypothesis is on screen
    QString scaleLabel() const;   // the colour bar's label: which scale is in force
    QString worldNotice() const;  // the out-of-world sentence; empty for in-world images

  private:
    void refresh();
    void showStep(int step);
    void rebuildHeadChoices();

    Selection* m_selection;
    CaptionView m_view;
    AttentionTile* m_image;
    WordChips* m_chips;
    QLabel* m_caption;
    QLabel* m_modelLine;
    QLabel* m_note;
    WorldNotice* m_world; // the out-of-world sentence
    QLabel* m_ablation; // says so when heads are switched off
    QLabel* m_beam;     // says so when a beam hypothesis is on screen
    QComboBox* m_layer;
    QComboBox* m_head;
    QSlider* m_opacity;
    QCheckBox* m_autoContrast;
    QCustomPlot* m_scalePlot;
    QCPColorScale* m_scale;
    int m_hover = -1;
};

} // namespace cl::ui
