#include "ui/panels/heads_panel.h"

#include "ui/math/attention_math.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

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
    // The captions sit below the switches: their text grows by a line with the first head off,
    // and above the grid that moved every checkbox down under the pointer.
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(box);
    layout->addWidget(m_captions);
    layout->addWidget(m_status);
    layout->addWidget(resetButton, 0, Qt::AlignLeft);
    layout->addStretch();
    setMinimumSize(560, 400); // its tab page scrolls below this (a 1024 x 600 screen fits)
}

void HeadsPanel::rebuild(int layers, int heads) {
    for (auto* b : m_boxes)
        b->deleteLater();
    m_boxes.clear();
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
                m_grid->addWidget(b, l + 1, 1 + kind * (heads + 1) + h);
                m_boxes.push_back(b);
            }
    }
}

void HeadsPanel::setView(const CaptionView& view) {
    if (view.model.path != m_modelPath || view.trace.layers != m_layers ||
        view.trace.heads != m_heads) {
        m_modelPath = view.model.path;
        rebuild(int(view.trace.layers), int(view.trace.heads));
        m_reference.clear();
    }
    m_caption = QString::fromStdString(view.trace.text());
    m_captionOff = view.headsOff;
    // Every head on: this caption is the reference; else the reference of this input follows.
    m_reference = view.headsOff == 0 ? m_caption : QString();
    showCaptions();
    m_status->setText(
        tr("Every panel shows the model as ablated here; the Decoding panel shows the "
           "new probabilities, the Attention panel how the remaining heads react."));
}

void HeadsPanel::setReference(const CaptionTrace& reference) {
    m_reference = QString::fromStdString(reference.text());
    showCaptions();
}

void HeadsPanel::showCaptions() {
    const QString every = m_reference.isEmpty() ? tr("<i>captioning…</i>") : m_reference;
    m_captions->setText(m_captionOff == 0
                            ? tr("<b>Caption</b> (every head on): %1").arg(m_caption)
                            : tr("<b>With %1 head(s) off:</b> %2<br><b>Every head on:</b> %3")
                                  .arg(m_captionOff)
                                  .arg(m_caption, every));
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
