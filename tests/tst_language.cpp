// The Korean interface (issue 40): View > Language switches a running window, every panel
// retranslates where it stands, nothing on screen is lost, and back to English leaves no Korean.
// In Korean no text on any panel is an English message of the catalogue, or an English phrase
// that never went through tr() (the catalogue's completeness itself: tests/translations_test.py).
#include "tests/gui_fixture.h"
#include "ui/panels/circuits_panel.h"
#include "ui/panels/explain_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/head_cost_chart.h"
#include "ui/window/help_dialogs.h"
#include "ui/window/language.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocument>

#include <qcustomplot.h>

#include <functional>

#include "tests/test_main.h"

using namespace cl;
using namespace cl::ui;

namespace {

const char* const kPanels[] = {"caption", "attention", "pe",      "decode",   "heads", "beam",
                               "explain", "circuits",  "compare", "timeline", "scene", "train"};

// Every text a person reads in `root`: (where, text).
QList<QPair<QString, QString>> shownTexts(QWidget* root) {
    QList<QPair<QString, QString>> out;
    const auto add = [&](const QObject* o, const QString& t) {
        if (!t.trimmed().isEmpty())
            out.append(
                {QString::fromLatin1(o->metaObject()->className()) + " " + o->objectName(), t});
    };
    QList<QWidget*> all = root->findChildren<QWidget*>();
    all.prepend(root);
    for (QWidget* w : all) {
        if (showsModelWords(w) || !w->isVisible()) // hidden panels are made anew when shown
            continue;
        add(w, w->toolTip());
        if (w->isWindow())
            add(w, w->windowTitle());
        if (auto* l = qobject_cast<QLabel*>(w))
            add(w, l->text());
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            add(w, b->text());
        if (auto* g = qobject_cast<QGroupBox*>(w))
            add(w, g->title());
        if (auto* t = qobject_cast<QTabWidget*>(w))
            for (int i = 0; i < t->count(); ++i)
                add(w, t->tabText(i));
        if (auto* c = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i)
                add(w, c->itemText(i));
        if (auto* t = qobject_cast<QTableWidget*>(w))
            for (int c = 0; c < t->columnCount(); ++c)
                if (t->horizontalHeaderItem(c))
                    add(w, t->horizontalHeaderItem(c)->text());
        if (auto* tile = qobject_cast<AttentionTile*>(w))
            add(w, tile->title());
        if (auto* p = qobject_cast<QCustomPlot*>(w)) {
            for (QCPAxisRect* r : p->axisRects())
                for (QCPAxis* a : r->axes()) {
                    add(w, a->label());
                    if (auto ticks = a->ticker().dynamicCast<QCPAxisTickerText>())
                        for (const QString& tick : ticks->ticks())
                            add(w, tick);
                }
            for (QCPLayoutElement* e : p->plotLayout()->elements(true))
                if (auto* t = qobject_cast<QCPTextElement*>(e))
                    add(w, t->text());
        }
    }
    for (QAction* a : root->findChildren<QAction*>()) {
        add(a, a->text());
        add(a, a->toolTip());
    }
    return out;
}

QString plain(const QString& text) {
    if (!Qt::mightBeRichText(text))
        return text;
    QTextDocument d;
    d.setHtml(text);
    return d.toPlainText();
}

// Two English words in a row that are not the model's words (captions stay English), names,
// units or command lines.
bool englishPhrase(const QString& text, const QSet<QString>& allowed) {
    static const QRegularExpression pair(QStringLiteral("([A-Za-z]{3,})[ -]+([A-Za-z]{3,})"));
    for (auto it = pair.globalMatch(plain(text)); it.hasNext();) {
        const auto m = it.next();
        if (!allowed.contains(m.captured(1).toLower()) ||
            !allowed.contains(m.captured(2).toLower()))
            return true;
    }
    return false;
}

} // namespace

class TestLanguage : public QObject {
    Q_OBJECT
    cltest::GuiFixture m_f;

    QSet<QString> allowedWords() const {
        QSet<QString> out;
        for (const auto& w : m_f.window->model().vocab)
            out.insert(QString::fromStdString(w).toLower());
        for (const char* w :
             {"captionlens", "cli",     "integrated", "gradients", "jensen", "shannon",
              "end",         "start",   "null",       "unk",       "png",    "pdf",
              "csv",         "gif",     "cuda",       "cpu",       "bleu",   "coco",
              "captioning",  "pytorch", "libtorch",   "default",   "run",    "step",
              "cllesson",    "html",    "image",      "grid",      "grad",   "cam"})
            out.insert(QString::fromLatin1(w));
        return out;
    }

    // Every panel once, with the figures that come from the worker (each head's cost, the
    // explanation, every snapshot's caption) on screen: they too must change language.
    void visitEveryPanel() {
        auto* w = m_f.window.get();
        for (const char* p : kPanels) {
            w->showPanel(QString::fromLatin1(p));
            QTest::qWait(30);
        }
        w->showPanel(QStringLiteral("heads"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->headsPanel()->costChart()->costs().drop.empty(), 60000);
        w->showPanel(QStringLiteral("explain"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->explainPanel()->result().maps.empty(), 60000);
        w->showPanel(QStringLiteral("timeline"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->timelinePanel()->animationSnapshots().empty(), 60000);
    }

    // Every text of the window that a switch there and back must give back exactly.
    QStringList staticTexts() {
        QStringList out;
        for (QAction* a : m_f.window->findChildren<QAction*>())
            out << a->text();
        for (auto* b : m_f.window->findChildren<QAbstractButton*>())
            if (!showsModelWords(b))
                out << b->text();
        return out;
    }

    // Each panel in turn, as a person opens it: the texts in view (and every action's) that
    // `wrong` finds. A panel may take a moment (an explanation recomputed): up to 10 s each.
    QStringList offPanels(const std::function<bool(const QString&)>& wrong) {
        auto* w = m_f.window.get();
        QStringList out;
        for (const char* p : kPanels) {
            w->showPanel(QString::fromLatin1(p));
            QStringList found;
            (void)QTest::qWaitFor(
                [&] {
                    found.clear();
                    for (const auto& [where, text] : shownTexts(w))
                        if (wrong(text))
                            found << QStringLiteral("%1 (%2): %3").arg(p, where, text.left(200));
                    return found.isEmpty();
                },
                10000);
            out << found;
        }
        out.removeDuplicates();
        return out;
    }

    QAction* languageAction(const QString& code) {
        return m_f.window->findChild<QAction*>(QStringLiteral("language-") + code);
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_f.start());
        QVERIFY(m_f.openAndWait(m_f.saveScene(8)));
        QVERIFY(m_f.window->openRunFolder(CL_SOURCE_DIR "/resources/models/default-run"));
    }
    void cleanupTestCase() {
        installLanguage(QStringLiteral("en"));
        m_f.stop();
    }

    // The catalogue reads both ways, placeholders and all.
    void shownTextsTranslateBothWays() {
        QVERIFY(koreanCatalogue().size() > 600);
        const QString ko = translateShown(
            QStringLiteral("Cross-attention of “%1”: layer %2, %3").arg("circle", "2", "head 3"),
            "en", "ko");
        QVERIFY2(ko.contains(QStringLiteral("레이어 2")) && ko.contains("circle"), qPrintable(ko));
        QCOMPARE(translateShown(ko, "ko", "en"),
                 QStringLiteral("Cross-attention of “circle”: layer 2, head 3"));
        QCOMPARE(translateShown(QStringLiteral("a red circle"), "en", "ko"),
                 QStringLiteral("a red circle"));
    }

    // One Korean for two English messages of different classes: the widget's class decides.
    void sharedTranslationsFollowTheContext() {
        QHash<QString, QList<CatalogueMessage>> byKorean;
        for (const auto& m : koreanCatalogue())
            if (!m.korean.contains('%'))
                byKorean[m.korean] << m;
        int checked = 0;
        for (const auto& same : std::as_const(byKorean)) {
            QHash<QString, int> perContext;
            for (const auto& m : same)
                ++perContext[m.context];
            for (const auto& m : same)
                if (perContext.size() > 1 && perContext[m.context] == 1 &&
                    m.source != same[0].source) {
                    QCOMPARE(translateShown(m.korean, "ko", "en", {m.context}), m.source);
                    ++checked;
                }
        }
        QVERIFY(checked > 0);
    }

    // Korean from the menu: every panel in Korean, the caption and panel as they were.
    void switchToKoreanAndBack() {
        auto* w = m_f.window.get();
        visitEveryPanel();
        w->showPanel(QStringLiteral("attention"));
        const QString caption = QString::fromStdString(w->view().trace.text());
        const QString fileMenu = w->menuBar()->actions().first()->text();
        const QStringList before = staticTexts();
        QCOMPARE(fileMenu, QStringLiteral("&File"));
        QSignalSpy changed(w, &MainWindow::languageChanged);
        languageAction("ko")->trigger();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(installedLanguage(), QStringLiteral("ko"));
        QVERIFY(w->menuBar()->actions().first()->text().contains(QStringLiteral("파일")));
        QCOMPARE(w->currentPanel(), QStringLiteral("attention"));
        QCOMPARE(QString::fromStdString(w->view().trace.text()), caption);
        QVERIFY(languageAction("ko")->isChecked() && !languageAction("en")->isChecked());
        // Tooltips and the shortcut list drop the Korean mnemonic whole: "열기", not "열기(O)".
        static const QRegularExpression mnemonic(QStringLiteral("\\([A-Z]\\)"));
        for (QAction* a : w->findChildren<QAction*>())
            QVERIFY2(!a->toolTip().contains(mnemonic), qPrintable(a->toolTip()));
        for (const auto& row : shortcutRows(w))
            QVERIFY2(!row.what.contains(mnemonic) && !row.where.contains(mnemonic),
                     qPrintable(row.what + " / " + row.where));

        const QSet<QString> allowed = allowedWords();
        const QStringList english = offPanels([&](const QString& text) {
            return (translateShown(text, "en", "ko") != text && !allowed.contains(text)) ||
                   englishPhrase(text, allowed);
        });
        QVERIFY2(english.isEmpty(), qPrintable(english.join("\n  ")));

        languageAction("en")->trigger();
        QCOMPARE(installedLanguage(), QStringLiteral("en"));
        QCOMPARE(w->menuBar()->actions().first()->text(), fileMenu);
        // Two messages may share one Korean ("Random Scene", "Random scene"): each comes back as
        // it was, not as the other.
        QStringList after = staticTexts(), was = before;
        after.sort();
        was.sort();
        QStringList lost, gained;
        for (const QString& s : was)
            if (!after.contains(s))
                lost << s;
        for (const QString& s : after)
            if (!was.contains(s))
                gained << s;
        QVERIFY2(lost.isEmpty() && gained.isEmpty(),
                 qPrintable("lost: " + lost.join(" | ") + "\ngained: " + gained.join(" | ")));
        static const QRegularExpression hangul(QStringLiteral("[\\x{AC00}-\\x{D7A3}]"));
        const QStringList korean = offPanels([&](const QString& text) {
            return text.contains(hangul) && text != languageName("ko");
        });
        QVERIFY2(korean.isEmpty(), qPrintable(korean.join("\n  ")));
    }

    void unknownLanguageKeepsTheWindow() {
        auto* w = m_f.window.get();
        QVERIFY(w->setLanguage(QStringLiteral("en")));
        QVERIFY(!w->setLanguage(QStringLiteral("xx")));
        QCOMPARE(installedLanguage(), QStringLiteral("en"));
        QVERIFY(w->lastError().contains("xx"));
    }
};

CL_TEST_MAIN(TestLanguage)
#include "tst_language.moc"
