#pragma once
// Is attention explanation? For the selected word: cross-attention (one head, the head average),
// attention rollout, gradient x input, Integrated Gradients from black and from a blurred copy,
// Grad-CAM and occlusion, side by side over the image, each with its deletion/insertion curves,
// their areas and, for a shapes scene, whether its peak lies on the word's object.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"
#include "ui/panels/selection.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cl::ui {

class WorldNotice;

class ExplainTile;
class QkDialog;

class ExplainPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    ExplainPanel(Selection* selection, QWidget* parent = nullptr);
    QString worldNotice() const; // the out-of-world sentence shown above it, or empty
    void setView(const CaptionView& view) override;
    void setResult(const Explanation& result); // an explanation arrived
    void setFailed(const QString& message);    // ... or could not be made

    ExplainOptions options() const;
    QComboBox* wordBox() const { return m_word; }
    QPushButton* explainButton() const { return m_explain; }
    QCheckBox* curvesBox() const { return m_curves; }
    const std::vector<ExplainTile*>& tiles() const { return m_tiles; }
    QString status() const;
    const Explanation& result() const { return m_result; }
    QPushButton* qkButton() const { return m_qkButton; }
    QkDialog* qkDialog() const { return m_qk; } // null until first opened
    void setWalkthrough(const AttentionWalkthrough& result);
    void setWalkthroughFailed(const QString& message);

  signals:
    void explainRequested(const cl::ExplainOptions& options);
    void walkthroughRequested(const cl::WalkthroughOptions& options);

  protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override; // a new language: the tiles' texts again

    QString exportTag() const override; // its own layer and head boxes, and its word

  private:
    WorldNotice* m_world;
    void followSelection();
    void request(bool force);
    QString requestKey() const;
    void fillTile(ExplainTile* tile, const SaliencyMap& map);
    void openWalkthrough();
    void updateWalkthrough(); // the dialog follows the selection

    Selection* m_selection;
    CaptionView m_view;
    QComboBox* m_word;
    QSpinBox* m_layer;
    QSpinBox* m_head;
    QCheckBox* m_curves;
    QPushButton* m_explain;
    QPushButton* m_qkButton;
    QkDialog* m_qk = nullptr;
    QLabel* m_status;
    std::vector<ExplainTile*> m_tiles; // one per method, in allExplainMethods() order
    Explanation m_result;
    QString m_requested; // key of the request in flight or answered
    bool m_syncing = false;
};

} // namespace cl::ui
