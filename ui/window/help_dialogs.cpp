#include "ui/window/help_dialogs.h"
#include "ui/window/language.h"

#include "model/api/build_info.h"
#include "model/api/captioner.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <tuple>

namespace cl::ui {

namespace {

QString menuOf(const QAction* action) {
    for (const QObject* o : action->associatedObjects())
        if (const auto* menu = qobject_cast<const QMenu*>(o))
            return withoutMnemonic(menu->title());
    return QObject::tr("Window");
}

QString keysOf(const QList<QKeySequence>& keys) {
    QStringList out;
    for (const auto& k : keys)
        out << k.toString(QKeySequence::NativeText);
    return out.join(QStringLiteral(", "));
}

} // namespace

std::vector<ShortcutRow> shortcutRows(const QWidget* root) {
    std::vector<ShortcutRow> rows;
    for (const QAction* a : root->findChildren<QAction*>())
        if (!a->shortcuts().isEmpty() && !a->text().isEmpty())
            rows.push_back({keysOf(a->shortcuts()), withoutMnemonic(a->text()), menuOf(a)});
    for (const QShortcut* s : root->findChildren<QShortcut*>())
        if (!s->key().isEmpty())
            rows.push_back({keysOf({s->key()}), s->whatsThis(), QObject::tr("Panel")});
    std::sort(rows.begin(), rows.end(), [](const ShortcutRow& a, const ShortcutRow& b) {
        return std::tie(a.where, a.keys) < std::tie(b.where, b.keys);
    });
    return rows;
}

QDialog* shortcutsDialog(QWidget* parent) {
    auto* dialog = new QDialog(parent);
    dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    const auto rows = shortcutRows(parent);
    auto* table = new QTableWidget(int(rows.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcuts"));
    table->setHorizontalHeaderLabels(
        {QObject::tr("Keys"), QObject::tr("What it does"), QObject::tr("Where")});
    for (int r = 0; r < int(rows.size()); ++r) {
        const auto& row = rows[size_t(r)];
        table->setItem(r, 0, new QTableWidgetItem(row.keys));
        table->setItem(r, 1, new QTableWidgetItem(row.what));
        table->setItem(r, 2, new QTableWidgetItem(row.where));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(560, 480);
    return dialog;
}

QString aboutText(const ModelInfo& model) {
    const auto& c = model.config;
    const QString loaded =
        model.path.empty()
            ? QObject::tr("no model loaded")
            : QObject::tr("%1: %2 layers × %3 heads, width %4, %5 memory, vocabulary %6, "
                          "%7 parameters")
                  .arg(QFileInfo(QString::fromStdString(model.path)).fileName())
                  .arg(c.numLayers)
                  .arg(c.numHeads)
                  .arg(c.wordvecDim)
                  .arg(QString::fromStdString(memoryKindName(c.memory)))
                  .arg(c.vocabSize)
                  .arg(model.parameters);
    return QObject::tr("<h3>CaptionLens %1</h3>"
                       "<p>See inside an image-captioning transformer: captions, attention heads, "
                       "positional encoding and decoding, for teaching.</p>"
                       "<table><tr><td>Qt</td><td>%2</td></tr>"
                       "<tr><td>LibTorch</td><td>%3</td></tr>"
                       "<tr><td>BLAS</td><td>%4</td></tr>"
                       "<tr><td>Model</td><td>%5</td></tr></table>")
        .arg(QStringLiteral(CL_VERSION), QString::fromLatin1(qVersion()),
             QString::fromStdString(libtorchVersion()), QString::fromStdString(blasInUse()),
             loaded.toHtmlEscaped());
}

QStringList sampleLessons(const QString& folder) {
    QStringList out;
    const QDir dir(folder);
    for (const QString& name :
         dir.entryList({QStringLiteral("*.cllesson")}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

QString lessonTitle(const QString& path) {
    QString t = QFileInfo(path).completeBaseName();
    t.remove(QRegularExpression(QStringLiteral("^\\d+-")));
    t.replace('-', ' ');
    if (!t.isEmpty())
        t[0] = t[0].toUpper();
    return t;
}

QDialog* quickTourDialog(QWidget* parent, const QString& folder,
                         std::function<void(const QString&)> open) {
    auto* dialog = new QDialog(parent);
    dialog->setWindowTitle(QObject::tr("Quick Tour"));
    auto* intro = new QLabel(
        QObject::tr("Each lesson reopens a teaching moment on the bundled model: its scene, "
                    "panel and selection. Open one, look, then try your own changes."),
        dialog);
    intro->setWordWrap(true);
    auto* list = new QListWidget(dialog);
    list->setObjectName(QStringLiteral("lessons"));
    for (const QString& path : sampleLessons(folder)) {
        auto* item = new QListWidgetItem(lessonTitle(path), list);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    }
    if (list->count() == 0)
        list->addItem(QObject::tr("No sample lessons found in %1").arg(folder));
    list->setCurrentRow(0);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, dialog);
    const auto openCurrent = [dialog, list, open] {
        const QString path =
            list->currentItem() ? list->currentItem()->data(Qt::UserRole).toString() : QString();
        if (path.isEmpty())
            return;
        dialog->accept();
        open(path);
    };
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, openCurrent);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    QObject::connect(list, &QListWidget::itemActivated, dialog, openCurrent);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(intro);
    layout->addWidget(list);
    layout->addWidget(buttons);
    dialog->resize(460, 320);
    return dialog;
}

} // namespace cl::ui
