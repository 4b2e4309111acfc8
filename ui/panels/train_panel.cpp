#include "ui/panels/train_panel.h"
#include "ui/math/attention_math.h"
#include "ui/math/colormap.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/world_notice.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include "model/core/files.h"
#include "model/evaluation/checkpoint_tools.h"
#include "ui/window/background.h"

namespace cl::ui {

namespace {

QString minutes(double seconds) {
    const int s = int(std::max(0.0, seconds) + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

TrainPanel::TrainPanel(QWidget* parent) : QWidget(parent), m_run(new TrainingRun(this)) {
    auto* left = new QVBoxLayout;
    left->addWidget(buildRecipe());
    left->addWidget(buildControls());
    left->addStretch(1);
    buildPlot();
    m_probe = new QLabel(tr("Probe: the image on screen, captioned by each new snapshot."));
    m_probe->setWordWrap(true);
    auto* tileRow = new QWidget;
    m_tiles = new QHBoxLayout(tileRow);
    m_tiles->setContentsMargins(0, 0, 0, 0);
    m_tiles->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(tileRow);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumHeight(150);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* right = new QVBoxLayout;
    right->addWidget(m_plot, 3);
    right->addWidget(m_status);            // under the curve: in view on a 600 px screen too
    m_worldNotice = new WorldNotice(this); // an out-of-world probe image: its caption a guess
    right->addWidget(m_worldNotice);
    right->addWidget(m_probe);
    right->addWidget(scroll, 2);
    auto* row = new QHBoxLayout(this);
    row->addLayout(left, 0);
    row->addLayout(right, 1);
    connect(m_run, &TrainingRun::progressed, this, &TrainPanel::onProgress);
    connect(m_run, &TrainingRun::snapshotWritten, this, &TrainPanel::onSnapshot);
    connect(m_run, &TrainingRun::finished, this, &TrainPanel::onFinished);
    setSettings(TrainSettings::lecture());
    syncButtons();
}

QWidget* TrainPanel::buildControls() {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    m_start = new QPushButton(tr("Start"));
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setCheckable(true);
    m_stop = new QPushButton(tr("Stop"));
    m_save = new QPushButton(tr("Save model…"));
    m_timeline = new QPushButton(tr("Open in Timeline"));
    auto* buttons = new QHBoxLayout;
    for (auto* b : {m_start, m_pause, m_stop})
        buttons->addWidget(b);
    auto* files = new QHBoxLayout;
    files->addWidget(m_save);
    files->addWidget(m_timeline);
    m_follow = new QCheckBox(tr("Show each snapshot in every panel"));
    m_follow->setChecked(true);
    m_status = new QLabel(tr("Not started."));
    m_status->setWordWrap(true);
    v->addLayout(buttons);
    v->addLayout(files);
    v->addWidget(m_follow);
    connect(m_start, &QPushButton::clicked, this, &TrainPanel::startTraining);
    connect(m_pause, &QPushButton::toggled, this, [this](bool on) {
        m_run->setPaused(on);
        m_pause->setText(on ? tr("Resume") : tr("Pause"));
        if (on)
            m_status->setText(tr("Paused. ") + m_status->text());
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        m_run->stop();
        m_stop->setEnabled(false);
        m_status->setText(tr("Stopping after this step…"));
    });
    connect(m_save, &QPushButton::clicked, this, &TrainPanel::chooseSavePath);
    connect(m_timeline, &QPushButton::clicked, this,
            [this] { emit timelineRequested(m_run->folder()); });
    return box;
}

namespace {

// As many legend entries side by side as the chart's width holds, the rest on further rows
// ("loss, each st" was cut at presenter size on a 960 px wide screen).
void fitLegend(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    std::vector<int> widths; // the entries in order (a wrapped grid has empty cells: skipped)
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const auto* item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    const int n = int(widths.size());
    const QMargins m = legend->margins();
    const int room = plot->width() - m.left() - m.right() - 8;
    int columns = n;
    for (; columns > 1; --columns) {
        int width = (columns - 1) * legend->columnSpacing();
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < n; i += columns)
                widest = std::max(widest, widths[size_t(i)]);
            width += widest;
        }
        if (width <= room)
            break;
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true); // lay the entries out again
    }
}

// The chart at least as high as its axis titles are long ("held-out exact match %" lost its
// first letters under the legend in presenter mode): what the legend and tick labels take, as
// last laid out, plus the longer title.
void fitHeight(QCustomPlot* plot) {
    const QRect rect = plot->axisRect()->rect();
    if (rect.height() <= 0)
        return;
    int longest = 0;
    for (const QCPAxis* axis : {plot->yAxis, plot->yAxis2})
        longest =
            std::max(longest, QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label()));
    const int least = std::max(200, plot->height() - rect.height() + longest + 4);
    if (least != plot->minimumHeight())
        plot->setMinimumHeight(least);
}

} // namespace

void TrainPanel::buildPlot() {
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(280, 200);
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("loss (nats per word)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("held-out exact match %"));
    m_plot->yAxis2->setRange(0, 100);
    // The legend in a row of its own above the chart: inside, it hid the curves' ends.
    m_plot->legend->setVisible(true);
    m_plot->plotLayout()->insertRow(0);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { fitLegend(m_plot); });
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { fitHeight(m_plot); });
    auto* raw = m_plot->addGraph();
    raw->setName(tr("loss, each step"));
    raw->setPen(QPen(QColor(160, 190, 230), 1));
    auto* smooth = m_plot->addGraph();
    smooth->setName(tr("loss, smoothed"));
    smooth->setPen(QPen(QColor(20, 70, 160), 2.5));
    auto* exact = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    exact->setName(tr("exact match"));
    exact->setPen(QPen(QColor(220, 110, 20), 2));
    exact->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
}

bool TrainPanel::startTraining() {
    QString folder = m_nextFolder;
    if (folder.isEmpty())
        folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                 QStringLiteral("/runs/run-") +
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (!m_run->start(settings(), folder)) {
        emit errorRaised(m_run->error());
        return false;
    }
    m_nextFolder.clear();
    for (int i = 0; i < m_plot->graphCount(); ++i)
        m_plot->graph(i)->data()->clear();
    m_probeStep = -1;
    m_status->setText(tr("Starting… snapshots go to %1").arg(m_run->folder()));
    syncButtons();
    return true;
}

void TrainPanel::onProgress(qint64 step, qint64 steps, double smoothed, double loss,
                            double perSecond, double secondsLeft) {
    m_plot->graph(0)->addData(double(step), loss);
    m_plot->graph(1)->addData(double(step), smoothed);
    if (!m_pause->isChecked() && m_stop->isEnabled())
        m_status->setText(tr("Step %1 of %2 · loss %3 (smoothed) · %4 steps/s · ETA %5")
                              .arg(step)
                              .arg(steps)
                              .arg(smoothed, 0, 'f', 3)
                              .arg(perSecond, 0, 'f', 1)
                              .arg(minutes(secondsLeft)));
    queueReplot();
}

// At most ~20 redraws a second however fast the steps come.
void TrainPanel::queueReplot() {
    if (m_replotQueued)
        return;
    m_replotQueued = true;
    QTimer::singleShot(50, this, [this] {
        m_replotQueued = false;
        m_plot->rescaleAxes();
        m_plot->yAxis->setRangeLower(0);
        m_plot->yAxis2->setRange(0, 100);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

void TrainPanel::onSnapshot(const QString& path, qint64 step, double exact) {
    if (exact >= 0) {
        m_plot->graph(2)->addData(double(step), 100 * exact);
        queueReplot();
    }
    m_probeSnapshot = path;
    m_probeStep = step;
    syncButtons();
    if (following())
        emit snapshotReady(path);
}

void TrainPanel::onFinished(const QString& error) {
    m_pause->setChecked(false);
    syncButtons();
    if (!error.isEmpty()) {
        m_status->setText(tr("Training failed: %1").arg(error));
        emit errorRaised(error);
        return;
    }
    m_status->setText(
        tr("Done after %1 steps. Snapshots in %2.").arg(m_probeStep).arg(m_run->folder()));
}

void TrainPanel::syncButtons() {
    const bool running = m_run->running();
    m_start->setEnabled(!running);
    m_pause->setEnabled(running);
    m_stop->setEnabled(running);
    m_save->setEnabled(!m_run->latestModel().isEmpty());
    m_timeline->setEnabled(!m_run->latestModel().isEmpty());
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_preset, m_layers, m_heads, m_width, m_grid, m_position2d,
                                         m_world, m_batch, m_lr, m_dropout, m_steps, m_every})
        w->setEnabled(!running);
}

bool TrainPanel::following() const {
    return m_follow->isChecked();
}

void TrainPanel::setFollowing(bool on) {
    m_follow->setChecked(on);
}

QString TrainPanel::statusText() const {
    return m_status->text();
}

QString TrainPanel::probeText() const {
    return m_probe->text();
}

QString TrainPanel::worldNotice() const {
    return m_worldNotice->notice();
}

void TrainPanel::setView(const CaptionView& view) {
    m_view = view;
    m_worldNotice->showFor(view.trace);
    fillProbe();
}

void TrainPanel::fillProbe() {
    const CaptionTrace& trace = m_view.trace;
    const bool ours =
        !m_probeSnapshot.isEmpty() &&
        QFileInfo(QString::fromStdString(m_view.model.path)) == QFileInfo(m_probeSnapshot);
    if (!ours) {
        m_probe->setText(following() ? tr("Probe: the image on screen, captioned by each new "
                                          "snapshot.")
                                     : tr("Probe off: tick “Show each snapshot in every panel”."));
    } else {
        m_probe->setText(tr("Probe after %1 steps: “%2”")
                             .arg(m_probeStep)
                             .arg(QString::fromStdString(trace.text())));
    }
    const int steps = ours && m_view.hasSpatialMemory() ? int(trace.steps.size()) : 0;
    while (int(m_tileWidgets.size()) > steps) {
        delete m_tileWidgets.back();
        m_tileWidgets.pop_back();
    }
    while (int(m_tileWidgets.size()) < steps) {
        auto* tile = new AttentionTile;
        tile->setFixedSize(120, 140);
        m_tiles->insertWidget(int(m_tileWidgets.size()), tile);
        m_tileWidgets.push_back(tile);
    }
    for (int t = 0; t < steps; ++t) { // the last layer's head average, as the Timeline shows
        const auto row = crossRow(trace, int(trace.layers) - 1, -1, t);
        m_tileWidgets[size_t(t)]->setContent(m_view.image, row, unitGridMap(trace, m_view.image),
                                             0.6, colourRange(row, true),
                                             QString::fromStdString(trace.steps[size_t(t)].token));
    }
}

void TrainPanel::chooseSavePath() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save model"), QStringLiteral("trained.pt"), tr("Checkpoints (*.pt)"));
    if (!path.isEmpty())
        saveModel(path);
}

bool TrainPanel::saveModel(const QString& path) {
    const QString from = m_run->latestModel();
    if (from.isEmpty() || QFileInfo(path) == QFileInfo(from))
        return false;
    const QString tmp = path + QStringLiteral(".saving");
    QFile::remove(tmp);
    if (!QFile::copy(from, tmp)) {
        emit errorRaised(tr("Cannot write %1.").arg(path));
        return false;
    }
    m_status->setText(tr("Saving %1 (calibrating its out-of-world check)…").arg(path));
    tryInBackground<bool>(
        this,
        [tmp, path] {
            try {
                calibrateWorldCheck(tmp.toStdString(), 1024, [] { return !backgroundStopping(); });
                files::replace(tmp.toStdString(), path.toStdString()); // never no file at `path`
            } catch (...) {
                QFile::remove(tmp);
                throw;
            }
            return true;
        },
        [this, path](Outcome<bool>& o) {
            if (!o.error.isEmpty()) {
                emit errorRaised(tr("Saving %1 failed: %2").arg(path, o.error));
                return;
            }
            m_status->setText(tr("Saved %1.").arg(path));
            emit modelSaved(path);
        });
    return true;
}

} // namespace cl::ui
