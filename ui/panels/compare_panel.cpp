#include "ui/panels/compare_panel.h"

#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/selection_in_view.h"
#include "ui/widgets/world_notice.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cl::ui {

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent) {
    buildControls();
    auto* controls = new QWidget(this);
    auto* left = new QVBoxLayout(controls);
    left->setContentsMargins(0, 0, 0, 0);
    auto* listLabel = new QLabel(tr("Checkpoints to compare (two or more):"));
    listLabel->setWordWrap(true);
    left->addWidget(listLabel);
    left->addWidget(m_list, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    left->addLayout(buttons);
    auto* form = new QFormLayout;
    form->addRow(tr("Model &A:"), m_pickA);
    form->addRow(tr("Model &B:"), m_pickB);
    form->addRow(tr("Attention:"), m_kindBox);
    form->addRow(tr("Head of A:"), m_headBoxA);
    form->addRow(tr("Head of B:"), m_headBoxB);
    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(m_stepSlider, 1);
    stepRow->addWidget(m_stepLabel);
    form->addRow(tr("Word of A:"), stepRow);
    form->addRow(m_opacity);
    left->addLayout(form);
    left->addWidget(m_note);
    controls->setMaximumWidth(290);
    m_controls = controls;

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(controls);
    layout->addWidget(buildResults(), 1);
    refresh();
}

void ComparePanel::buildControls() {
    m_list = new QListWidget(this);
    m_list->setToolTip(tr("The first checkpoint is model A unless you pick another below."));
    m_add = new QPushButton(tr("Add checkpoint…"), this);
    m_remove = new QPushButton(tr("Remove"), this);
    m_pickA = new QComboBox(this);
    m_pickB = new QComboBox(this);
    m_kindBox = new QComboBox(this);
    m_kindBox->addItems({tr("Cross (image)"), tr("Self (words)")}); // beside "Attention:"
    m_headBoxA = new QComboBox(this);
    m_headBoxB = new QComboBox(this);
    m_stepSlider = new QSlider(Qt::Horizontal, this);
    m_stepLabel = new QLabel(this);
    m_stepLabel->setMinimumWidth(80);
    m_opacity = new OpacitySlider(this);
    connect(m_opacity, &OpacitySlider::changed, this, &ComparePanel::refresh);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_add, &QPushButton::clicked, this, &ComparePanel::addRequested);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        delete m_list->takeItem(m_list->currentRow());
        emit pathsChanged();
    });
    auto pick = [this](QComboBox* box, int* target) {
        connect(box, &QComboBox::currentIndexChanged, this, [this, target](int i) {
            if (!m_filling && i >= 0) {
                *target = i;
                refresh();
            }
        });
    };
    pick(m_pickA, &m_a);
    pick(m_pickB, &m_b);
    pick(m_headBoxA, &m_headA);
    pick(m_headBoxB, &m_headB);
    connect(m_kindBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_filling)
            setAttentionKind(i == 0 ? AttentionKind::Cross : AttentionKind::Self);
    });
    m_kindBox->setToolTip(tr("Feature models have one memory token: their cross-attention is "
                             "always 1.0, so self-attention is compared by default."));
    connect(m_stepSlider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_filling)
            setStep(v);
    });
}

QWidget* ComparePanel::buildResults() {
    m_captions = new QLabel(this);
    m_captions->setWordWrap(true);
    m_captions->setTextFormat(Qt::RichText);
    m_captions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->setMinimumWidth(400); // both captions' words and probabilities, no scrolling
    m_table->setMinimumHeight(160);
    keepSelectionInView(m_table); // the word whose maps are shown
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { setStep(row); });
    m_tileA = new AttentionTile(this);
    m_tileB = new AttentionTile(this);
    m_tileDiff = new AttentionTile(this);
    m_tileDiff->setToolTip(tr("Red: model A attends more here; blue: model B does. The title "
                              "gives the Jensen-Shannon divergence of the two rows, in bits "
                              "(0 = identical, 1 = disjoint)."));
    auto* tiles = new QWidget(this);
    auto* tileRow = new QHBoxLayout(tiles);
    tileRow->setContentsMargins(0, 0, 0, 0);
    for (auto* t : {m_tileA, m_tileB, m_tileDiff}) {
        t->setLeastMapSide(kLeastMap);
        tileRow->addWidget(t, 1);
    }
    m_selfPlot = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_selfPlot->setAxisLabels(tr("key (input token)"), tr("model"));
    m_maps = new QStackedWidget(this);
    m_maps->addWidget(tiles);
    m_maps->addWidget(m_selfPlot);
    m_jsd = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_jsd->setScaleLabel(tr("JSD (bits)"));
    m_jsd->setAxisLabels(tr("head of B"), tr("head of A"));
    m_jsd->setLeastMapSide(kLeastMap);
    auto hovered = std::make_shared<std::pair<int, int>>(-1, -1);
    connect(m_jsd, &HeatmapPlot::cellHovered, this, [hovered](int r, int c) { *hovered = {r, c}; });
    connect(m_jsd, &HeatmapPlot::clicked, this, [this, hovered] {
        if (hovered->first >= 0)
            setHeadPair(hovered->first, hovered->second);
    });

    // Maps first, at full width; the table and the JSD matrix under them, side by side where
    // the page is wide enough, else the matrix under the table (foldTable).
    m_bottom = new QBoxLayout(QBoxLayout::LeftToRight);
    m_bottom->addWidget(m_table, 1);
    m_bottom->addWidget(m_jsd, 1);
    auto* box = new QWidget(this);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    m_world = new WorldNotice(this);
    v->addWidget(m_world);
    v->addWidget(m_captions);
    v->addWidget(m_maps, 3);
    v->addLayout(m_bottom, 2);
    return box;
}

void ComparePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    foldTable();
}

// The table and the JSD matrix side by side only where both fit beside the controls in the
// page's width (the scroll area's viewport: the panel itself is never narrower than its
// layout's minimum, so its own width cannot tell).
void ComparePanel::foldTable() {
    const QWidget* view = parentWidget();
    const int room = view ? view->width() : width();
    const QMargins m = layout()->contentsMargins();
    const int spacing = std::max(0, layout()->spacing());
    const int controls = std::min(m_controls->maximumWidth(), m_controls->sizeHint().width());
    const int sideBySide = m.left() + m.right() + controls + spacing + m_table->minimumWidth() +
                           std::max(0, m_bottom->spacing()) + m_jsd->minimumSizeHint().width();
    const auto direction = sideBySide <= room ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_bottom->direction() != direction)
        m_bottom->setDirection(direction);
}

// The image on screen: the maps are drawn over it, and an out-of-world image (as the open
// model judges it) is said so above every model's caption of it.
void ComparePanel::setView(const CaptionView& view) {
    m_image = view.image;
    m_world->showFor(view.trace);
}

QString ComparePanel::worldNotice() const {
    return m_world->notice();
}

QStringList ComparePanel::paths() const {
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        out << m_list->item(i)->data(Qt::UserRole).toString();
    return out;
}

void ComparePanel::setPaths(const QStringList& paths) {
    m_list->clear();
    appendPaths(paths);
}

void ComparePanel::addPaths(const QStringList& given) {
    QStringList paths = given;
    if (m_list->count() == 0 && !m_currentModel.isEmpty() && !given.contains(m_currentModel))
        paths.prepend(m_currentModel);
    appendPaths(paths);
}

void ComparePanel::appendPaths(const QStringList& paths) {
    for (const QString& p : paths) {
        auto* item = new QListWidgetItem(QFileInfo(p).fileName(), m_list);
        item->setData(Qt::UserRole, p);
        item->setToolTip(p);
    }
    emit pathsChanged();
}

bool ComparePanel::stepBy(int delta) {
    setStep(std::max(0, m_step + delta)); // A's words
    return true;
}

void ComparePanel::setResult(const CompareResult& result) {
    m_result = result;
    // An empty result (the panel shown before anything was added) keeps the pair as it is: it
    // used to set B to -1, which no later result repaired ("Model B" stayed empty).
    const int n = int(result.paths.size());
    if (n > 0 && (m_a < 0 || m_a >= n))
        m_a = 0;
    if (n > 0 && (m_b < 0 || m_b >= n || (m_b == m_a && n > 1)))
        m_b = m_a == 0 ? std::min(1, n - 1) : 0;
    // One memory token (course feature models): cross-attention is 1.0 everywhere, so the words'
    // self-attention is what differs.
    if (!m_kindChosen && pairReady() && traceA().memoryTokens <= 1)
        m_kind = AttentionKind::Self;
    // Open on the first word where the two captions part ways: the interesting one.
    if (pairReady()) {
        const auto marks = diffWords(traceA().words(), m_result.runs[size_t(m_b)].own.words());
        const auto first = std::find(marks.first.begin(), marks.first.end(), true);
        if (first != marks.first.end())
            m_step = int(first - marks.first.begin());
    }
    refresh();
}

void ComparePanel::setPair(int a, int b) {
    if (a < 0 || b < 0)
        return; // not a pair of models (lessons are checked; this guards every other caller)
    m_a = a;
    m_b = b;
    refresh();
}

void ComparePanel::setHeadPair(int headA, int headB) {
    m_headA = headA;
    m_headB = headB;
    refresh();
}

void ComparePanel::setStep(int step) {
    m_step = step;
    refresh();
}

void ComparePanel::setAttentionKind(AttentionKind kind) {
    m_kind = kind;
    m_kindChosen = true;
    refresh();
}

bool ComparePanel::pairReady() const {
    const int n = int(m_result.paths.size());
    return m_a >= 0 && m_b >= 0 && m_a < n && m_b < n && m_result.ok(m_a) && m_result.ok(m_b) &&
           !traceA().steps.empty() && !traceB().steps.empty();
}

const CaptionTrace& ComparePanel::traceA() const {
    return m_result.runs[size_t(m_a)].own;
}

const CaptionTrace& ComparePanel::traceB() const {
    return m_result.runs[size_t(m_b)].forced[size_t(m_a)];
}

void ComparePanel::refresh() {
    m_filling = true;
    for (QComboBox* box : {m_pickA, m_pickB}) {
        box->clear();
        for (int i = 0; i < m_result.paths.size(); ++i)
            box->addItem(QFileInfo(m_result.paths[i]).fileName());
    }
    m_pickA->setCurrentIndex(m_a);
    m_pickB->setCurrentIndex(m_b);
    m_kindBox->setCurrentIndex(m_kind == AttentionKind::Cross ? 0 : 1);
    m_remove->setEnabled(m_list->count() > 0);
    fillHeads();
    fillCaptions();
    fillTable();
    fillAttention();
    fillNote();
    m_filling = false;
}

} // namespace cl::ui
