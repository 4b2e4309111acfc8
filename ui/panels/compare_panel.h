#pragma once
// Compare checkpoints on the image on screen: every model's caption with its differences marked,
// each model's teacher-forced probability of the other's words, and for a chosen head pair the
// two attention maps, their difference and the Jensen-Shannon divergence of every head pair.
// Model A is the reference: attention is compared on A's caption (B teacher-forced on it).
#include "ui/math/colormap.h"
#include "ui/panels/panel.h"
#include "ui/window/requests.h"

#include <QImage>
#include <QWidget>

class QBoxLayout;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QStackedWidget;
class QTableWidget;

namespace cl::ui {

class AttentionTile;
class HeatmapPlot;
class OpacitySlider;
class WorldNotice;

class ComparePanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit ComparePanel(QWidget* parent = nullptr);

    QStringList paths() const;
    void setPaths(const QStringList& paths); // exactly these
    // Adding to an empty list puts the open model first, as A: "compare with C" means the model
    // on screen against C.
    void addPaths(const QStringList& paths);
    void setCurrentModel(const QString& path) { m_currentModel = path; }
    // The comparison of the current input arrived (image: empty for feature models).
    // The image on screen, which results are drawn over (empty for feature models).
    void setView(const CaptionView& view) override;
    QString worldNotice() const; // the out-of-world sentence shown above it, or empty
    bool stepBy(int delta) override;
    void setResult(const CompareResult& result);
    const CompareResult& result() const { return m_result; }

    // The pair and head under comparison (indices into paths(); heads as layer * H + head).
    void setPair(int a, int b);
    void setHeadPair(int headA, int headB);
    void setStep(int step);
    void setAttentionKind(AttentionKind kind);
    int modelA() const { return m_a; }
    int modelB() const { return m_b; }
    int headA() const { return m_headA; }
    int headB() const { return m_headB; }
    int step() const { return m_step; }
    AttentionKind kind() const { return m_kind; }

    // What the panel shows, for tests and exports.
    QString captionsText() const;
    QString noteText() const;
    QTableWidget* probabilityTable() const { return m_table; }
    HeatmapPlot* divergencePlot() const { return m_jsd; }
    const HeadDivergence& divergence() const { return m_divergence; }
    double pairDivergence() const; // JSD of the selected head pair at the selected step
    bool showsMaps() const;        // any map or attention row of a pair is on screen

  signals:
    void pathsChanged(); // the window asks for a new comparison
    void addRequested(); // "Add checkpoint…": the window owns the file dialog

  private:
    void resizeEvent(QResizeEvent* event) override;
    void foldTable();
    void buildControls();
    void appendPaths(const QStringList& paths);
    QWidget* buildResults();
    void refresh();
    void fillCaptions();
    void fillTable();
    void fillHeads();
    void fillAttention();
    void clearMaps();
    void fillNote();
    bool pairReady() const;
    const CaptionTrace& traceA() const;
    const CaptionTrace& traceB() const; // B teacher-forced on A's caption
    std::pair<std::vector<float>, std::vector<float>> pairRows(int64_t* common = nullptr) const;

    CompareResult m_result;
    QImage m_image;
    HeadDivergence m_divergence;
    int m_a = 0, m_b = 1, m_headA = 0, m_headB = 0, m_step = 0;
    AttentionKind m_kind = AttentionKind::Cross;
    bool m_filling = false;
    bool m_kindChosen = false; // the user (or a lesson) picked self or cross
    QString m_currentModel;

    static constexpr int kLeastMap = 180; // each map's side, readable on a projector
    QWidget* m_controls;
    QBoxLayout* m_bottom;
    QListWidget* m_list;
    QPushButton *m_add, *m_remove;
    QComboBox *m_pickA, *m_pickB, *m_kindBox, *m_headBoxA, *m_headBoxB;
    QSlider* m_stepSlider;
    QLabel *m_stepLabel, *m_captions, *m_note;
    QTableWidget* m_table;
    QStackedWidget* m_maps;
    AttentionTile *m_tileA, *m_tileB, *m_tileDiff;
    HeatmapPlot *m_selfPlot, *m_jsd;
    OpacitySlider* m_opacity;
    WorldNotice* m_world;
};

} // namespace cl::ui
