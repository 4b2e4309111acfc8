// The Circuits panel's results: the site grids, the image cells, the logit lens and the direct
// logit attribution (ui/panels/circuits_panel.h).
#include "ui/panels/circuits_panel.h"

#include "ui/math/attention_math.h"
#include "ui/math/circuits_math.h"
#include "ui/math/colormap.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"

#include <QComboBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QToolTip>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace cl::ui {

namespace {

QString figureText(float v) {
    return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("–");
}

// The range of a grid's finite values, always including 0 and 1 (the two runs' marks).
ColourRange siteRange(const std::vector<float>& values) {
    ColourRange r{0.0, 1.0};
    for (float v : values)
        if (std::isfinite(v)) {
            r.lower = std::min(r.lower, double(v));
            r.upper = std::max(r.upper, double(v));
        }
    return r;
}

} // namespace

QWidget* CircuitsPanel::buildResults() {
    auto* page = new QWidget(this);
    m_results = page;
    m_summary = new QLabel(page);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_show = new QComboBox(page);
    m_show->addItems({tr("Activation patching (each site run)"),
                      tr("Attribution patching (one backward pass: an estimate)")});
    m_show->setToolTip(tr("The estimate is a gradient times the difference of the activations: "
                          "cheap, and right where the model is near linear. The correlation "
                          "with the real figures is in the summary."));
    connect(m_show, &QComboBox::currentIndexChanged, this, [this] { showGrids(); });
    m_heads = new HeatmapPlot(HeatmapPlot::Style::Full, page);
    m_heads->setObjectName(QStringLiteral("selfHeadGrid"));
    m_crossHeads = new HeatmapPlot(HeatmapPlot::Style::Full, page);
    m_crossHeads->setObjectName(QStringLiteral("crossHeadGrid"));
    for (HeatmapPlot* p : {m_heads, m_crossHeads}) {
        p->setAxisLabels(tr("input position"), tr("head"));
        p->setScaleLabel(tr("restored"));
    }
    m_layers = new HeatmapPlot(HeatmapPlot::Style::Full, page);
    m_layers->setObjectName(QStringLiteral("layerGrid"));
    m_layers->setAxisLabels(tr("input position"), tr("stream"));
    m_layers->setScaleLabel(tr("restored"));
    for (HeatmapPlot* p : {m_heads, m_crossHeads, m_layers}) {
        p->setCellDescriber([this, p](int row, int col, float) {
            const QStringList words = m_result.lens.words.empty() ? inputWords() : [this] {
                QStringList w;
                for (const auto& s : m_result.lens.words)
                    w << QString::fromStdString(s);
                return w;
            }();
            const int kind = p == m_heads ? 0 : p == m_crossHeads ? 1 : -1;
            const SiteGrid real = kind >= 0 ? headGrid(m_result.patch, words, false, kind)
                                            : layerGrid(m_result.patch, words, false);
            const SiteGrid est = kind >= 0 ? headGrid(m_result.patch, words, true, kind)
                                           : layerGrid(m_result.patch, words, true);
            const size_t i = size_t(row) * size_t(real.cols) + size_t(col);
            if (i >= real.values.size())
                return QString();
            return tr("%1 at position %2 (%3): restores %4 (estimate %5)")
                .arg(real.rowLabels.value(row))
                .arg(col)
                .arg(real.colLabels.value(col), figureText(real.values[i]),
                     figureText(est.values[i]));
        });
    }
    m_cells = new AttentionTile(page);
    m_cells->setObjectName(QStringLiteral("cellMap"));
    m_attention = new AttentionTile(page);
    for (auto* t : {m_cells, m_attention})
        t->setLeastMapSide(180);
    m_cells->installEventFilter(this);
    m_lens = new QTableWidget(page);
    m_lens->setObjectName(QStringLiteral("logitLens"));
    m_lens->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lens->setSelectionMode(QAbstractItemView::SingleSelection);
    m_lens->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_lens->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_lens, &QTableWidget::cellClicked, this,
            [this](int position, int) { setDlaPosition(position); });
    m_dla = new QCustomPlot(page);
    m_dla->setObjectName(QStringLiteral("dlaChart"));
    m_dla->setMinimumHeight(320);
    m_dla->setMinimumWidth(260);
    // A line of text a bar, in the axis's font at each replot (presenter mode scales it).
    connect(m_dla, &QCustomPlot::beforeReplot, this, [this] {
        const int bars = m_dla->plottableCount() ? m_dla->plottable(0)->interface1D()->dataCount()
                                                 : 0;
        const int line = QFontMetrics(m_dla->yAxis->tickLabelFont()).height() + 3;
        m_dla->setMinimumHeight(std::max(200, (bars + 4) * line + 20));
    });
    connect(m_dla, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const LogitAttribution* a = attributionAt(m_result.lens, m_dlaPosition);
        const int i = int(std::lround(m_dla->yAxis->pixelToCoord(event->pos().y())));
        if (!m_hasResult || !a || i < 0 || size_t(i) >= a->parts.size())
            return QToolTip::hideText();
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("%1: %2 of the logit %3")
                               .arg(QString::fromStdString(a->parts[size_t(i)].name))
                               .arg(a->parts[size_t(i)].value, 0, 'f', 3)
                               .arg(a->logit, 0, 'f', 3),
                           m_dla);
    });
    m_csv = new QPushButton(tr("Export sites as CSV…"), page);
    connect(m_csv, &QPushButton::clicked, this, &CircuitsPanel::csvRequested);

    // One column but for the pairs of pictures: never wider than a projector's page.
    auto* column = new QVBoxLayout(page);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_summary);
    auto* show = new QHBoxLayout;
    show->addWidget(new QLabel(tr("Show"), page));
    show->addWidget(m_show, 1);
    show->addWidget(m_csv);
    column->addLayout(show);
    // Two grids of 8 rows side by side fit a projector's page where one of 16 rows did not; one
    // under the other where the page is too narrow for both (foldHeads).
    m_headRow = new QBoxLayout(QBoxLayout::LeftToRight);
    m_headRow->addWidget(m_heads);
    m_headRow->addWidget(m_crossHeads);
    column->addLayout(m_headRow);
    column->addWidget(m_layers);
    auto* tiles = new QHBoxLayout;
    tiles->addWidget(m_cells);
    tiles->addWidget(m_attention);
    column->addLayout(tiles);
    auto* lensTitle = new QLabel(tr("<b>Logit lens</b>: each layer's stream read through the "
                                    "output layer, its top word (click a row for its logit "
                                    "attribution)"),
                                 page);
    lensTitle->setWordWrap(true);
    column->addWidget(lensTitle);
    column->addWidget(m_lens);
    column->addWidget(m_dla);
    return page;
}

QString CircuitsPanel::describeCellAt(QPoint pos) const {
    const QRect r = m_cells->mapRect();
    const auto side = m_result.patch.gridSide;
    if (!m_hasResult || side <= 0 || r.isEmpty() || !r.contains(pos))
        return {};
    const int cell = cellAt(unitGridMap(m_view.trace, m_view.image),
                            double(pos.x() - r.x()) / r.width(), double(pos.y() - r.y()) / r.height());
    const auto real = cellValues(m_result.patch, false), est = cellValues(m_result.patch, true);
    if (cell < 0 || size_t(cell) >= real.size())
        return {};
    return tr("image cell row %1, column %2: restores %3 (estimate %4)")
        .arg(cell / side + 1)
        .arg(cell % side + 1)
        .arg(figureText(real[size_t(cell)]), figureText(est[size_t(cell)]));
}

bool CircuitsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_cells && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describeCellAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_cells);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void CircuitsPanel::setResult(const CircuitsResult& result) {
    m_result = result;
    m_hasResult = true;
    m_dlaPosition = int(result.patch.position);
    setRunning(false);
    m_status->setText(tr("Done."));
    showResult();
}

bool CircuitsPanel::showsEstimate() const {
    return m_show->currentIndex() == 1;
}

void CircuitsPanel::setShowsEstimate(bool on) {
    m_show->setCurrentIndex(on ? 1 : 0);
}

void CircuitsPanel::setDlaPosition(int position) {
    m_dlaPosition = position;
    showDla();
}

void CircuitsPanel::showResult() {
    const auto& r = m_result.patch;
    m_results->setVisible(m_hasResult); // no empty axes before the first run
    if (m_hasResult) {
        m_summary->setText(
            tr("Clean: <b>%1</b><br>Corrupted: <b>%2</b><br>Measured at position %3: "
               "logit(<b>%4</b>) − logit(<b>%5</b>) is %6 in the clean run, %7 in the corrupted "
               "one (%8). Attribution patching's estimate correlates with the real figures at "
               "r = %9.")
                .arg(QString::fromStdString(r.cleanCaption).toHtmlEscaped(),
                     QString::fromStdString(r.corruptCaption).toHtmlEscaped())
                .arg(r.position)
                .arg(QString::fromStdString(r.cleanWord).toHtmlEscaped(),
                     QString::fromStdString(r.corruptWord).toHtmlEscaped())
                .arg(r.cleanLogitDiff, 0, 'f', 2)
                .arg(r.corruptLogitDiff, 0, 'f', 2)
                .arg(r.noising ? tr("noising: corrupted into clean")
                               : tr("denoising: clean into corrupted"))
                .arg(r.estimateCorrelation, 0, 'f', 2));
    }
    showGrids();
    showLens();
    showDla();
    showAttention();
    setRunning(m_running);
}

void CircuitsPanel::showGrids() {
    if (!m_hasResult) {
        m_heads->setMatrix({}, 0, 0, {}, {}, {});
        m_crossHeads->setMatrix({}, 0, 0, {}, {}, {});
        m_layers->setMatrix({}, 0, 0, {}, {}, {});
        m_cells->setContent({}, {}, {}, 0, {}, tr("image cells"));
        return;
    }
    const bool est = showsEstimate();
    QStringList words;
    for (const auto& s : m_result.lens.words)
        words << QString::fromStdString(s);
    const SiteGrid h = headGrid(m_result.patch, words, est, 0);
    const SiteGrid c = headGrid(m_result.patch, words, est, 1);
    const SiteGrid l = layerGrid(m_result.patch, words, est);
    m_heads->setMatrix(h.values, h.rows, h.cols, h.rowLabels, h.colLabels, siteRange(h.values));
    m_heads->setTitle(est ? tr("Self-attention heads (estimate)") : tr("Self-attention heads"));
    m_crossHeads->setMatrix(c.values, c.rows, c.cols, c.rowLabels, c.colLabels,
                            siteRange(c.values));
    m_crossHeads->setTitle(est ? tr("Cross-attention heads (estimate)")
                               : tr("Cross-attention heads"));
    foldHeads();
    m_layers->setMatrix(l.values, l.rows, l.cols, l.rowLabels, l.colLabels, siteRange(l.values));
    m_layers->setTitle(est ? tr("Layers × positions (estimate)") : tr("Layers × positions"));
    const auto cells = cellValues(m_result.patch, est);
    if (m_result.patch.gridSide > 0 && !m_view.image.isNull()) {
        float worst = 0.05f;
        for (float v : cells)
            worst = std::max(worst, std::abs(v));
        m_cells->setContent(differenceOverlay(m_view.image, cells, unitGridMap(m_view.trace,
                                                                               m_view.image),
                                              worst),
                            {}, {}, 0, {},
                            (est ? tr("image cells, estimated: red restores, blue works "
                                      "against it (peak %1)")
                                 : tr("image cells patched one at a time: red restores, blue "
                                      "works against it (peak %1)"))
                                .arg(worst, 0, 'f', 2));
    } else {
        m_cells->setContent({}, {}, {}, 0, {},
                            tr("one memory token: restores %1").arg(figureText(cells.front())));
    }
}

void CircuitsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    foldHeads();
}

// Side by side only where both grids fit the page's width (the scroll area's viewport: the
// panel is never narrower than its layout's minimum, so its own width cannot tell).
void CircuitsPanel::foldHeads() {
    const QWidget* view = parentWidget();
    const int room = view ? view->width() : width();
    const QMargins m = layout()->contentsMargins();
    const int sideBySide = m.left() + m.right() + m_heads->minimumSizeHint().width() +
                           std::max(0, m_headRow->spacing()) +
                           m_crossHeads->minimumSizeHint().width();
    const auto direction = sideBySide <= room ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_headRow->direction() != direction)
        m_headRow->setDirection(direction);
}

void CircuitsPanel::showAttention() {
    const int step = m_hasResult ? int(m_result.patch.position) : -1;
    if (!m_view.hasSpatialMemory() || step < 0 || size_t(step) >= m_view.trace.steps.size()) {
        m_attention->setContent(m_view.image, {}, {}, 0, {}, tr("the word's attention"));
        return;
    }
    const int last = int(m_view.trace.layers) - 1;
    const auto row = crossRow(m_view.trace, last, -1, step);
    m_attention->setContent(m_view.image, row, unitGridMap(m_view.trace, m_view.image), 0.75,
                            colourRange(row, true),
                            tr("where “%1” looked (L%2 avg)")
                                .arg(QString::fromStdString(m_view.trace.steps[size_t(step)].token))
                                .arg(last + 1));
}

void CircuitsPanel::showLens() {
    const auto& lens = m_result.lens;
    m_lens->clear();
    if (!m_hasResult || lens.logitLens.empty()) {
        m_lens->setRowCount(0);
        m_lens->setColumnCount(0);
        return;
    }
    int64_t layers = 0;
    for (const auto& row : lens.logitLens)
        layers = std::max(layers, row.layer);
    // A row per input position, a column per layer: 16 words stay readable in half a page.
    m_lens->setRowCount(int(lens.words.size()));
    m_lens->setColumnCount(int(layers + 1));
    QStringList layerNames{tr("embeddings")}, positions;
    for (int64_t l = 1; l <= layers; ++l)
        layerNames << tr("after L%1").arg(l);
    for (size_t p = 0; p < lens.words.size(); ++p)
        positions << QStringLiteral("%1 %2").arg(p).arg(QString::fromStdString(lens.words[p]));
    m_lens->setHorizontalHeaderLabels(layerNames);
    m_lens->setVerticalHeaderLabels(positions);
    for (const auto& row : lens.logitLens) {
        if (row.top.empty())
            continue;
        const auto& best = row.top.front();
        auto* item = new QTableWidgetItem(
            QStringLiteral("%1 %2").arg(QString::fromStdString(best.word)).arg(best.p, 0, 'f', 2));
        QStringList tip;
        for (const auto& w : row.top)
            tip << QStringLiteral("%1: %2").arg(QString::fromStdString(w.word)).arg(w.p, 0, 'f', 3);
        item->setToolTip(tr("position %1, read %2: %3")
                             .arg(row.position)
                             .arg(layerNames.value(int(row.layer)), tip.join(QStringLiteral(", "))));
        QColor shade = QColor(40, 110, 200);
        shade.setAlphaF(0.1 + 0.5 * best.p);
        item->setBackground(shade);
        m_lens->setItem(int(row.position), int(row.layer), item);
    }
    // As high as its rows: no empty band under three layers.
    m_lens->resizeRowsToContents();
    m_lens->resizeColumnsToContents();
    m_lens->setFixedHeight(m_lens->verticalHeader()->length() +
                           m_lens->horizontalHeader()->height() + 2 * m_lens->frameWidth());
    m_lens->setMinimumWidth(m_lens->horizontalHeader()->length() +
                            m_lens->verticalHeader()->width() + 2 * m_lens->frameWidth());
}

void CircuitsPanel::showDla() {
    m_dla->clearPlottables();
    m_dla->clearItems();
    const LogitAttribution* a = m_hasResult ? attributionAt(m_result.lens, m_dlaPosition) : nullptr;
    if (!a) {
        m_dla->xAxis->setLabel(QString());
        m_dla->replot();
        return;
    }
    auto* bars = new QCPBars(m_dla->yAxis, m_dla->xAxis);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values;
    for (size_t i = 0; i < a->parts.size(); ++i) {
        keys << double(i);
        values << a->parts[i].value;
        ticker->addTick(double(i), QString::fromStdString(a->parts[i].name));
    }
    bars->setData(keys, values);
    bars->setWidth(0.7);
    bars->setBrush(QColor(40, 110, 200));
    bars->setPen(Qt::NoPen);
    m_dla->yAxis->setTicker(ticker);
    m_dla->yAxis->setRangeReversed(true);
    m_dla->yAxis->setRange(-0.6, double(a->parts.size()) - 0.4);
    m_dla->xAxis->rescale();
    m_dla->xAxis->scaleRange(1.1);
    m_dla->xAxis->setLabel(tr("direct logit attribution to “%1” at position %2 (sum %3)")
                               .arg(QString::fromStdString(a->word))
                               .arg(a->position)
                               .arg(a->logit, 0, 'f', 2));
    m_dla->replot();
}

} // namespace cl::ui
