#pragma once
// Beam search next to greedy decoding: the K best hypotheses with their log-probabilities, the
// tree of candidates the beam weighed step by step (pruned branches faded), and any hypothesis
// shown in every panel with one click.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace cl::ui {

class WorldNotice;

class BeamPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit BeamPanel(QWidget* parent = nullptr);
    void setView(const CaptionView& view) override;
    void setResult(const BeamCaption& result); // the search arrived
    BeamOptions options() const;
    QString greedyText() const;
    QString worldNotice() const; // the out-of-world sentence; empty for in-world images
    const std::vector<BeamHypothesis>& hypotheses() const { return m_hypotheses; }
    QPushButton* searchButton() const { return m_search; }
    QPushButton* greedyButton() const { return m_greedy; }
    QListWidget* hypothesisList() const { return m_list; }
    QTreeWidget* tree() const { return m_tree; }

  signals:
    void searchRequested(const cl::BeamOptions& options);
    void hypothesisChosen(const std::vector<int64_t>& ids); // empty: back to greedy

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void search();
    void fillList();
    void fillTree(const BeamResult& beam);
    void choose(int row);

    QSpinBox* m_width;
    QDoubleSpinBox* m_penalty;
    QPushButton* m_search;
    QPushButton* m_greedy;
    WorldNotice* m_world;
    QLabel* m_status;
    QListWidget* m_list;
    QTreeWidget* m_tree;
    QString m_viewKey;   // the input and model the view is of
    QString m_resultKey; // ... and the results are of
    QString m_greedyText;
    std::vector<BeamHypothesis> m_hypotheses;
    bool m_valid = false;
};

} // namespace cl::ui
