// View > Language (issue 40): English or Korean, switched at run time. What is on screen is put
// into the new language where it stands (retranslateTree), then every panel is drawn again, so
// texts made from figures are made anew; nothing on screen is lost.
#include "ui/window/language.h"
#include "ui/window/main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QMenu>
#include <QSettings>

#include <utility>

namespace cl::ui {

void MainWindow::buildLanguageMenu(QMenu* view) {
    auto* menu = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(menu);
    for (const QString& code : interfaceLanguages()) {
        // Each language named in itself, so anyone finds their own.
        QAction* a = menu->addAction(languageName(code), this, [this, code] { setLanguage(code); });
        a->setCheckable(true);
        a->setChecked(code == installedLanguage());
        a->setData(code);
        a->setObjectName(QStringLiteral("language-") + code);
        group->addAction(a);
        m_languageActions << a;
    }
}

// Qt makes an action's tooltip from its text by dropping the ampersand alone, which leaves a
// Korean "(O)" in every toolbar tooltip: those tooltips are set from the text without it, and
// again after each switch. Tooltips the app wrote itself are left alone.
void MainWindow::tidyActionTips() {
    for (QAction* a : findChildren<QAction*>()) {
        if (!a->property("cl_tip_from_text").toBool()) {
            const QAction plain(a->text());
            if (a->toolTip() != plain.toolTip())
                continue; // written by the app
            a->setProperty("cl_tip_from_text", true);
        }
        a->setToolTip(withoutMnemonic(a->text()));
    }
}

bool MainWindow::setLanguage(const QString& code) {
    const QString from = installedLanguage();
    if (!installLanguage(code)) {
        showError(tr("The interface has no language “%1”").arg(code));
        return false;
    }
    for (QAction* a : std::as_const(m_languageActions))
        a->setChecked(a->data().toString() == code);
    QSettings().setValue(QStringLiteral("language"), code);
    if (from == code)
        return true;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w == this || (w->isVisible() && !w->parentWidget()))
            retranslateTree(w, from, code);
    // Texts made of pieces make themselves again (keep_translated.h); Qt posts this event too,
    // later, and only while the event loop runs.
    QEvent change(QEvent::LanguageChange);
    QCoreApplication::sendEvent(this, &change);
    if (view().valid()) {
        m_panels.markStale();
        m_panels.refresh(currentPanel(), view());
        m_compareStale = m_timelineStale = true;
        refreshStalePanels();
        showAblation();
    }
    tidyActionTips();
    emit languageChanged(code);
    return true;
}

} // namespace cl::ui
