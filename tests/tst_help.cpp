// The Help menu driven through its real actions: the shortcut list matches the window's actions
// and shortcuts, About names the versions and the model, Quick Tour opens a sample lesson.
#include "tests/gui_fixture.h"
#include "ui/panels/caption_panel.h"
#include "ui/window/help_dialogs.h"
#include "ui/lessons/lesson.h"

#include <QAction>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QSettings>
#include <QTimer>
#include <QTemporaryDir>
#include <QDir>
#include <QApplication>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include "tests/test_main.h"

using namespace cl;

namespace {

QAction* helpAction(QMainWindow* window, const QString& text) {
    for (QAction* menu : window->menuBar()->actions())
        if (menu->text() == QLatin1String("&Help"))
            for (QAction* a : menu->menu()->actions())
                if (a->text().remove('&').startsWith(text))
                    return a;
    return nullptr;
}

template <typename T> T* waitForChild(QWidget* parent, const QString& name = {}) {
    T* found = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] {
            found = parent->findChild<T*>(name);
            return found && found->isVisible();
        },
        5000);
    return shown ? found : nullptr;
}

} // namespace

class TestHelp : public QObject {
    Q_OBJECT
  private slots:
    void init() { QVERIFY(m_f.start()); }
    void cleanup() { m_f.stop(); }
    void shortcutsListEveryActionWithAShortcut();
    void aboutNamesVersionsAndModel();
    void quickTourOpensASampleLesson();
    void openDialogsStartInTheBundledFolders();
    void lessonTitlesComeFromFileNames();

  private:
    cltest::GuiFixture m_f;
};

void TestHelp::shortcutsListEveryActionWithAShortcut() {
    QAction* open = helpAction(m_f.window.get(), "Keyboard Shortcuts");
    QVERIFY(open);
    QVERIFY(!open->shortcut().isEmpty()); // F1: the list itself has a key
    open->trigger();
    auto* table = waitForChild<QTableWidget>(m_f.window.get(), "shortcuts");
    QVERIFY(table);
    QSet<QString> listed;
    for (int r = 0; r < table->rowCount(); ++r)
        listed.insert(table->item(r, 0)->text() + " | " + table->item(r, 1)->text());
    int expected = 0;
    for (const QAction* a : m_f.window->findChildren<QAction*>()) {
        if (a->shortcut().isEmpty() || a->text().isEmpty())
            continue;
        ++expected;
        QStringList keys;
        for (const auto& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        const QString row = keys.join(", ") + " | " + QString(a->text()).remove('&');
        QVERIFY2(listed.contains(row), qPrintable("not listed: " + row));
    }
    for (const QShortcut* s : m_f.window->findChildren<QShortcut*>()) {
        ++expected;
        QVERIFY2(!s->whatsThis().isEmpty(), qPrintable(s->key().toString()));
        QVERIFY(
            listed.contains(s->key().toString(QKeySequence::NativeText) + " | " + s->whatsThis()));
    }
    QCOMPARE(table->rowCount(), expected);
    QVERIFY(listed.contains("F11 | Presenter Mode"));
    QVERIFY(listed.contains("Home | Decoding panel: first step"));
    QVERIFY(expected >= 20);
}

void TestHelp::aboutNamesVersionsAndModel() {
    QAction* about = helpAction(m_f.window.get(), "About CaptionLens");
    QVERIFY(about);
    about->trigger();
    auto* box = waitForChild<QMessageBox>(m_f.window.get(), "about");
    QVERIFY(box);
    const QString text = box->text();
    QVERIFY2(text.contains("CaptionLens " CL_VERSION), qPrintable(text));
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    QVERIFY2(text.contains(CL_TORCH_VERSION), qPrintable(text)); // as the build found it
    QVERIFY(text.contains("blas", Qt::CaseInsensitive));
    QVERIFY(text.contains("default.pt"));
    QVERIFY(text.contains("2 layers × 4 heads"));
    box->close();
}

void TestHelp::quickTourOpensASampleLesson() {
    m_f.window->setResourceDir(CL_SOURCE_DIR "/resources");
    QAction* tour = helpAction(m_f.window.get(), "Quick Tour");
    QVERIFY(tour);
    tour->trigger();
    auto* list = waitForChild<QListWidget>(m_f.window.get(), "lessons");
    QVERIFY(list);
    QCOMPARE(list->count(), 5);
    QCOMPARE(list->item(1)->text(), QString("Left of or right of"));
    QSignalSpy opened(m_f.window.get(), &ui::MainWindow::lessonOpened);
    // Select the second lesson and press Open, as a person would.
    const QRect row = list->visualItemRect(list->item(1));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
    QCOMPARE(list->currentRow(), 1);
    auto* buttons = list->parentWidget()->findChild<QDialogButtonBox*>();
    QVERIFY(buttons);
    QTest::mouseClick(buttons->button(QDialogButtonBox::Open), Qt::LeftButton);
    QVERIFY(opened.wait(30000));
    QCOMPARE(m_f.window->currentPanel(), QString("scene"));
    QVERIFY(m_f.window->view().valid());
    QVERIFY(m_f.window->lastError().isEmpty());
    // Issue 37: the lessons opened with auto contrast off, their maps a faint smudge.
    QCheckBox* contrast = nullptr;
    for (auto* box : m_f.window->captionPanel()->findChildren<QCheckBox*>())
        if (box->text().startsWith("Auto contrast"))
            contrast = box;
    QVERIFY(contrast);
    QVERIFY(contrast->isChecked());
    for (const QString& path : ui::sampleLessons(CL_SOURCE_DIR "/resources/lessons"))
        QVERIFY2(ui::readLesson(path, CL_SOURCE_DIR "/resources").autoContrast, qPrintable(path));
}

// Issue 37: the Open dialogs started in the folder the program was started from. Triggered as a
// person does, each dialog is read and closed: the bundled folder first, then the folder of the
// newest recent file.
void TestHelp::openDialogsStartInTheBundledFolders() {
    auto* w = m_f.window.get();
    w->setResourceDir(CL_SOURCE_DIR "/resources");
    QSettings().remove("recentImages");
    QSettings().remove("recentCheckpoints");
    const auto startFolder = [&](const char* menu, const char* item) {
        QString folder;
        QTimer::singleShot(200, [&] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                folder = dialog->directory().absolutePath();
                dialog->reject();
            }
        });
        QAction* action = nullptr;
        for (auto* a : w->menuBar()->actions())
            if (a->text().remove('&') == menu)
                for (auto* sub : a->menu()->actions())
                    if (sub->text().remove('&').startsWith(item))
                        action = sub;
        if (action)
            action->trigger();
        return folder;
    };
    const QString resources = QDir(CL_SOURCE_DIR "/resources").absolutePath();
    QCOMPARE(startFolder("File", "Open Image"), resources + "/samples");
    QCOMPARE(startFolder("File", "Open Checkpoint"), resources + "/models");
    QCOMPARE(startFolder("File", "Open Lesson"), resources + "/lessons");
    QTemporaryDir elsewhere;
    QSettings().setValue("recentImages", QStringList{elsewhere.filePath("photo.jpg")});
    QCOMPARE(startFolder("File", "Open Image"), QDir(elsewhere.path()).absolutePath());
    QSettings().remove("recentImages");
}

void TestHelp::lessonTitlesComeFromFileNames() {
    QCOMPARE(ui::lessonTitle("/x/3-position-code-matters.cllesson"),
             QString("Position code matters"));
    QCOMPARE(ui::lessonTitle("plain.cllesson"), QString("Plain"));
    const QStringList lessons = ui::sampleLessons(CL_SOURCE_DIR "/resources/lessons");
    QCOMPARE(lessons.size(), 5);
    QVERIFY(lessons.first().endsWith("1-where-words-look.cllesson"));
    QVERIFY(ui::sampleLessons(CL_SOURCE_DIR "/no-such-folder").isEmpty());
}

CL_TEST_MAIN(TestHelp)
#include "tst_help.moc"
