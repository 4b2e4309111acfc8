#include "ui/panels/scene_editor.h"
#include "ui/widgets/text_colour.h"

#include "ui/math/attention_math.h"
#include "ui/math/colormap.h"
#include "ui/panels/selection.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/scene_canvas.h"
#include "ui/widgets/word_chips.h"
#include "ui/widgets/world_notice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {
double radiusFor(Size s, int side) {
    return side / 128.0 * (s == Size::Large ? 21.5 : 11.5); // the middle of the training ranges
}
} // namespace

SceneEditor::SceneEditor(Selection* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection) {
    m_canvas = new SceneCanvas(this);
    m_shape = new QComboBox(this);
    for (int s = 0; s < kShapeCount; ++s)
        m_shape->addItem(QString::fromStdString(shapeName(Shape(s))));
    m_colour = new QComboBox(this);
    for (int c = 0; c < kColourCount; ++c)
        m_colour->addItem(QString::fromStdString(colourName(Colour(c))));
    m_size = new QComboBox(this);
    m_size->addItems({tr("small"), tr("large")});
    m_shape->setObjectName("shape");
    m_colour->setObjectName("colour");
    m_size->setObjectName("size");
    m_add = new QPushButton(tr("&Add shape"), this);
    m_delete = new QPushButton(tr("&Delete"), this);
    m_random = new QPushButton(tr("&Random scene"), this);
    m_overlay = new QCheckBox(tr("Show attention on the canvas"), this);
    m_overlay->setToolTip(tr("Draw the selected word's cross-attention over the scene"));
    m_overlay->setChecked(true);
    m_reference = new QLabel(this);
    m_model = new QLabel(this);
    m_latency = new QLabel(this);
    for (QLabel* l : {m_reference, m_model})
        l->setWordWrap(true);
    QFont big = m_model->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_model->setFont(big);
    m_chips = new WordChips(this);
    m_opacity = new OpacitySlider(this);
    m_showing = new QLabel(this);
    m_showing->setWordWrap(true);
    setTextColour(m_showing, QColor(0x3b, 0x4c, 0xca));
    m_switch = new QPushButton(this);
    m_switch->setVisible(false);

    auto* objectBox = new QGroupBox(tr("Selected shape (or the next one added)"), this);
    auto* form = new QFormLayout(objectBox);
    form->addRow(tr("Shape:"), m_shape);
    form->addRow(tr("Colour:"), m_colour);
    form->addRow(tr("Size:"), m_size);
    auto* buttons = new QHBoxLayout;
    for (auto* b : {m_add, m_delete, m_random})
        buttons->addWidget(b);
    auto* side = new QVBoxLayout;
    side->addWidget(m_showing);
    side->addWidget(m_switch, 0, Qt::AlignLeft);
    auto* hint = new QLabel(tr("Drag shapes on the canvas. The caption follows live."));
    hint->setWordWrap(true);
    side->addWidget(hint);
    side->addLayout(buttons);
    side->addWidget(objectBox);
    auto* truth = new QLabel(tr("<b>Reference caption</b> (the scene's ground truth):"));
    truth->setWordWrap(true);
    side->addWidget(truth);
    side->addWidget(m_reference);
    m_world = new WorldNotice(this);
    side->addWidget(m_world);
    side->addWidget(new QLabel(tr("<b>The model says</b> (click a word):")));
    side->addWidget(m_model);
    side->addWidget(m_chips);
    side->addWidget(m_overlay);
    side->addWidget(m_opacity);
    side->addStretch(1);
    side->addWidget(m_latency);
    auto* sideHost = new QWidget(this);
    sideHost->setLayout(side);
    sideHost->setMaximumWidth(420);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(sideHost);

    connect(m_canvas, &SceneCanvas::edited, this, &SceneEditor::edited);
    connect(m_canvas, &SceneCanvas::selectionChanged, this, &SceneEditor::syncControls);
    for (QComboBox* box : {m_shape, m_colour, m_size})
        connect(box, &QComboBox::currentIndexChanged, this, &SceneEditor::applyControls);
    connect(m_add, &QPushButton::clicked, this, &SceneEditor::addObject);
    connect(m_delete, &QPushButton::clicked, this, &SceneEditor::deleteSelected);
    connect(m_random, &QPushButton::clicked, this, &SceneEditor::randomScene);
    connect(m_overlay, &QCheckBox::toggled, this, &SceneEditor::refreshOverlay);
    connect(m_opacity, &OpacitySlider::changed, this, &SceneEditor::refreshOverlay);
    connect(m_switch, &QPushButton::clicked, this, [this] {
        if (m_offerBack)
            emit backRequested();
        else
            edited(); // caption this scene: every panel switches to it
    });
    connect(m_chips, &WordChips::wordClicked, m_selection, &Selection::setStep);
    connect(m_selection, &Selection::changed, this, &SceneEditor::refreshOverlay);
    m_canvas->setSpec(randomSpec(m_seed));
    syncControls();
    showReference();
}

void SceneEditor::showReference() {
    const auto refs = sceneCaptions(spec());
    m_reference->setText(refs.empty() ? tr("(an empty scene has no caption)")
                                      : QString::fromStdString(refs.front()));
}

void SceneEditor::showScene(const SceneSpec& spec) {
    m_canvas->setSpec(spec);
    m_canvas->setSelected(-1);
    m_captionCurrent = false;
    showReference();
    syncControls();
}

void SceneEditor::setShowing(const QString& name, bool thisScene, const QString& backTo) {
    m_offerBack = thisScene && !backTo.isEmpty();
    if (thisScene) {
        m_showing->setText(tr("Every panel shows this scene."));
        m_switch->setText(tr("Back to %1").arg(backTo));
    } else {
        m_showing->setText(tr("The other panels show %1. Edit this scene, or:").arg(name));
        m_switch->setText(tr("Show this scene in every panel"));
        m_model->setText(tr("<i>(not captioned yet)</i>"));
        m_chips->setWords({}, {});
        m_canvas->setOverlay({});
    }
    m_switch->setVisible(!thisScene || m_offerBack);
}

QString SceneEditor::showingText() const {
    return m_showing->text();
}

const SceneSpec& SceneEditor::spec() const {
    return m_canvas->spec();
}

QImage SceneEditor::sceneImage() const {
    return m_canvas->image();
}

void SceneEditor::setSpec(const SceneSpec& spec) {
    m_canvas->setSpec(spec);
    m_canvas->setSelected(-1);
    edited();
}

void SceneEditor::edited() {
    m_clock.start();
    m_captionCurrent = false;
    showReference();
    m_delete->setEnabled(m_canvas->selected() >= 0);
    m_add->setEnabled(spec().objects.size() < 3);
    emit sceneEdited(m_canvas->image());
}

void SceneEditor::syncControls() {
    const int i = m_canvas->selected();
    m_delete->setEnabled(i >= 0);
    m_add->setEnabled(spec().objects.size() < 3);
    if (i < 0)
        return;
    const auto& o = spec().objects[size_t(i)];
    m_syncing = true;
    m_shape->setCurrentIndex(int(o.shape));
    m_colour->setCurrentIndex(int(o.colour));
    m_size->setCurrentIndex(o.size == Size::Large ? 1 : 0);
    m_syncing = false;
}

void SceneEditor::applyControls() {
    const int i = m_canvas->selected();
    if (m_syncing || i < 0)
        return;
    SceneSpec s = spec();
    auto& o = s.objects[size_t(i)];
    o.shape = Shape(m_shape->currentIndex());
    o.colour = Colour(m_colour->currentIndex());
    o.rgb = namedColour(o.colour);
    o.size = m_size->currentIndex() == 1 ? Size::Large : Size::Small;
    o.radius = radiusFor(o.size, s.side);
    o.cx = std::clamp(o.cx, o.radius, s.side - o.radius);
    o.cy = std::clamp(o.cy, o.radius, s.side - o.radius);
    m_canvas->setSpec(s);
    edited();
}

void SceneEditor::addObject() {
    SceneSpec s = spec();
    if (s.objects.size() >= 3)
        return; // the model was trained on one to three objects
    SceneObject o;
    o.shape = Shape(m_shape->currentIndex());
    o.colour = Colour(m_colour->currentIndex());
    o.rgb = namedColour(o.colour);
    o.size = m_size->currentIndex() == 1 ? Size::Large : Size::Small;
    o.radius = radiusFor(o.size, s.side);
    // The free spot furthest from every other object.
    double best = -1;
    for (int gy = 1; gy < 8; ++gy)
        for (int gx = 1; gx < 8; ++gx) {
            const double x = s.side * gx / 8.0, y = s.side * gy / 8.0;
            double gap = 1e9;
            for (const auto& other : s.objects)
                gap = std::min(gap, std::hypot(x - other.cx, y - other.cy) - other.radius);
            if (gap > best) {
                best = gap;
                o.cx = std::clamp(x, o.radius, s.side - o.radius);
                o.cy = std::clamp(y, o.radius, s.side - o.radius);
            }
        }
    s.objects.push_back(o);
    m_canvas->setSpec(s);
    m_canvas->setSelected(int(s.objects.size()) - 1);
    edited();
}

void SceneEditor::deleteSelected() {
    const int i = m_canvas->selected();
    if (i < 0)
        return;
    SceneSpec s = spec();
    s.objects.erase(s.objects.begin() + i);
    m_canvas->setSpec(s);
    m_canvas->setSelected(-1);
    edited();
}

QString SceneEditor::worldNotice() const {
    return m_world->notice();
}

void SceneEditor::randomScene() {
    setSpec(randomSpec(++m_seed));
}

void SceneEditor::setView(const CaptionView& view) {
    if (view.image.isNull() || view.image.size() != m_canvas->image().size() ||
        view.image.convertToFormat(QImage::Format_RGB888) != m_canvas->image()) {
        m_captionCurrent = false; // another image's caption (or an older position of the scene)
        return;
    }
    m_view = view;
    m_captionCurrent = true;
    m_world->showFor(view.trace); // a drawn scene the check finds out of the world says so
    QStringList words;
    std::vector<float> probs;
    for (const auto& s : view.trace.steps) {
        words << QString::fromStdString(s.token);
        probs.push_back(s.prob);
    }
    const QString said = QString::fromStdString(view.trace.text());
    const bool right = said == m_reference->text();
    const QString ablated =
        view.headsOff > 0
            ? tr(" <span style='color:#b35900'>[%1]</span>")
                  .arg(view.headsOff == 1 ? tr("1 head off") : tr("%1 heads off").arg(view.headsOff))
            : QString();
    m_model->setText(QStringLiteral("%1 <span style='color:%2'>%3</span>%4")
                         .arg(said.toHtmlEscaped(), right ? "#1a9850" : "#d73027",
                              right ? tr("✓ matches") : tr("✗ differs"), ablated));
    m_chips->setWords(words, probs);
    refreshOverlay();
    m_canvas->repaint();
    if (m_clock.isValid()) {
        m_latencyMs = m_clock.nsecsElapsed() / 1e6;
        m_clock.invalidate(); // measured once: a caption shown again later is no edit
        m_latency->setText(
            tr("Last edit → caption and map on screen: %1 ms").arg(m_latencyMs, 0, 'f', 1));
    }
}

void SceneEditor::refreshOverlay() {
    if (!m_captionCurrent || !m_view.valid() || !m_overlay->isChecked() ||
        m_view.trace.gridSide <= 0) {
        m_canvas->setOverlay({});
        return;
    }
    const int step = std::clamp(m_selection->step(), 0, int(m_view.trace.steps.size()) - 1);
    m_chips->setSelected(step);
    const auto row = crossRow(m_view.trace, m_selection->layer(), m_selection->head(), step);
    m_canvas->setOverlay(attentionOverlay(m_canvas->image(), row,
                                          unitGridMap(m_view.trace, m_canvas->image()),
                                          m_opacity->value(),
                                          colourRange(row, m_selection->autoContrast())));
}

} // namespace cl::ui

namespace cl::ui {
QString SceneEditor::referenceText() const {
    return m_reference->text();
}
QString SceneEditor::modelText() const {
    return m_model->text();
}
} // namespace cl::ui
