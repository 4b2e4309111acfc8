#include "ui/panels/timeline_panel.h"

#include "ui/math/attention_math.h"
#include "ui/math/natural_order.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/flow_layout.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/selection_in_view.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <numeric>

namespace cl::ui {

namespace {
// The figures worth a column, in this order, with their labels: the shapes world's for image
// models, the course's val figures (eval --data) for feature models. Percentages unless marked.
struct Figure {
    const char* key;
    const char* label;
    bool percent;
};
const std::vector<Figure> kShapesFigures = {
    {"exact_match", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "exact match"), true},
    {"bleu4", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "BLEU-4"), true},
    {"attribute_accuracy", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "attributes"), true},
    {"relation_accuracy", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "relations"), true},
    {"pointing_best", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "pointing (best head)"), true}};
const std::vector<Figure> kCourseFigures = {
    {"bleu1", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "val BLEU-1"), false},
    {"bleu4", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "val BLEU-4"), false},
    {"exact", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "exact match"), true},
    {"loss", QT_TRANSLATE_NOOP("cl::ui::TimelinePanel", "val loss"), false}};

bool featureModels(const CompareResult& r) {
    return std::any_of(r.models.begin(), r.models.end(),
                       [](const ModelInfo& m) { return m.config.memory == MemoryKind::Features; });
}

// Snapshots in the order of their recorded training steps (imported course checkpoints carry
// them from import-cs231n --steps; file names need not sort that way). True when it changed.
bool orderBySteps(CompareResult& r) {
    std::vector<size_t> order(size_t(r.paths.size()));
    std::iota(order.begin(), order.end(), size_t(0));
    auto steps = [&](size_t i) {
        return r.ok(int(i)) ? r.models[i].meta.steps : std::numeric_limits<int64_t>::max();
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return steps(a) < steps(b); });
    if (std::is_sorted(order.begin(), order.end()))
        return false;
    CompareResult sorted = r;
    for (size_t k = 0; k < order.size(); ++k) {
        sorted.paths[int(k)] = r.paths[int(order[k])];
        sorted.models[k] = r.models[order[k]];
        sorted.runs[k] = r.runs[order[k]];
        if (order[k] < size_t(r.loadErrors.size()))
            sorted.loadErrors[int(k)] = r.loadErrors[int(order[k])];
    }
    r = sorted;
    return true;
}
// The head that points best (stored by `eval`, 0-based "layer L head H"), else the last layer's
// average: the map most worth showing first.
int defaultHead(const std::string& evalJson, const CaptionTrace& trace) {
    const QJsonObject eval = QJsonDocument::fromJson(QByteArray::fromStdString(evalJson)).object();
    const auto m = QRegularExpression(QStringLiteral("^layer (\\d+) head (\\d+)$"))
                       .match(eval.value("pointing_best_head").toString());
    const int layer = m.captured(1).toInt(), head = m.captured(2).toInt();
    if (m.hasMatch() && layer < trace.layers && head < trace.heads)
        return layer * int(trace.heads + 1) + head + 1;
    return int((trace.layers - 1) * (trace.heads + 1));
}

} // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    m_open = new QPushButton(tr("Open run folder…"), this);
    m_play = new QPushButton(tr("▶ Play"), this);
    m_play->setCheckable(true);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setPageStep(1);
    m_position = new QLabel(this);
    m_position->setMinimumWidth(160);
    m_folderLabel = new QLabel(this);
    m_folderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    QFont big = m_caption->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    m_caption->setFont(big);
    m_head = new QComboBox(this);
    m_autoContrast = new QCheckBox(tr("Auto contrast (each map its own range)"), this);
    m_autoContrast->setChecked(true);
    connect(m_autoContrast, &QCheckBox::toggled, this, &TimelinePanel::showCurrent);
    m_opacity = new OpacitySlider(this);
    m_opacity->setMaximumWidth(240);
    connect(m_opacity, &OpacitySlider::changed, this, &TimelinePanel::showCurrent);
    m_timer = new QTimer(this);
    m_timer->setInterval(1500);

    auto* top = new QHBoxLayout;
    top->addWidget(m_open);
    top->addWidget(m_play);
    top->addWidget(m_slider, 1);
    top->addWidget(m_position);
    auto* headRow = new QHBoxLayout;
    headRow->addWidget(new QLabel(tr("Cross-attention of:")));
    headRow->addWidget(m_head);
    headRow->addWidget(m_autoContrast);
    headRow->addWidget(m_opacity, 1);
    headRow->addStretch(1);
    auto* tileHost = new QWidget;
    m_tiles = new FlowLayout(tileHost);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(tileHost);
    // A whole row of maps in view (at presenter size on a 960 x 540 screen the splitter left
    // them 100 px, cut in half); the page scrolls instead.
    const QMargins m = m_tiles->contentsMargins();
    scroll->setMinimumHeight(AttentionTile().sizeHint().height() + m.top() + m.bottom() + 4);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    keepSelectionInView(m_table); // the snapshot on screen
    // Room for the selected snapshot's row with its caption wrapped (four lines in presenter
    // mode on a 960 px wide screen): the splitter left the table 71 px; the page scrolls.
    m_table->setMinimumHeight(160);
    auto* upper = new QWidget(this);
    auto* up = new QVBoxLayout(upper);
    up->setContentsMargins(0, 0, 0, 0);
    m_world = new WorldNotice(this);
    up->addWidget(m_world);
    up->addWidget(m_caption);
    up->addLayout(headRow);
    up->addWidget(scroll, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(m_table);
    split->setSizes({480, 200});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_folderLabel);
    layout->addWidget(split, 1);

    connect(m_open, &QPushButton::clicked, this, &TimelinePanel::folderRequested);
    connect(m_slider, &QSlider::valueChanged, this, &TimelinePanel::showCurrent);
    connect(m_play, &QPushButton::toggled, this, &TimelinePanel::setPlaying);
    connect(m_timer, &QTimer::timeout, this,
            [this] { setPosition((position() + 1) % std::max(1, int(m_paths.size()))); });
    connect(m_head, &QComboBox::currentIndexChanged, this, &TimelinePanel::showCurrent);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { setPosition(row); });
    showCurrent();
}

bool TimelinePanel::setFolder(const QString& folder) {
    QStringList names = QDir(folder).entryList({"*.pt"}, QDir::Files);
    if (names.isEmpty())
        return false;
    std::sort(names.begin(), names.end(),
              [](const QString& a, const QString& b) { return naturalCompare(a, b) < 0; });
    m_folder = folder;
    m_paths.clear();
    // Every snapshot is a model in memory: a run of hundreds (a lesson's folder, 300 of them,
    // took 880 MB) shows kMaxTimelineSnapshots, evenly spaced, its first and last included.
    const qsizetype n = names.size(), shown = std::min<qsizetype>(n, kMaxTimelineSnapshots);
    for (qsizetype i = 0; i < shown; ++i)
        m_paths << QDir(folder).filePath(names[shown == 1 ? n - 1 : i * (n - 1) / (shown - 1)]);
    m_last = {};
    m_runSnapshots = n;
    showFolderLabel();
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, int(m_paths.size()) - 1);
    m_slider->setValue(int(m_paths.size()) - 1); // the trained end first
    fillTable();
    showCurrent();
    emit runChanged();
    return true;
}

int TimelinePanel::position() const {
    return m_slider->value();
}

void TimelinePanel::setPosition(int index) {
    m_slider->setValue(index);
}

void TimelinePanel::setPlaying(bool on) {
    const QSignalBlocker block(m_play);
    m_play->setChecked(on);
    m_play->setText(on ? tr("❚❚ Pause") : tr("▶ Play"));
    on ? m_timer->start() : m_timer->stop();
}

bool TimelinePanel::playing() const {
    return m_timer->isActive();
}

void TimelinePanel::showCurrent() {
    const int i = position();
    m_position->setText(m_paths.isEmpty() ? tr("no run open")
                                          : tr("%1 · %2 of %3")
                                                .arg(QFileInfo(currentPath()).completeBaseName())
                                                .arg(i + 1)
                                                .arg(m_paths.size()));
    m_slider->setEnabled(m_paths.size() > 1);
    m_play->setEnabled(m_paths.size() > 1);
    m_table->selectRow(i);
    if (m_paths.isEmpty())
        return m_caption->setText(
            tr("Open a folder of checkpoints from one training run (File ▸ "
               "Open Training Run…); the bundled model's snapshots are one."));
    if (m_last.paths != m_paths)
        return m_caption->setText(tr("Captioning with every snapshot…"));
    if (!m_last.ok(i)) {
        fillTiles({});
        return m_caption->setText(
            tr("%1: %2").arg(QFileInfo(currentPath()).fileName(), m_last.error(i)));
    }
    const auto& trace = m_last.runs[size_t(i)].own;
    m_caption->setText(tr("“%1”  —  after %2 training steps")
                           .arg(QString::fromStdString(trace.text()))
                           .arg(m_last.models[size_t(i)].meta.steps));
    if (m_head->count() != int(trace.layers * (trace.heads + 1))) {
        const QSignalBlocker block(m_head);
        m_head->clear();
        for (int l = 0; l < trace.layers; ++l)
            for (int h = -1; h < trace.heads; ++h)
                m_head->addItem(headName(l, h));
        m_head->setCurrentIndex(defaultHead(m_last.models[size_t(i)].meta.evalJson, trace));
    }
    fillTiles(trace);
}

bool TimelinePanel::stepBy(int delta) {
    const int n = int(m_paths.size());
    if (n > 0)
        setPosition(std::clamp(position() + delta, 0, n - 1)); // the snapshots
    return true;
}

void TimelinePanel::setResult(const CompareResult& result) {
    if (result.paths != m_paths)
        return; // another run was opened since
    m_last = result;
    if (orderBySteps(m_last)) {
        const QString shown = m_paths.value(position());
        m_paths = m_last.paths;
        const QSignalBlocker block(m_slider);
        setPosition(std::max(0, int(m_paths.indexOf(shown))));
    }
    fillTable();
    showCurrent();
}

void TimelinePanel::fillTiles(const CaptionTrace& trace) {
    const int steps = int(trace.steps.size());
    while (int(m_tileWidgets.size()) > steps) {
        delete m_tileWidgets.back();
        m_tileWidgets.pop_back();
    }
    while (int(m_tileWidgets.size()) < steps) {
        auto* tile = new AttentionTile;
        tile->setFixedSize(150, 170);
        m_tiles->addWidget(tile);
        m_tileWidgets.push_back(tile);
    }
    const int index = std::max(0, m_head->currentIndex());
    const int layer = index / int(trace.heads + 1), head = index % int(trace.heads + 1) - 1;
    const bool spatial = trace.gridSide > 0 && !m_image.isNull();
    for (int t = 0; t < steps; ++t) {
        const QString word = QString::fromStdString(trace.steps[size_t(t)].token);
        const auto row = spatial ? crossRow(trace, layer, head, t) : std::vector<float>{};
        m_tileWidgets[size_t(t)]->setContent(
            m_image, row, spatial ? unitGridMap(trace, m_image) : GridMap{}, m_opacity->value(),
            colourRange(row, m_autoContrast->isChecked()),
            tr("%1 (%2)").arg(word).arg(trace.steps[size_t(t)].prob, 0, 'f', 2));
    }
}

void TimelinePanel::fillTable() {
    QStringList headers{tr("snapshot"), tr("steps"), tr("caption")};
    const bool have = m_last.paths == m_paths;
    const auto& figures = have && featureModels(m_last) ? kCourseFigures : kShapesFigures;
    for (const auto& f : figures)
        headers << tr(f.label);
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    // A short column title (the caption column is what is left of the width; "caption of this
    // image" was cut at presenter size on a 960 px screen), the whole meaning in its tooltip.
    m_table->horizontalHeaderItem(2)->setToolTip(
        tr("Each snapshot's caption of the image on screen"));
    m_table->setRowCount(int(m_paths.size()));
    for (int r = 0; r < m_paths.size(); ++r) {
        const bool ok = have && m_last.ok(r);
        const auto& meta = ok ? m_last.models[size_t(r)].meta : Metadata{};
        const QString caption = !have ? tr("…")
                                : ok  ? QString::fromStdString(m_last.runs[size_t(r)].own.text())
                                      : m_last.error(r);
        const QJsonObject eval =
            QJsonDocument::fromJson(QByteArray::fromStdString(meta.evalJson)).object();
        QStringList cells{QFileInfo(m_paths[r]).completeBaseName(),
                          ok ? QString::number(meta.steps) : QString(), caption};
        for (const auto& f : figures) {
            const QJsonValue v = eval.value(QLatin1String(f.key));
            cells << (!v.isDouble() ? (ok ? tr("not stored") : QString())
                      : f.percent   ? QString::number(100.0 * v.toDouble(), 'f', 1) + " %"
                                    : QString::number(v.toDouble(), 'f', 3));
        }
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(r, c, new QTableWidgetItem(cells[c]));
    }
    // The caption column takes what is left and wraps: the table never scrolls sideways.
    auto* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->setWordWrap(true);
    // Wrapped captions keep their whole text when the page narrows (presenter mode, F11).
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->selectRow(position());
}

QString TimelinePanel::captionText() const {
    return m_caption->text();
}

// Every snapshot captions the image on screen; an out-of-world image (as the open model judges
// it) is said so above their captions.
void TimelinePanel::setView(const CaptionView& view) {
    m_image = view.image;
    m_world->showFor(view.trace);
}

QString TimelinePanel::worldNotice() const {
    return m_world->notice();
}

void TimelinePanel::showFolderLabel() {
    const QString where = QDir::toNativeSeparators(m_folder);
    const qsizetype shown = m_paths.size(), n = m_runSnapshots;
    m_folderLabel->setText(
        shown == n
            ? tr("Run: %1 (%n snapshot(s))", nullptr, int(n)).arg(where)
            : tr("Run: %1 (%2 of its %3 snapshots, evenly spaced)").arg(where).arg(shown).arg(n));
}

void TimelinePanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange || m_paths.isEmpty())
        return;
    showFolderLabel();
    fillTable();
    showCurrent();
}

std::vector<Snapshot> TimelinePanel::animationSnapshots() const {
    std::vector<Snapshot> out;
    if (m_last.paths != m_paths)
        return out;
    for (int i = 0; i < m_last.paths.size(); ++i)
        if (m_last.ok(i) && !m_last.runs[size_t(i)].own.steps.empty())
            out.push_back(
                {QFileInfo(m_last.paths[i]).completeBaseName(), m_last.runs[size_t(i)].own});
    return out;
}

} // namespace cl::ui
