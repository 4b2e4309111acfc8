#include "ui/panels/caption_panel.h"
#include "ui/widgets/text_colour.h"

#include "ui/math/attention_math.h"
#include "ui/panels/selection.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/word_chips.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace cl::ui {

CaptionPanel::CaptionPanel(Selection* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection) {
    m_image = new AttentionTile(this);
    m_image->setMinimumSize(320, 340);
    m_chips = new WordChips(this);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_caption->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_caption->setFont(big);
    m_modelLine = new QLabel(this);
    m_modelLine->setWordWrap(true);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    setTextColour(m_note, QColor(0x8a, 0x4b, 0x00));
    m_world = new WorldNotice(this);
    m_ablation = new QLabel(this);
    m_ablation->setWordWrap(true);
    setTextColour(m_ablation, QColor(0xb3, 0x59, 0x00), true);
    m_ablation->setVisible(false);
    m_beam = new QLabel(tr("A beam-search hypothesis chosen on the Beam tab, not the greedy "
                           "caption (Back to greedy there returns to it)"),
                        this);
    m_beam->setWordWrap(true);
    setTextColour(m_beam, QColor(0x1f, 0x4e, 0x9a), true);
    m_beam->setVisible(false);
    m_layer = new QComboBox(this);
    m_head = new QComboBox(this);
    m_opacity = new QSlider(Qt::Horizontal, this);
    m_opacity->setRange(0, 100);
    m_opacity->setValue(int(selection->opacity() * 100));
    m_autoContrast = new QCheckBox(tr("Auto contrast (each map to its peak)"), this);
    m_autoContrast->setToolTip(tr("On: the colours span the map's own min..max, so its peak is "
                                  "always bright. Off: the fixed range 0..1, so maps compare."));
    m_scalePlot = new QCustomPlot(this);
    m_scalePlot->plotLayout()->clear();
    m_scale = new QCPColorScale(m_scalePlot);
    m_scale->setType(QCPAxis::atBottom);
    m_scale->setGradient(viridisGradient());
    m_scale->axis()->setLabel(tr("attention weight"));
    m_scale->axis()->ticker()->setTickCount(4);
    m_scalePlot->plotLayout()->addElement(0, 0, m_scale);
    m_scale->setDataRange(QCPRange(0, 1));
    m_scalePlot->setFixedHeight(70);
    m_scalePlot->setMinimumWidth(220);

    auto* controls = new QFormLayout;
    controls->addRow(tr("Layer"), m_layer);
    controls->addRow(tr("Head"), m_head);
    controls->addRow(tr("Opacity"), m_opacity);
    auto* side = new QVBoxLayout;
    side->addLayout(controls);
    side->addWidget(m_autoContrast);
    side->addWidget(m_scalePlot);
    side->addWidget(m_note);
    side->addStretch();
    side->addWidget(m_modelLine);
    auto* body = new QHBoxLayout;
    body->addWidget(m_image, 3);
    body->addLayout(side, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_caption);
    layout->addWidget(m_world);
    layout->addWidget(m_ablation);
    layout->addWidget(m_beam);
    layout->addWidget(
        new QLabel(tr("Hover or click a word to see where it looked in the image:"), this));
    layout->addWidget(m_chips);
    layout->addLayout(body, 1);

    // An explicit minimum: otherwise the wrapping labels ask for their height at the narrowest
    // width and the window grows past 800 px.
    setMinimumSize(560, 400); // its tab page scrolls below this (a 1024 x 600 screen fits)
    connect(m_chips, &WordChips::wordClicked, m_selection, &Selection::setStep);
    connect(m_chips, &WordChips::wordHovered, this, [this](int i) {
        m_hover = i;
        refresh();
    });
    connect(m_layer, &QComboBox::activated, this, [this](int i) { m_selection->setLayer(i); });
    connect(m_head, &QComboBox::activated, this, [this](int i) { m_selection->setHead(i - 1); });
    connect(m_opacity, &QSlider::valueChanged, this,
            [this](int v) { m_selection->setOpacity(v / 100.0); });
    connect(m_autoContrast, &QCheckBox::toggled, m_selection, &Selection::setAutoContrast);
    connect(m_selection, &Selection::changed, this, &CaptionPanel::refresh);
}

QString CaptionPanel::captionText() const {
    return m_caption->text();
}

QString CaptionPanel::ablationText() const {
    return m_ablation->isVisibleTo(this) ? m_ablation->text() : QString();
}

QString CaptionPanel::beamText() const {
    return m_beam->isVisibleTo(this) ? m_beam->text() : QString();
}

QString CaptionPanel::scaleLabel() const {
    return m_scale->axis()->label();
}

void CaptionPanel::rebuildHeadChoices() {
    m_layer->clear();
    m_head->clear();
    for (int l = 0; l < m_view.trace.layers; ++l)
        m_layer->addItem(tr("Layer %1").arg(l + 1));
    m_head->addItem(tr("Average of all heads"));
    for (int h = 0; h < m_view.trace.heads; ++h)
        m_head->addItem(tr("Head %1").arg(h + 1));
}

void CaptionPanel::setView(const CaptionView& view) {
    const bool shapeChanged =
        view.trace.layers != m_view.trace.layers || view.trace.heads != m_view.trace.heads;
    m_view = view;
    m_hover = -1;
    if (shapeChanged || m_layer->count() == 0)
        rebuildHeadChoices();
    std::vector<float> probs;
    for (const auto& s : view.trace.steps)
        probs.push_back(s.prob);
    m_chips->setWords(outputTokens(view.trace), probs);
    m_caption->setText(QString::fromStdString(view.trace.text()));
    const auto& c = view.model.config;
    m_modelLine->setText(tr("<b>Model</b> %1<br>%2 layers × %3 heads, width %4, %5, vocabulary %6")
                             .arg(QFileInfo(QString::fromStdString(view.model.path)).fileName())
                             .arg(c.numLayers)
                             .arg(c.numHeads)
                             .arg(c.wordvecDim)
                             .arg(c.memory == MemoryKind::ImageGrid
                                      ? tr("image grid %1×%1").arg(c.encoder.grid)
                                      : tr("one feature token"))
                             .arg(c.vocabSize));
    m_note->setText(view.hasSpatialMemory()
                        ? QString()
                        : tr("Input: %1. This model reads one feature vector (one memory "
                             "token): its cross-attention is trivially 1.0, so there is no map "
                             "to draw.")
                              .arg(view.imageName.toHtmlEscaped()));
    m_world->showFor(view.trace);
    m_ablation->setVisible(view.headsOff > 0);
    m_beam->setVisible(view.beamHypothesis);
    m_ablation->setText(tr("Ablated model: %1 of %2 heads switched off (Heads tab)")
                            .arg(view.headsOff)
                            .arg(view.headCount()));
    refresh();
}

QString CaptionPanel::worldNotice() const {
    return m_world->notice();
}

void CaptionPanel::refresh() {
    { // the slider shows the opacity the map is drawn with (a lesson sets it, not the slider)
        const QSignalBlocker quiet(m_opacity);
        m_opacity->setValue(int(std::lround(m_selection->opacity() * 100)));
    }
    if (!m_view.valid())
        return;
    m_layer->setCurrentIndex(m_selection->layer());
    m_head->setCurrentIndex(m_selection->head() + 1);
    m_autoContrast->setChecked(m_selection->autoContrast());
    m_chips->setSelected(m_selection->step());
    const int last = int(m_view.trace.steps.size()) - 1;
    showStep(std::clamp(m_hover >= 0 ? m_hover : m_selection->step(), 0, last));
}

void CaptionPanel::showStep(int step) {
    if (!m_view.hasSpatialMemory()) {
        m_image->setContent(m_view.image, {}, {}, 0, {}, m_view.imageName);
        m_scale->setDataRange(QCPRange(0, 1));
        m_scale->axis()->setLabel(tr("attention weight"));
        m_scalePlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (step < 0 || step >= int(m_view.trace.steps.size()))
        return;
    const auto row = crossRow(m_view.trace, m_selection->layer(), m_selection->head(), step);
    const auto range = colourRange(row, m_selection->autoContrast());
    const QString word = QString::fromStdString(m_view.trace.steps[size_t(step)].token);
    m_image->setContent(
        m_view.image, row, unitGridMap(m_view.trace, m_view.image), m_selection->opacity(), range,
        tr("“%1” · %2").arg(word, headName(m_selection->layer(), m_selection->head())));
    m_scale->setDataRange(QCPRange(range.lower, range.upper));
    m_scale->axis()->setLabel(m_selection->autoContrast()
                                  ? tr("attention weight (scaled to this map)")
                                  : tr("attention weight (fixed 0..1)"));
    m_scalePlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace cl::ui
