#pragma once
// Greedy decoding one step at a time: the caption so far, the top-k next-word candidates (the
// chosen one highlighted; a temperature slider re-draws the softmax), the current query's
// self-attention row for every layer and head, and its cross-attention over the image. Click a
// candidate to force it: decoding continues greedily from there, shown next to the original.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QCPBars;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;

namespace cl::ui {

class AttentionTile;
class HeatmapPlot;
class OpacitySlider;
class Selection;
class WorldNotice;

class DecodePanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    DecodePanel(Selection* selection, QWidget* parent = nullptr);
    void setView(const CaptionView& view) override;
    void setBranch(const CaptionTrace& branch); // the forced decode arrived

    int step() const;
    bool showingBranch() const { return m_showBranch; }
    const CaptionTrace& shownTrace() const { return m_showBranch ? m_branch : m_view.trace; }
    // The candidates drawn at the current step: (token, probability at this temperature).
    std::vector<std::pair<QString, double>> candidates() const;
    // A candidate's word: from the step, its top-k, or the model's vocabulary.
    QString wordOf(int64_t id, const DecodeStep& step) const;
    void setTemperature(double t);
    void forceCandidate(int index); // as a click on bar `index`
    void backToOriginal();
    QCustomPlot* candidatePlot() const { return m_bars; }
    AttentionTile* crossTile() const { return m_cross; } // the step's map over the image
    // The candidate whose column (bar and the space above it) holds `pos`, or -1.
    int candidateAt(const QPoint& pos) const;
    // Where a person clicks on candidate `index`, at `height` on the probability axis.
    QPoint candidatePoint(int index, double height) const;
    QString branchText() const;
    QString stepText() const; // "Step 3 of 9: …", with the ablation when heads are off
    QString worldNotice() const; // the out-of-world sentence; empty for in-world images

  public slots:
    void first();
    void previous();
    void next();
    void last();
    void togglePlay();

  signals:
    void forceRequested(const std::vector<int64_t>& prefix);

  private:
    void refresh();
    void drawCandidates(const DecodeStep& s);
    void drawAttention(int t);

    Selection* m_selection;
    CaptionView m_view;
    CaptionTrace m_branch;
    bool m_showBranch = false;
    int m_forcedAt = -1;
    double m_temperature = 1.0;
    std::vector<std::pair<int64_t, double>> m_drawn; // candidates shown: (id, prob)
    WorldNotice* m_world;
    QLabel* m_soFar;
    QLabel* m_branchLabel;
    QPushButton* m_back;
    QPushButton* m_play;
    QSlider* m_speed;
    QSlider* m_temp;
    QLabel* m_tempLabel;
    QCustomPlot* m_bars;
    QCPBars* m_barsData;
    QCPBars* m_chosenBar;
    HeatmapPlot* m_rows;
    AttentionTile* m_cross;
    OpacitySlider* m_opacity;
    QTimer* m_timer;
};

} // namespace cl::ui
