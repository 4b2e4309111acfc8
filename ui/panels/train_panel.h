#pragma once
// Watch it learn (issue 17): train a captioning model inside the app, in front of a class. The
// recipe (layers, heads, width, 2D position code, world, batch, learning rate, steps, snapshot
// interval; a lecture preset), Start / Pause / Stop, a live loss curve (each step and smoothed)
// with the held-out exact match of every snapshot, steps/s and ETA; the probe is the image on
// screen, captioned by each new snapshot (every panel follows when asked). Snapshots form a run
// folder the Timeline opens; Save model… keeps the newest one, calibrated.
#include "ui/panels/panel.h"
#include "ui/training/training_run.h"

#include <QImage>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cl::ui {

class AttentionTile;
class WorldNotice;

class TrainPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit TrainPanel(QWidget* parent = nullptr);

    void setView(const CaptionView& view) override; // the probe: the image on screen
    TrainSettings settings() const;
    void setSettings(const TrainSettings& settings);
    // Where the next run goes (default: a new folder under the app's data folder).
    void setRunFolder(const QString& folder) { m_nextFolder = folder; }
    bool saveModel(const QString& path); // the newest snapshot or final model, then calibrated
    bool following() const;
    void setFollowing(bool on);
    bool startTraining(); // what Start does; false (errorRaised) when the run cannot start
    TrainingRun* run() const { return m_run; }
    QCustomPlot* lossPlot() const { return m_plot; }
    QString statusText() const;
    QString probeText() const;
    QString worldNotice() const; // the out-of-world sentence above the probe, or empty

  signals:
    void snapshotReady(const QString& path);    // the window shows it everywhere if following
    void timelineRequested(const QString& dir); // Open in Timeline
    void errorRaised(const QString& message);
    void modelSaved(const QString& path); // calibrated and ready to open

  private:
    QWidget* buildRecipe();
    QWidget* buildControls();
    void buildPlot();
    void applyPreset(int index);
    void onProgress(qint64 step, qint64 steps, double smoothed, double loss, double perSecond,
                    double secondsLeft);
    void onSnapshot(const QString& path, qint64 step, double exact);
    void onFinished(const QString& error);
    void syncButtons();
    void queueReplot();
    void fillProbe();
    void chooseSavePath();

    TrainingRun* m_run;
    QComboBox *m_preset, *m_width, *m_grid, *m_world;
    QSpinBox *m_layers, *m_heads, *m_batch, *m_steps, *m_every;
    QDoubleSpinBox* m_lr;
    QDoubleSpinBox* m_dropout;
    QCheckBox *m_position2d, *m_follow;
    QPushButton *m_start, *m_pause, *m_stop, *m_save, *m_timeline;
    QLabel *m_status, *m_probe;
    WorldNotice* m_worldNotice;
    QCustomPlot* m_plot;
    QHBoxLayout* m_tiles;
    std::vector<AttentionTile*> m_tileWidgets;
    CaptionView m_view;
    QString m_nextFolder, m_probeSnapshot;
    qint64 m_probeStep = -1;
    bool m_replotQueued = false;
};

} // namespace cl::ui
