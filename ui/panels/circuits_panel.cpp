#include "ui/panels/circuits_panel.h"

#include "model/shapes/counterfactual.h"
#include "ui/imaging/image_loader.h"
#include "ui/math/circuits_math.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace cl::ui {

namespace {

QString sceneObjectName(const SceneObject& o) {
    return QString::fromStdString(sizeName(o.size) + " " + colourName(o.colour) + " " +
                                  shapeName(o.shape));
}

QString changeTitle(int change) {
    static const char* titles[] = {
        QT_TRANSLATE_NOOP("cl::ui::CircuitsPanel", "its colour"),
        QT_TRANSLATE_NOOP("cl::ui::CircuitsPanel", "its shape"),
        QT_TRANSLATE_NOOP("cl::ui::CircuitsPanel", "its size"),
        QT_TRANSLATE_NOOP("cl::ui::CircuitsPanel", "its position (relation flips)"),
        QT_TRANSLATE_NOOP("cl::ui::CircuitsPanel", "remove it")};
    return QCoreApplication::translate("cl::ui::CircuitsPanel", titles[change]);
}

} // namespace

CircuitsPanel::CircuitsPanel(QWidget* parent) : QWidget(parent) {
    auto* intro = new QLabel(
        tr("What does the model <i>use</i>? The clean image is the one on screen; the corrupted "
           "one differs in one known thing. Each site (an image cell, a head, a layer's stream) "
           "is copied from one run into the other, and the figure says how much of the clean "
           "word's lead over the corrupted word comes back: 1 all of it, 0 none."),
        this);
    intro->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(buildPairBox());
    layout->addWidget(buildResults(), 1);
    layout->addStretch();
    showResult();
}

QWidget* CircuitsPanel::buildPairBox() {
    auto* box = new QGroupBox(tr("Pair"), this);
    m_cleanTile = new AttentionTile(box);
    m_corruptTile = new AttentionTile(box);
    for (auto* t : {m_cleanTile, m_corruptTile})
        t->setLeastMapSide(120);
    m_object = new QComboBox(box);
    m_object->setObjectName(QStringLiteral("pairObject"));
    m_change = new QComboBox(box);
    m_change->setObjectName(QStringLiteral("pairChange"));
    for (int c = 0; c < kChangeCount; ++c)
        m_change->addItem(changeTitle(c), c);
    m_makePair = new QPushButton(tr("&Make pair"), box);
    m_makePair->setToolTip(tr("Draw the scene on screen again with that one change: the "
                              "corrupted image"));
    m_openCorrupt = new QPushButton(tr("Open corrupted image…"), box);
    m_openCorrupt->setToolTip(tr("Any image of the clean image's size"));
    m_word = new QComboBox(box);
    m_word->setObjectName(QStringLiteral("measuredWord"));
    m_word->setToolTip(tr("The input position whose prediction is measured: the logit of the "
                          "clean run's word minus the corrupted run's"));
    m_noising = new QCheckBox(tr("Noising (corrupted into the clean run)"), box);
    m_noising->setToolTip(tr("Off: denoising, clean activations into the corrupted run (what a "
                             "site is enough for). On: corrupted into clean (what it is needed "
                             "for)."));
    m_run = new QPushButton(tr("&Run patching"), box);
    m_cancel = new QPushButton(tr("Cancel"), box);
    m_busy = new QProgressBar(box);
    m_busy->setRange(0, 0); // busy, no figure: one request
    m_busy->setMaximumHeight(12);
    m_busy->setTextVisible(false);
    m_status = new QLabel(box);
    m_status->setWordWrap(true);
    connect(m_makePair, &QPushButton::clicked, this,
            [this] { makeScenePair(m_object->currentIndex(), m_change->currentData().toInt()); });
    connect(m_openCorrupt, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Corrupted image"), {},
                                                          tr("Images (*.png *.jpg *.jpeg *.bmp)"));
        if (!path.isEmpty())
            setCorruptImage(path);
    });
    connect(m_run, &QPushButton::clicked, this, &CircuitsPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &CircuitsPanel::cancel);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_makePair);
    buttons->addWidget(m_openCorrupt);
    buttons->addStretch();
    // Run and Cancel never move: the busy bar keeps its room while hidden, so a double click on
    // Run cannot land on Cancel.
    auto* go = new QHBoxLayout;
    go->addWidget(m_run);
    go->addWidget(m_cancel);
    go->addWidget(m_busy, 1);
    QSizePolicy keep = m_busy->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_busy->setSizePolicy(keep);
    m_busy->setMinimumWidth(60);
    // One control a row: the form stays narrow enough for a 1024 px projector beside the tiles.
    auto* form = new QFormLayout;
    form->addRow(tr("Object"), m_object);
    form->addRow(tr("Change"), m_change);
    form->addRow(QString(), buttons);
    form->addRow(tr("Measure"), m_word);
    form->addRow(QString(), m_noising);
    form->addRow(QString(), go);
    form->addRow(QString(), m_status);
    auto* row = new QHBoxLayout(box);
    row->addWidget(m_cleanTile);
    row->addWidget(m_corruptTile);
    row->addLayout(form, 1);
    return box;
}

void CircuitsPanel::setView(const CaptionView& view) {
    const bool sameInput =
        view.image.cacheKey() == m_view.image.cacheKey() && view.model.path == m_view.model.path;
    m_view = view;
    m_cleanTile->setContent(view.image, {}, {}, 0, {}, tr("clean"));
    fillObjects();
    fillWords();
    if (!sameInput) { // a new clean image: the old pair and figures mean nothing for it
        if (m_running)
            cancel();
        clearPair([] { return tr("corrupted: none yet"); });
    }
    setRunning(m_running);
}

// A new language: the titles, choices and figures made from data again, the choices kept.
void CircuitsPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange || !m_view.valid())
        return;
    m_cleanTile->setContent(m_view.image, {}, {}, 0, {}, tr("clean"));
    if (m_corruptTitle)
        m_corruptTile->setContent(m_corruptImage, {}, {}, 0, {}, m_corruptTitle());
    const int object = m_object->currentIndex();
    fillObjects();
    m_object->setCurrentIndex(std::min(object, m_object->count() - 1));
    fillWords();
    if (m_hasResult)
        showResult();
}

void CircuitsPanel::fillObjects() {
    m_object->clear();
    if (m_view.scene)
        for (size_t i = 0; i < m_view.scene->objects.size(); ++i)
            m_object->addItem(
                tr("object %1: %2").arg(i + 1).arg(sceneObjectName(m_view.scene->objects[i])));
    else
        m_object->addItem(tr("(no scene: open a corrupted image)"));
}

void CircuitsPanel::fillWords() {
    const int keep = m_word->currentData().isValid() ? m_word->currentData().toInt() : -1;
    m_word->clear();
    m_word->addItem(tr("where the two captions part"), -1);
    const QStringList words = inputWords();
    for (int p = 0; p + 1 < words.size(); ++p)
        m_word->addItem(tr("position %1: %2 → %3").arg(p).arg(words[p], words[p + 1]), p);
    m_word->setCurrentIndex(std::max(0, m_word->findData(keep)));
}

QStringList CircuitsPanel::inputWords() const {
    QStringList words{QStringLiteral("<START>")};
    for (const auto& s : m_view.trace.steps)
        words << QString::fromStdString(s.token);
    return words;
}

bool CircuitsPanel::makeScenePair(int index, int change) {
    if (!m_view.scene || index < 0 || size_t(index) >= m_view.scene->objects.size() || change < 0 ||
        change >= kChangeCount) {
        m_status->setText(tr("No scene on screen to change: open the Scene editor or a Random "
                             "Scene, or open a corrupted image."));
        return false;
    }
    m_object->setCurrentIndex(index); // the boxes say which pair is on screen (a lesson's too)
    m_change->setCurrentIndex(change);
    const auto spec = counterfactual(*m_view.scene, size_t(index), Change(change));
    if (!spec) {
        clearPair([] { return tr("corrupted: none (that change cannot be made)"); });
        m_status->setText(tr("That change cannot be made here (the object would leave the "
                             "canvas or touch another, or the scene has one object)."));
        return false;
    }
    const Scene scene = renderScene(*spec);
    RgbImage rgb{spec->width(), spec->height(), scene.rgb};
    m_pairObject = index;
    m_pairChange = change;
    setCorrupt(rgb, [index, change] {
        return tr("corrupted: object %1, %2").arg(index + 1).arg(changeTitle(change));
    });
    return true;
}

bool CircuitsPanel::setCorruptImage(const QString& path) {
    const LoadedImage img = loadImage(path);
    if (!img.ok()) {
        m_status->setText(img.error);
        return false;
    }
    if (img.image.size() != m_view.image.size()) {
        // No line breaks inside a size ("40 ×" / "30." on a narrow page).
        m_status->setText(tr("The corrupted image must have the clean image's size "
                             "(%1\u00a0×\u00a0%2); %3 is %4\u00a0×\u00a0%5.")
                              .arg(m_view.image.width())
                              .arg(m_view.image.height())
                              .arg(QFileInfo(path).fileName().toHtmlEscaped())
                              .arg(img.image.width())
                              .arg(img.image.height()));
        return false;
    }
    m_pairObject = m_pairChange = -1;
    const QString name = QFileInfo(path).fileName();
    setCorrupt(img.rgb, [name] { return tr("corrupted: %1").arg(name); });
    return true;
}

void CircuitsPanel::clearPair(std::function<QString()> title) {
    m_corrupt = {};
    m_corruptImage = {};
    m_pairObject = m_pairChange = -1;
    m_corruptTitle = std::move(title);
    m_corruptTile->setContent({}, {}, {}, 0, {}, m_corruptTitle());
    clearResult();
    setRunning(false);
}

void CircuitsPanel::clearResult() {
    m_hasResult = false;
    m_result = {};
    showResult();
}

void CircuitsPanel::setCorrupt(const RgbImage& rgb, std::function<QString()> title) {
    clearResult(); // the figures on screen were another pair's
    m_corrupt = rgb;
    m_corruptImage = toQImage(rgb);
    m_corruptTitle = std::move(title);
    m_corruptTile->setContent(m_corruptImage, {}, {}, 0, {}, m_corruptTitle());
    m_status->setText(tr("Pair ready: press Run patching."));
    setRunning(false);
}

void CircuitsPanel::run() {
    if (m_corrupt.pixels.empty() || !m_view.valid())
        return;
    PatchOptions o;
    o.position = m_word->currentData().toInt();
    o.noising = m_noising->isChecked();
    setRunning(true);
    m_status->setText(tr("Patching every site…"));
    emit patchRequested(m_corrupt, o);
}

void CircuitsPanel::cancel() {
    if (!m_running)
        return;
    emit cancelRequested();
    setRunning(false);
    m_status->setText(tr("Cancelled: the figures shown are the last run's."));
}

void CircuitsPanel::setFailed(const QString& message) {
    setRunning(false);
    m_status->setText(tr("Patching failed: %1").arg(message.toHtmlEscaped()));
}

void CircuitsPanel::setRunning(bool on) {
    m_running = on;
    const bool pair = !m_corrupt.pixels.empty() && m_view.valid();
    // Focus goes to the button beside before one is disabled: else Qt hands it to the next
    // control down the page, and the page scrolls there under the pointer.
    const bool runFocused = m_run->hasFocus(), cancelFocused = m_cancel->hasFocus();
    m_cancel->setEnabled(on);
    m_run->setEnabled(pair && !on);
    if (on && runFocused)
        m_cancel->setFocus();
    else if (!on && cancelFocused && m_run->isEnabled())
        m_run->setFocus();
    m_busy->setVisible(on);
    m_makePair->setEnabled(m_view.scene.has_value() && !on);
    m_object->setEnabled(m_view.scene.has_value());
    m_change->setEnabled(m_view.scene.has_value());
    m_csv->setEnabled(m_hasResult);
}

QString CircuitsPanel::status() const {
    return m_status->text();
}

int CircuitsPanel::measuredWord() const {
    return m_word->currentData().toInt();
}

void CircuitsPanel::setMeasuredWord(int position) {
    m_word->setCurrentIndex(std::max(0, m_word->findData(position)));
}

bool CircuitsPanel::noising() const {
    return m_noising->isChecked();
}

void CircuitsPanel::setNoising(bool on) {
    m_noising->setChecked(on);
}

bool CircuitsPanel::writeCsv(const QString& path) {
    QSaveFile f(path);
    if (!m_hasResult || !f.open(QIODevice::WriteOnly)) {
        m_status->setText(tr("Could not write %1").arg(path.toHtmlEscaped()));
        return false;
    }
    f.write(sitesCsv(m_result.patch).toUtf8());
    if (!f.commit()) {
        m_status->setText(tr("Could not write %1").arg(path.toHtmlEscaped()));
        return false;
    }
    m_status->setText(tr("Wrote %1").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    return true;
}

QString CircuitsPanel::exportTag() const {
    QString tag = m_pairChange >= 0
                      ? QStringLiteral("%1-of-%2")
                            .arg(QString::fromStdString(changeName(Change(m_pairChange))))
                            .arg(m_pairObject + 1)
                      : QStringLiteral("pair");
    if (m_hasResult)
        tag += QStringLiteral("-pos%1").arg(m_result.patch.position);
    return tag;
}

} // namespace cl::ui
