#pragma once
// Head ablation: switch any self- or cross-attention head off (its output zeroed) and watch the
// caption, the probabilities and the other heads change in every panel; Reset restores the model.
// Which heads matter: next to each switch, and in a chart that fills the rest, what switching
// that head off alone costs the caption of the input on screen (asked for off the GUI thread
// while the panel is shown) and, when the checkpoint stores it, on held-out scenes.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QGridLayout;
class QLabel;
class QPushButton;

namespace cl::ui {

class WorldNotice;

class HeadCostChart;
struct HeadCosts;

class HeadsPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit HeadsPanel(QWidget* parent = nullptr);
    QString worldNotice() const; // the out-of-world sentence shown above it, or empty
    void setView(const CaptionView& view) override;
    // [layer][0 self / 1 cross][head], 1 = off (DecodeOptions::headsOff).
    std::vector<uint8_t> headsOff() const;
    void setHeadOff(int layer, int kind, int head, bool off);
    void reset();
    // Sets every switch at once (a lesson being reopened); one headsChanged when it differs.
    void setHeadsOff(const std::vector<uint8_t>& off);
    int offCount() const;
    // The caption of the same input with every head on (asked for while some are off).
    void setReference(const CaptionTrace& reference);
    QString captionsText() const;
    QCheckBox* headBox(int layer, int kind, int head) const;
    // Head importance (model/api/head_importance.h) of the input on screen, or why it failed.
    void setImportance(const HeadImportance& importance);
    void setImportanceFailed(const QString& message);
    QLabel* costLabel(int layer, int kind, int head) const;
    HeadCostChart* costChart() const { return m_chart; }
    QPushButton* sortButton() const { return m_sort; }
    QString importanceText() const;

  signals:
    void headsChanged(const std::vector<uint8_t>& headsOff);
    void importanceRequested(); // the input on screen, every head on

  protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override; // a new language: the figures' texts again

  private:
    WorldNotice* m_world;
    void rebuild(int layers, int heads);
    void emitChange();
    void showCaptions();
    void requestImportance();
    QString importanceKey() const;
    std::vector<double> heldOutDrops(const ModelInfo& model, int* scenes) const;
    HeadCosts showCosts(const HeadImportance& importance);

    QGridLayout* m_grid;
    QLabel* m_status;
    QLabel* m_captions;
    std::vector<QCheckBox*> m_boxes; // same indexing as headsOff
    std::vector<QLabel*> m_costs;    // beside each box: its drop on this input
    HeadCostChart* m_chart;
    QPushButton* m_sort;
    QLabel* m_costStatus;
    std::optional<HeadImportance> m_importance; // the costs on screen
    CaptionView m_view;
    QString m_requested; // importanceKey() of the request in flight or answered
    int m_layers = 0, m_heads = 0;
    QString m_caption;    // the caption on screen
    int m_captionOff = 0; // heads that were off for it
    QString m_reference;  // the same input with every head on; empty while it is computed
    std::string m_modelPath;
};

} // namespace cl::ui
