#include "ui/panels/explain_panel.h"

#include "ui/math/attention_math.h"
#include "ui/panels/qk_dialog.h"
#include "ui/widgets/explain_tile.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace cl::ui {

namespace {

// Where a side x side map over the model's input lies on the image, in fractions of it.
GridMap unitMap(const Explanation& e, int64_t side) {
    const GridMap px =
        gridMap(e.imageWidth, e.imageHeight, side, e.inputSide, e.letterboxed, e.trace.seen);
    const double w = double(e.imageWidth), h = double(e.imageHeight);
    return {px.grid, px.x0 / w, px.y0 / h, px.cellW / w, px.cellH / h};
}

// The top of a map's colour scale: its largest value; for pixel maps (gradients) the 99th
// percentile, as a handful of pixels would otherwise leave the rest invisible.
double displayTop(std::vector<float> positive, int64_t side) {
    if (positive.empty())
        return 0;
    if (side < 32)
        return *std::max_element(positive.begin(), positive.end());
    const auto k = positive.begin() + long(positive.size() * 99 / 100);
    std::nth_element(positive.begin(), k, positive.end());
    return *k > 0 ? double(*k) : double(*std::max_element(positive.begin(), positive.end()));
}

// At most three short lines (the pointing game, the curves' areas, time), so they fit a tile
// in presenter mode without wrapping; the legend says what del and ins are, in their colours.
QString figuresText(const SaliencyMap& m, bool curves) {
    QStringList lines;
    if (m.pointingHit >= 0)
        lines << (m.pointingHit ? QObject::tr("peak on the object \u2713")
                                : QObject::tr("peak off the object \u2717"));
    if (curves)
        lines << QObject::tr("<span style='color:#d73c32'>del</span> %1 \u00b7 "
                             "<span style='color:#286ed2'>ins</span> %2")
                     .arg(m.deletionAuc, 0, 'f', 2)
                     .arg(m.insertionAuc, 0, 'f', 2);
    // Attention maps are read from the trace in microseconds: "0 ms" would look broken.
    QString last = m.milliseconds < 0.5 ? QObject::tr("&lt; 1 ms") // rich text
                                        : QObject::tr("%1 ms").arg(m.milliseconds, 0, 'f', 0);
    if (m.method == ExplainMethod::IgBlack || m.method == ExplainMethod::IgBlur)
        last = QObject::tr("gap %1 % \u00b7 %2").arg(100 * m.completenessGap, 0, 'f', 1).arg(last);
    lines << last;
    return lines.join(QStringLiteral("<br>"));
}

// The method's name in the interface's language (the model names it in English).
QString methodTitle(ExplainMethod method) {
    static const std::pair<ExplainMethod, const char*> titles[] = {
        {ExplainMethod::Attention,
         QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Cross-attention (layer, head)")},
        {ExplainMethod::AttentionMean,
         QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Cross-attention (head average)")},
        {ExplainMethod::Rollout, QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Attention rollout")},
        {ExplainMethod::GradInput, QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Gradient × input")},
        {ExplainMethod::IgBlack,
         QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Integrated Gradients (black)")},
        {ExplainMethod::IgBlur,
         QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Integrated Gradients (blurred)")},
        {ExplainMethod::GradCam, QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Grad-CAM")},
        {ExplainMethod::Occlusion, QT_TRANSLATE_NOOP("cl::ui::ExplainPanel", "Occlusion")}};
    for (const auto& [m, title] : titles)
        if (m == method)
            return ExplainPanel::tr(title);
    return QString::fromStdString(explainMethodTitle(method));
}

QString tileTitle(const SaliencyMap& m, const ExplainOptions& o) {
    if (m.method == ExplainMethod::Attention)
        return QObject::tr("Cross-attention %1").arg(headName(int(o.layer), int(o.head)));
    if (m.method == ExplainMethod::AttentionMean)
        return QObject::tr("Cross-attention %1").arg(headName(int(o.layer), -1));
    if (m.method == ExplainMethod::IgBlack)
        return QObject::tr("IG (black)"); // short: one line in presenter mode
    if (m.method == ExplainMethod::IgBlur)
        return QObject::tr("IG (blurred)");
    return methodTitle(m.method);
}

} // namespace

ExplainPanel::ExplainPanel(Selection* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection) {
    m_word = new QComboBox(this);
    m_word->setMinimumContentsLength(12);
    m_word->setToolTip(tr("The word to explain (the shared selection: every panel follows)"));
    m_layer = new QSpinBox(this);
    m_layer->setToolTip(tr("The cross-attention map's layer"));
    m_head = new QSpinBox(this);
    m_head->setToolTip(tr("The cross-attention map's head"));
    m_curves = new QCheckBox(tr("Deletion/insertion &curves"), this);
    m_curves->setChecked(true);
    m_curves->setToolTip(tr("Score each map by covering and restoring its most salient pixels "
                            "(about a third of the time)"));
    m_explain = new QPushButton(tr("Explain a&gain"), this);
    m_qkButton = new QPushButton(tr("Q\u00b7&K\u2026"), this);
    m_qkButton->setToolTip(tr("How this head's weights for this word come out of the query and "
                              "the keys, number by number"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Word"), this));
    controls->addWidget(m_word);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Layer"), this));
    controls->addWidget(m_layer);
    controls->addWidget(new QLabel(tr("Head"), this));
    controls->addWidget(m_head);
    controls->addSpacing(12);
    controls->addWidget(m_curves);
    controls->addWidget(m_explain);
    controls->addWidget(m_qkButton);
    controls->addStretch(1);

    m_status = new QLabel(tr("Open an image to explain its caption's words."), this);
    m_status->setWordWrap(true);
    auto* grid = new QGridLayout;
    grid->setSpacing(6);
    const auto& methods = allExplainMethods();
    for (size_t i = 0; i < methods.size(); ++i) {
        auto* tile = new ExplainTile(this);
        tile->setMinimumSize(150, 230);
        grid->addWidget(tile, int(i / 4), int(i % 4));
        m_tiles.push_back(tile);
    }
    auto* legend = new QLabel(
        tr("Each map is the evidence for the word's probability given the words before it. "
           "Rollout: R starts at 0; each layer R \u2190 \u00bd(I + A<sub>self</sub>) R, then "
           "R \u2190 \u00bd(R + A<sub>cross</sub>), heads averaged. IG: Integrated Gradients "
           "(gap: how far its sum is from the change it explains, as a share of that change or "
           "of 0.1 nats when the word barely changes). Curves and their areas: "
           "<span style='color:#d73c32'>deletion</span> (lower: more faithful), "
           "<span style='color:#286ed2'>insertion</span> (higher: more faithful)."),
        this);
    legend->setWordWrap(true);
    legend->setTextFormat(Qt::RichText);

    auto* layout = new QVBoxLayout(this);
    m_world = new WorldNotice(this);
    layout->addWidget(m_world);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addLayout(grid, 1);
    layout->addWidget(legend);

    connect(m_word, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!m_syncing && i >= 0)
            m_selection->setStep(i);
    });
    connect(m_layer, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing)
            m_selection->setLayer(v - 1);
    });
    connect(m_head, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_syncing)
            m_selection->setHead(v - 1);
    });
    connect(m_curves, &QCheckBox::toggled, this, [this] { request(false); });
    connect(m_explain, &QPushButton::clicked, this, [this] { request(true); });
    connect(m_qkButton, &QPushButton::clicked, this, &ExplainPanel::openWalkthrough);
    connect(m_selection, &Selection::changed, this, &ExplainPanel::followSelection);
}

QString ExplainPanel::exportTag() const {
    if (!m_view.valid())
        return {};
    const int step = std::clamp(m_selection->step(), 0, int(m_view.trace.steps.size()) - 1);
    return QStringLiteral("L%1-H%2-%3")
        .arg(m_layer->value())
        .arg(m_head->value())
        .arg(QString::fromStdString(m_view.trace.steps[size_t(step)].token));
}

ExplainOptions ExplainPanel::options() const {
    ExplainOptions o;
    o.word = std::max(0, m_selection->step());
    o.layer = std::max(0, m_selection->layer());
    o.head = std::max(0, m_selection->head());
    o.curves = m_curves->isChecked();
    return o;
}

QString ExplainPanel::status() const {
    return m_status->text();
}

QString ExplainPanel::requestKey() const {
    const ExplainOptions o = options();
    return m_view.imageName + '\n' + QString::fromStdString(m_view.model.path) + '\n' +
           QString::fromStdString(m_view.trace.text()) + '\n' + QString::number(m_view.headsOff) +
           QStringLiteral("|%1|%2|%3|%4").arg(o.word).arg(o.layer).arg(o.head).arg(o.curves);
}

QString ExplainPanel::worldNotice() const {
    return m_world->notice();
}

void ExplainPanel::setView(const CaptionView& view) {
    m_view = view;
    m_world->showFor(view.trace);
    m_syncing = true;
    m_word->clear();
    const QStringList words = outputTokens(view.trace);
    for (int i = 0; i < words.size(); ++i)
        m_word->addItem(QStringLiteral("%1  %2").arg(i + 1).arg(words[i]));
    m_layer->setRange(1, std::max<int>(1, int(view.trace.layers)));
    m_head->setRange(1, std::max<int>(1, int(view.trace.heads)));
    m_syncing = false;
    const bool usable = view.valid() && view.hasSpatialMemory();
    m_explain->setEnabled(usable);
    m_qkButton->setEnabled(view.valid()); // feature models too
    if (!usable)
        m_status->setText(view.valid() ? tr("Explanations need an image model: this model "
                                            "reads one feature vector, with no place in an image.")
                                       : tr("Open an image to explain its caption's words."));
    followSelection();
}

void ExplainPanel::followSelection() {
    m_syncing = true;
    m_word->setCurrentIndex(std::min(m_selection->step(), m_word->count() - 1));
    m_layer->setValue(m_selection->layer() + 1);
    m_head->setValue(std::max(0, m_selection->head()) + 1);
    m_syncing = false;
    request(false);
    updateWalkthrough();
}

void ExplainPanel::openWalkthrough() {
    if (!m_view.valid())
        return;
    if (!m_qk) {
        m_qk = new QkDialog(this);
        connect(m_qk, &QkDialog::walkthroughRequested, this, &ExplainPanel::walkthroughRequested);
    }
    m_qk->show();
    m_qk->raise();
    updateWalkthrough();
}

void ExplainPanel::updateWalkthrough() {
    if (!m_qk || !m_qk->isVisible() || !m_view.valid())
        return;
    const ExplainOptions o = options();
    const int64_t step = std::min<int64_t>(o.word, int64_t(m_view.trace.steps.size()) - 1);
    m_qk->setQuery(step, QString::fromStdString(m_view.trace.steps[size_t(step)].token), o.layer,
                   o.head);
}

void ExplainPanel::setWalkthrough(const AttentionWalkthrough& result) {
    if (m_qk)
        m_qk->setResult(result);
}

void ExplainPanel::setWalkthroughFailed(const QString& message) {
    if (m_qk)
        m_qk->setFailed(message);
}

void ExplainPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    request(false);
}

void ExplainPanel::request(bool force) {
    if (!isVisible() || !m_view.valid() || !m_view.hasSpatialMemory())
        return;
    const QString key = requestKey();
    if (!force && key == m_requested)
        return;
    m_requested = key;
    const ExplainOptions o = options();
    m_status->setText(
        tr("Explaining \u201c%1\u201d\u2026")
            .arg(QString::fromStdString(m_view.trace
                                            .steps[size_t(std::min<int64_t>(
                                                o.word, int64_t(m_view.trace.steps.size()) - 1))]
                                            .token)));
    emit explainRequested(o);
}

void ExplainPanel::fillTile(ExplainTile* tile, const SaliencyMap& m) {
    std::vector<float> positive(m.values.size());
    std::transform(m.values.begin(), m.values.end(), positive.begin(),
                   [](float v) { return std::max(v, 0.f); });
    const double top = displayTop(positive, m.side);
    tile->map()->setContent(m_view.image, positive, unitMap(m_result, m.side), 0.75,
                            ColourRange{0.0, top > 0 ? top : 1.0}, tileTitle(m, options()));
    tile->curves()->setCurves(m.deletion, m.insertion);
    tile->curves()->setVisible(!m.deletion.empty());
    // Every tile's figures take the same height, so every map is drawn at the same size.
    tile->figures()->setMinimumHeight(3 * tile->figures()->fontMetrics().lineSpacing() + 2);
    tile->figures()->setText(figuresText(m, !m.deletion.empty()));
    tile->setToolTip(methodTitle(m.method) + (m.deletion.empty()
                                                  ? QString()
                                                  : tr("\ndeletion area %1, insertion area %2")
                                                        .arg(m.deletionAuc, 0, 'f', 3)
                                                        .arg(m.insertionAuc, 0, 'f', 3)));
}

void ExplainPanel::setResult(const Explanation& result) {
    if (QString::fromStdString(result.trace.text()) !=
            QString::fromStdString(m_view.trace.text()) ||
        result.word != options().word)
        return; // an answer about a caption or word no longer on screen
    m_result = result;
    double total = 0;
    for (size_t i = 0; i < m_tiles.size() && i < result.maps.size(); ++i) {
        fillTile(m_tiles[i], result.maps[i]);
        total += result.maps[i].milliseconds;
    }
    m_status->setText(tr("\u201c%1\u201d (word %2) has probability %3 given the words before "
                         "it. %4 maps in %5 ms.")
                          .arg(QString::fromStdString(result.token))
                          .arg(result.word + 1)
                          .arg(result.probability, 0, 'f', 3)
                          .arg(result.maps.size())
                          .arg(total, 0, 'f', 0));
}

void ExplainPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && !m_result.maps.empty())
        setResult(Explanation(m_result)); // a copy: it replaces m_result
}

void ExplainPanel::setFailed(const QString& message) {
    m_requested.clear();
    m_status->setText(tr("Could not explain: %1").arg(message));
}

} // namespace cl::ui
