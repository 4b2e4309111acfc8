// The main window's teaching tools: checkpoint comparison, the training timeline, the scene
// editor, and lessons (save and reopen a teaching moment).
#include "model/core/files.h"
#include "ui/panels/circuits_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/train_panel.h"
#include "ui/window/background.h"
#include "ui/window/main_window.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

namespace cl::ui {

void MainWindow::buildTeachingPanels() {
    m_comparePanel = new ComparePanel(m_tabs);
    m_timelinePanel = new TimelinePanel(m_tabs);
    m_sceneEditor = new SceneEditor(m_selection, m_tabs);
    m_trainPanel = new TrainPanel(m_tabs);
    addPanel(QStringLiteral("compare"), m_comparePanel, tr("C&ompare"));
    addPanel(QStringLiteral("timeline"), m_timelinePanel, tr("&Timeline"));
    addPanel(QStringLiteral("scene"), m_sceneEditor, tr("&Scene")); // the scene editor
    addPanel(QStringLiteral("train"), m_trainPanel, tr("T&rain"));
    // Watch it learn: each snapshot captions the image on screen in every panel.
    // Not through openCheckpoint(): snapshots are no checkpoints the user chose (recent files).
    connect(m_trainPanel, &TrainPanel::snapshotReady, this, [this](const QString& path) {
        m_session->openCheckpoint(path, m_device->currentData().toString());
    });
    connect(m_trainPanel, &TrainPanel::timelineRequested, this, &MainWindow::openRunFolder);
    connect(m_trainPanel, &TrainPanel::errorRaised, this, &MainWindow::showError);
    connect(m_comparePanel, &ComparePanel::pathsChanged, this, [this] {
        m_compareStale = true;
        refreshStalePanels();
    });
    connect(m_comparePanel, &ComparePanel::addRequested, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Add checkpoints to compare"),
            dialogFolder(QStringLiteral("recentCheckpoints"), "models"),
            tr("Checkpoints (*.pt *.pth)"));
        if (!paths.isEmpty())
            m_comparePanel->addPaths(paths);
    });
    connect(m_timelinePanel, &TimelinePanel::folderRequested, this, &MainWindow::chooseRunFolder);
    connect(m_timelinePanel, &TimelinePanel::runChanged, this, [this] {
        m_timelineStale = true;
        refreshStalePanels();
    });
    connect(m_sceneEditor, &SceneEditor::sceneEdited, this, [this](const QImage& image) {
        captionImage(fromQImage(image), tr("edited scene"), true);
    });
    connect(m_sceneEditor, &SceneEditor::backRequested, m_session, &Session::backFromEditor);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentPanel() == QLatin1String("scene"))
            syncSceneEditor(); // shows the loaded scene; other inputs stay until an edit
        m_panels.refresh(currentPanel(), view());
        refreshStalePanels();
    });
}

void MainWindow::chooseRunFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training run"));
    if (!dir.isEmpty())
        openRunFolder(dir);
}

void MainWindow::buildLessonActions(QMenu* file) {
    file->addAction(tr("Open &Training Run…"), this, &MainWindow::chooseRunFolder);
    file->addSeparator();
    file->addAction(tr("Open &Lesson…"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open lesson"),
                                         dialogFolder(QStringLiteral("recentLessons"), "lessons"),
                                         tr("Lessons (*.cllesson)"));
        if (!p.isEmpty())
            openLesson(p);
    });
    file->addAction(tr("&Save Lesson…"), QKeySequence::Save, this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Save lesson"), "lesson.cllesson",
                                                 tr("Lessons (*.cllesson)"));
        if (p.isEmpty())
            return;
        if (!p.endsWith(QLatin1String(".cllesson")))
            p += QLatin1String(".cllesson");
        saveLesson(p);
    });
}

// PageDown/PageUp (a slide clicker): the next word in every panel; panels with a sequence of
// their own step that instead (Compare: A's words, Timeline: snapshots).
void MainWindow::stepForward(int delta) {
    if (Panel* panel = m_panels.panel(currentPanel()); panel && panel->stepBy(delta))
        return;
    const int steps = int(view().trace.steps.size());
    m_selection->setStep(std::clamp(m_selection->step() + delta, 0, std::max(0, steps - 1)));
}

bool MainWindow::openRunFolder(const QString& folder) {
    if (!m_timelinePanel->setFolder(folder)) {
        showError(tr("%1 holds no checkpoints (*.pt); the timeline needs a folder of snapshots "
                     "from one training run")
                      .arg(folder));
        return false;
    }
    showPanel(QStringLiteral("timeline"));
    return true;
}

// Comparisons run on their own worker; only the visible panel's is requested, so dragging a
// shape in the scene editor never queues comparisons nobody looks at.
void MainWindow::refreshStalePanels() {
    if (!view().valid())
        return;
    if (m_compareStale && currentPanel() == QLatin1String("compare")) {
        m_compareStale = false;
        requestComparison(CompareRequest::Compare);
    }
    if (m_timelineStale && currentPanel() == QLatin1String("timeline") &&
        !m_timelinePanel->snapshots().isEmpty()) {
        m_timelineStale = false;
        requestComparison(CompareRequest::Timeline);
    }
}

void MainWindow::requestComparison(CompareRequest::Purpose purpose) {
    const bool compare = purpose == CompareRequest::Compare;
    const QStringList paths = compare ? m_comparePanel->paths() : m_timelinePanel->snapshots();
    if (paths.isEmpty())
        return m_comparePanel->setResult(CompareResult{});
    m_session->compare(purpose, paths);
}

void MainWindow::onCompared(const cl::ui::CompareResult& result) {
    if (result.purpose == CompareRequest::Compare) {
        if (result.paths != m_comparePanel->paths())
            return; // the list changed since; a newer request is on its way
        m_comparePanel->setResult(result);
    } else {
        m_timelinePanel->setResult(result);
    }
    emit compared();
}

namespace {
// What a lesson's scene records (lesson.cpp): a square canvas, solid upright objects, no look.
bool classicScene(const SceneSpec& s) {
    const Look& k = s.look;
    const bool plain = !k.hardEdges && k.frame == 0 && k.texture == 0 && k.light == 0 &&
                       k.shadow == 0 && k.blur == 0 && k.sensorNoise == 0 && k.jpegQuality == 0 &&
                       k.lamp == 0 && k.castShadow == 0 && k.vignette == 0 && k.crease == 0 &&
                       k.whiteBalance == std::array<double, 3>{1, 1, 1};
    return plain && s.canvasWidth == 0 && s.canvasHeight == 0 &&
           std::all_of(s.objects.begin(), s.objects.end(), [](const SceneObject& o) {
               return o.fill == Fill::Solid && o.angle == 0 && o.stroke == 0;
           });
}
} // namespace

Lesson MainWindow::currentLesson() const {
    Lesson l;
    const CaptionInput& shown = m_session->shown();
    if (m_session->viewFromEditor()) {
        l.input = Lesson::Input::Scene;
        l.scene = m_sceneEditor->spec();
    } else if (shown.scene && classicScene(*shown.scene)) { // a Random Scene stays editable
        l.input = Lesson::Input::Scene;
        l.scene = *shown.scene;
    } else if (!shown.features.empty()) {
        l.input = Lesson::Input::Features;
        l.featuresPath = shown.featuresPath;
        l.featuresRow = shown.featuresRow;
    } else if (!view().image.isNull()) {
        l.input = Lesson::Input::Image;
        l.image = view().image;
        l.imageName = view().imageName;
    }
    l.checkpoint = QString::fromStdString(model().path);
    l.compare = m_comparePanel->paths();
    l.compareA = m_comparePanel->modelA();
    l.compareB = m_comparePanel->modelB();
    l.compareHeadA = m_comparePanel->headA();
    l.compareHeadB = m_comparePanel->headB();
    l.compareStep = m_comparePanel->step();
    l.compareSelf = m_comparePanel->kind() == AttentionKind::Self;
    l.timelineFolder = m_timelinePanel->folder();
    l.timelinePosition = m_timelinePanel->position();
    l.panel = currentPanel();
    l.step = m_selection->step();
    l.layer = m_selection->layer();
    l.head = m_selection->head();
    l.opacity = m_selection->opacity();
    l.autoContrast = m_selection->autoContrast();
    l.headsOff = m_session->headsOff();
    l.circuitsObject = m_circuitsPanel->pairObject();
    l.circuitsChange = m_circuitsPanel->pairChange();
    l.circuitsWord = m_circuitsPanel->measuredWord();
    l.circuitsNoising = m_circuitsPanel->noising();
    return l;
}

bool MainWindow::saveLesson(const QString& path) {
    const QString error = writeLesson(currentLesson(), path, m_resourceDir);
    if (!error.isEmpty()) {
        showError(error);
        return false;
    }
    statusBar()->showMessage(tr("Lesson saved to %1").arg(path), 5000);
    return true;
}

// The lesson is read and checked whole on a thread of its own (its files may be slow, or not
// files at all); nothing on screen changes until it is known to be good.
void MainWindow::openLesson(const QString& path, const LessonOverrides& overrides) {
    ++m_reading;
    const QString resources = m_resourceDir;
    tryInBackground<Lesson>(
        this, [path, resources] { return readLesson(path, resources); },
        [this, path, overrides](Outcome<Lesson>& r) {
            --m_reading;
            if (!r.error.isEmpty())
                return showError(r.error);
            playLesson(std::move(r.value), path, overrides);
        });
}

void MainWindow::playLesson(Lesson l, const QString& path, const LessonOverrides& overrides) {
    if (!overrides.checkpoint.isEmpty())
        l.checkpoint = overrides.checkpoint;
    if (!overrides.panel.isEmpty())
        l.panel = overrides.panel;
    if (!overrides.compare.isEmpty()) {
        l.compare = QStringList{l.checkpoint.isEmpty() ? QString::fromStdString(model().path)
                                                       : l.checkpoint} +
                    overrides.compare;
        l.compareA = 0;
        l.compareB = 1;
    }
    // Check what the lesson points at before touching anything: a bad lesson changes nothing.
    for (const QString& file : {l.checkpoint, l.featuresPath}) {
        const QString why = QString::fromStdString(files::notRegularReason(file.toStdString()));
        if (!file.isEmpty() && !why.isEmpty())
            return showError(tr("the lesson %1 needs %2, which is %3")
                                 .arg(path, file, why == "no such file" ? tr("missing") : why));
    }
    if (l.input == Lesson::Input::None)
        return showError(tr("the lesson %1 has no image, scene or features to show").arg(path));
    m_session->playLesson(l, m_device->currentData().toString());
}

// The lesson's model is loaded: its compare list, run and input (whose caption follows).
void MainWindow::applyLessonInput(const Lesson& l) {
    m_comparePanel->setPaths(l.compare);
    if (!l.timelineFolder.isEmpty() && m_timelinePanel->setFolder(l.timelineFolder))
        m_timelinePanel->setPosition(l.timelinePosition);
    {
        const QSignalBlocker quiet(m_headsPanel); // the session cleared its switches already
        headsPanel()->setHeadsOff({});
    }
    switch (l.input) {
    case Lesson::Input::Scene:
        m_sceneEditor->setSpec(l.scene);
        break;
    case Lesson::Input::Image:
        captionImage(fromQImage(l.image), l.imageName, false);
        break;
    case Lesson::Input::Features:
        captionFeatureRow(l.features, l.featuresPath, l.featuresRow);
        break;
    case Lesson::Input::None:
        break;
    }
}

void MainWindow::applyLessonView(const Lesson& l) {
    m_selection->setOpacity(l.opacity);
    m_selection->setAutoContrast(l.autoContrast);
    m_selection->setStep(l.step);
    m_selection->setLayerHead(l.layer, l.head);
    m_selection->clamp(int(view().trace.steps.size()), int(view().trace.layers),
                       int(view().trace.heads));
    m_comparePanel->setAttentionKind(l.compareSelf ? AttentionKind::Self : AttentionKind::Cross);
    m_comparePanel->setPair(l.compareA, l.compareB);
    m_comparePanel->setHeadPair(l.compareHeadA, l.compareHeadB);
    m_comparePanel->setStep(l.compareStep);
    if (l.circuitsChange >= 0) { // the pair again, measured as it was, and run
        CircuitsPanel* circuits = circuitsPanel();
        circuits->setMeasuredWord(l.circuitsWord);
        circuits->setNoising(l.circuitsNoising);
        circuits->setShowsEstimate(false);
        if (circuits->makeScenePair(l.circuitsObject, l.circuitsChange))
            circuits->run();
    }
    showPanel(l.panel);
    emit lessonOpened();
}

} // namespace cl::ui
