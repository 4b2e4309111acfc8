#include "ui/window/main_window.h"

#include "model/data/course_data.h"
#include "model/core/errors.h"
#include "model/data/npy.h"
#include "model/shapes/scene.h"
#include "ui/math/attention_math.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/beam_panel.h"
#include "ui/panels/explain_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/pe_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/window/background.h"
#include "ui/window/course_browser.h"
#include "ui/lessons/lesson.h"
#include "ui/window/tab_fit.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QLayout>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace cl::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_session(new Session(this)) {
    setWindowTitle(tr("CaptionLens"));
    setAcceptDrops(true);
    m_selection = new Selection(this);
    m_tabs = new QTabWidget(this);
    keepTabTitlesInView(m_tabs);
    buildPanels();
    buildTeachingPanels();
    setCentralWidget(m_tabs);
    buildActions();
    buildStatusBar();
    connectSession();
    tidyActionTips();
    // 1280 x 800 where the screen has room, else the screen's free area less room for the
    // window manager's frame (not known before the window is shown): never off-screen.
    const QRect free = screen()->availableGeometry();
    const int frame = 40;
    resize(QSize(1280, 800).boundedTo(free.size() - QSize(frame, 2 * frame)));
    move(free.x() + (free.width() - width()) / 2, // the frame's corner
         free.y() + (free.height() - height() - frame) / 2);
}

// A tab page: the panel in a scroll area. No panel's content can then grow the window (on a
// small screen the page scrolls instead), so full screen stays full screen and the window never
// resizes itself.
void MainWindow::addPanel(const QString& key, QWidget* panel, const QString& title) {
    auto* page = new QScrollArea(m_tabs);
    page->setWidgetResizable(true);
    page->setFrameShape(QFrame::NoFrame);
    page->setWidget(panel);
    // The panel is never squeezed below its layout's minimum (its plots would be laid on top of
    // each other, as the Decoding panel's at 1920x1080, scale 2): the page scrolls instead.
    if (panel->layout())
        panel->layout()->setSizeConstraint(QLayout::SetMinimumSize);
    m_tabs->addTab(page, title);
    m_panels.add(key, page, dynamic_cast<Panel*>(panel));
}

void MainWindow::buildPanels() {
    m_captionPanel = new CaptionPanel(m_selection, m_tabs);
    m_attentionPanel = new AttentionPanel(m_selection, m_tabs);
    m_pePanel = new PePanel(m_tabs);
    m_decodePanel = new DecodePanel(m_selection, m_tabs);
    m_headsPanel = new HeadsPanel(m_tabs);
    addPanel(QStringLiteral("caption"), m_captionPanel, tr("&Caption"));
    addPanel(QStringLiteral("attention"), m_attentionPanel, tr("&Attention"));
    addPanel(QStringLiteral("pe"), m_pePanel, tr("&Positions"));
    addPanel(QStringLiteral("decode"), m_decodePanel, tr("&Decoding"));
    addPanel(QStringLiteral("heads"), m_headsPanel, tr("&Heads"));
    m_beamPanel = new BeamPanel(m_tabs);
    addPanel(QStringLiteral("beam"), m_beamPanel, tr("&Beam"));
    m_explainPanel = new ExplainPanel(m_selection, m_tabs);
    addPanel(QStringLiteral("explain"), m_explainPanel, tr("E&xplain"));
    connect(m_explainPanel, &ExplainPanel::explainRequested, m_session, &Session::requestExplain);
    connect(m_explainPanel, &ExplainPanel::walkthroughRequested, m_session,
            &Session::requestWalkthrough);
    buildCircuitsPanel();
    connect(m_headsPanel, &HeadsPanel::headsChanged, m_session, &Session::setHeadsOff);
    connect(m_headsPanel, &HeadsPanel::importanceRequested, m_session,
            &Session::requestHeadImportance);
    connect(m_session, &Session::headImportanceReady, this, [this](const HeadImportance& r) {
        refreshed(m_headsPanel, QStringLiteral("heads"))->setImportance(r);
    });
    connect(m_session, &Session::headImportanceFailed, this, [this](const QString& message) {
        refreshed(m_headsPanel, QStringLiteral("heads"))->setImportanceFailed(message);
    });
    connect(m_beamPanel, &BeamPanel::searchRequested, m_session, &Session::requestBeam);
    connect(m_beamPanel, &BeamPanel::hypothesisChosen, m_session, &Session::showHypothesis);
    connect(m_decodePanel, &DecodePanel::forceRequested, this,
            [this](const std::vector<int64_t>& prefix) {
                m_session->requestVariant(CaptionRequest::Branch, prefix, true);
            });
    connect(m_pePanel, &PePanel::ablationRequested, this,
            [this] { m_session->requestVariant(CaptionRequest::Ablation, {}, false); });
}

void MainWindow::connectSession() {
    connect(m_session, &Session::viewChanged, this, &MainWindow::showNewView);
    connect(m_session, &Session::modelChanged, this, &MainWindow::showModel);
    connect(m_session, &Session::branchReady, this, [this](const CaptionTrace& trace) {
        refreshed(m_decodePanel, QStringLiteral("decode"))->setBranch(trace);
    });
    connect(m_session, &Session::ablationReady, this, [this](const CaptionTrace& trace) {
        refreshed(m_pePanel, QStringLiteral("pe"))->setAblation(trace);
    });
    connect(m_session, &Session::beamReady, this, [this](const BeamCaption& result) {
        refreshed(m_beamPanel, QStringLiteral("beam"))->setResult(result);
    });
    connect(m_session, &Session::explainReady, this, [this](const Explanation& result) {
        refreshed(m_explainPanel, QStringLiteral("explain"))->setResult(result);
    });
    connect(m_session, &Session::walkthroughReady, this,
            [this](const AttentionWalkthrough& result) {
                refreshed(m_explainPanel, QStringLiteral("explain"))->setWalkthrough(result);
            });
    connect(m_session, &Session::walkthroughFailed, this, [this](const QString& message) {
        refreshed(m_explainPanel, QStringLiteral("explain"))->setWalkthroughFailed(message);
    });
    connect(m_session, &Session::explainFailed, this, [this](const QString& message) {
        refreshed(m_explainPanel, QStringLiteral("explain"))->setFailed(message);
    });
    connect(m_session, &Session::referenceReady, this, [this](const CaptionTrace& trace) {
        refreshed(m_headsPanel, QStringLiteral("heads"))->setReference(trace);
    });
    connect(m_session, &Session::busyChanged, this, &MainWindow::showBusy);
    connect(m_session, &Session::failed, this, &MainWindow::showError);
    connect(m_session, &Session::lessonInputDue, this, &MainWindow::applyLessonInput);
    connect(m_session, &Session::lessonHeadsDue, this, [this](const std::vector<uint8_t>& off) {
        refreshed(m_headsPanel, QStringLiteral("heads"))->setHeadsOff(off);
    });
    connect(m_session, &Session::lessonViewDue, this, &MainWindow::applyLessonView);
}

void MainWindow::showPanel(const QString& name) {
    if (QWidget* w = m_panels.widget(name))
        m_tabs->setCurrentWidget(w);
}

QString MainWindow::currentPanel() const {
    return m_panels.key(m_tabs->currentWidget());
}

void MainWindow::captionImage(const LoadedImage& image, const QString& name, bool fromEditor) {
    CaptionInput input;
    input.image = image;
    input.name = name;
    input.fromEditor = fromEditor;
    if (fromEditor)
        input.scene = m_sceneEditor->spec();
    ++m_inputGeneration; // a pending read of an earlier input no longer counts
    m_session->caption(input);
}

// Decoded off the GUI thread (a large photo takes a while); if another input was asked for in
// the meantime, that one wins.
void MainWindow::openImage(const QString& path) {
    const quint64 generation = ++m_inputGeneration;
    ++m_reading;
    runInBackground<LoadedImage>(
        this, [path] { return loadImage(path); },
        [this, path, generation](LoadedImage& img) {
            --m_reading;
            if (generation != m_inputGeneration)
                return;
            if (!img.ok())
                return showError(img.error);
            rememberRecent(QStringLiteral("recentImages"), QFileInfo(path).absoluteFilePath());
            captionImage(img, QFileInfo(path).fileName(), false);
        });
}

void MainWindow::openRandomScene(quint64 seed) {
    const Scene s = generateScene(seed);
    CaptionInput input;
    input.image = fromQImage(toQImage({s.spec.side, s.spec.side, s.rgb}));
    // A name like a file's (titles, exported file names), the same in every language.
    input.name = QStringLiteral("scene %1").arg(seed);
    input.scene = s.spec; // the scene editor can take it up as it is
    ++m_inputGeneration;  // a pending read of an earlier input no longer counts
    m_session->caption(input);
}

void MainWindow::openFeatures(const QString& path, int row) {
    ++m_reading;
    const quint64 generation = ++m_inputGeneration;
    tryInBackground<std::vector<float>>(
        this, [path, row] { return readFeatureRow(path, row); },
        [this, path, row, generation](Outcome<std::vector<float>>& r) {
            --m_reading;
            if (generation != m_inputGeneration)
                return;
            if (!r.error.isEmpty())
                return showError(r.error);
            captionFeatureRow(r.value, path, row);
        });
}

void MainWindow::captionFeatureRow(const std::vector<float>& row, const QString& path, int index,
                                   const QString& name) {
    CaptionInput input;
    input.features = row;
    input.featuresPath = QFileInfo(path).absoluteFilePath();
    input.featuresRow = index;
    input.name =
        name.isEmpty() ? tr("%1, row %2").arg(QFileInfo(path).fileName()).arg(index) : name;
    ++m_inputGeneration; // a pending read of an earlier input no longer counts
    m_session->caption(input);
}

void MainWindow::openCourseData(const QString& folder) {
    if (!m_courseBrowser) {
        m_courseBrowser = new CourseBrowser(this);
        connect(m_courseBrowser, &CourseBrowser::imageChosen, this,
                &MainWindow::captionCourseImage);
        connect(m_courseBrowser, &CourseBrowser::failed, this, [this](const QString& error) {
            m_courseFirstPending = false;
            showError(tr("Cannot read the course data: %1").arg(error));
        });
        connect(m_courseBrowser, &CourseBrowser::listed, this,
                &MainWindow::captionFirstCourseImage);
        connect(this, &MainWindow::viewUpdated, m_courseBrowser, [this] {
            if (view().imageName == m_courseName && m_courseImage >= 0) {
                QStringList words;
                for (const auto& w : view().trace.words())
                    words << QString::fromStdString(w);
                m_courseBrowser->showCaption(m_courseImage, words);
            }
        });
    }
    m_courseFirstPending = true;
    m_courseBrowser->open(folder);
    if (model().config.memory == MemoryKind::Features)
        m_courseBrowser->score(QString::fromStdString(model().path));
    m_courseBrowser->show();
    m_courseBrowser->raise();
}

// A folder just opened: its first image is captioned once both its list and a model are there (the
// checkpoint named beside it on the command line may still be loading).
void MainWindow::captionFirstCourseImage() {
    if (!m_courseFirstPending || m_courseBrowser->loading() ||
        m_courseBrowser->listing().images.empty() || model().path.empty())
        return;
    m_courseFirstPending = false;
    if (model().config.memory != MemoryKind::Features)
        return showError(tr("the model on screen captions images; open a course (feature) "
                            "checkpoint to caption the course's images"));
    m_courseBrowser->choose(0);
}

// The browser's choice: its feature row (read off the GUI thread) captioned like any input.
void MainWindow::captionCourseImage(const QString& folder, const QString& split, qint64 image,
                                    const QString& name) {
    const ModelConfig& c = model().config;
    if (c.memory != MemoryKind::Features)
        return showError(tr("the model on screen captions images; open a course (feature) "
                            "checkpoint to caption the course's images"));
    ++m_reading;
    const int64_t width = c.inputDim;
    tryInBackground<std::vector<float>>(
        this,
        [folder, split, image, width, name] {
            const CourseData data(folder.toStdString());
            const NpyMatrix one{1, width,
                                data.features(splitFromName(split.toStdString()), image, width)};
            return one.finiteRows(0, 1, name.toStdString());
        },
        [this, folder, image, name](Outcome<std::vector<float>>& r) {
            --m_reading;
            if (!r.error.isEmpty())
                return showError(r.error);
            m_courseName = name;
            m_courseImage = image;
            captionFeatureRow(r.value, folder, int(image), name);
        });
}

void MainWindow::openCheckpoint(const QString& path) {
    m_userCheckpoint = QFileInfo(path).absoluteFilePath();
    m_session->openCheckpoint(path, m_device->currentData().toString());
}

void MainWindow::showNewView(bool keepSelection) {
    const CaptionTrace& trace = view().trace;
    {
        // Pick the selection for the new caption silently: the panels still hold the old one.
        const QSignalBlocker quiet(m_selection);
        m_selection->clamp(int(trace.steps.size()), int(trace.layers), int(trace.heads));
        const Focus focus = mostFocused(trace);
        if (!keepSelection) {
            m_selection->setStep(focus.step);
            m_selection->setLayerHead(focus.layer, -1);
        }
    }
    m_panels.markStale();
    const bool editor = currentPanel() == QLatin1String("scene");
    if (editor)
        adoptLoadedScene();
    m_panels.refresh(currentPanel(), view()); // one setView per caption, also while dragging
    if (editor)
        showEditorBanner();
    m_compareStale = m_timelineStale = true;
    refreshStalePanels();
    showAblation(); // the caption itself is in the title and on every panel, not the status bar
    emit viewUpdated();
}

// Wherever a caption is shown the ablation is said: the title, the status bar, the panels.
void MainWindow::showAblation() {
    const int off = view().headsOff;
    const QString ablated = off == 1  ? tr(" — 1 head off")
                            : off > 1 ? tr(" — %1 heads off").arg(off)
                                      : QString();
    // An image outside the training world: the caption in the title is said to be a guess.
    const QString guess =
        view().trace.outOfWorld() ? tr(" (a guess: out of the training world)") : QString();
    setWindowTitle(tr("CaptionLens — %1 — “%2”%3%4")
                       .arg(view().imageName, QString::fromStdString(view().trace.text()), guess,
                            ablated));
    m_ablationBadge->setText(tr("⚠ %1 of %2 heads off").arg(off).arg(view().headCount()));
    m_ablationBadge->setVisible(off > 0);
}

// The scene editor starts from the scene on screen when it is a shapes scene, and says what the
// other panels show when it is not (they switch to its scene only after an edit).
void MainWindow::syncSceneEditor() {
    adoptLoadedScene();
    if (view().valid())
        m_sceneEditor->setView(view());
    showEditorBanner();
}

void MainWindow::adoptLoadedScene() {
    const CaptionInput& shown = m_session->shown();
    if (shown.scene && !shown.fromEditor && view().valid())
        m_sceneEditor->showScene(*shown.scene);
}

void MainWindow::showEditorBanner() {
    m_sceneEditor->setShowing(view().imageName, m_sceneEditor->showsCurrentScene(),
                              m_session->viewFromEditor() ? m_session->beforeEditor().name
                                                          : QString());
}

void MainWindow::showModel(const ModelInfo& info) {
    m_compareStale = m_timelineStale = true;
    m_comparePanel->setCurrentModel(QString::fromStdString(info.path));
    // Only a checkpoint the user opened joins the recent files, not one a lesson brought.
    const QString opened = QFileInfo(QString::fromStdString(info.path)).absoluteFilePath();
    if (m_courseBrowser && info.config.memory == MemoryKind::Features)
        m_courseBrowser->score(QString::fromStdString(info.path)); // the list follows the model
    if (m_courseBrowser)
        captionFirstCourseImage();
    if (opened == m_userCheckpoint)
        rememberRecent(QStringLiteral("recentCheckpoints"), opened);
    const auto& c = info.config;
    m_modelLabel->setText(tr("%1 · %2 L × %3 H · W %4 · %5 · V %6")
                              .arg(QFileInfo(QString::fromStdString(info.path)).fileName())
                              .arg(c.numLayers)
                              .arg(c.numHeads)
                              .arg(c.wordvecDim)
                              .arg(QString::fromStdString(memoryKindName(c.memory)))
                              .arg(c.vocabSize));
    for (const auto& w : info.warnings)
        statusBar()->showMessage(QString::fromStdString(w), 10000);
}

// The panel, filled with the caption on screen first if it still shows an older one.
template <typename P> P* MainWindow::refreshed(P* panel, const QString& key) const {
    m_panels.refresh(key, view());
    return panel;
}

CaptionPanel* MainWindow::captionPanel() const {
    return refreshed(m_captionPanel, QStringLiteral("caption"));
}
AttentionPanel* MainWindow::attentionPanel() const {
    return refreshed(m_attentionPanel, QStringLiteral("attention"));
}
PePanel* MainWindow::pePanel() const {
    return refreshed(m_pePanel, QStringLiteral("pe"));
}
DecodePanel* MainWindow::decodePanel() const {
    return refreshed(m_decodePanel, QStringLiteral("decode"));
}
BeamPanel* MainWindow::beamPanel() const {
    return refreshed(m_beamPanel, QStringLiteral("beam"));
}
ExplainPanel* MainWindow::explainPanel() const {
    return refreshed(m_explainPanel, QStringLiteral("explain"));
}

HeadsPanel* MainWindow::headsPanel() const {
    return refreshed(m_headsPanel, QStringLiteral("heads"));
}
SceneEditor* MainWindow::sceneEditor() const {
    return refreshed(m_sceneEditor, QStringLiteral("scene"));
}

void MainWindow::showError(const QString& text) {
    showErrorSaying(text, tr("Nothing changed: the previous image, model and panels are kept."));
}

void MainWindow::showErrorSaying(const QString& text, const QString& informative) {
    // Messages quote file names, keys and words from files: control bytes escaped, and shown as
    // plain text (a name holding markup is not rendered).
    const QString message = QString::fromStdString(terminalSafe(text.toStdString()));
    m_lastError = message;
    statusBar()->showMessage(message, 15000);
    emit errorShown(message);
    if (!m_showDialogs)
        return;
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("CaptionLens"), message, QMessageBox::Ok, this);
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(informative);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, does not block the event loop
}

// message: what the session is waiting for, or empty when it is idle.
void MainWindow::showBusy(const QString& message) {
    if (!message.isEmpty())
        statusBar()->showMessage(message);
    const bool on = busy();
    m_progress->setVisible(on);
    m_cancel->setVisible(on);
    if (!on && statusBar()->currentMessage().endsWith(QStringLiteral("…")))
        statusBar()->clearMessage();
}

} // namespace cl::ui
