#include "ui/widgets/head_cost_chart.h"

#include "ui/widgets/wrap_text.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cl::ui {

namespace {

QCPBars* bars(QCustomPlot* plot, const QColor& colour, double width) {
    auto* b = new QCPBars(plot->xAxis, plot->yAxis);
    b->setBrush(colour);
    b->setPen(Qt::NoPen);
    b->setWidth(width);
    return b;
}

} // namespace

HeadCostChart::HeadCostChart(QWidget* parent) : QCustomPlot(parent) {
    // The room the title and the rotated head names take is known only once laid out: a
    // minimum that grew (a title that now wraps, larger fonts) goes to the layout after a replot.
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        const QSize least = minimumSizeHint();
        if (least != m_reportedMinimum) {
            m_reportedMinimum = least;
            updateGeometry();
        }
    });
    m_image = bars(this, QColor(59, 76, 202), 0.42);
    m_changing = bars(this, QColor(235, 130, 20), 0.42);
    m_heldOut = bars(this, QColor(150, 150, 150), 0.34);
    xAxis->setTickLength(0, 0);
    xAxis->grid()->setVisible(false);
    xAxis->setTickLabelRotation(-50);
    yAxis->setLabel(tr("drop in log p (nats)"));
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), QFont(font().family(), 10));
    plotLayout()->addElement(0, 0, m_title);
    setInteraction(QCP::iSelectPlottables, false);
    connect(this, &QCustomPlot::beforeReplot, this, &HeadCostChart::fitText);
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int head = headAt(event->pos());
        if (event->button() == Qt::LeftButton && head >= 0)
            emit headClicked(head);
    });
    redraw();
}

void HeadCostChart::setCosts(const HeadCosts& costs) {
    m_costs = costs;
    redraw();
}

void HeadCostChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        redraw();
    QCustomPlot::changeEvent(event);
}

void HeadCostChart::setSorted(bool sorted) {
    m_sorted = sorted;
    redraw();
}

int HeadCostChart::headAtSlot(int slot) const {
    return slot >= 0 && slot < int(m_order.size()) ? m_order[size_t(slot)] : -1;
}

int HeadCostChart::slotOf(int head) const {
    const auto it = std::find(m_order.begin(), m_order.end(), head);
    return it == m_order.end() ? -1 : int(it - m_order.begin());
}

int HeadCostChart::headAt(const QPoint& pos) const {
    if (!axisRect()->rect().contains(pos))
        return -1;
    const double x = xAxis->pixelToCoord(pos.x());
    const int slot = int(std::lround(x));
    return std::abs(x - slot) <= 0.5 ? headAtSlot(slot) : -1;
}

QPoint HeadCostChart::slotCentre(int head) const {
    const QRect r = axisRect()->rect();
    return {int(std::lround(xAxis->coordToPixel(slotOf(head)))), r.center().y()};
}

// The bars keep kLeastBars of height under the title and the rotated names (they were squeezed
// to ~60 px at presenter size on a 960 x 540 HiDPI screen): the page scrolls instead.
QSize HeadCostChart::minimumSizeHint() const {
    const QSize base = QCustomPlot::minimumSizeHint();
    const int bars = axisRect()->rect().height();
    const int pad = bars > 0 ? height() - bars : 70; // a guess before the first layout
    // And at least as high as the axis title is long (it was cut at presenter size).
    const int title = QFontMetrics(yAxis->labelFont()).horizontalAdvance(yAxis->label()) + 4;
    return {base.width(),
            std::max({base.height(), pad + std::max(kLeastBars, title), kLeastHeight})};
}

void HeadCostChart::fitText() {
    // The title's own cell, once laid out: the layout's margins make it narrower than the widget.
    const int cell = m_title->outerRect().width();
    const int room = std::max(40, cell > 0 ? cell - 4 : width() - 8);
    const QString title = wrapToWidth(m_fullTitle, QFontMetrics(m_title->font()), room);
    if (title != m_title->text())
        m_title->setText(title);
    const int n = int(m_order.size());
    if (n == 0)
        return;
    const double pitch = double(axisRect()->width()) / double(n);
    const int line = QFontMetrics(xAxis->tickLabelFont()).height();
    const int every = std::max(1, int(std::ceil((line + 2) / std::max(pitch, 1.0))));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int slot = 0; slot < n; slot += every)
        ticker->addTick(slot, m_costs.names.value(m_order[size_t(slot)]));
    xAxis->setTicker(ticker);
}

void HeadCostChart::redraw() {
    const int n = int(m_costs.drop.size());
    m_order.resize(size_t(n));
    std::iota(m_order.begin(), m_order.end(), 0);
    if (m_sorted)
        std::stable_sort(m_order.begin(), m_order.end(), [this](int a, int b) {
            return m_costs.drop[size_t(a)] > m_costs.drop[size_t(b)];
        });
    const bool held = int(m_costs.heldOut.size()) == n && n > 0;
    QVector<double> keys, drops, changeKeys, changeDrops, heldKeys, heldDrops;
    double lo = 0, hi = 0;
    for (int slot = 0; slot < n; ++slot) {
        const auto h = size_t(m_order[size_t(slot)]);
        const double offset = held ? -0.2 : 0.0;
        (m_costs.changes[h] ? changeKeys : keys) << slot + offset;
        (m_costs.changes[h] ? changeDrops : drops) << m_costs.drop[h];
        lo = std::min(lo, m_costs.drop[h]);
        hi = std::max(hi, m_costs.drop[h]);
        if (held) {
            heldKeys << slot + 0.2;
            heldDrops << m_costs.heldOut[h];
            lo = std::min(lo, m_costs.heldOut[h]);
            hi = std::max(hi, m_costs.heldOut[h]);
        }
    }
    m_image->setData(keys, drops, true);
    m_changing->setData(changeKeys, changeDrops, true);
    m_heldOut->setData(heldKeys, heldDrops, true);
    xAxis->setRange(-0.6, std::max(0, n - 1) + 0.6);
    const double span = std::max(hi - lo, 1e-3);
    yAxis->setRange(lo - 0.04 * span, hi + 0.08 * span);
    QString title = n == 0 ? tr("Each head's cost appears here once a caption is on screen")
                           : tr("Blue: this input · orange: the caption changes without the head");
    if (held)
        title += tr(" · grey: mean over %1 held-out scenes").arg(m_costs.heldOutScenes);
    m_fullTitle = title + (m_sorted ? tr(" (most important first)") : QString());
    fitText();
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace cl::ui
