#include "ui/panels/attention_panel.h"

#include "ui/math/attention_math.h"
#include "ui/panels/selection.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/flow_layout.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {
QWidget* scrollable(QLayout* inner, QWidget* parent) {
    auto* host = new QWidget;
    host->setLayout(inner);
    inner->setSizeConstraint(QLayout::SetMinimumSize); // it scrolls rather than squeeze maps
    auto* scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(host);
    return scroll;
}
} // namespace

AttentionPanel::AttentionPanel(Selection* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection) {
    m_thumbGrid = new QGridLayout;
    m_crossGrid = new QGridLayout;
    m_stripGrid = new FlowLayout;
    m_large = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_large->setLeastSize(QSize(380, 240));
    m_autoContrast = new QCheckBox(tr("Auto contrast (each map to its peak)"), this);
    m_autoContrast->setToolTip(tr("Off: every map uses the fixed range 0..1, so maps compare. "
                                  "On: each map spans its own min..max."));
    m_opacity = new OpacitySlider(this);
    m_opacity->setMaximumWidth(260);
    m_crossTitle = new QLabel(this);
    m_stripTitle = new QLabel(this);
    m_heads = new QLabel(this);
    m_heads->setWordWrap(true);

    auto* selfBox = new QGroupBox(tr("Masked self-attention: every layer × head (click one; "
                                     "title shows mean entropy, low = sharp)"),
                                  this);
    auto* selfRow = new QHBoxLayout(selfBox);
    selfRow->addWidget(scrollable(m_thumbGrid, selfBox), 1);
    selfRow->addWidget(m_large, 1);

    auto* crossPage = new QWidget;
    auto* crossRow = new QHBoxLayout(crossPage);
    auto* left = new QVBoxLayout;
    left->addWidget(m_crossTitle);
    left->addWidget(scrollable(m_crossGrid, crossPage), 1);
    auto* right = new QVBoxLayout;
    right->addWidget(m_stripTitle);
    right->addWidget(scrollable(m_stripGrid, crossPage), 1);
    crossRow->addLayout(left, 1);
    crossRow->addLayout(right, 1);
    auto* notice = new QLabel(tr("This model's memory is a single feature vector (the course's "
                                 "CaptioningTransformer). Attention over one key is always 1.0, "
                                 "so cross-attention shows nothing. Image models with a grid "
                                 "memory (like the bundled one) show where each word looked."));
    notice->setWordWrap(true);
    notice->setAlignment(Qt::AlignCenter);
    m_crossStack = new QStackedWidget(this);
    m_crossStack->addWidget(crossPage);
    m_crossStack->addWidget(notice);
    auto* crossBox = new QGroupBox(tr("Cross-attention: where words look in the image"), this);
    (new QVBoxLayout(crossBox))->addWidget(m_crossStack);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(selfBox);
    split->addWidget(crossBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({385, 335});
    auto* top = new QHBoxLayout;
    top->addWidget(m_autoContrast);
    top->addSpacing(24);
    top->addWidget(m_opacity, 1);
    top->addSpacing(24);
    top->addWidget(m_heads, 2);
    auto* layout = new QVBoxLayout(this);
    m_world = new WorldNotice(this);
    layout->addWidget(m_world);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(m_opacity, &OpacitySlider::changed, this, &AttentionPanel::refresh);
    connect(m_autoContrast, &QCheckBox::toggled, m_selection, &Selection::setAutoContrast);
    connect(m_selection, &Selection::changed, this, &AttentionPanel::refresh);
    setMinimumSize(560, 400); // its tab page scrolls below this (a 1024 x 600 screen fits)
}

HeatmapPlot* AttentionPanel::thumbnail(int layer, int head) const {
    const size_t i = size_t(layer) * (m_view.trace.heads + 1) + head + 1;
    return i < m_thumbs.size() ? m_thumbs[i] : nullptr;
}

void AttentionPanel::clearGrid(QLayout* grid) {
    while (auto* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

void AttentionPanel::rebuild() {
    const int layers = int(m_view.trace.layers), heads = int(m_view.trace.heads);
    const int steps = int(m_view.trace.steps.size());
    if (steps != m_builtSteps) { // word tiles are cheap; the head plots are kept
        clearGrid(m_stripGrid);
        m_stripTiles.clear();
        for (int t = 0; t < steps; ++t) {
            auto* tile = new AttentionTile;
            connect(tile, &AttentionTile::clicked, this, [this, t] { m_selection->setStep(t); });
            m_stripGrid->addWidget(tile);
            m_stripTiles.push_back(tile);
        }
        m_builtSteps = steps;
    }
    if (layers == m_builtLayers && heads == m_builtHeads)
        return;
    clearGrid(m_thumbGrid);
    clearGrid(m_crossGrid);
    m_thumbs.clear();
    m_crossTiles.clear();
    for (int l = 0; l < layers; ++l)
        for (int h = -1; h < heads; ++h) {
            auto* plot = new HeatmapPlot(HeatmapPlot::Style::Thumbnail);
            connect(plot, &HeatmapPlot::clicked, this,
                    [this, l, h] { m_selection->setLayerHead(l, h); });
            m_thumbGrid->addWidget(plot, l, h + 1);
            m_thumbs.push_back(plot);
            auto* tile = new AttentionTile;
            QFont small = tile->font();
            small.setPointSizeF(small.pointSizeF() * 0.85);
            tile->setTitleFont(small);
            connect(tile, &AttentionTile::clicked, this,
                    [this, l, h] { m_selection->setLayerHead(l, h); });
            m_crossGrid->addWidget(tile, l, h + 1);
            m_crossTiles.push_back(tile);
        }
    m_builtLayers = layers;
    m_builtHeads = heads;
}

QString AttentionPanel::headCountText() const {
    return m_heads->text();
}

QString AttentionPanel::worldNotice() const {
    return m_world->notice();
}

void AttentionPanel::setView(const CaptionView& view) {
    m_view = view;
    m_world->showFor(view.trace);
    // A course state_dict does not record its head count: the maps below are drawn for the count
    // assumed at import, and a wrong one draws plausible, wrong pictures.
    const QString heads = view.trace.heads == 1 ? tr("1 head per layer")
                                                : tr("%1 heads per layer").arg(view.trace.heads);
    const bool imported =
        QString::fromStdString(view.model.meta.dataset).contains(QLatin1String("imported"));
    const QString note = QString::fromStdString(view.model.meta.headsNote);
    if (imported && (note.isEmpty() || note.startsWith(QLatin1String("assumed"))))
        m_heads->setText(tr("<b>%1, assumed at import</b> (a state_dict does not record it; "
                            "check with import-cs231n --heads auto)")
                             .arg(heads));
    else if (imported) // the note comes from the file: escaped
        m_heads->setText(tr("%1 (%2)").arg(heads, note.toHtmlEscaped()));
    else
        m_heads->setText(heads);
    m_heads->setToolTip(m_heads->text());
    rebuild();
    m_crossStack->setCurrentIndex(view.hasSpatialMemory() ? 0 : 1);
    refresh();
}

void AttentionPanel::refresh() {
    if (!m_view.valid())
        return;
    const auto& tr_ = m_view.trace;
    const int steps = int(tr_.steps.size());
    const int sel = std::clamp(m_selection->step(), 0, steps - 1);
    const bool autoC = m_selection->autoContrast();
    m_autoContrast->setChecked(autoC);
    const QStringList keys = inputTokens(tr_), queries = outputTokens(tr_);
    for (int l = 0; l < tr_.layers; ++l)
        for (int h = -1; h < tr_.heads; ++h) {
            const auto m = selfMatrix(tr_, l, h);
            auto* plot = thumbnail(l, h);
            plot->setMatrix(m, steps, steps, queries, keys, colourRange(m, autoC));
            plot->setTitle(tr("%1\n%2 bits") // two short lines fit a thumbnail
                               .arg(headName(l, h))
                               .arg(meanEntropyBits(m, steps, steps), 0, 'f', 2));
            const bool selected = l == m_selection->layer() && h == m_selection->head();
            plot->setHighlighted(selected);
            plot->setHighlightRow(sel);
            if (selected) {
                m_large->setMatrix(m, steps, steps, queries, keys, colourRange(m, autoC));
                m_large->setTitle(tr("Self-attention %1").arg(headName(l, h)));
                m_large->setHighlightRow(sel);
            }
        }
    if (!m_view.hasSpatialMemory())
        return;
    const GridMap side = unitGridMap(tr_, m_view.image);
    const QString word =
        QString::fromStdString(tr_.steps[size_t(sel)].token); // valid(): sel in range
    m_crossTitle->setText(tr("Word “%1” (step %2): every layer × head").arg(word).arg(sel + 1));
    for (int l = 0; l < tr_.layers; ++l)
        for (int h = -1; h < tr_.heads; ++h) {
            const auto row = crossRow(tr_, l, h, sel);
            auto* tile = m_crossTiles[size_t(l) * (tr_.heads + 1) + h + 1];
            const double bits = crossEntropyBits(tr_, l, h);
            tile->setContent(m_view.image, row, side, m_opacity->value(), colourRange(row, autoC),
                             QStringLiteral("%1 %2b").arg(headName(l, h)).arg(bits, 0, 'f', 1));
            tile->setToolTip(
                tr("%1: mean cross-attention entropy %2 bits over the caption (max %3)")
                    .arg(headName(l, h))
                    .arg(bits, 0, 'f', 2)
                    .arg(std::log2(double(tr_.memoryTokens)), 0, 'f', 1));
            tile->setHighlighted(l == m_selection->layer() && h == m_selection->head());
        }
    m_stripTitle->setText(
        tr("%1: every word").arg(headName(m_selection->layer(), m_selection->head())));
    sizeStripTiles();
    for (int t = 0; t < steps; ++t) {
        const auto row = crossRow(tr_, m_selection->layer(), m_selection->head(), t);
        m_stripTiles[t]->setContent(m_view.image, row, side, m_opacity->value(),
                                    colourRange(row, autoC), queries[t]);
        m_stripTiles[t]->setHighlighted(t == sel);
    }
}

// One size for every word's tile: wide enough for the longest word in the current font (larger
// in presenter mode), square image above it.
void AttentionPanel::sizeStripTiles() {
    const QFontMetrics fm(font());
    int widest = 56;
    for (const QString& word : outputTokens(m_view.trace))
        widest = std::max(widest, fm.horizontalAdvance(word) + 8);
    for (auto* tile : m_stripTiles) {
        tile->setProperty("cl_sizedByFont", true); // presenter mode changes the font, not this
        tile->setFixedSize(widest, widest + fm.height() + 8);
    }
}

void AttentionPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        sizeStripTiles();
}

QString AttentionPanel::selectedMatrixCsv() const {
    if (!m_view.valid())
        return {};
    const auto& tr_ = m_view.trace;
    const int steps = int(tr_.steps.size());
    const auto m = selfMatrix(tr_, m_selection->layer(), m_selection->head());
    const QStringList keys = inputTokens(tr_), queries = outputTokens(tr_);
    // The corner cell names the matrix: which layer and head, rows = queries, columns = keys,
    // and says when the words are a guess about an image out of the training world.
    const int head = m_selection->head();
    QString csv = QStringLiteral("\"layer %1, %2: query \\ key%3\"")
                      .arg(m_selection->layer() + 1)
                      .arg(head < 0 ? QStringLiteral("average of heads")
                                    : QStringLiteral("head %1").arg(head + 1))
                      .arg(tr_.outOfWorld() ? QStringLiteral(" (image out of the training world: "
                                                             "the caption is a guess)")
                                            : QString());
    for (const auto& k : keys)
        csv += ',' + k;
    csv += '\n';
    for (int q = 0; q < steps; ++q) {
        csv += queries[q];
        for (int k = 0; k < steps; ++k) {
            const float v = m[size_t(q) * steps + k];
            csv += ',' + (std::isnan(v) ? QString() : QString::number(double(v), 'g', 6));
        }
        csv += '\n';
    }
    return csv;
}

} // namespace cl::ui
