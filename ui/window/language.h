#pragma once
// The interface's language (issue 40): English (the source text) or Korean, through Qt's own
// translation system: our catalogue (translations/captionlens_ko.ts, compiled by lrelease into
// the app) and Qt's for its own dialogs. The system locale chooses at start; View > Language
// switches at run time (MainWindow::setLanguage), where retranslateTree() puts what is on screen
// into the new language.
#include "ui/widgets/keep_translated.h"

#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace cl::ui {

QStringList interfaceLanguages();          // "en", "ko"
QString languageName(const QString& code); // in its own language: "English", "한국어"
// "ko" where the system locale is Korean, else "en".
QString systemLanguage();
// Installs the translators (ours and Qt's) of `code` application-wide, or removes them for
// "en", and makes the locale numbers are written in that language's. False for an unknown code
// or a catalogue that does not load (the language stays as it was).
bool installLanguage(const QString& code);
QString installedLanguage();

// One message of the catalogue: its context, English source and Korean translation.
struct CatalogueMessage {
    QString context, source, korean;
};
const std::vector<CatalogueMessage>& koreanCatalogue();

// `text` from language `from` into `to` when it is one of the catalogue's messages, its
// placeholders (%1, %n...) filled in ("Layer 2" <-> "레이어 2"); else `text` unchanged. Where
// several messages read the same, the one whose context comes first in `contexts` (the classes
// around the widget, nearest first) wins.
QString translateShown(const QString& text, const QString& from, const QString& to,
                       const QStringList& contexts = {});

// Every text of `root` and what it holds (labels, buttons, menus and actions, tabs, combo
// items, table and tree headers and items, tooltips, plot axes and titles) put from `from`
// into `to`. Returns how many texts changed. What a user typed is left alone.
int retranslateTree(QWidget* root, const QString& from, const QString& to);
bool showsModelWords(const QWidget* w); // it or a widget around it has kModelWords

// An action's or label's text without its mnemonic: "&Open" -> "Open", "열기(&O)" -> "열기".
QString withoutMnemonic(QString text);

} // namespace cl::ui
