#pragma once
// The CaptionLens window: a shell around the panels. What is on screen and what is asked of the
// model worker (which lives on its own thread, so the window never freezes) is the Session's;
// the window builds menus and panels, routes a new caption to the panel on screen, and shows
// errors. A failed request leaves the image, model and panels as they were.
#include "ui/window/animation_dialog.h"
#include "ui/window/panel_router.h"
#include "ui/window/session.h"

#include <QMainWindow>

#include <functional>
#include <string>

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
class BeamPanel;
class ExplainPanel;
class CircuitsPanel;
class HeadsPanel;
class PePanel;
class SceneEditor;
class Selection;
class TimelinePanel;
class TrainPanel;
class CourseBrowser;

class MainWindow final : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);

    void openImage(const QString& path);
    void openCheckpoint(const QString& path);
    void openFeatures(const QString& path, int row);
    void openRandomScene(quint64 seed);
    // "caption", "attention", "pe", "decode", "heads", "compare", "timeline", "train" or "scene"
    void showPanel(const QString& name);
    QString currentPanel() const;
    bool openRunFolder(const QString& folder); // the training timeline
    bool saveLesson(const QString& path);
    // lessonOpened() when everything is back on screen. Overrides (the command line's
    // --checkpoint, --panel, --compare) replace what the lesson says.
    struct LessonOverrides {
        QString checkpoint, panel;
        QStringList compare;
    };
    void openLesson(const QString& path, const LessonOverrides& overrides = {});
    // The course's coco_captioning folder in the Course data browser (issue 19).
    void openCourseData(const QString& folder);
    CourseBrowser* courseBrowser() const { return m_courseBrowser; }
    bool exportView(const QString& path); // .png or .pdf: the whole panel, no scroll bars
    bool exportAttentionCsv(const QString& path);
    // File > Export Web Page: the page of the caption on screen, opened on the selected word,
    // layer and head. The page is made by what app/ hands in (ui/ makes no JSON), on this thread.
    using WebPageMaker =
        std::function<std::string(const CaptionView& view, int step, int layer, int head)>;
    void setWebPageMaker(WebPageMaker make) { m_webPage = std::move(make); }
    bool exportWebPage(const QString& path);
    // File > Export Animation (main_window_animation.cpp): the dialog, then the GIF, painted and
    // encoded off the GUI thread; animationExported(path) once it is written, else errorShown.
    // False when refused at once (no image on screen, no snapshots for a timeline).
    void chooseAnimation();
    bool exportAnimation(const AnimationChoice& choice);
    bool exporting() const { return m_exporting > 0; }
    // View > Language (main_window_language.cpp): "en" or "ko", at once, kept in the settings.
    bool setLanguage(const QString& code);
    // "three-shapes-attention-L2-avg-circle.png": input, panel, layer, head and word.
    QString exportName(const QString& what, const QString& suffix) const;

    Session* session() const { return m_session; } // the worker is wired to it
    const CaptionView& view() const { return m_session->view(); }
    const ModelInfo& model() const { return m_session->model(); }
    QString lastError() const { return m_lastError; }
    bool busy() const { return m_reading > 0 || m_session->busy(); } // reading counts
    CaptionPanel* captionPanel() const;                              // up to date with view()
    AttentionPanel* attentionPanel() const;                          // up to date with view()
    PePanel* pePanel() const;                                        // up to date with view()
    DecodePanel* decodePanel() const;                                // up to date with view()
    HeadsPanel* headsPanel() const;                                  // up to date with view()
    BeamPanel* beamPanel() const;                                    // up to date with view()
    ExplainPanel* explainPanel() const;                              // up to date with view()
    CircuitsPanel* circuitsPanel() const;                            // up to date with view()
    ComparePanel* comparePanel() const { return m_comparePanel; }
    TimelinePanel* timelinePanel() const { return m_timelinePanel; }
    TrainPanel* trainPanel() const { return m_trainPanel; }
    SceneEditor* sceneEditor() const; // up to date with view()
    // A lesson being read (off the GUI thread) or replayed.
    bool lessonPending() const { return m_reading > 0 || m_session->lessonPending(); }
    Selection* selection() const { return m_selection; }
    void setShowDialogs(bool on) { m_showDialogs = on; }
    // Presenter mode (F11): full screen, large fonts, thick lines; PageDown/PageUp step words.
    void setPresenterMode(bool on);
    void stepForward(int delta); // PageDown/PageUp: words, compared words or snapshots
    bool presenterMode() const { return m_presenter; }
    // Where the bundled models, samples and lessons are (Help ▸ Quick Tour).
    void setResourceDir(const QString& dir) { m_resourceDir = dir; }
    QString resourceDir() const { return m_resourceDir; }
    // Where an Open dialog starts: the newest recent file's folder under `recentKey` in the
    // settings, else the bundled folder `bundled` (samples, models, lessons) of the resources.
    QString dialogFolder(const QString& recentKey, const QString& bundled) const;

  public slots:
    void onCompared(const cl::ui::CompareResult& result);

  signals:
    void compared(); // a comparison or timeline result is on screen
    void lessonOpened();
    void viewUpdated(); // a new caption is on screen
    void errorShown(const QString& message);
    void animationExported(const QString& path);
    void languageChanged(const QString& code);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildPanels();
    void buildCircuitsPanel(); // main_window_circuits.cpp
    void addPanel(const QString& key, QWidget* panel, const QString& title);
    void showAblation();
    void syncSceneEditor(); // the editor tab shown: take up the scene, show its caption, banner
    void adoptLoadedScene();
    void showEditorBanner();
    void buildTeachingPanels();
    void connectSession();
    void buildActions();
    void buildViewMenu();
    void buildLanguageMenu(QMenu* view);
    void tidyActionTips(); // main_window_language.cpp
    void buildToolBar(QAction* openImage, QAction* openCk, QAction* random, QAction* exportView);
    void buildLessonActions(QMenu* file);
    void buildStatusBar();
    void buildHelpMenu();
    void chooseRunFolder();
    template <typename P> P* refreshed(P* panel, const QString& key) const;
    void showNewView(bool keepSelection);
    void showModel(const ModelInfo& info);
    void refreshStalePanels();
    void requestComparison(CompareRequest::Purpose purpose);
    void applyLessonInput(const Lesson& lesson);
    void applyLessonView(const Lesson& lesson);
    Lesson currentLesson() const;
    void captionImage(const LoadedImage& image, const QString& name, bool fromEditor);
    void captionFeatureRow(const std::vector<float>& row, const QString& path, int index,
                           const QString& name = {});
    void captionFirstCourseImage();
    void captionCourseImage(const QString& folder, const QString& split, qint64 image,
                            const QString& name);
    void playLesson(Lesson lesson, const QString& path, const LessonOverrides& overrides);
    void showError(const QString& message);
    // `informative`: the dialog's second line (default: nothing on screen changed).
    void showErrorSaying(const QString& message, const QString& informative);
    void showBusy(const QString& message);
    void rememberRecent(const QString& key, const QString& path);
    void fillRecentMenu(QMenu* menu, const QString& key, bool checkpoints);

    Session* m_session;
    mutable PanelRouter m_panels; // fills panels lazily, also from const getters
    WebPageMaker m_webPage;
    Selection* m_selection;
    QTabWidget* m_tabs;
    CaptionPanel* m_captionPanel;
    AttentionPanel* m_attentionPanel;
    PePanel* m_pePanel;
    DecodePanel* m_decodePanel;
    HeadsPanel* m_headsPanel;
    BeamPanel* m_beamPanel;
    ExplainPanel* m_explainPanel;
    CircuitsPanel* m_circuitsPanel;
    ComparePanel* m_comparePanel;
    TimelinePanel* m_timelinePanel;
    TrainPanel* m_trainPanel;
    SceneEditor* m_sceneEditor;
    bool m_compareStale = true, m_timelineStale = true;
    QComboBox* m_device;
    QSpinBox* m_maxLength;
    QLabel* m_modelLabel;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QString m_lastError;
    QString m_userCheckpoint;      // opened by the user: the one that joins the recent files
    int m_exporting = 0; // animations being painted and encoded
    int m_reading = 0;             // lessons, images and feature files being read in the background
    quint64 m_inputGeneration = 0; // bumped by every input asked for: stale reads are dropped
    CourseBrowser* m_courseBrowser = nullptr;
    QString m_courseName; // the browser's image on screen: its caption goes back to the browser
    qint64 m_courseImage = -1;
    bool m_courseFirstPending = false; // a folder was opened: caption its first image
    QString m_resourceDir;
    QLabel* m_ablationBadge;
    QRect m_normalGeometry; // the window before presenter mode, restored after it
    bool m_showDialogs = true;
    bool m_presenter = false;
    QAction* m_presenterAction = nullptr;
    QList<QAction*> m_languageActions;
};

} // namespace cl::ui
