#pragma once
// Help ▸ Keyboard Shortcuts, About and Quick Tour. The shortcut list is read off the window's
// actions and shortcuts at the moment it opens, so it never goes stale.
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QDialog;
class QWidget;

namespace cl {
struct ModelInfo;
}

namespace cl::ui {

struct ShortcutRow {
    QString keys;  // as the platform writes them, e.g. "Ctrl+E"
    QString what;  // the action's text without its & mnemonic, or the shortcut's What's This
    QString where; // the menu holding the action, or "Shortcut"
};

// Every QAction with a shortcut and every QShortcut below `root`, sorted by where, then keys.
std::vector<ShortcutRow> shortcutRows(const QWidget* root);
QDialog* shortcutsDialog(QWidget* parent);

// Version, Qt, LibTorch and BLAS in use, and the loaded model (rich text).
QString aboutText(const ModelInfo& model);

// The sample lessons in `folder` (*.cllesson, sorted) and a title for each file name
// ("2-left-of-right-of.cllesson" -> "Left of right of").
QStringList sampleLessons(const QString& folder);
QString lessonTitle(const QString& path);
// Lists the lessons; Open (or a double click) calls `open` with the chosen path.
QDialog* quickTourDialog(QWidget* parent, const QString& folder,
                         std::function<void(const QString&)> open);

} // namespace cl::ui
