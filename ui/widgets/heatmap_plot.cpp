#include "ui/widgets/heatmap_plot.h"

#include "ui/widgets/wrap_text.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace cl::ui {

QCPColorGradient viridisGradient() {
    QMap<double, QColor> stops;
    for (const auto& [at, colour] : viridisStops())
        stops[at] = colour;
    QCPColorGradient g;
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(235, 235, 235)); // the causal mask: visibly empty
    return g;
}

HeatmapPlot::HeatmapPlot(Style style, QWidget* parent) : QCustomPlot(parent), m_style(style) {
    const bool full = style == Style::Full;
    // The room around the cells is known only once laid out: a minimum that grew (a title that
    // now wraps, longer tick labels) is handed to the layout after each replot.
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        const QSize least = minimumSizeHint();
        if (least != m_reportedMinimum) {
            m_reportedMinimum = least;
            updateGeometry();
        }
    });
    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(false); // one crisp cell per weight
    m_map->setGradient(viridisGradient());
    yAxis->setRangeReversed(true); // first query at the top, like a matrix
    m_title =
        new QCPTextElement(this, QString(), QFont(font().family(), full ? 11 : 9, QFont::Bold));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    if (full) {
        m_scale = new QCPColorScale(this);
        plotLayout()->addElement(1, 1, m_scale);
        m_scale->setGradient(viridisGradient());
        m_scale->axis()->setLabel(tr("weight"));
        m_map->setColorScale(m_scale);
        auto* margins = new QCPMarginGroup(this);
        axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
        m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
        xAxis->setLabel(tr("key word"));
        yAxis->setLabel(tr("query word"));
    } else {
        for (auto* axis : {xAxis, yAxis}) {
            axis->setTicks(false);
            axis->setTickLabels(false);
        }
        axisRect()->setAutoMargins(QCP::msNone);
        axisRect()->setMargins(QMargins(2, 2, 2, 2));
        m_least = QSize(80, 80);
    }
    m_rowMarker = new QCPItemRect(this);
    m_rowMarker->setPen(QPen(QColor(230, 60, 60), full ? 2.5 : 1.5));
    m_rowMarker->setVisible(false);
    m_pointerMarker = new QCPItemRect(this);
    m_pointerMarker->setPen(QPen(QColor(255, 140, 0), full ? 3.0 : 2.0));
    m_pointerMarker->setVisible(false);
    setMouseTracking(true);
}

void HeatmapPlot::setLabels(QCPAxis* axis, const QStringList& labels) {
    axis->setProperty("cl_labels", labels);
    axis->setSubTicks(false);
    axis->grid()->setVisible(false);
}

namespace {
// Every `every`-th label of `labels` on a text ticker (the others blank, ticks kept).
void applyLabels(QCPAxis* axis, const QStringList& labels, int every) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(i, i % every == 0 ? labels[i] : QString());
    axis->setTicker(ticker);
}
} // namespace

// A colour scale gets as many ticks as its height holds.
static void fitScaleTicks(QCPColorScale* scale) {
    const int line = QFontMetrics(scale->axis()->tickLabelFont()).height();
    scale->axis()->ticker()->setTickCount(std::clamp(scale->rect().height() / (2 * line), 2, 5));
}

// Labels are sized to the cells: horizontal when they fit, vertical when they do not, and every
// k-th one when even a vertical line of text is taller than a cell is wide.
void HeatmapPlot::fitTickLabels() {
    if (m_style != Style::Full)
        return;
    if (m_scale) {
        updateLayout();
        fitScaleTicks(m_scale);
    }
    const QStringList cols = xAxis->property("cl_labels").toStringList();
    const QStringList rows = yAxis->property("cl_labels").toStringList();
    if (cols.isEmpty() || rows.isEmpty()) { // numbers: as many ticks as fit side by side
        updateLayout();
        const int room = QFontMetrics(xAxis->tickLabelFont()).horizontalAdvance("0000") + 16;
        xAxis->ticker()->setTickCount(std::clamp(axisRect()->width() / room, 2, 8));
        return;
    }
    const QFontMetrics fx(xAxis->tickLabelFont()), fy(yAxis->tickLabelFont());
    updateLayout(); // the axis rect as the current labels leave it
    const double cellW = std::max(1, axisRect()->width()) / double(std::max(1, m_cols));
    int widest = 0;
    for (const auto& c : cols)
        widest = std::max(widest, fx.horizontalAdvance(c));
    const bool flat = widest + 6 <= cellW;
    xAxis->setTickLabelRotation(flat ? 0 : 90);
    applyLabels(xAxis, cols, flat ? 1 : std::max(1, int(std::ceil((fx.height() + 2) / cellW))));
    updateLayout(); // vertical labels take height from the rows
    const double cellH = std::max(1, axisRect()->height()) / double(std::max(1, m_rows));
    applyLabels(yAxis, rows, std::max(1, int(std::ceil((fy.height() + 1) / cellH))));
}

QStringList HeatmapPlot::shownLabels(const QCPAxis* axis) const {
    QStringList out;
    if (auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
        for (const auto& label : ticker->ticks())
            out << label;
    return out;
}

void HeatmapPlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);
    fitTitle();
    fitTickLabels();
    replot(QCustomPlot::rpQueuedReplot);
}

QString HeatmapPlot::title() const {
    return m_fullTitle;
}

QRect HeatmapPlot::highlightedCells() const {
    if (!m_rowMarker->visible())
        return {};
    const QPointF a = m_rowMarker->topLeft->coords(), b = m_rowMarker->bottomRight->coords();
    return {int(std::lround(a.x() + 0.5)), int(std::lround(a.y() + 0.5)),
            int(std::lround(b.x() - a.x())), int(std::lround(b.y() - a.y()))};
}

QPoint HeatmapPlot::cellCenter(int row, int col) const {
    return {int(std::lround(xAxis->coordToPixel(col))), int(std::lround(yAxis->coordToPixel(row)))};
}

QSize HeatmapPlot::minimumSizeHint() const {
    const QSize base = QCustomPlot::minimumSizeHint().expandedTo(m_least);
    if (m_rows <= 0 || m_cols <= 0 || !axisRect())
        return base;
    // What the axes, labels, title and colour bar take around the cells, as last laid out (a
    // guess before the first layout).
    const QRect cells = axisRect()->rect();
    const int padW = cells.width() > 0 ? width() - cells.width() : 90;
    const int padH = cells.height() > 0 ? height() - cells.height() : 90;
    // Labelled rows and columns (words, heads) each keep a line of text, so every label shows
    // (the Attention panel's large map labelled every other query word on a projector).
    int cellW = kMinCell, cellH = kMinCell;
    if (m_style == Style::Full && !xAxis->property("cl_labels").toStringList().isEmpty() &&
        !yAxis->property("cl_labels").toStringList().isEmpty()) {
        cellW = std::max(cellW, QFontMetrics(xAxis->tickLabelFont()).height() + 2);
        cellH = std::max(cellH, QFontMetrics(yAxis->tickLabelFont()).height() + 1);
    }
    return {std::max(base.width(), padW + std::max(m_cols * cellW, m_leastSide)),
            std::max(base.height(), padH + std::max(m_rows * cellH, m_leastSide))};
}

void HeatmapPlot::setMatrix(const std::vector<float>& values, int rows, int cols,
                            const QStringList& rowLabels, const QStringList& colLabels,
                            ColourRange range) {
    m_values = values;
    const bool reshaped = rows != m_rows || cols != m_cols;
    m_rows = rows;
    m_cols = cols;
    if (reshaped)
        updateGeometry(); // the minimum size follows the cell count
    m_rowLabels = rowLabels;
    m_colLabels = colLabels;
    // QCPColorMap draws a one-cell-wide axis with zero width: such an axis is stored as two
    // half cells of the same value, spanning the same unit square.
    const int keys = cols == 1 ? 2 : cols, vals = rows == 1 ? 2 : rows;
    m_map->data()->setSize(keys, vals);
    m_map->data()->setRange(cols == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(0, cols - 1)),
                            rows == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(0, rows - 1)));
    for (int r = 0; r < vals; ++r)
        for (int c = 0; c < keys; ++c)
            m_map->data()->setCell(
                c, r, values[size_t(std::min(r, rows - 1)) * cols + std::min(c, cols - 1)]);
    m_map->setDataRange(QCPRange(range.lower, range.upper));
    xAxis->setRange(-0.5, cols - 0.5);
    yAxis->setRange(-0.5, rows - 0.5);
    if (m_style == Style::Full && !colLabels.isEmpty()) {
        setLabels(xAxis, colLabels);
        setLabels(yAxis, rowLabels);
        fitTickLabels();
    } else if (m_style == Style::Full) {
        for (auto* axis : {xAxis, yAxis}) {
            axis->setProperty("cl_labels", QStringList());
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        }
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setAxisLabels(const QString& x, const QString& y) {
    xAxis->setLabel(x);
    yAxis->setLabel(y);
}

void HeatmapPlot::setTitle(const QString& title) {
    m_fullTitle = title;
    fitTitle();
    fitTickLabels(); // a title of another height leaves the cells another height
    replot(QCustomPlot::rpQueuedReplot);
}

// The title sits in the axis rect's column: a line too wide for it breaks at spaces (the
// element's own word wrap would not grow its height).
void HeatmapPlot::fitTitle() {
    updateLayout();
    const int room = std::max(
        40, m_title->outerRect().width() > 0 ? m_title->outerRect().width() - 4 : width() - 4);
    m_title->setText(wrapToWidth(m_fullTitle, QFontMetrics(m_title->font()), room));
}

void HeatmapPlot::setScaleLabel(const QString& label) {
    if (m_scale)
        m_scale->axis()->setLabel(label);
}

void HeatmapPlot::setHighlighted(bool on) {
    axisRect()->setBackground(on ? QBrush(QColor(230, 60, 60)) : QBrush(Qt::white));
    m_title->setTextColor(on ? QColor(200, 30, 30) : Qt::black);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setHighlightRow(int row) {
    m_rowMarker->setVisible(row >= 0 && row < m_rows);
    m_rowMarker->topLeft->setCoords(-0.5, row - 0.5);
    m_rowMarker->bottomRight->setCoords(m_cols - 0.5, row + 0.5);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setHighlightCell(int row, int col) {
    const bool on = row >= 0 && col >= 0 && row < m_rows && col < m_cols;
    m_rowMarker->setVisible(on);
    m_rowMarker->topLeft->setCoords(col - 0.5, row - 0.5);
    m_rowMarker->bottomRight->setCoords(col + 0.5, row + 0.5);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setPointerHighlight(bool on) {
    m_pointerHighlight = on;
    if (!on)
        m_pointerMarker->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapPlot::pointerCellVisible() const {
    return m_pointerMarker->visible();
}

QString HeatmapPlot::describeCell(int row, int col) const {
    if (row < 0 || col < 0 || row >= m_rows || col >= m_cols)
        return {};
    const float v = m_values[size_t(row) * m_cols + col];
    if (m_describe)
        return m_describe(row, col, v);
    const QString q = m_rowLabels.value(row), k = m_colLabels.value(col);
    if (std::isnan(v))
        return tr("%1 → %2: masked (a word cannot see the future)").arg(q, k);
    return tr("query “%1” → key “%2”: %3").arg(q, k).arg(double(v), 0, 'f', 3);
}

void HeatmapPlot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    // Cells are unit squares around integer coordinates (see setMatrix).
    const int col = int(std::lround(xAxis->pixelToCoord(event->pos().x())));
    const int row = int(std::lround(yAxis->pixelToCoord(event->pos().y())));
    const bool inside = axisRect()->rect().contains(event->pos());
    if (!inside || row < 0 || col < 0 || row >= m_rows || col >= m_cols) {
        QToolTip::hideText();
        if (m_pointerMarker->visible()) {
            m_pointerMarker->setVisible(false);
            replot(QCustomPlot::rpQueuedReplot);
        }
        return;
    }
    if (m_pointerHighlight) {
        m_pointerMarker->setVisible(true);
        m_pointerMarker->topLeft->setCoords(col - 0.5, row - 0.5);
        m_pointerMarker->bottomRight->setCoords(col + 0.5, row + 0.5);
        replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::showText(event->globalPosition().toPoint(), describeCell(row, col), this);
    emit cellHovered(row, col);
}

void HeatmapPlot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton)
        emit clicked();
}

} // namespace cl::ui
