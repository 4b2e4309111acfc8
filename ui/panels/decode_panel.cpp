#include "ui/panels/decode_panel.h"
#include "ui/widgets/keep_translated.h"

#include "ui/math/attention_math.h"
#include "ui/panels/selection.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/world_notice.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QTimer>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace cl::ui {

DecodePanel::DecodePanel(Selection* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection), m_timer(new QTimer(this)) {
    // tip: the source text (QT_TR_NOOP), translated again when the language changes.
    auto button = [this](const QString& text, const char* tip, auto slot, QKeySequence key) {
        auto* b = new QPushButton(text, this);
        connect(b, &QPushButton::clicked, this, slot);
        auto* sc = new QShortcut(key, this);
        sc->setContext(Qt::WidgetWithChildrenShortcut);
        keepTranslated(b, [b, sc, tip, key] {
            b->setToolTip(tr(tip) + tr(" (%1)").arg(key.toString()));
            // Help ▸ Keyboard Shortcuts
            sc->setWhatsThis(tr("Decoding panel: %1").arg(tr(tip).toLower()));
        });
        connect(sc, &QShortcut::activated, this, slot);
        return b;
    };
    auto* nav = new QHBoxLayout;
    nav->addWidget(button(tr("|◀ First"), QT_TR_NOOP("First step"), &DecodePanel::first,
                          QKeySequence(Qt::Key_Home)));
    nav->addWidget(button(tr("◀ Previous"), QT_TR_NOOP("Previous step"), &DecodePanel::previous,
                          QKeySequence(Qt::Key_Left)));
    nav->addWidget(m_play = button(tr("▶ Play"), QT_TR_NOOP("Play / pause"),
                                   &DecodePanel::togglePlay, QKeySequence(Qt::Key_Space)));
    nav->addWidget(button(tr("Next ▶"), QT_TR_NOOP("Next step"), &DecodePanel::next,
                          QKeySequence(Qt::Key_Right)));
    nav->addWidget(button(tr("Last ▶|"), QT_TR_NOOP("Last step"), &DecodePanel::last,
                          QKeySequence(Qt::Key_End)));
    m_speed = new QSlider(Qt::Horizontal, this);
    m_speed->setRange(150, 2000);
    m_speed->setValue(700);
    m_speed->setInvertedAppearance(true);
    m_speed->setToolTip(tr("Playback speed"));
    nav->addWidget(new QLabel(tr("  Speed"), this));
    nav->addWidget(m_speed);
    m_temp = new QSlider(Qt::Horizontal, this);
    m_temp->setRange(10, 300);
    m_temp->setValue(100);
    m_tempLabel = new QLabel(this);
    nav->addWidget(new QLabel(tr("  Temperature"), this));
    nav->addWidget(m_temp);
    nav->addWidget(m_tempLabel);
    m_soFar = new QLabel(this);
    m_soFar->setTextFormat(Qt::RichText);
    m_soFar->setWordWrap(true); // a long caption wraps: the page never scrolls sideways for it
    QFont big = m_soFar->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    m_soFar->setFont(big);
    m_branchLabel = new QLabel(this);
    m_branchLabel->setWordWrap(true);
    m_back = new QPushButton(tr("Back to original"), this);
    m_back->setVisible(false);
    m_bars = new QCustomPlot(this);
    m_barsData = new QCPBars(m_bars->xAxis, m_bars->yAxis);
    m_barsData->setBrush(QColor(59, 76, 202, 170));
    m_barsData->setPen(Qt::NoPen);
    m_chosenBar = new QCPBars(m_bars->xAxis, m_bars->yAxis);
    m_chosenBar->setBrush(QColor(230, 60, 60));
    m_chosenBar->setPen(Qt::NoPen);
    m_bars->yAxis->setLabel(tr("probability"));
    m_bars->yAxis->setRange(0, 1);
    m_bars->setInteraction(QCP::iSelectPlottables, false);
    m_bars->plotLayout()->insertRow(0);
    m_bars->plotLayout()->addElement(
        0, 0,
        new QCPTextElement(m_bars, tr("Next-word candidates (click one to force it)"),
                           QFont(font().family(), 11, QFont::Bold)));
    m_rows = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_rows->yAxis->setLabel(tr("layer · head"));
    m_rows->xAxis->setLabel(tr("earlier words (keys)"));
    m_cross = new AttentionTile(this);
    m_cross->setLeastMapSide(180); // readable on a projector, under its title
    m_opacity = new OpacitySlider(this);
    auto* crossColumn = new QVBoxLayout;
    crossColumn->addWidget(m_cross, 1);
    crossColumn->addWidget(m_opacity);

    auto* branchRow = new QHBoxLayout;
    branchRow->addWidget(m_branchLabel, 1);
    branchRow->addWidget(m_back);
    auto* layout = new QGridLayout(this);
    m_world = new WorldNotice(this);
    layout->addLayout(nav, 0, 0, 1, 2);
    layout->addWidget(m_world, 1, 0, 1, 2);
    layout->addWidget(m_soFar, 2, 0, 1, 2);
    layout->addLayout(branchRow, 3, 0, 1, 2);
    layout->addWidget(m_bars, 4, 0);
    layout->addLayout(crossColumn, 4, 1);
    layout->addWidget(m_rows, 5, 0, 1, 2);
    layout->setRowStretch(4, 3);
    layout->setRowStretch(5, 2);
    layout->setColumnStretch(0, 3);
    layout->setColumnStretch(1, 2);
    setMinimumSize(560, 400); // its tab page scrolls below this (a 1024 x 600 screen fits)

    connect(m_timer, &QTimer::timeout, this, [this] {
        if (step() + 1 >= int(shownTrace().steps.size()))
            return togglePlay();
        next();
    });
    connect(m_speed, &QSlider::valueChanged, this, [this](int ms) { m_timer->setInterval(ms); });
    connect(m_temp, &QSlider::valueChanged, this, [this](int v) { setTemperature(v / 100.0); });
    connect(m_back, &QPushButton::clicked, this, &DecodePanel::backToOriginal);
    connect(m_opacity, &OpacitySlider::changed, this, &DecodePanel::refresh);
    // The whole column of a candidate is its target, so a near-zero bar can be clicked too. (A
    // plottable click reported the index within the clicked plottable's own data, and the chosen
    // bar is a plottable of its own: clicking "right" forced another word.)
    connect(m_bars, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int i = candidateAt(event->pos());
        if (event->button() == Qt::LeftButton && i >= 0)
            forceCandidate(i);
    });
    connect(m_selection, &Selection::changed, this, &DecodePanel::refresh);
    setTemperature(1.0);
}

int DecodePanel::step() const {
    return std::clamp(m_selection->step(), 0, std::max(0, int(shownTrace().steps.size()) - 1));
}

void DecodePanel::setView(const CaptionView& view) {
    m_view = view;
    m_world->showFor(view.trace);
    m_showBranch = false;
    m_forcedAt = -1;
    m_branchLabel->clear();
    m_back->setVisible(false);
    refresh();
}

void DecodePanel::setBranch(const CaptionTrace& branch) {
    m_branch = branch;
    m_showBranch = true;
    m_back->setVisible(true);
    refresh();
}

QString DecodePanel::stepText() const {
    return m_soFar->text();
}

QString DecodePanel::worldNotice() const {
    return m_world->notice();
}

QString DecodePanel::branchText() const {
    return m_showBranch ? QString::fromStdString(m_branch.text()) : QString();
}

void DecodePanel::backToOriginal() {
    m_showBranch = false;
    m_forcedAt = -1;
    m_back->setVisible(false);
    m_branchLabel->clear();
    refresh();
}

void DecodePanel::first() {
    m_selection->setStep(0);
}
void DecodePanel::previous() {
    m_selection->setStep(std::max(0, step() - 1));
}
void DecodePanel::next() {
    m_selection->setStep(std::min(int(shownTrace().steps.size()) - 1, step() + 1));
}
void DecodePanel::last() {
    m_selection->setStep(std::max(0, int(shownTrace().steps.size()) - 1));
}

void DecodePanel::togglePlay() {
    if (m_timer->isActive()) {
        m_timer->stop();
        m_play->setText(tr("▶ Play"));
        return;
    }
    if (step() + 1 >= int(shownTrace().steps.size()))
        first();
    m_timer->start(m_speed->value());
    m_play->setText(tr("❚❚ Pause"));
}

void DecodePanel::setTemperature(double t) {
    m_temperature = std::clamp(t, 0.05, 5.0);
    m_tempLabel->setText(QString::number(m_temperature, 'f', 2));
    const QSignalBlocker block(m_temp);
    m_temp->setValue(int(std::lround(m_temperature * 100)));
    refresh();
}

std::vector<std::pair<QString, double>> DecodePanel::candidates() const {
    std::vector<std::pair<QString, double>> out;
    const auto& steps = shownTrace().steps;
    if (steps.empty())
        return out;
    for (const auto& [id, p] : m_drawn)
        out.emplace_back(wordOf(id, steps[size_t(step())]), p);
    return out;
}

QString DecodePanel::wordOf(int64_t id, const DecodeStep& s) const {
    if (id == s.id)
        return QString::fromStdString(s.token);
    for (const auto& c : s.topK)
        if (c.id == id)
            return QString::fromStdString(c.token);
    const auto& words = m_view.model.vocab;
    return id >= 0 && size_t(id) < words.size() ? QString::fromStdString(words[size_t(id)])
                                                : QString::number(id);
}

int DecodePanel::candidateAt(const QPoint& pos) const {
    if (!m_bars->axisRect()->rect().contains(pos))
        return -1;
    const double x = m_bars->xAxis->pixelToCoord(pos.x());
    const int i = int(std::lround(x));
    return i >= 0 && i < int(m_drawn.size()) && std::abs(x - i) <= 0.45 ? i : -1;
}

QPoint DecodePanel::candidatePoint(int index, double height) const {
    return {int(std::lround(m_bars->xAxis->coordToPixel(index))),
            int(std::lround(m_bars->yAxis->coordToPixel(height)))};
}

void DecodePanel::forceCandidate(int index) {
    if (index < 0 || index >= int(m_drawn.size()) || shownTrace().steps.empty())
        return;
    const int t = step();
    std::vector<int64_t> prefix;
    for (int i = 0; i < t; ++i)
        prefix.push_back(shownTrace().steps[i].id);
    prefix.push_back(m_drawn[index].first);
    m_forcedAt = t;
    m_branchLabel->setText(tr("Forcing a candidate at step %1…").arg(t + 1));
    emit forceRequested(prefix);
}

void DecodePanel::refresh() {
    const auto& tr_ = shownTrace();
    if (tr_.steps.empty())
        return;
    const int t = step();
    QStringList words;
    for (int i = 0; i < int(tr_.steps.size()); ++i) {
        const QString w = QString::fromStdString(tr_.steps[i].token).toHtmlEscaped();
        if (i < t)
            words << w;
        else if (i == t)
            words << QStringLiteral(
                         "<span style='background:#3b4cca;color:white'>&nbsp;%1&nbsp;</span>")
                         .arg(w);
    }
    const QString ablated =
        m_view.headsOff > 0
            ? tr("<span style='color:#b35900'>[%1]</span> ")
                  .arg(m_view.headsOff == 1 ? tr("1 head off")
                                            : tr("%1 heads off").arg(m_view.headsOff))
            : QString();
    m_soFar->setText(ablated + tr("Step %1 of %2: ").arg(t + 1).arg(tr_.steps.size()) +
                     words.join(' '));
    if (m_showBranch)
        m_branchLabel->setText(tr("<b>Original:</b> %1<br><b>Forced at step %2:</b> %3")
                                   .arg(QString::fromStdString(m_view.trace.text()))
                                   .arg(m_forcedAt + 1)
                                   .arg(QString::fromStdString(m_branch.text())));
    drawCandidates(tr_.steps[t]);
    drawAttention(t);
}

void DecodePanel::drawCandidates(const DecodeStep& s) {
    // Softmax of logits / T over the whole vocabulary; without logits, the stored top-k.
    // <START> and <NULL> are never a next word (nothing is trained to predict them): not offered.
    m_drawn.clear();
    const auto& words = m_view.model.vocab;
    const auto offered = [&](int64_t id) {
        if (id < 0 || size_t(id) >= words.size())
            return true;
        return words[size_t(id)] != "<START>" && words[size_t(id)] != "<NULL>";
    };
    if (!s.logits.empty()) {
        const double maxL = *std::max_element(s.logits.begin(), s.logits.end());
        double z = 0;
        std::vector<std::pair<int64_t, double>> all;
        for (size_t i = 0; i < s.logits.size(); ++i) {
            const double e = std::exp((s.logits[i] - maxL) / m_temperature);
            z += e;
            if (offered(int64_t(i)))
                all.emplace_back(int64_t(i), e);
        }
        for (auto& a : all)
            a.second /= z;
        const size_t k = std::min<size_t>(std::max<size_t>(s.topK.size(), 5), all.size());
        std::partial_sort(all.begin(), all.begin() + long(k), all.end(),
                          [](const auto& a, const auto& b) { return a.second > b.second; });
        m_drawn.assign(all.begin(), all.begin() + long(k));
    } else {
        for (const auto& c : s.topK)
            if (offered(c.id))
                m_drawn.emplace_back(c.id, c.prob);
    }
    QVector<double> x, y, cx, cy;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < int(m_drawn.size()); ++i) {
        const auto [id, p] = m_drawn[i];
        ticker->addTick(i, wordOf(id, s));
        (id == s.id ? cx : x) << i;
        (id == s.id ? cy : y) << p;
    }
    m_barsData->setData(x, y);
    m_chosenBar->setData(cx, cy);
    m_bars->xAxis->setTicker(ticker);
    m_bars->xAxis->setRange(-0.6, m_drawn.size() - 0.4);
    m_bars->replot(QCustomPlot::rpQueuedReplot);
}

void DecodePanel::drawAttention(int t) {
    const auto& tr_ = shownTrace();
    const int keys = t + 1;
    std::vector<float> rows;
    QStringList rowLabels;
    for (int l = 0; l < tr_.layers; ++l)
        for (int h = 0; h < tr_.heads; ++h) {
            rowLabels << headName(l, h);
            for (int k = 0; k < keys; ++k)
                rows.push_back(tr_.selfWeight(l, h, t, k));
        }
    m_rows->setMatrix(rows, int(tr_.layers * tr_.heads), keys, rowLabels,
                      inputTokens(tr_).mid(0, keys), {0, 1});
    m_rows->setTitle(tr("Self-attention of the query at step %1, every layer and head").arg(t + 1));
    if (tr_.gridSide > 0 && !m_view.image.isNull()) {
        const auto row = crossRow(tr_, m_selection->layer(), m_selection->head(), t);
        m_cross->setContent(
            m_view.image, row, unitGridMap(tr_, m_view.image), m_opacity->value(),
            colourRange(row, m_selection->autoContrast()),
            tr("cross-attention, %1").arg(headName(m_selection->layer(), m_selection->head())));
    } else {
        m_cross->setContent(m_view.image, {}, {}, 0, {},
                            tr("one memory token: cross-attention is 1.0"));
    }
}

} // namespace cl::ui
