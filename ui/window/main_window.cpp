#include "ui/window/main_window.h"

#include "model/api/npy.h"
#include "model/api/scene.h"
#include "ui/math/attention_math.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/pe_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace cl::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<cl::CaptionTrace>();
    qRegisterMetaType<cl::ModelInfo>();
    qRegisterMetaType<cl::ui::CaptionRequest>();
    qRegisterMetaType<cl::ui::CheckpointRequest>();
    qRegisterMetaType<cl::ui::CompareRequest>();
    qRegisterMetaType<cl::ui::CompareResult>();
    setWindowTitle(tr("CaptionLens"));
    setAcceptDrops(true);
    m_selection = new Selection(this);
    m_tabs = new QTabWidget(this);
    m_captionPanel = new CaptionPanel(m_selection, m_tabs);
    m_attentionPanel = new AttentionPanel(m_selection, m_tabs);
    m_tabs->addTab(m_captionPanel, tr("&Caption"));
    m_tabs->addTab(m_attentionPanel, tr("&Attention"));
    m_pePanel = new PePanel(m_tabs);
    m_decodePanel = new DecodePanel(m_selection, m_tabs);
    m_tabs->addTab(m_pePanel, tr("&Positional encoding"));
    m_tabs->addTab(m_decodePanel, tr("&Decoding"));
    m_headsPanel = new HeadsPanel(m_tabs);
    m_tabs->addTab(m_headsPanel, tr("&Head ablation"));
    connect(m_headsPanel, &HeadsPanel::headsChanged, this, [this](const std::vector<uint8_t>& off) {
        m_headsOff = off;
        if (m_view.valid())
            recaption();
    });
    connect(m_decodePanel, &DecodePanel::forceRequested, this,
            [this](const std::vector<int64_t>& prefix) {
                requestVariant(CaptionRequest::Branch, prefix, true);
            });
    connect(m_pePanel, &PePanel::ablationRequested, this,
            [this] { requestVariant(CaptionRequest::Ablation, {}, false); });
    buildTeachingPanels();
    setCentralWidget(m_tabs);
    buildActions();
    buildStatusBar();
    resize(1280, 800);
}

std::vector<std::pair<QString, QWidget*>> MainWindow::panelTable() const {
    return {
        {"caption", m_captionPanel},   {"attention", m_attentionPanel}, {"pe", m_pePanel},
        {"decode", m_decodePanel},     {"heads", m_headsPanel},         {"compare", m_comparePanel},
        {"timeline", m_timelinePanel}, {"scene", m_sceneEditor}};
}

void MainWindow::showPanel(const QString& name) {
    for (const auto& [key, widget] : panelTable())
        if (name == key)
            m_tabs->setCurrentWidget(widget);
}

QString MainWindow::currentPanel() const {
    for (const auto& [key, widget] : panelTable())
        if (m_tabs->currentWidget() == widget)
            return key;
    return {};
}

void MainWindow::openImage(const QString& path) {
    const LoadedImage img = loadImage(path);
    if (!img.ok())
        return showError(img.error);
    rememberRecent(QStringLiteral("recentImages"), QFileInfo(path).absoluteFilePath());
    m_pendingFeatures.clear();
    m_pendingFromEditor = false;
    requestCaption(img, QFileInfo(path).fileName());
}

void MainWindow::openRandomScene(quint64 seed) {
    const Scene s = generateScene(seed);
    m_pendingFeatures.clear();
    m_pendingFromEditor = false;
    requestCaption(fromQImage(toQImage({s.spec.side, s.spec.side, s.rgb})),
                   tr("scene %1").arg(seed));
}

void MainWindow::openFeatures(const QString& path, int row) {
    try {
        const NpyMatrix m = readNpy(path.toStdString());
        if (row < 0 || row >= m.rows)
            return showError(
                tr("%1 has %2 rows; row %3 does not exist").arg(path).arg(m.rows).arg(row));
        m_pendingFeatures.assign(m.data.begin() + row * m.cols,
                                 m.data.begin() + (row + 1) * m.cols);
        m_pendingFeaturesPath = QFileInfo(path).absoluteFilePath();
        m_pendingFeaturesRow = row;
        m_pendingFromEditor = false;
        requestCaption(LoadedImage{}, tr("%1, row %2").arg(QFileInfo(path).fileName()).arg(row));
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void MainWindow::requestCaption(const LoadedImage& image, const QString& name) {
    m_pendingImage = image;
    m_pendingName = name;
    recaption();
}

CaptionRequest MainWindow::makeRequest(int purpose, const RgbImage& image,
                                       const std::vector<float>& features) {
    CaptionRequest r;
    r.id = m_nextId++;
    r.purpose = purpose;
    r.image = image;
    r.features = features;
    r.options.maxLength = m_maxLength->value();
    r.options.topK = 5;
    r.options.keepLogits = true;
    r.options.headsOff = m_headsOff;
    return r;
}

void MainWindow::requestVariant(int purpose, const std::vector<int64_t>& prefix, bool positional) {
    if (!m_view.valid())
        return;
    CaptionRequest r = makeRequest(purpose, m_shownRgb, m_shownFeatures);
    r.options.forcedPrefix = prefix;
    r.options.positionalEncoding = positional;
    (purpose == CaptionRequest::Branch ? m_pendingBranch : m_pendingAblation) = r.id;
    emit captionRequested(r);
}

void MainWindow::recaption() {
    const CaptionRequest r =
        makeRequest(CaptionRequest::Main, m_pendingImage.rgb, m_pendingFeatures);
    m_pendingCaption = r.id;
    setBusy(tr("Captioning %1…").arg(m_pendingName));
    emit captionRequested(r);
}

void MainWindow::onCaptioned(quint64 id, const cl::CaptionTrace& trace) {
    if (id != 0 && id == m_pendingBranch) {
        m_pendingBranch = 0;
        refreshPanel(m_decodePanel);
        return m_decodePanel->setBranch(trace);
    }
    if (id != 0 && id == m_pendingAblation) {
        m_pendingAblation = 0;
        refreshPanel(m_pePanel);
        return m_pePanel->setAblation(trace);
    }
    if (id != m_pendingCaption)
        return; // superseded by a newer request
    m_pendingCaption = 0;
    m_shownRgb = m_pendingImage.rgb;
    m_shownFeatures = m_pendingFeatures;
    m_featuresPath = m_pendingFeaturesPath;
    m_featuresRow = m_pendingFeaturesRow;
    const bool keepSelection = m_pendingFromEditor && m_viewFromEditor &&
                               trace.layers == m_view.trace.layers &&
                               trace.heads == m_view.trace.heads;
    m_viewFromEditor = m_pendingFromEditor;
    m_view.image = m_pendingImage.image;
    m_view.imageName = m_pendingName;
    m_view.trace = trace;
    m_view.model = m_model;
    {
        // Pick the selection for the new caption silently: the panels still hold the old one.
        const QSignalBlocker quiet(m_selection);
        // While a shape is dragged the word and head stay put, so the class can watch them.
        m_selection->clamp(int(trace.steps.size()), int(trace.layers), int(trace.heads));
        const Focus focus = mostFocused(trace);
        if (!keepSelection) {
            m_selection->setStep(focus.step);
            m_selection->setLayerHead(focus.layer, -1);
        }
    }
    // Only the panel on screen is filled now; the others when shown (or asked for), so a drag
    // in the scene editor does not pay for plots nobody sees.
    m_staleViews = {m_captionPanel, m_attentionPanel, m_pePanel,
                    m_decodePanel,  m_headsPanel,     m_sceneEditor};
    refreshPanel(m_tabs->currentWidget());
    m_compareStale = m_timelineStale = true;
    refreshStalePanels();
    setWindowTitle(
        tr("CaptionLens — %1 — “%2”").arg(m_view.imageName, QString::fromStdString(trace.text())));
    statusBar()->showMessage(tr("“%1”").arg(QString::fromStdString(trace.text())), 8000);
    updateBusy();
    emit viewUpdated();
    if (m_lesson)
        applyLessonView();
}

CaptionPanel* MainWindow::captionPanel() const {
    refreshPanel(m_captionPanel);
    return m_captionPanel;
}

AttentionPanel* MainWindow::attentionPanel() const {
    refreshPanel(m_attentionPanel);
    return m_attentionPanel;
}

PePanel* MainWindow::pePanel() const {
    refreshPanel(m_pePanel);
    return m_pePanel;
}

DecodePanel* MainWindow::decodePanel() const {
    refreshPanel(m_decodePanel);
    return m_decodePanel;
}

HeadsPanel* MainWindow::headsPanel() const {
    refreshPanel(m_headsPanel);
    return m_headsPanel;
}

SceneEditor* MainWindow::sceneEditor() const {
    refreshPanel(m_sceneEditor);
    return m_sceneEditor;
}

void MainWindow::refreshPanel(QWidget* panel) const {
    if (!m_staleViews.erase(panel))
        return;
    if (panel == m_captionPanel)
        m_captionPanel->setView(m_view);
    else if (panel == m_attentionPanel)
        m_attentionPanel->setView(m_view);
    else if (panel == m_pePanel)
        m_pePanel->setView(m_view);
    else if (panel == m_decodePanel)
        m_decodePanel->setView(m_view);
    else if (panel == m_headsPanel)
        m_headsPanel->setView(m_view);
    else if (panel == m_sceneEditor)
        m_sceneEditor->setView(m_view);
}

void MainWindow::onCaptionFailed(quint64 id, const QString& message) {
    if (id == m_pendingBranch || id == m_pendingAblation) {
        m_pendingBranch = m_pendingAblation = 0;
        return showError(message);
    }
    if (id != m_pendingCaption)
        return;
    m_pendingCaption = 0;
    updateBusy();
    showError(message);
}

void MainWindow::openCheckpoint(const QString& path) {
    CheckpointRequest r;
    r.id = m_nextId++;
    r.path = path;
    r.device = m_device->currentData().toString();
    if (m_pendingCheckpoint)
        emit checkpointCancelled(m_pendingCheckpoint);
    m_pendingCheckpoint = r.id;
    m_pendingCheckpointPath = path;
    setBusy(tr("Loading checkpoint %1…").arg(QFileInfo(path).fileName()));
    emit checkpointRequested(r);
}

void MainWindow::onCheckpointOpened(quint64 id, const cl::ModelInfo& info) {
    if (id != m_pendingCheckpoint)
        return;
    m_pendingCheckpoint = 0;
    m_model = info;
    m_headsOff.clear(); // a new model starts with every head on (the panel rebuilds its grid)
    m_compareStale = m_timelineStale = true;
    rememberRecent(QStringLiteral("recentCheckpoints"),
                   QFileInfo(m_pendingCheckpointPath).absoluteFilePath());
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
    updateBusy();
    if (m_lesson && m_lessonStage == LessonStage::Model)
        return applyLessonInput(); // the lesson's input follows its model
    // Re-caption the current input with the new model, unless a caption requested after this
    // checkpoint is already on its way (the worker handles requests in order).
    const bool imageModel = c.memory == MemoryKind::ImageGrid;
    const bool haveInput = imageModel ? !m_pendingImage.image.isNull() : !m_pendingFeatures.empty();
    if (haveInput && (m_pendingCaption == 0 || m_pendingCaption < id))
        recaption();
}

void MainWindow::onCheckpointFailed(quint64 id, const QString& message) {
    if (id != m_pendingCheckpoint)
        return;
    m_pendingCheckpoint = 0;
    m_lesson.reset(); // a lesson whose model cannot load changes nothing
    updateBusy();
    showError(message);
}

void MainWindow::showError(const QString& message) {
    m_lastError = message;
    statusBar()->showMessage(message, 15000);
    emit errorShown(message);
    if (!m_showDialogs)
        return;
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("CaptionLens"), message, QMessageBox::Ok, this);
    box->setInformativeText(tr("Nothing changed: the previous image, model and panels are kept."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, does not block the event loop
}

void MainWindow::setBusy(const QString& message) {
    statusBar()->showMessage(message);
    updateBusy();
}

void MainWindow::updateBusy() {
    const bool on = busy();
    m_progress->setVisible(on);
    m_cancel->setVisible(on);
    if (!on && statusBar()->currentMessage().endsWith(QStringLiteral("…")))
        statusBar()->clearMessage();
}

} // namespace cl::ui
