#pragma once
// The CaptionLens window: the caption and attention panels, file handling, and the link to the
// model worker (which lives on its own thread; the window only sends requests and receives
// results, so it never freezes). A newer request supersedes an older one; a failed one leaves
// the image, model and panels as they were.
#include "ui/imaging/image_loader.h"
#include "ui/panels/caption_view.h"
#include "ui/window/lesson.h"
#include "ui/window/requests.h"

#include <QMainWindow>

#include <optional>
#include <set>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QSpinBox;
class QTabWidget;
class QToolButton;

namespace cl::ui {

class AttentionPanel;
class CaptionPanel;
class ComparePanel;
class DecodePanel;
class HeadsPanel;
class PePanel;
class SceneEditor;
class Selection;
class TimelinePanel;

class MainWindow final : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);

    void openImage(const QString& path);
    void openCheckpoint(const QString& path);
    void openFeatures(const QString& path, int row);
    void openRandomScene(quint64 seed);
    // "caption", "attention", "pe", "decode", "heads", "compare", "timeline" or "scene"
    void showPanel(const QString& name);
    QString currentPanel() const;
    bool openRunFolder(const QString& folder); // the training timeline
    bool saveLesson(const QString& path);
    void openLesson(const QString& path); // lessonOpened() when everything is back on screen
    bool exportView(const QString& path); // .png or .pdf
    bool exportAttentionCsv(const QString& path);

    const CaptionView& view() const { return m_view; }
    const ModelInfo& model() const { return m_model; }
    QString lastError() const { return m_lastError; }
    bool busy() const { return m_pendingCaption != 0 || m_pendingCheckpoint != 0; }
    CaptionPanel* captionPanel() const;     // up to date with view()
    AttentionPanel* attentionPanel() const; // up to date with view()
    PePanel* pePanel() const;               // up to date with view()
    DecodePanel* decodePanel() const;       // up to date with view()
    HeadsPanel* headsPanel() const;         // up to date with view()
    ComparePanel* comparePanel() const { return m_comparePanel; }
    TimelinePanel* timelinePanel() const { return m_timelinePanel; }
    SceneEditor* sceneEditor() const; // up to date with view()
    bool lessonPending() const { return m_lesson.has_value(); }
    Selection* selection() const { return m_selection; }
    void setShowDialogs(bool on) { m_showDialogs = on; }
    // Presenter mode (F11): full screen, large fonts, thick lines; PageDown/PageUp step words.
    void setPresenterMode(bool on);
    void stepForward(int delta); // PageDown/PageUp: words, compared words or snapshots
    bool presenterMode() const { return m_presenter; }

  public slots:
    void onCaptioned(quint64 id, const cl::CaptionTrace& trace);
    void onCaptionFailed(quint64 id, const QString& message);
    void onCheckpointOpened(quint64 id, const cl::ModelInfo& info);
    void onCheckpointFailed(quint64 id, const QString& message);
    void onCompared(const cl::ui::CompareResult& result);

  signals:
    void captionRequested(const cl::ui::CaptionRequest& request);
    void checkpointRequested(const cl::ui::CheckpointRequest& request);
    void checkpointCancelled(quint64 id);
    void compareRequested(const cl::ui::CompareRequest& request);
    void compared(); // a comparison or timeline result is on screen
    void lessonOpened();
    void viewUpdated(); // a new caption is on screen
    void errorShown(const QString& message);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildActions();
    void buildTeachingPanels();
    std::vector<std::pair<QString, QWidget*>> panelTable() const;
    void refreshPanel(QWidget* panel) const; // fills a panel with the view if it is stale
    void buildLessonActions(QMenu* file);
    void requestComparison(int purpose);
    void refreshStalePanels();
    void applyLessonInput();
    void applyLessonView();
    Lesson currentLesson() const;
    void buildStatusBar();
    void requestCaption(const LoadedImage& image, const QString& name);
    void recaption();
    void requestVariant(int purpose, const std::vector<int64_t>& prefix, bool positional);
    CaptionRequest makeRequest(int purpose, const RgbImage& image,
                               const std::vector<float>& features);
    void showError(const QString& message);
    void setBusy(const QString& message);
    void updateBusy();
    void rememberRecent(const QString& key, const QString& path);
    void fillRecentMenu(QMenu* menu, const QString& key, bool checkpoints);

    Selection* m_selection;
    QTabWidget* m_tabs;
    CaptionPanel* m_captionPanel;
    AttentionPanel* m_attentionPanel;
    PePanel* m_pePanel;
    DecodePanel* m_decodePanel;
    HeadsPanel* m_headsPanel;
    ComparePanel* m_comparePanel;
    TimelinePanel* m_timelinePanel;
    SceneEditor* m_sceneEditor;
    bool m_compareStale = true, m_timelineStale = true;
    mutable std::set<QWidget*> m_staleViews; // panels not yet showing m_view
    bool m_pendingFromEditor = false, m_viewFromEditor = false;
    QString m_featuresPath, m_pendingFeaturesPath;
    int m_featuresRow = 0, m_pendingFeaturesRow = 0;
    std::optional<Lesson> m_lesson; // being reopened
    enum class LessonStage { Model, Caption, Heads } m_lessonStage = LessonStage::Model;
    std::vector<uint8_t> m_headsOff; // the ablation every caption request carries
    QComboBox* m_device;
    QSpinBox* m_maxLength;
    QLabel* m_modelLabel;
    QProgressBar* m_progress;
    QToolButton* m_cancel;

    CaptionView m_view;         // what the panels show
    ModelInfo m_model;          // the model the worker holds
    LoadedImage m_pendingImage; // waiting for its caption
    QString m_pendingName;
    std::vector<float> m_pendingFeatures;
    RgbImage m_shownRgb; // the input of the caption on screen (for variants)
    std::vector<float> m_shownFeatures;
    quint64 m_pendingBranch = 0, m_pendingAblation = 0;
    quint64 m_nextId = 1, m_pendingCaption = 0, m_pendingCheckpoint = 0;
    QString m_pendingCheckpointPath;
    QString m_lastError;
    bool m_showDialogs = true;
    bool m_presenter = false;
    QAction* m_presenterAction = nullptr;
};

} // namespace cl::ui
