#pragma once
// Scrub through one training run: a slider over a folder of checkpoints, and per snapshot the
// caption of the image on screen, where each word looked, and the quality figures `eval` stored
// in the checkpoint. Play steps through the run on a timer, for a class to watch it learn.
// Every snapshot captions the image at once (they are small), so scrubbing needs no model work.
#include "ui/animation/frames.h"
#include "ui/panels/panel.h"
#include "ui/window/requests.h"

#include <QImage>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableWidget;
class QTimer;

namespace cl::ui {

// The most snapshots a timeline holds (each is a model in memory).
constexpr int kMaxTimelineSnapshots = 64;

class AttentionTile;
class FlowLayout;
class OpacitySlider;
class WorldNotice;

class TimelinePanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // Lists the folder's checkpoints (*.pt, in natural order: step1000 before step12000).
    // Returns false (and keeps the previous run) when it holds none.
    bool setFolder(const QString& folder);
    QString folder() const { return m_folder; }
    QStringList snapshots() const { return m_paths; }
    int position() const;
    void setPosition(int index);
    QString currentPath() const { return m_paths.value(position()); }
    // The image on screen, which results are drawn over (empty for feature models).
    void setView(const CaptionView& view) override;
    QString worldNotice() const; // the out-of-world sentence shown above it, or empty
    bool stepBy(int delta) override;
    void setResult(const CompareResult& result);
    void setPlaying(bool on);
    bool playing() const;

    QString captionText() const;
    // Every snapshot that captioned the image on screen, in order, named by its file: what File >
    // Export Animation's timeline shows. Empty until the run is captioned.
    std::vector<Snapshot> animationSnapshots() const;
    QTableWidget* figuresTable() const { return m_table; }

  protected:
    void changeEvent(QEvent* event) override; // a new language: the texts again

  signals:
    void runChanged();      // the window captions the image with every snapshot
    void folderRequested(); // "Open run folder…": the window owns the dialog

  private:
    void showCurrent();
    void fillTiles(const CaptionTrace& trace);
    void fillTable();

    QString m_folder;
    QStringList m_paths;
    CompareResult m_last; // every snapshot on the current input
    QImage m_image;
    QPushButton *m_open, *m_play;
    QSlider* m_slider;
    QLabel *m_position, *m_caption, *m_folderLabel;
    qsizetype m_runSnapshots = 0; // in the folder (m_paths: those shown)
    void showFolderLabel();
    WorldNotice* m_world;
    QComboBox* m_head;
    QCheckBox* m_autoContrast;
    OpacitySlider* m_opacity;
    FlowLayout* m_tiles;
    std::vector<AttentionTile*> m_tileWidgets;
    QTableWidget* m_table;
    QTimer* m_timer;
};

} // namespace cl::ui
