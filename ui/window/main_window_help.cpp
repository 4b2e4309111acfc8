// The Help menu: keyboard shortcuts (read off the actions), a quick tour of the sample lessons,
// and About (versions, BLAS, the loaded model).
#include "ui/window/help_dialogs.h"
#include "ui/window/main_window.h"

#include <QDialog>
#include <QMenuBar>
#include <QMessageBox>

namespace cl::ui {

void MainWindow::buildHelpMenu() {
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] {
        auto* dialog = shortcutsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    help->addAction(tr("&Quick Tour…"), this, [this] {
        auto* dialog = quickTourDialog(this, m_resourceDir + QStringLiteral("/lessons"),
                                       [this](const QString& path) { openLesson(path); });
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    help->addSeparator();
    help->addAction(tr("&About CaptionLens"), this, [this] {
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About CaptionLens"),
                                    aboutText(model()), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("about"));
        box->setTextFormat(Qt::RichText);
        box->setIconPixmap(windowIcon().pixmap(64, 64));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

} // namespace cl::ui
