// Every panel at one screen size (the offscreen platform's screen, set per CTest run with a
// configfile; CL_LAYOUT_MODE=presenter or normal): fails on any visible text that does not fit
// its rectangle, sibling labels or buttons that overlap, plot labels that collide, a table that
// must scroll sideways, a window larger than the screen, or presenter mode that lost full screen.
#include "tests/gui_fixture.h"
#include "ui/window/language.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/circuits_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/explain_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/qk_dialog.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/head_cost_chart.h"
#include "ui/widgets/heatmap_plot.h"

#include <QTabBar>
#include <QTabWidget>
#include <QAbstractButton>
#include <QComboBox>
#include <QHeaderView>
#include <QStyleOptionComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QToolBar>
#include "tests/test_main.h"

using namespace cl;

namespace {

QString where(const QWidget* w) {
    QStringList path;
    for (const QWidget* p = w; p && !p->isWindow(); p = p->parentWidget())
        path.prepend(QString::fromLatin1(p->metaObject()->className()).section("::", -1));
    return path.mid(std::max(0, int(path.size()) - 4)).join('/');
}

QString plain(const QString& text) {
    return QString(text).remove(QRegularExpression(QStringLiteral("<[^>]*>"))).left(40);
}

void checkLabel(const QLabel* l, QStringList& out) {
    if (!l->isVisible() || l->text().isEmpty() || l->width() <= 0)
        return;
    const bool cut = l->wordWrap() ? l->heightForWidth(l->width()) > l->height() + 2
                                   : l->sizeHint().width() > l->width() + 2 ||
                                         l->minimumSizeHint().height() > l->height() + 2;
    if (cut)
        out << QStringLiteral("label cut: \"%1\" in %2 (%3x%4, needs %5x%6)")
                   .arg(plain(l->text()), where(l))
                   .arg(l->width())
                   .arg(l->height())
                   .arg(l->sizeHint().width())
                   .arg(l->wordWrap() ? l->heightForWidth(l->width()) : l->sizeHint().height());
}

void checkButton(const QAbstractButton* b, QStringList& out) {
    if (!b->isVisible() || b->text().isEmpty() || qobject_cast<const QToolBar*>(b->parent()))
        return;
    if (b->sizeHint().width() > b->width() + 2)
        out << QStringLiteral("button cut: \"%1\" in %2 (%3 wide, needs %4)")
                   .arg(plain(b->text()), where(b))
                   .arg(b->width())
                   .arg(b->sizeHint().width());
}

// A combo box's current choice whole in its field (the Compare panel's "Cross-attention (ima").
void checkCombo(const QComboBox* box, QStringList& out) {
    // Cut is allowed only where the tooltip gives the whole choice.
    if (!box->isVisible() || box->currentText().isEmpty() ||
        box->toolTip().contains(box->currentText()))
        return;
    QStyleOptionComboBox opt;
    opt.initFrom(box);
    opt.editable = box->isEditable();
    opt.currentText = box->currentText();
    const QRect field =
        box->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, box);
    const int needs = box->fontMetrics().horizontalAdvance(box->currentText());
    if (needs > field.width() + 2)
        out << QStringLiteral("combo box cut: \"%1\" in %2 (%3 wide, needs %4)")
                   .arg(plain(box->currentText()), where(box))
                   .arg(field.width())
                   .arg(needs);
}

// Visible widgets that are children of the same widget must not overlap: labels and buttons,
// and plots and maps (a layout squeezed below its minimum lays them on top of each other: the
// Decoding panel's map over its self-attention plot at 1920x1080, scale 2).
void checkSiblings(const QWidget* parent, QStringList& out) {
    QList<const QWidget*> texts;
    for (const QObject* o : parent->children()) {
        const auto* w = qobject_cast<const QWidget*>(o);
        if (w && w->isVisible() && !w->isWindow() &&
            (qobject_cast<const QLabel*>(w) || qobject_cast<const QAbstractButton*>(w) ||
             qobject_cast<const QCustomPlot*>(w) || qobject_cast<const ui::AttentionTile*>(w)))
            texts << w;
    }
    for (int i = 0; i < texts.size(); ++i)
        for (int j = i + 1; j < texts.size(); ++j) {
            const QRect both = texts[i]->geometry().intersected(texts[j]->geometry());
            if (both.width() > 2 && both.height() > 2)
                out << QStringLiteral("overlap in %1: %2 and %3")
                           .arg(where(parent), where(texts[i]), where(texts[j]));
        }
}

// Tick labels of a text ticker: neighbours' boxes must not overlap.
void checkAxis(const QCPAxis* axis, const QString& what, QStringList& out) {
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || !axis->tickLabels())
        return;
    const QFontMetrics fm(axis->tickLabelFont());
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const bool upright = std::abs(axis->tickLabelRotation()) < 1;
    double lastEnd = -1e9;
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
        if (it.value().isEmpty())
            continue;
        const double centre = axis->coordToPixel(it.key());
        const double extent =
            horizontal && upright ? fm.horizontalAdvance(it.value()) : fm.height();
        const double lo = std::min(centre - extent / 2, centre + extent / 2);
        if (lo < lastEnd - 1) {
            out << QStringLiteral("tick labels collide on %1 at \"%2\"").arg(what, it.value());
            return;
        }
        lastEnd = lo + extent;
    }
}

// A heatmap readable at all: each cell at least 6 logical pixels each way (the Decoding panel's
// self-attention collapsed to a one-row sliver at scale 2).
void checkCells(const ui::HeatmapPlot* map, QStringList& out) {
    if (!map->isVisible() || map->rows() <= 0 || map->cols() <= 0 || !map->axisRect())
        return;
    const QRect area = map->axisRect()->rect();
    const double w = double(area.width()) / map->cols(), h = double(area.height()) / map->rows();
    if (w < ui::HeatmapPlot::kMinCell || h < ui::HeatmapPlot::kMinCell)
        out << QStringLiteral("heatmap cells %1x%2 px (under 6) in %3: %4 x %5 cells in %6x%7")
                   .arg(w, 0, 'f', 1)
                   .arg(h, 0, 'f', 1)
                   .arg(where(map))
                   .arg(map->rows())
                   .arg(map->cols())
                   .arg(area.width())
                   .arg(area.height());
}

// Every word or head a labelled map names is shown, none left blank to make room.
void checkLabelsShown(const ui::HeatmapPlot* map, QStringList& out) {
    if (!map->isVisible() || map->rows() <= 0)
        return;
    for (const QCPAxis* axis : {map->xAxis, map->yAxis}) {
        const QStringList all = axis->property("cl_labels").toStringList();
        const QStringList shown = map->shownLabels(axis);
        for (int i = 0; i < std::min(all.size(), shown.size()); ++i)
            if (!all[i].isEmpty() && shown[i].isEmpty()) {
                out << QStringLiteral("label \"%1\" left out in %2").arg(all[i], where(map));
                break;
            }
    }
}

// Every legend entry whole and inside its plot (the Train chart's "loss, each st" at 960x540).
void checkLegend(QCustomPlot* plot, const QString& name, QStringList& out) {
    if (!plot->legend || !plot->legend->visible())
        return;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        const QCPAbstractLegendItem* item = plot->legend->item(i);
        if (!item) // an empty cell of a wrapped legend
            continue;
        const QRect r = item->outerRect();
        if (r.width() + 1 < item->minimumOuterSizeHint().width() ||
            !plot->rect().adjusted(-1, -1, 1, 1).contains(r))
            out << QStringLiteral("legend entry %1 cut in %2 (%3 px at x %4, needs %5; plot %6)")
                       .arg(i)
                       .arg(name)
                       .arg(r.width())
                       .arg(r.x())
                       .arg(item->minimumOuterSizeHint().width())
                       .arg(plot->width());
    }
}

// An axis title no longer than its plot is high (or wide): the Train chart's right axis read
// "eld-out exact match %" at presenter size on a 960 x 540 screen.
void checkAxisLabel(const QCPAxis* axis, const QString& name,
                    QStringList& out) {
    if (!axis->visible() || axis->label().isEmpty())
        return;
    const int length = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
    // Drawn centred on the axis rect, and what reaches past it may lie under a title or a
    // legend row (the Train legend covered the "h"): the axis rect's own length is the room.
    const QRect rect = axis->axisRect()->rect();
    const int room = axis->orientation() == Qt::Vertical ? rect.height() : rect.width();
    if (length > room)
        out << QStringLiteral("axis title cut: \"%1\" in %2 (%3 px, needs %4)")
                   .arg(plain(axis->label()), name)
                   .arg(room)
                   .arg(length);
}

void checkPlot(QCustomPlot* plot, QStringList& out) {
    if (!plot->isVisible())
        return;
    const QString name = where(plot);
    checkLegend(plot, name, out);
    if (plot->axisRectCount() > 0)
        for (const QCPAxis* axis : plot->axisRect()->axes())
            checkAxisLabel(axis, name, out);
    if (plot->axisRectCount() > 0) {
        checkAxis(plot->xAxis, name + " x", out);
        checkAxis(plot->yAxis, name + " y", out);
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i))) {
            // The title is drawn in its own layout cell (not across the plot), wrapped there.
            const QRect cell = title->outerRect();
            const QRect needed = QFontMetrics(title->font())
                                     .boundingRect(QRect(0, 0, cell.width(), 100000),
                                                   title->textFlags(), title->text());
            if (!title->text().isEmpty() &&
                (needed.width() > cell.width() + 1 || needed.height() > cell.height() + 1))
                out << QStringLiteral("plot title cut: \"%1\" in %2 (%3x%4, needs %5x%6)")
                           .arg(plain(title->text()), name)
                           .arg(cell.width())
                           .arg(cell.height())
                           .arg(needed.width())
                           .arg(needed.height());
        }
}

// On a projector every map the class reads is at least 180 logical px each way (Compare's were
// ~75 px at 1024x768, its JSD matrix ~55 px).
void checkMap(const QWidget* w, QStringList& out) {
    constexpr int kProjectorMap = 180;
    QRect drawn;
    if (const auto* tile = qobject_cast<const ui::AttentionTile*>(w))
        drawn = tile->mapRect();
    else if (const auto* plot = qobject_cast<const ui::HeatmapPlot*>(w); plot && plot->rows() > 0)
        drawn = plot->axisRect()->rect();
    if (w->isVisible() && !drawn.isEmpty() &&
        (drawn.width() < kProjectorMap || drawn.height() < kProjectorMap))
        out << QStringLiteral("map %1x%2 px (under 180) in %3")
                   .arg(drawn.width())
                   .arg(drawn.height())
                   .arg(where(w));
}

// The maps of each panel (not thumbnails): the image under the caption, the large attention
// matrix, the Decoding panel's map of the step, Compare's A, B, A-B and JSD matrix.
QList<const QWidget*> projectorMaps(const ui::MainWindow* w) {
    QList<const QWidget*> maps{w->captionPanel()->imageTile(), w->attentionPanel()->largePlot(),
                               w->decodePanel()->crossTile(),
                               w->comparePanel()->divergencePlot()};
    for (const auto* tile : w->comparePanel()->findChildren<ui::AttentionTile*>())
        maps << tile;
    return maps;
}

QStringList problems(QWidget* root, bool projector) {
    QStringList out;
    if (const auto* w = qobject_cast<const ui::MainWindow*>(root); w && projector)
        for (const QWidget* map : projectorMaps(w))
            checkMap(map, out);
    for (auto* l : root->findChildren<QLabel*>())
        checkLabel(l, out);
    for (auto* b : root->findChildren<QAbstractButton*>())
        checkButton(b, out);
    for (auto* c : root->findChildren<QComboBox*>())
        checkCombo(c, out);
    checkSiblings(root, out);
    for (auto* w : root->findChildren<QWidget*>())
        checkSiblings(w, out);
    for (auto* p : root->findChildren<QCustomPlot*>())
        checkPlot(p, out);
    for (auto* m : root->findChildren<ui::HeatmapPlot*>()) {
        checkCells(m, out);
        checkLabelsShown(m, out);
    }
    // Bars squeezed flat under their title and head names (Heads, presenter size at 960 x 540).
    for (auto* c : root->findChildren<ui::HeadCostChart*>())
        if (c->isVisible() && c->axisRect()->rect().height() < ui::HeadCostChart::kLeastBars)
            out << QStringLiteral("bars %1 px high in %2")
                       .arg(c->axisRect()->rect().height())
                       .arg(where(c));
    for (auto* t : root->findChildren<ui::AttentionTile*>())
        if (t->isVisible() && !t->titleFits())
            out << QStringLiteral("tile title cut: \"%1\" in %2").arg(t->title(), where(t));
    for (auto* t : root->findChildren<QTableWidget*>()) {
        if (!t->isVisible())
            continue;
        if (t->horizontalScrollBar()->isVisible())
            out << QStringLiteral("table cut (scrolls sideways): %1").arg(where(t));
        // The row a panel selected for the class (the snapshot, the word) is in view: the
        // Timeline's last snapshot sat below a three-row table in presenter mode.
        const auto chosen = t->selectionModel() ? t->selectionModel()->selectedRows() : QModelIndexList{};
        if (!chosen.isEmpty() &&
            !t->viewport()->rect().contains(t->visualRect(chosen.first()).center()))
            out << QStringLiteral("selected row %1 (y %2, %3 high) out of view (%4 high) in %5")
                       .arg(chosen.first().row())
                       .arg(t->visualRect(chosen.first()).y())
                       .arg(t->visualRect(chosen.first()).height())
                       .arg(t->viewport()->height())
                       .arg(where(t));
        // No cell text cut ("row 1, colu…"): a wrapping table's rows are as high as their text
        // needs at the columns' widths, another's columns as wide as their text.
        const auto* view = static_cast<const QAbstractItemView*>(t); // public there
        for (int r = 0; t->wordWrap() && r < t->rowCount(); ++r)
            if (!t->isRowHidden(r) && t->rowHeight(r) + 2 < view->sizeHintForRow(r)) {
                out << QStringLiteral("table row %1 cut (%2 px high, needs %3) in %4")
                           .arg(r)
                           .arg(t->rowHeight(r))
                           .arg(view->sizeHintForRow(r))
                           .arg(where(t));
                break;
            }
        const QHeaderView* header = t->horizontalHeader();
        for (int c = 0; header->isVisible() && c < t->columnCount(); ++c)
            if (!t->isColumnHidden(c) && header->sectionSize(c) + 2 < header->sectionSizeHint(c))
                out << QStringLiteral("column title %1 cut (%2 px, needs %3) in %4")
                           .arg(c)
                           .arg(header->sectionSize(c))
                           .arg(header->sectionSizeHint(c))
                           .arg(where(t));
        for (int c = 0; !t->wordWrap() && c < t->columnCount(); ++c)
            if (!t->isColumnHidden(c) && t->columnWidth(c) + 2 < view->sizeHintForColumn(c))
                out << QStringLiteral("table column %1 cut (%2 px, needs %3) in %4")
                           .arg(c)
                           .arg(t->columnWidth(c))
                           .arg(view->sizeHintForColumn(c))
                           .arg(where(t));
    }
    out.removeDuplicates();
    return out;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void cleanupTestCase() { m_f.stop(); }
    void everyPanelFits_data();
    void everyPanelFits();
    void dialogsKeepFullScreen();
    void qkDialogReadsLikeTheWindow();

  private:
    bool m_presenter = false;
    cltest::GuiFixture m_f;
};

void TestLayout::initTestCase() {
    m_presenter = qEnvironmentVariable("CL_LAYOUT_MODE") == QLatin1String("presenter");
    // Layout and plot warnings the window once printed at start-up: an empty flow layout's
    // minimum of -1 x -1, presenter mode asking a colour-bar plot for an axis rect.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("Negative sizes|invalid axis rect")));
    if (qEnvironmentVariable("CL_LAYOUT_LANGUAGE") == QLatin1String("ko"))
        QVERIFY(ui::installLanguage(QStringLiteral("ko"))); // the window is made in Korean
    QVERIFY(m_f.start());
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(8))); // three objects: the longest captions
    if (m_presenter)
        w->setPresenterMode(true);
    QSignalSpy compared(w, &ui::MainWindow::compared);
    w->comparePanel()->setPaths(
        {cltest::kModel, CL_SOURCE_DIR "/resources/models/no-position2d.pt"});
    w->showPanel("compare");
    QVERIFY(compared.wait(60000));
    QVERIFY(w->openRunFolder(CL_SOURCE_DIR "/resources/models/default-run"));
    QVERIFY(compared.wait(60000));
}

void TestLayout::everyPanelFits_data() {
    QTest::addColumn<QString>("panel");
    for (const char* p :
         {"caption", "attention", "pe", "decode", "heads", "beam", "explain", "circuits", "compare",
          "timeline", "scene", "train"})
        QTest::newRow(p) << QString(p);
}

void TestLayout::everyPanelFits() {
    QFETCH(QString, panel);
    auto* w = m_f.window.get();
    w->showPanel(panel);
    if (panel == "decode") // the last step: the longest step line
        w->selection()->setStep(int(w->view().trace.steps.size()) - 1);
    if (panel == "explain") // its maps arrive from the worker
        QTRY_VERIFY_WITH_TIMEOUT(!w->explainPanel()->result().maps.empty(), 60000);
    if (panel == "circuits") { // a pair and its figures: every part of the panel shown
        auto* c = w->circuitsPanel();
        QVERIFY(c->setCorruptImage(m_f.saveScene(9)));
        c->run();
        QTRY_VERIFY_WITH_TIMEOUT(!c->running() && !c->result().patch.sites.empty(), 60000);
    }
    if (panel == "heads") { // its costs arrive from the worker; sorted, the title is longest
        QTRY_VERIFY_WITH_TIMEOUT(!w->headsPanel()->costChart()->costs().drop.empty(), 60000);
        w->headsPanel()->sortButton()->setChecked(true);
    }
    QTest::qWait(150); // queued replots, layouts
    const QRect screen = w->screen()->availableGeometry();
    QVERIFY2(screen.width() >= w->width() && screen.height() >= w->height(),
             qPrintable(QStringLiteral("window %1x%2 on a %3x%4 screen")
                            .arg(w->width())
                            .arg(w->height())
                            .arg(screen.width())
                            .arg(screen.height())));
    if (m_presenter)
        QVERIFY2(w->isFullScreen() && w->geometry() == w->screen()->geometry(),
                 "presenter mode left full screen");
    // A page may scroll down, but not sideways for a line of text (the Decoding panel's step line
    // widened its page past a 1024 px projector). The Positions heatmap may: 128 columns.
    if (panel != "pe") {
        const QWidget* page = w->findChild<QTabWidget*>()->currentWidget();
        const auto* area = qobject_cast<const QScrollArea*>(page);
        QVERIFY2(!area || !area->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("the %1 page scrolls sideways").arg(panel)));
    }
    // The Timeline's maps: a whole row of them in view, not cut in half by the splitter.
    if (panel == "timeline") { // clipped by the maps' own scroll area, not the page's
        const auto tiles = w->timelinePanel()->findChildren<ui::AttentionTile*>();
        const bool whole = std::any_of(tiles.begin(), tiles.end(), [](const ui::AttentionTile* t) {
            const QWidget* view = t->parentWidget()->parentWidget(); // host, then viewport
            const QRect r(t->mapTo(view, QPoint(0, 0)), t->size());
            return view->rect().contains(r);
        });
        QVERIFY2(whole, "no Timeline map is shown whole");
    }
    const QStringList found = problems(w, m_presenter);
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n  ")));
    // Every tab title in view: a tab bar that must scroll hides panels from the class.
    const QTabBar* bar = w->findChild<QTabWidget*>()->tabBar();
    for (int i = 0; i < bar->count(); ++i)
        QVERIFY2(bar->tabRect(i).right() < bar->width(),
                 qPrintable(QStringLiteral("tab '%1' ends at %2 of %3")
                                .arg(bar->tabText(i))
                                .arg(bar->tabRect(i).right())
                                .arg(bar->width())));
}

void TestLayout::dialogsKeepFullScreen() {
    if (!m_presenter) {
        QTest::qSkip("presenter mode only", __FILE__, __LINE__); // QSKIP warns under clang
        return;
    }
    auto* w = m_f.window.get();
    w->showPanel("scene");
    auto* editor = w->sceneEditor();
    QSignalSpy view(w, &ui::MainWindow::viewUpdated);
    editor->addObject();
    QVERIFY(view.wait(30000));
    QVERIFY(w->isFullScreen());
    QSignalSpy errors(w, &ui::MainWindow::errorShown);
    w->openImage(m_f.dir.filePath("missing.png")); // an error dialog (dialogs are off in tests)
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY(w->isFullScreen());
}

// The Q.K walkthrough is a window of its own: it takes the window's font (presenter mode's
// larger one too; it kept the normal size), and its texts fit.
void TestLayout::qkDialogReadsLikeTheWindow() {
    auto* w = m_f.window.get();
    w->showPanel("explain");
    auto* panel = w->explainPanel();
    QTest::mouseClick(panel->qkButton(), Qt::LeftButton);
    auto* qk = panel->qkDialog();
    QVERIFY(qk && qk->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(qk->table()->rowCount() > 0, 30000);
    QCOMPARE(qk->font().pointSizeF(), w->font().pointSizeF());
    QCOMPARE(qk->table()->font().pointSizeF(), w->font().pointSizeF());
    QTest::qWait(150);
    QStringList found = problems(qk, m_presenter);
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n  ")));
    // Cross-attention: its keys are image cells ("row 1, column 2", cut to "row 1, colu…" in
    // presenter mode). Chosen as a person does: the box, then the arrow key.
    const int rows = qk->table()->rowCount();
    qk->kindBox()->setFocus();
    QTest::keyClick(qk->kindBox(), Qt::Key_Down);
    QCOMPARE(qk->kindBox()->currentIndex(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(qk->table()->rowCount() != rows, 30000);
    QTest::qWait(150);
    found = problems(qk, m_presenter);
    QVERIFY2(found.isEmpty(), qPrintable(found.join("\n  ")));
    qk->close();
}

CL_TEST_MAIN(TestLayout)
#include "tst_layout.moc"
