#include "ui/panels/heads_panel.h"

#include "ui/math/attention_math.h"
#include "ui/widgets/head_cost_chart.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cl::ui {

HeadsPanel::HeadsPanel(QWidget* parent) : QWidget(parent) {
    auto* box = new QGroupBox(
        tr("Heads (untick to switch a head off: its attention output becomes zero)"), this);
    m_grid = new QGridLayout(box);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_captions = new QLabel(this);
    m_captions->setWordWrap(true);
    m_captions->setTextFormat(Qt::RichText);
    QFont big = m_captions->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_captions->setFont(big);
    auto* resetButton = new QPushButton(tr("Reset: every head on"), this);
    connect(resetButton, &QPushButton::clicked, this, &HeadsPanel::reset);
    m_sort = new QPushButton(tr("&Sort by importance"), this);
    m_sort->setCheckable(true);
    m_sort->setToolTip(tr("Order the chart's rows by what switching the head off costs this "
                          "input, most important first"));
    m_costStatus = new QLabel(this);
    m_costStatus->setWordWrap(true);
    m_costStatus->setTextFormat(Qt::RichText);
    m_chart = new HeadCostChart(this);
    connect(m_sort, &QPushButton::toggled, m_chart, &HeadCostChart::setSorted);
    connect(m_chart, &HeadCostChart::headClicked, this, [this](int head) {
        if (head >= 0 && head < int(m_boxes.size()))
            m_boxes[size_t(head)]->toggle();
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(resetButton);
    buttons->addWidget(m_sort);
    buttons->addStretch();
    // The captions sit below the switches: their text grows by a line with the first head off,
    // and above the grid that moved every checkbox down under the pointer. The chart takes the
    // rest of the page.
    auto* layout = new QVBoxLayout(this);
    m_world = new WorldNotice(this);
    layout->addWidget(m_world);
    layout->addWidget(box);
    layout->addWidget(m_captions);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    layout->addWidget(m_costStatus);
    layout->addWidget(m_chart, 1);
    setMinimumSize(560, 460); // its tab page scrolls below this (a 1024 x 600 screen fits)
}

void HeadsPanel::rebuild(int layers, int heads) {
    m_boxes.clear(); // deleted with their cells below
    m_costs.clear();
    while (auto* item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_layers = layers;
    m_heads = heads;
    m_grid->addWidget(new QLabel(tr("<b>self-attention</b>")), 0, 1, 1, heads);
    m_grid->addWidget(new QLabel(tr("<b>cross-attention</b>")), 0, heads + 2, 1, heads);
    for (int l = 0; l < layers; ++l) {
        m_grid->addWidget(new QLabel(tr("Layer %1").arg(l + 1)), l + 1, 0);
        for (int kind = 0; kind < 2; ++kind)
            for (int h = 0; h < heads; ++h) {
                auto* b = new QCheckBox(tr("H%1").arg(h + 1));
                b->setChecked(true);
                connect(b, &QCheckBox::toggled, this, &HeadsPanel::emitChange);
                // The box and, beside it, what switching it off alone costs this input.
                auto* cell = new QWidget;
                auto* row = new QHBoxLayout(cell);
                row->setContentsMargins(0, 0, 0, 0);
                row->addWidget(b);
                auto* cost = new QLabel(QStringLiteral("…"), cell);
                cost->setMinimumWidth(
                    cost->fontMetrics().horizontalAdvance(QStringLiteral("-00.00")));
                cost->setToolTip(tr("Drop in the caption's log-probability (nats) when only "
                                    "this head is switched off"));
                row->addWidget(cost);
                row->addStretch();
                m_grid->addWidget(cell, l + 1, 1 + kind * (heads + 1) + h);
                m_boxes.push_back(b);
                m_costs.push_back(cost);
            }
    }
}

QString HeadsPanel::worldNotice() const {
    return m_world->notice();
}

void HeadsPanel::setView(const CaptionView& view) {
    m_world->showFor(view.trace);
    if (view.model.path != m_modelPath || view.trace.layers != m_layers ||
        view.trace.heads != m_heads) {
        m_modelPath = view.model.path;
        rebuild(int(view.trace.layers), int(view.trace.heads));
        m_reference.clear();
        m_chart->setCosts({});
        m_costStatus->clear();
        m_importance.reset();
    }
    m_view = view;
    m_caption = QString::fromStdString(view.trace.text());
    m_captionOff = view.headsOff;
    // Every head on: this caption is the reference; else the reference of this input follows.
    m_reference = view.headsOff == 0 ? m_caption : QString();
    showCaptions();
    requestImportance();
    m_status->setText(
        tr("Every panel shows the model as ablated here; the Decoding panel shows the "
           "new probabilities, the Attention panel how the remaining heads react."));
}

void HeadsPanel::setReference(const CaptionTrace& reference) {
    m_reference = QString::fromStdString(reference.text());
    showCaptions();
    requestImportance();
}

void HeadsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    requestImportance();
}

// The input (by name and pixels), the model, and the caption with every head on: the costs
// change with any of them, not with the heads switched off on screen.
QString HeadsPanel::importanceKey() const {
    return m_view.imageName + '\n' + QString::number(m_view.image.cacheKey()) + '\n' +
           QString::fromStdString(m_view.model.path) + '\n' + m_reference;
}

void HeadsPanel::requestImportance() {
    if (!isVisible() || !m_view.valid() || m_reference.isEmpty() || m_boxes.empty())
        return;
    const QString key = importanceKey();
    if (key == m_requested)
        return;
    m_requested = key;
    m_importance.reset();
    m_costStatus->setText(
        tr("Switching each of the %1 heads off alone, as one batch…").arg(m_boxes.size()));
    emit importanceRequested();
}

std::vector<double> HeadsPanel::heldOutDrops(const ModelInfo& model, int* scenes) const {
    const QJsonObject j =
        QJsonDocument::fromJson(QByteArray::fromStdString(model.meta.headImportanceJson)).object();
    const QJsonArray rows = j.value(QStringLiteral("heads_by_name")).toArray();
    if (j.value(QStringLiteral("layers")).toInt() != m_layers ||
        j.value(QStringLiteral("heads")).toInt() != m_heads ||
        rows.size() != qsizetype(m_boxes.size()))
        return {};
    std::vector<double> drops;
    for (const auto& row : rows)
        drops.push_back(row.toObject().value(QStringLiteral("mean_drop")).toDouble());
    *scenes = j.value(QStringLiteral("scenes")).toInt();
    return drops;
}

// The chart's rows and, beside each switch, its figure (orange: the caption changes without it).
HeadCosts HeadsPanel::showCosts(const HeadImportance& importance) {
    HeadCosts costs;
    for (int64_t l = 0; l < m_layers; ++l)
        for (int64_t kind = 0; kind < 2; ++kind)
            for (int64_t h = 0; h < m_heads; ++h) {
                const size_t i = importance.index(l, kind, h);
                const bool changes = importance.changesAt[i] >= 0;
                costs.names
                    << tr("L%1 %2 H%3").arg(l + 1).arg(kind ? tr("cross") : tr("self")).arg(h + 1);
                costs.drop.push_back(importance.drop[i]);
                costs.changes.push_back(changes);
                m_costs[i]->setText(QString::number(importance.drop[i], 'f', 2));
                m_costs[i]->setStyleSheet(
                    changes ? QStringLiteral("color: rgb(205, 105, 0); font-weight: bold")
                            : QString());
            }
    costs.heldOut = heldOutDrops(m_view.model, &costs.heldOutScenes);
    return costs;
}

void HeadsPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && m_importance)
        setImportance(HeadImportance(*m_importance)); // a copy: it replaces m_importance
}

void HeadsPanel::setImportance(const HeadImportance& importance) {
    if (importance.layers != m_layers || importance.heads != m_heads ||
        importance.drop.size() != m_boxes.size())
        return; // about a model no longer on screen
    m_importance = importance;
    const HeadCosts costs = showCosts(importance);
    m_chart->setCosts(costs);
    const auto top = size_t(std::max_element(importance.drop.begin(), importance.drop.end()) -
                            importance.drop.begin());
    const auto changing = std::count_if(importance.changesAt.begin(), importance.changesAt.end(),
                                        [](int64_t at) { return at >= 0; });
    const int64_t layer = int64_t(top) / (2 * m_heads), kind = (int64_t(top) / m_heads) % 2;
    m_costStatus->setText(
        tr("<b>What each head costs this caption</b> (log-probability %1 with every head on): "
           "switching off %2 alone costs the most, %3 nats; %4 of %5 heads change the caption "
           "when switched off alone%6.")
            .arg(importance.logProb, 0, 'f', 2)
            .arg(tr("L%1 %2 H%3")
                     .arg(layer + 1)
                     .arg(kind ? tr("cross") : tr("self"))
                     .arg(int64_t(top) % m_heads + 1))
            .arg(importance.drop[top], 0, 'f', 2)
            .arg(changing)
            .arg(m_boxes.size())
            .arg(costs.heldOut.empty()
                     ? tr(" (held-out figures: <tt>captionlens-cli eval --head-importance "
                          "--store</tt>)")
                     : QString()));
}

void HeadsPanel::setImportanceFailed(const QString& message) {
    m_requested.clear();
    m_costStatus->setText(tr("Could not score the heads: %1").arg(message));
}

QLabel* HeadsPanel::costLabel(int layer, int kind, int head) const {
    const size_t i = size_t((layer * 2 + kind) * m_heads + head);
    return i < m_costs.size() ? m_costs[i] : nullptr;
}

QString HeadsPanel::importanceText() const {
    return m_costStatus->text();
}

void HeadsPanel::showCaptions() {
    // The words come from the model's vocabulary (a file): escaped, never read as markup.
    const QString caption = m_caption.toHtmlEscaped();
    const QString every =
        m_reference.isEmpty() ? tr("<i>captioning…</i>") : m_reference.toHtmlEscaped();
    m_captions->setText(m_captionOff == 0
                            ? tr("<b>Caption</b> (every head on): %1").arg(caption)
                            : tr("<b>With %1 head(s) off:</b> %2<br><b>Every head on:</b> %3")
                                  .arg(m_captionOff)
                                  .arg(caption, every));
}

QString HeadsPanel::captionsText() const {
    return m_captions->text();
}

QCheckBox* HeadsPanel::headBox(int layer, int kind, int head) const {
    const size_t i = size_t((layer * 2 + kind) * m_heads + head);
    return i < m_boxes.size() ? m_boxes[i] : nullptr;
}

std::vector<uint8_t> HeadsPanel::headsOff() const {
    std::vector<uint8_t> off;
    for (auto* b : m_boxes)
        off.push_back(b->isChecked() ? 0 : 1);
    if (std::none_of(off.begin(), off.end(), [](uint8_t v) { return v; }))
        off.clear();
    return off;
}

int HeadsPanel::offCount() const {
    return int(std::count_if(m_boxes.begin(), m_boxes.end(),
                             [](QCheckBox* b) { return !b->isChecked(); }));
}

void HeadsPanel::setHeadOff(int layer, int kind, int head, bool off) {
    const size_t i = size_t((layer * 2 + kind) * m_heads + head);
    if (i < m_boxes.size())
        m_boxes[i]->setChecked(!off);
}

void HeadsPanel::reset() {
    bool changed = false;
    for (auto* b : m_boxes) {
        const QSignalBlocker quiet(b);
        changed = changed || !b->isChecked();
        b->setChecked(true);
    }
    if (changed)
        emitChange();
}

void HeadsPanel::setHeadsOff(const std::vector<uint8_t>& off) {
    if (off == headsOff() || (!off.empty() && off.size() != m_boxes.size()))
        return;
    for (size_t i = 0; i < m_boxes.size(); ++i) {
        const QSignalBlocker quiet(m_boxes[i]);
        m_boxes[i]->setChecked(off.empty() || !off[i]);
    }
    emitChange();
}

void HeadsPanel::emitChange() {
    emit headsChanged(headsOff());
}

} // namespace cl::ui
