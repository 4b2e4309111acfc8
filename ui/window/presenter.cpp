#include "ui/window/presenter.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {

// The original point size of a font-carrying object, stored once as a dynamic property.
double baseSize(QObject* o, const QFont& current) {
    const QVariant v = o->property("cl_baseFontSize");
    if (v.isValid())
        return v.toDouble();
    o->setProperty("cl_baseFontSize", current.pointSizeF());
    return current.pointSizeF();
}

QFont scaled(QFont f, double base, double factor) {
    f.setPointSizeF(base * factor);
    return f;
}

// Lines at least 2 px wide times the factor on a projector, their own width otherwise (the
// Train chart's 1 px raw-loss line came back 2 px wide after presenter mode).
QPen scaledPen(QObject* o, QPen pen, double factor) {
    QVariant base = o->property("cl_basePenWidth");
    if (!base.isValid()) {
        base = pen.widthF();
        o->setProperty("cl_basePenWidth", base);
    }
    pen.setWidthF(factor == 1.0 ? base.toDouble() : std::max(base.toDouble(), 2.0) * factor);
    return pen;
}

void scaleAxis(QCPAxis* axis, double factor) {
    const double base = baseSize(axis, axis->tickLabelFont());
    axis->setTickLabelFont(scaled(axis->tickLabelFont(), base, factor));
    axis->setLabelFont(scaled(axis->labelFont(), base, factor));
}

void scalePlot(QCustomPlot* plot, double factor) {
    // Some plots hold only a colour scale (no axis rect: asking for one warns); colour scales
    // carry their own axis.
    if (plot->axisRectCount() > 0)
        for (auto* axis : plot->axisRect()->axes())
            scaleAxis(axis, factor);
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
        auto* element = plot->plotLayout()->elementAt(i);
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            title->setFont(scaled(title->font(), baseSize(title, title->font()), factor));
        if (auto* scale = qobject_cast<QCPColorScale*>(element))
            scaleAxis(scale->axis(), factor);
    }
    if (plot->legend && plot->legend->visible())
        plot->legend->setFont(
            scaled(plot->legend->font(), baseSize(plot->legend, plot->legend->font()), factor));
    for (int i = 0; i < plot->graphCount(); ++i)
        plot->graph(i)->setPen(scaledPen(plot->graph(i), plot->graph(i)->pen(), factor));
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* rect = qobject_cast<QCPItemRect*>(plot->item(i)))
            rect->setPen(scaledPen(rect, rect->pen(), factor));
    // Plots fit their titles and tick labels to their size on resize: tell them to refit.
    QResizeEvent refit(plot->size(), plot->size());
    QCoreApplication::sendEvent(plot, &refit);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace

// Widgets whose font was set on their own (a caption heading, a tile title) do not follow the
// window's font: each is scaled from its own base size. Fixed heights (colour bars) grow with
// the text they hold.
void scaleWidget(QWidget* w, double factor) {
    if (w->testAttribute(Qt::WA_SetFont) && !w->property("cl_followsParent").toBool())
        w->setFont(scaled(w->font(), baseSize(w, w->font()), factor));
    if (w->minimumHeight() > 0 && w->minimumHeight() == w->maximumHeight() &&
        !w->property("cl_sizedByFont").toBool()) {
        QVariant base = w->property("cl_baseFixedHeight");
        if (!base.isValid()) {
            base = w->minimumHeight();
            w->setProperty("cl_baseFixedHeight", base);
        }
        w->setFixedHeight(int(std::lround(base.toInt() * factor)));
    }
}

void applyPresenterScale(QWidget* root, double factor) {
    const auto widgets = root->findChildren<QWidget*>();
    // Base sizes first: a font set only in part (bold, as the ablation badge's) still takes its
    // size from the window, so read after the window's font changed it was the presenter size,
    // and leaving presenter mode kept it.
    for (auto* w : widgets)
        if (w->testAttribute(Qt::WA_SetFont))
            baseSize(w, w->font());
    root->setFont(scaled(root->font(), baseSize(root, root->font()), factor));
    for (auto* w : widgets)
        scaleWidget(w, factor);
    for (auto* plot : root->findChildren<QCustomPlot*>())
        scalePlot(plot, factor);
}

} // namespace cl::ui
