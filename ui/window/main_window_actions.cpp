// Menus, toolbar, status bar, drag and drop, recent files and exports of the main window.
#include "ui/widgets/text_colour.h"
#include "ui/window/main_window.h"

#include "ui/imaging/image_writer.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/selection.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/window/presenter.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QPdfWriter>
#include <QProgressBar>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

namespace cl::ui {

namespace {
constexpr int kMaxRecent = 8;
bool isCheckpointFile(const QString& path) {
    return path.endsWith(QLatin1String(".pt"), Qt::CaseInsensitive) ||
           path.endsWith(QLatin1String(".pth"), Qt::CaseInsensitive);
}
} // namespace

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* openImage = file->addAction(tr("Open &Image…"), this, [this] {
        const auto p = QFileDialog::getOpenFileName(
            this, tr("Open image"), dialogFolder(QStringLiteral("recentImages"), "samples"),
            tr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.ppm *.pgm *.webp);;All files (*)"));
        if (!p.isEmpty())
            this->openImage(p);
    });
    openImage->setShortcut(QKeySequence::Open);
    auto* openCk = file->addAction(tr("Open &Checkpoint…"), this, [this] {
        const auto p = QFileDialog::getOpenFileName(
            this, tr("Open checkpoint"), dialogFolder(QStringLiteral("recentCheckpoints"), "models"),
            tr("Checkpoints (*.pt *.pth);;All files (*)"));
        if (!p.isEmpty())
            openCheckpoint(p);
    });
    openCk->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addAction(tr("Open Course &Data…"), this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Open the course's coco_captioning folder"));
        if (!folder.isEmpty())
            openCourseData(folder);
    });
    file->addAction(tr("Open &Features (.npy, .h5)…"), this, [this] {
        const auto p = QFileDialog::getOpenFileName(this, tr("Open feature rows"), {},
                                                    tr("Feature rows (*.npy *.h5 *.hdf5)"));
        if (p.isEmpty())
            return;
        bool ok = false;
        const int row = QInputDialog::getInt(this, tr("Feature row"), tr("Row to caption:"), 0, 0,
                                             1 << 30, 1, &ok);
        if (ok)
            openFeatures(p, row);
    });
    auto* random = file->addAction(tr("&Random Scene"), this, [this] {
        openRandomScene(QRandomGenerator::global()->bounded(1000000000u));
    });
    random->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    auto* recentImages = file->addMenu(tr("Recent Images"));
    auto* recentCks = file->addMenu(tr("Recent Checkpoints"));
    connect(recentImages, &QMenu::aboutToShow, this,
            [=] { fillRecentMenu(recentImages, "recentImages", false); });
    connect(recentCks, &QMenu::aboutToShow, this,
            [=] { fillRecentMenu(recentCks, "recentCheckpoints", true); });
    buildLessonActions(file);
    file->addSeparator();
    auto* exportView = file->addAction(tr("&Export View (PNG or PDF)…"), this, [this] {
        const auto p =
            QFileDialog::getSaveFileName(this, tr("Export view"), exportName(currentPanel(), "png"),
                                         tr("PNG (*.png);;PDF (*.pdf)"));
        if (!p.isEmpty() && !this->exportView(p))
            showError(tr("Could not write %1").arg(p));
    });
    exportView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &Web Page…"), this, [this] {
        const auto p = QFileDialog::getSaveFileName(
            this, tr("Export web page"), exportName("page", "html"), tr("Web page (*.html)"));
        if (!p.isEmpty() && !exportWebPage(p))
            showError(tr("Could not write %1").arg(p));
    });
    file->addAction(tr("Export &Animation (GIF)…"), this, &MainWindow::chooseAnimation);
    file->addAction(tr("Export Selected Attention &Matrix (CSV)…"), this, [this] {
        const auto p = QFileDialog::getSaveFileName(
            this, tr("Export attention"), exportName("selfattn", "csv"), tr("CSV (*.csv)"));
        if (!p.isEmpty() && !exportAttentionCsv(p))
            showError(tr("Could not write %1").arg(p));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    buildViewMenu();
    buildHelpMenu();
    buildToolBar(openImage, openCk, random, exportView);
}

void MainWindow::buildViewMenu() {
    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Caption Panel"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this] { showPanel("caption"); });
    view->addAction(tr("&Attention Panel"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    [this] { showPanel("attention"); });
    view->addAction(tr("&Positional Encoding Panel"), QKeySequence(Qt::CTRL | Qt::Key_3), this,
                    [this] { showPanel("pe"); });
    view->addAction(tr("&Decoding Panel"), QKeySequence(Qt::CTRL | Qt::Key_4), this,
                    [this] { showPanel("decode"); });
    view->addAction(tr("&Head Ablation Panel"), QKeySequence(Qt::CTRL | Qt::Key_5), this,
                    [this] { showPanel("heads"); });
    view->addAction(tr("C&ompare Panel"), QKeySequence(Qt::CTRL | Qt::Key_6), this,
                    [this] { showPanel("compare"); });
    view->addAction(tr("&Timeline Panel"), QKeySequence(Qt::CTRL | Qt::Key_7), this,
                    [this] { showPanel("timeline"); });
    view->addAction(tr("&Scene Editor"), QKeySequence(Qt::CTRL | Qt::Key_8), this,
                    [this] { showPanel("scene"); });
    view->addAction(tr("T&raining Panel"), QKeySequence(Qt::CTRL | Qt::Key_9), this,
                    [this] { showPanel("train"); });
    view->addAction(tr("Circ&uits Panel"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                    [this] { showPanel("circuits"); });

    view->addSeparator();
    m_presenterAction =
        view->addAction(tr("&Presenter Mode"), this, [this](bool on) { setPresenterMode(on); });
    m_presenterAction->setCheckable(true);
    m_presenterAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_presenterAction->setToolTip(tr("Large fonts and thick lines for a projector (F11); "
                                     "PageDown/PageUp step through the words"));
    buildLanguageMenu(view);
    // Slide clickers send PageDown/PageUp: step the selected word in every panel.
    view->addAction(tr("Next Word"), QKeySequence(Qt::Key_PageDown), this,
                    [this] { stepForward(+1); });
    view->addAction(tr("Previous Word"), QKeySequence(Qt::Key_PageUp), this,
                    [this] { stepForward(-1); });
}

void MainWindow::buildToolBar(QAction* openImage, QAction* openCk, QAction* random,
                              QAction* exportView) {
    m_device = new QComboBox(this);
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    m_device->addItem(tr("CUDA"), QStringLiteral("cuda"));
    m_device->setToolTip(tr("Where the model runs; CUDA needs a LibTorch built with it. "
                            "Changing it reloads the checkpoint."));
    connect(m_device, &QComboBox::activated, this, [this] {
        if (!model().path.empty())
            openCheckpoint(QString::fromStdString(model().path));
    });
    m_maxLength = new QSpinBox(this);
    m_maxLength->setRange(1, 100);
    m_maxLength->setValue(m_session->maxLength());
    m_maxLength->setToolTip(
        tr("Longest caption, in tokens (also capped by the model's positional table)"));
    connect(m_maxLength, &QSpinBox::valueChanged, m_session, &Session::setMaxLength);
    connect(m_maxLength, &QSpinBox::editingFinished, this, [this] {
        if (view().valid())
            m_session->recaption();
    });
    auto* bar = addToolBar(tr("Main"));
    bar->setMovable(false);
    bar->addAction(openImage);
    bar->addAction(openCk);
    bar->addAction(random);
    bar->addAction(exportView);
    bar->addAction(m_presenterAction);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Device "), this));
    bar->addWidget(m_device);
    bar->addWidget(new QLabel(tr("  Max length "), this));
    bar->addWidget(m_maxLength);
}

// Presenter mode is a layout: every text the class reads scales, the window is full screen and
// stays so (no panel can grow it: each tab is a scroll area), and leaving restores the window
// exactly as it was (geometry saved on the way in, fonts back before it is restored).
void MainWindow::setPresenterMode(bool on) {
    if (on == m_presenter)
        return;
    m_presenter = on;
    m_presenterAction->setChecked(on);
    if (on)
        m_normalGeometry = geometry();
    applyPresenterScale(this, on ? 1.4 : 1.0);
    for (auto* plot : findChildren<HeatmapPlot*>())
        plot->setPointerHighlight(on);
    if (on)
        return showFullScreen();
    showNormal();
    setGeometry(m_normalGeometry);
}

void MainWindow::buildStatusBar() {
    m_modelLabel = new QLabel(tr("no model"), this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // busy indicator: the model reports no fraction
    m_progress->setMaximumWidth(140);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        m_session->cancel();
        statusBar()->showMessage(tr("Cancelled; nothing changed."), 5000);
    });
    m_ablationBadge = new QLabel(this);
    m_ablationBadge->setObjectName(QStringLiteral("ablation"));
    setTextColour(m_ablationBadge, QColor(0xb3, 0x59, 0x00), true);
    m_ablationBadge->setToolTip(tr("Heads are switched off (Heads tab): every caption "
                                   "and map is the ablated model's"));
    m_ablationBadge->setVisible(false);
    statusBar()->addPermanentWidget(m_ablationBadge);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_modelLabel);
    showBusy({});
}

// Where an Open dialog starts: the folder of the newest recent file of that kind, else the
// bundled one (samples, models, lessons), not wherever the program was started from.
QString MainWindow::dialogFolder(const QString& recentKey, const QString& bundled) const {
    for (const QString& path : QSettings().value(recentKey).toStringList()) {
        const QFileInfo file(path);
        if (file.dir().exists())
            return file.absolutePath();
    }
    const QString folder = m_resourceDir + '/' + bundled;
    return m_resourceDir.isEmpty() || !QFileInfo(folder).isDir() ? QString() : folder;
}

void MainWindow::rememberRecent(const QString& key, const QString& path) {
    QSettings settings;
    QStringList list = settings.value(key).toStringList();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    settings.setValue(key, list);
}

void MainWindow::fillRecentMenu(QMenu* menu, const QString& key, bool checkpoints) {
    menu->clear();
    const QStringList list = QSettings().value(key).toStringList();
    for (const auto& path : list)
        menu->addAction(
                QFileInfo(path).fileName(), this,
                [this, path, checkpoints] { checkpoints ? openCheckpoint(path) : openImage(path); })
            ->setToolTip(path);
    if (list.isEmpty())
        menu->addAction(tr("(none yet)"))->setEnabled(false);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const auto& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (path.isEmpty())
            continue;
        if (path.endsWith(QLatin1String(".cllesson"), Qt::CaseInsensitive))
            openLesson(path);
        else
            isCheckpointFile(path) ? openCheckpoint(path) : openImage(path);
        break;
    }
}

QString MainWindow::exportName(const QString& what, const QString& suffix) const {
    QString input = QFileInfo(view().imageName).completeBaseName();
    if (input.isEmpty())
        input = QStringLiteral("captionlens");
    QStringList parts{input, what};
    const Panel* panel = m_panels.panel(what);
    if (const QString tag = panel ? panel->exportTag() : QString(); !tag.isEmpty()) {
        parts << tag;
    } else if (view().valid()) {
        const auto& steps = view().trace.steps;
        const int step = std::clamp(m_selection->step(), 0, int(steps.size()) - 1);
        parts << QStringLiteral("L%1").arg(m_selection->layer() + 1)
              << (m_selection->head() < 0 ? QStringLiteral("avg")
                                          : QStringLiteral("H%1").arg(m_selection->head() + 1))
              << QString::fromStdString(steps[size_t(step)].token);
    }
    QString name = parts.join('-');
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    return name + '.' + suffix;
}

// The panel's whole content: its tab page may scroll, the panel itself is never cut.
bool MainWindow::exportView(const QString& path) {
    QWidget* panel = m_panels.widget(currentPanel());
    if (auto* page = qobject_cast<QScrollArea*>(panel))
        panel = page->widget();
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        {
            QPdfWriter pdf(&buffer);
            pdf.setPageSize(QPageSize(panel->size() * 0.75, QPageSize::Point));
            pdf.setResolution(96);
            pdf.setPageMargins({});
            QPainter painter(&pdf);
            panel->render(&painter);
        }
        if (!writeBytes(bytes, path).isEmpty())
            return false;
        statusBar()->showMessage(tr("Exported the %1 panel to %2").arg(currentPanel(), path), 8000);
        return true;
    }
    const bool ok = writeImage(panel->grab().toImage(), path, "png").isEmpty();
    if (ok)
        statusBar()->showMessage(tr("Exported the %1 panel to %2").arg(currentPanel(), path), 8000);
    return ok;
}

bool MainWindow::exportWebPage(const QString& path) {
    if (!m_webPage || !view().valid() || view().image.isNull()) {
        showError(tr("A web page shows an image's caption: open an image first"));
        return false;
    }
    std::string page;
    try {
        page = m_webPage(view(), m_selection->step(), m_selection->layer(), m_selection->head());
    } catch (const std::exception& e) {
        showError(tr("Could not make the web page: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    if (!writeBytes(QByteArray::fromStdString(page), path).isEmpty())
        return false;
    statusBar()->showMessage(tr("Exported the web page to %1").arg(path), 8000);
    return true;
}

bool MainWindow::exportAttentionCsv(const QString& path) {
    const QString csv = attentionPanel()->selectedMatrixCsv();
    if (csv.isEmpty() || !writeBytes(csv.toUtf8(), path).isEmpty())
        return false;
    statusBar()->showMessage(tr("Exported the attention matrix to %1").arg(path), 8000);
    return true;
}

} // namespace cl::ui
