#pragma once
// Head ablation: switch any self- or cross-attention head off (its output zeroed) and watch the
// caption, the probabilities and the other heads change in every panel; Reset restores the model.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QCheckBox;
class QGridLayout;
class QLabel;

namespace cl::ui {

class HeadsPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit HeadsPanel(QWidget* parent = nullptr);
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

  signals:
    void headsChanged(const std::vector<uint8_t>& headsOff);

  private:
    void rebuild(int layers, int heads);
    void emitChange();
    void showCaptions();

    QGridLayout* m_grid;
    QLabel* m_status;
    QLabel* m_captions;
    std::vector<QCheckBox*> m_boxes; // same indexing as headsOff
    int m_layers = 0, m_heads = 0;
    QString m_caption;    // the caption on screen
    int m_captionOff = 0; // heads that were off for it
    QString m_reference;  // the same input with every head on; empty while it is computed
    std::string m_modelPath;
};

} // namespace cl::ui
