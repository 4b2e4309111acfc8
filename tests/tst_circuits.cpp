// The Circuits panel (issue 39) through its real widgets: a pair made with one click from the
// scene on screen, the patching run on the model worker, its grids, image cells, logit lens and
// logit attribution; cancel, a corrupted image of the wrong size, CSV; and the pure functions
// that lay a report out as grids.
#include "tests/gui_fixture.h"
#include "ui/math/circuits_math.h"
#include "ui/panels/circuits_panel.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <qcustomplot.h>

#include <cmath>

#include "tests/test_main.h"

using namespace cl;

class TestCircuits : public QObject {
    Q_OBJECT
    cltest::GuiFixture m_f;
    ui::CircuitsPanel* panel() { return m_f.window->circuitsPanel(); }
    bool runAndWait() {
        QTest::mouseClick(panel()->runButton(), Qt::LeftButton);
        return QTest::qWaitFor([this] { return !panel()->running(); }, 60000) &&
               !panel()->result().patch.sites.empty();
    }

  private slots:
    void initTestCase() { QVERIFY(m_f.start()); }
    void cleanupTestCase() { m_f.stop(); }
    void init() {
        QSignalSpy shown(m_f.window.get(), &ui::MainWindow::viewUpdated);
        m_f.window->openRandomScene(8); // three objects
        QVERIFY(shown.wait(30000));
        m_f.window->showPanel("circuits");
    }

    void gridsLayTheSitesOut();
    void onePairOneClickThenRun();
    void cancelDropsTheAnswer();
    void wrongSizeKeepsThePair();
    void csvHoldsEverySite();
    void newImageClearsThePair();
    void lessonKeepsThePair();
    void runButtonsStayPut();
    void aNewPairClearsTheFigures();
};

void TestCircuits::gridsLayTheSitesOut() {
    PatchReport r;
    r.gridSide = 2;
    auto site = [&r](PatchKind k, int64_t layer, int64_t head, bool cross, int64_t pos,
                     int64_t cell, double v) {
        PatchSite s;
        s.kind = k;
        s.layer = layer;
        s.head = head;
        s.cross = cross;
        s.position = pos;
        s.cell = cell;
        s.restored = v;
        s.estimated = v / 2;
        r.sites.push_back(s);
    };
    site(PatchKind::ImageCell, -1, -1, false, -1, 3, 0.75);
    site(PatchKind::Head, 2, 2, true, 1, -1, 0.5); // L2 cross H2, the last row of 2 x 2 x 2
    site(PatchKind::Head, 1, 1, false, 0, -1, 0.25);
    site(PatchKind::Resid, 0, -1, false, 1, -1, 0.1);
    site(PatchKind::Ffn, 2, -1, false, 0, -1, 0.2);
    site(PatchKind::Resid, 2, -1, false, 1, -1, 1.0);
    const QStringList words{"<START>", "a"};
    const auto h = ui::headGrid(r, words, false);
    QCOMPARE(h.rows, 8);
    QCOMPARE(h.cols, 2);
    QCOMPARE(h.rowLabels.last(), QString("L2 cross H2"));
    QCOMPARE(h.values[7 * 2 + 1], 0.5f);
    QCOMPARE(h.values[0], 0.25f);
    QVERIFY(std::isnan(h.values[1]));
    QCOMPARE(ui::headGrid(r, words, true).values[7 * 2 + 1], 0.25f);
    const auto cross = ui::headGrid(r, words, false, 1); // the cross-attention heads alone
    QCOMPARE(cross.rows, 4);
    QCOMPARE(cross.rowLabels.last(), QString("L2 cross H2"));
    QCOMPARE(cross.values[3 * 2 + 1], 0.5f);
    const auto self = ui::headGrid(r, words, false, 0);
    QCOMPARE(self.rowLabels.first(), QString("L1 self H1"));
    QCOMPARE(self.values[0], 0.25f);
    const auto l = ui::layerGrid(r, words, false);
    QCOMPARE(l.rowLabels, QStringList({"embeddings", "L1 FFN", "after L1", "L2 FFN", "after L2"}));
    QCOMPARE(l.values[0 * 2 + 1], 0.1f);
    QCOMPARE(l.values[3 * 2 + 0], 0.2f);
    QCOMPARE(l.values[4 * 2 + 1], 1.0f);
    QCOMPARE(ui::cellValues(r, false), std::vector<float>({0, 0, 0, 0.75f}));
    const QStringList csv = ui::sitesCsv(r).trimmed().split('\n');
    QCOMPARE(csv.size(), 7);
    QCOMPARE(csv[1], QString("image_cell,,,,,1,1,0.75,0.375"));
    QCOMPARE(csv[2], QString("head,2,2,cross,1,,,0.5,0.25"));
}

void TestCircuits::onePairOneClickThenRun() {
    auto* p = panel();
    QVERIFY(!p->runButton()->isEnabled()); // no pair yet
    QCOMPARE(p->objectBox()->count(), 3);
    p->changeBox()->setCurrentIndex(0); // its colour
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QVERIFY2(p->runButton()->isEnabled(), qPrintable(p->status()));
    QVERIFY(runAndWait());
    const auto& r = p->result().patch;
    QVERIFY(r.cleanCaption != r.corruptCaption);
    QVERIFY(r.cleanLogitDiff > 0 && r.corruptLogitDiff < r.cleanLogitDiff);
    QCOMPARE(QString::fromStdString(r.cleanCaption), QString::fromStdString(m_f.window->view().trace.text()));
    // The grids hold the sites: the head grid's hover text names the figure shown.
    auto* heads = p->headPlot();
    QCOMPARE(heads->rows(), 2 * 4); // the cross-attention heads; self-attention's beside them
    QCOMPARE(p->headPlot(false)->rows(), 2 * 4);
    const int last = int(r.position);
    const QString hover = heads->describeCell(heads->rows() - 1, last);
    QVERIFY2(hover.contains("L2 cross H4") && hover.contains("restores"), qPrintable(hover));
    // The residual stream after the last layer at the measured position carries everything.
    auto* layers = p->layerPlot();
    QVERIFY2(layers->describeCell(layers->rows() - 1, last).contains("restores 1.000"),
             qPrintable(layers->describeCell(layers->rows() - 1, last)));
    QVERIFY(!p->cellTile()->composed().isNull());
    // Hovering the image-cell map reads out the cell under the pointer.
    const QRect map = p->cellTile()->mapRect();
    const QString corner = p->describeCellAt(map.topLeft() + QPoint(2, 2));
    QVERIFY2(corner.startsWith("image cell row 1, column 1: restores"), qPrintable(corner));
    QVERIFY(p->describeCellAt(map.bottomRight() + QPoint(5, 5)).isEmpty());
    // The estimate: the same grid from attribution patching.
    p->showBox()->setCurrentIndex(1);
    QVERIFY(p->showsEstimate());
    QVERIFY(heads->title().contains("estimate"));
    // The logit lens: a row per input word, a column per layer and the embeddings; a click on a
    // row shows that position's logit attribution, whose bars add up to the logit.
    auto* lens = p->lensTable();
    QCOMPARE(lens->columnCount(), 3);
    QCOMPARE(lens->rowCount(), int(p->result().lens.words.size()));
    QTableWidgetItem* cell = lens->item(1, 2);
    QVERIFY(cell);
    QTest::mouseClick(lens->viewport(), Qt::LeftButton, {}, lens->visualItemRect(cell).center());
    QCOMPARE(p->dlaPosition(), 1);
    auto* bars = qobject_cast<QCPBars*>(p->dlaChart()->plottable(0));
    QVERIFY(bars);
    double sum = 0;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        sum += it->value;
    const auto* a = ui::attributionAt(p->result().lens, 1);
    QVERIFY(a);
    QVERIFY2(std::abs(sum - a->logit) < 1e-3, qPrintable(QString("%1 vs %2").arg(sum).arg(a->logit)));
    QCOMPARE(p->exportTag(), QString("colour-of-%1-pos%2").arg(p->pairObject() + 1).arg(last));
}

void TestCircuits::cancelDropsTheAnswer() {
    auto* p = panel();
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QTest::mouseClick(p->runButton(), Qt::LeftButton);
    QVERIFY(p->running());
    QVERIFY(p->cancelButton()->isEnabled());
    QTest::mouseClick(p->cancelButton(), Qt::LeftButton);
    QVERIFY(!p->running());
    QTest::qWait(3000); // the worker finishes; its answer must not land
    QVERIFY2(p->result().patch.sites.empty(), "a cancelled run's figures were shown");
    QVERIFY(p->status().startsWith("Cancelled"));
    QVERIFY(runAndWait()); // and the next run goes through
}

void TestCircuits::wrongSizeKeepsThePair() {
    auto* p = panel();
    p->changeBox()->setCurrentIndex(1); // its shape
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    const QString small = m_f.dir.filePath("small.png");
    QImage(40, 30, QImage::Format_RGB888).save(small);
    QVERIFY(!p->setCorruptImage(small));
    QVERIFY2(p->status().contains(QString::fromUtf8("128\u00a0×\u00a0128")) &&
                 p->status().contains(QString::fromUtf8("40\u00a0×\u00a030")),
             qPrintable(p->status()));
    QCOMPARE(p->pairChange(), 1);
    QVERIFY(p->runButton()->isEnabled());
    const QString broken = m_f.dir.filePath("broken.png");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\x89PNG not really");
    f.close();
    QVERIFY(!p->setCorruptImage(broken));
    QCOMPARE(p->pairChange(), 1);
    // Another image of the same size is a pair of its own.
    QVERIFY(p->setCorruptImage(m_f.saveScene(9)));
    QCOMPARE(p->pairChange(), -1);
    QVERIFY(runAndWait());
}

void TestCircuits::csvHoldsEverySite() {
    auto* p = panel();
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QVERIFY(runAndWait());
    const QString path = m_f.dir.filePath("sites.csv");
    QVERIFY(p->writeCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), int(p->result().patch.sites.size()) + 1);
    QVERIFY(lines.first().startsWith("kind,layer,head"));
}

void TestCircuits::newImageClearsThePair() {
    auto* p = panel();
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QVERIFY(runAndWait());
    QSignalSpy shown(m_f.window.get(), &ui::MainWindow::viewUpdated);
    m_f.window->openRandomScene(11);
    QVERIFY(shown.wait(30000));
    p = panel();
    QVERIFY(p->result().patch.sites.empty());
    QVERIFY(!p->runButton()->isEnabled());
    QCOMPARE(p->pairObject(), -1);
}

// A lesson saved on the Circuits panel reopens with the same pair, word and direction, and runs.
void TestCircuits::lessonKeepsThePair() {
    auto* w = m_f.window.get();
    QSignalSpy shown(w, &ui::MainWindow::viewUpdated);
    auto* p = panel(); // on the Random Scene: the lesson keeps it as a scene
    p->objectBox()->setCurrentIndex(1);
    p->changeBox()->setCurrentIndex(2); // its size
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    p->setNoising(true);
    p->setMeasuredWord(2);
    const QString path = m_f.dir.filePath("circuits.cllesson");
    QVERIFY(w->saveLesson(path));
    QSignalSpy opened(w, &ui::MainWindow::lessonOpened);
    m_f.window->openRandomScene(12); // something else on screen meanwhile, other choices made
    p->objectBox()->setCurrentIndex(0);
    p->changeBox()->setCurrentIndex(4);
    p->setShowsEstimate(true);
    QVERIFY(shown.wait(30000));
    QVERIFY(panel()->pairObject() == -1);
    w->openLesson(path);
    QVERIFY(opened.wait(30000));
    p = panel();
    QCOMPARE(p->pairObject(), 1);
    QCOMPARE(p->pairChange(), 2);
    QCOMPARE(p->objectBox()->currentIndex(), 1); // the boxes say which pair it is
    QCOMPARE(p->changeBox()->currentIndex(), 2);
    QVERIFY(!p->showsEstimate());
    QVERIFY(p->noising());
    QCOMPARE(p->measuredWord(), 2);
    QVERIFY(QTest::qWaitFor([p] { return !p->running(); }, 60000));
    QVERIFY2(!p->result().patch.sites.empty(), qPrintable(p->status()));
    QVERIFY(p->result().patch.noising);
    QCOMPARE(p->result().patch.position, 2);
}

// A double click on Run must not land on Cancel, and the page must not scroll away: the buttons
// keep their places and the focus stays beside them.
void TestCircuits::runButtonsStayPut() {
    auto* p = panel();
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    const QRect run = p->runButton()->geometry(), cancel = p->cancelButton()->geometry();
    QTest::mouseClick(p->runButton(), Qt::LeftButton);
    QVERIFY(p->running());
    QCOMPARE(p->runButton()->geometry(), run);
    QCOMPARE(p->cancelButton()->geometry(), cancel);
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(p->cancelButton()));
    QVERIFY(QTest::qWaitFor([p] { return !p->running(); }, 60000));
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(p->runButton()));
}

// Figures belong to one pair: a new pair hides them; a pair that cannot be made leaves none.
void TestCircuits::aNewPairClearsTheFigures() {
    auto* p = panel();
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QVERIFY(runAndWait());
    p->changeBox()->setCurrentIndex(1);
    QTest::mouseClick(p->pairButton(), Qt::LeftButton);
    QVERIFY(p->result().patch.sites.empty());
    QVERIFY(!p->headPlot()->isVisibleTo(p));
    // A one-object scene has no relation to flip: no pair, no Run.
    quint64 seed = 0;
    while (generateScene(seed).spec.objects.size() != 1)
        ++seed;
    QSignalSpy shown(m_f.window.get(), &ui::MainWindow::viewUpdated);
    m_f.window->openRandomScene(seed);
    QVERIFY(shown.wait(30000));
    p = panel();
    QVERIFY(p->makeScenePair(0, 0)); // its colour can change
    QVERIFY(p->runButton()->isEnabled());
    QVERIFY(!p->makeScenePair(0, 3)); // its position cannot
    QVERIFY(!p->runButton()->isEnabled());
    QCOMPARE(p->pairChange(), -1);
    QCOMPARE(p->changeBox()->currentIndex(), 3);
}

CL_TEST_MAIN(TestCircuits)
#include "tst_circuits.moc"
