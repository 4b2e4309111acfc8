// The main window's teaching tools: checkpoint comparison, the training timeline, the scene
// editor, and lessons (save and reopen a teaching moment).
#include "ui/panels/compare_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/window/main_window.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

namespace cl::ui {

void MainWindow::buildTeachingPanels() {
    m_comparePanel = new ComparePanel(m_tabs);
    m_timelinePanel = new TimelinePanel(m_tabs);
    m_sceneEditor = new SceneEditor(m_selection, m_tabs);
    m_tabs->addTab(m_comparePanel, tr("C&ompare"));
    m_tabs->addTab(m_timelinePanel, tr("&Timeline"));
    m_tabs->addTab(m_sceneEditor, tr("&Scene editor"));
    connect(m_comparePanel, &ComparePanel::pathsChanged, this, [this] {
        m_compareStale = true;
        refreshStalePanels();
    });
    connect(m_comparePanel, &ComparePanel::addRequested, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Add checkpoints to compare"), {}, tr("Checkpoints (*.pt *.pth)"));
        if (!paths.isEmpty())
            m_comparePanel->addPaths(paths);
    });
    connect(m_timelinePanel, &TimelinePanel::folderRequested, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training run"));
        if (!dir.isEmpty())
            openRunFolder(dir);
    });
    connect(m_timelinePanel, &TimelinePanel::runChanged, this, [this] {
        m_timelineStale = true;
        refreshStalePanels();
    });
    connect(m_sceneEditor, &SceneEditor::sceneEdited, this, [this](const QImage& image) {
        m_pendingFeatures.clear();
        m_pendingFromEditor = true;
        requestCaption(fromQImage(image), tr("edited scene"));
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        refreshPanel(m_tabs->currentWidget());
        if (m_tabs->currentWidget() == m_sceneEditor && !m_viewFromEditor && !m_pendingFromEditor)
            m_sceneEditor->setSpec(m_sceneEditor->spec()); // caption the editor's scene
        refreshStalePanels();
    });
}

void MainWindow::buildLessonActions(QMenu* file) {
    file->addAction(tr("Open &Training Run…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training run"));
        if (!dir.isEmpty())
            openRunFolder(dir);
    });
    file->addSeparator();
    file->addAction(tr("Open &Lesson…"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open lesson"), {}, tr("Lessons (*.cllesson)"));
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

// PageDown/PageUp (a slide clicker): the next word in every panel; on the Compare panel the next
// word of A's caption, on the Timeline the next snapshot.
void MainWindow::stepForward(int delta) {
    if (m_tabs->currentWidget() == m_timelinePanel) {
        const int n = int(m_timelinePanel->snapshots().size());
        if (n > 0)
            m_timelinePanel->setPosition(std::clamp(m_timelinePanel->position() + delta, 0, n - 1));
        return;
    }
    if (m_tabs->currentWidget() == m_comparePanel)
        return m_comparePanel->setStep(std::max(0, m_comparePanel->step() + delta));
    const int steps = int(m_view.trace.steps.size());
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
    if (!m_view.valid())
        return;
    if (m_compareStale && m_tabs->currentWidget() == m_comparePanel) {
        m_compareStale = false;
        requestComparison(CompareRequest::Compare);
    }
    if (m_timelineStale && m_tabs->currentWidget() == m_timelinePanel &&
        !m_timelinePanel->snapshots().isEmpty()) {
        m_timelineStale = false;
        requestComparison(CompareRequest::Timeline);
    }
}

void MainWindow::requestComparison(int purpose) {
    CompareRequest r;
    r.id = m_nextId++;
    r.purpose = purpose;
    r.paths =
        purpose == CompareRequest::Compare ? m_comparePanel->paths() : m_timelinePanel->snapshots();
    r.teacherForce = purpose == CompareRequest::Compare;
    r.image = m_shownRgb;
    r.features = m_shownFeatures;
    r.maxLength = m_maxLength->value();
    if (r.paths.isEmpty())
        return m_comparePanel->setResult(CompareResult{}, m_view.image);
    emit compareRequested(r);
}

void MainWindow::onCompared(const cl::ui::CompareResult& result) {
    if (result.purpose == CompareRequest::Compare) {
        if (result.paths != m_comparePanel->paths())
            return; // the list changed since; a newer request is on its way
        m_comparePanel->setResult(result, m_view.image);
    } else {
        m_timelinePanel->setResult(result, m_view.image);
    }
    emit compared();
}

Lesson MainWindow::currentLesson() const {
    Lesson l;
    if (m_viewFromEditor) {
        l.input = Lesson::Input::Scene;
        l.scene = m_sceneEditor->spec();
    } else if (!m_shownFeatures.empty()) {
        l.input = Lesson::Input::Features;
        l.featuresPath = m_featuresPath;
        l.featuresRow = m_featuresRow;
    } else if (!m_view.image.isNull()) {
        l.input = Lesson::Input::Image;
        l.image = m_view.image;
        l.imageName = m_view.imageName;
    }
    l.checkpoint = QString::fromStdString(m_model.path);
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
    l.headsOff = m_headsOff;
    return l;
}

bool MainWindow::saveLesson(const QString& path) {
    const QString error = writeLesson(currentLesson(), path);
    if (!error.isEmpty()) {
        showError(error);
        return false;
    }
    statusBar()->showMessage(tr("Lesson saved to %1").arg(path), 5000);
    return true;
}

void MainWindow::openLesson(const QString& path) {
    Lesson l;
    try {
        l = readLesson(path);
    } catch (const std::exception& e) {
        return showError(QString::fromUtf8(e.what()));
    }
    // Check what the lesson points at before touching anything: a bad lesson changes nothing.
    for (const QString& file : {l.checkpoint, l.featuresPath})
        if (!file.isEmpty() && !QFileInfo::exists(file))
            return showError(tr("the lesson %1 needs %2, which does not exist").arg(path, file));
    if (l.input == Lesson::Input::None)
        return showError(tr("the lesson %1 has no image, scene or features to show").arg(path));
    m_lesson = l;
    const bool sameModel =
        l.checkpoint.isEmpty() ||
        QFileInfo(l.checkpoint) == QFileInfo(QString::fromStdString(m_model.path));
    m_lessonStage = LessonStage::Model;
    if (sameModel)
        return applyLessonInput();
    openCheckpoint(l.checkpoint);
}

void MainWindow::applyLessonInput() {
    const Lesson& l = *m_lesson;
    m_lessonStage = LessonStage::Caption;
    m_comparePanel->setPaths(l.compare);
    if (!l.timelineFolder.isEmpty() && m_timelinePanel->setFolder(l.timelineFolder))
        m_timelinePanel->setPosition(l.timelinePosition);
    refreshPanel(m_headsPanel);
    m_headsPanel->setHeadsOff({}); // the lesson's own switches follow its first caption
    m_headsOff.clear();
    switch (l.input) {
    case Lesson::Input::Scene:
        m_sceneEditor->setSpec(l.scene);
        break;
    case Lesson::Input::Image:
        m_pendingFeatures.clear();
        m_pendingFromEditor = false;
        requestCaption(fromQImage(l.image), l.imageName);
        break;
    case Lesson::Input::Features:
        openFeatures(l.featuresPath, l.featuresRow);
        break;
    case Lesson::Input::None:
        break;
    }
}

void MainWindow::applyLessonView() {
    const Lesson l = *m_lesson;
    if (m_lessonStage == LessonStage::Caption && !l.headsOff.empty() && l.headsOff != m_headsOff) {
        m_lessonStage = LessonStage::Heads;
        refreshPanel(m_headsPanel);
        m_headsPanel->setHeadsOff(l.headsOff); // re-captions; the view is applied after that
        if (m_headsOff == l.headsOff)
            return;
    }
    m_lesson.reset();
    m_selection->setOpacity(l.opacity);
    m_selection->setAutoContrast(l.autoContrast);
    m_selection->setStep(l.step);
    m_selection->setLayerHead(l.layer, l.head);
    m_selection->clamp(int(m_view.trace.steps.size()), int(m_view.trace.layers),
                       int(m_view.trace.heads));
    m_comparePanel->setAttentionKind(l.compareSelf ? AttentionKind::Self : AttentionKind::Cross);
    m_comparePanel->setPair(l.compareA, l.compareB);
    m_comparePanel->setHeadPair(l.compareHeadA, l.compareHeadB);
    m_comparePanel->setStep(l.compareStep);
    showPanel(l.panel);
    emit lessonOpened();
}

} // namespace cl::ui
