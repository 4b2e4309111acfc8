#include "ui/window/animation_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>

namespace cl::ui {

AnimationDialog::AnimationDialog(bool timelineReady, std::function<QString(AnimationKind)> nameFor,
                                 AnimationKind kind, QWidget* parent)
    : QDialog(parent), m_kind(new QComboBox), m_frameMs(new QSpinBox), m_width(new QComboBox),
      m_path(new QLineEdit), m_nameFor(std::move(nameFor)) {
    setWindowTitle(tr("Export Animation"));
    m_kind->setObjectName(QStringLiteral("animationKind"));
    m_kind->addItem(tr("Decoding, word by word"), int(AnimationKind::Decode));
    m_kind->addItem(tr("The selected word through every layer and head"),
                    int(AnimationKind::Heads));
    m_kind->addItem(tr("The training run's snapshots (Timeline panel)"),
                    int(AnimationKind::Timeline));
    if (!timelineReady) {
        auto* item = qobject_cast<QStandardItemModel*>(m_kind->model())->item(2);
        item->setEnabled(false);
        item->setToolTip(tr("Open a training run in the Timeline panel first"));
    }
    m_frameMs->setObjectName(QStringLiteral("frameMs"));
    m_frameMs->setRange(100, 10000);
    m_frameMs->setSingleStep(100);
    m_frameMs->setValue(QSettings().value(QStringLiteral("animation/frameMs"), 900).toInt());
    m_frameMs->setSuffix(tr(" ms"));
    m_frameMs->setToolTip(tr("How long each frame stays; the last one stays three times as long"));
    for (int w : {640, 960, 1280, 1920})
        m_width->addItem(tr("%1 × %2 pixels").arg(w).arg(w * 9 / 16), w);
    m_width->setCurrentIndex(1);
    m_path->setObjectName(QStringLiteral("animationPath"));
    m_path->setMinimumWidth(m_path->fontMetrics().averageCharWidth() * 48); // a whole path
    if (kind != AnimationKind::Timeline || timelineReady)
        m_kind->setCurrentIndex(m_kind->findData(int(kind)));
    m_path->setText(suggested(choice().kind));
    connect(m_path, &QLineEdit::textEdited, this, [this] { m_pathEdited = true; });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_pathEdited)
            m_path->setText(suggested(choice().kind));
    });
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &AnimationDialog::browse);
    auto* file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Show:"), m_kind);
    form->addRow(tr("Frame time:"), m_frameMs);
    form->addRow(tr("Size:"), m_width);
    form->addRow(tr("File:"), file);
    form->addRow(buttons);
}

AnimationChoice AnimationDialog::choice() const {
    AnimationChoice c;
    c.kind = AnimationKind(m_kind->currentData().toInt());
    c.style.frameMs = m_frameMs->value();
    c.style.width = m_width->currentData().toInt();
    c.path = m_path->text().trimmed();
    return c;
}

QString AnimationDialog::suggested(AnimationKind kind) const {
    const QString folder =
        QSettings().value(QStringLiteral("animation/folder"), QDir::currentPath()).toString();
    return QDir(folder).absoluteFilePath(m_nameFor(kind));
}

void AnimationDialog::remember() const {
    QSettings settings;
    settings.setValue(QStringLiteral("animation/frameMs"), m_frameMs->value());
    const QString path = choice().path;
    if (!path.isEmpty())
        settings.setValue(QStringLiteral("animation/folder"), QFileInfo(path).absolutePath());
}

void AnimationDialog::browse() {
    const QString p = QFileDialog::getSaveFileName(this, tr("Export animation"), m_path->text(),
                                                   tr("GIF animation (*.gif)"));
    if (p.isEmpty())
        return;
    m_path->setText(p);
    m_pathEdited = true;
}

} // namespace cl::ui
