// The window driven through its real code paths (offscreen): the model worker thread, file
// opening, word selection, errors that keep the previous state, and rapid switching.
#include "tests/gui_fixture.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/beam_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/explain_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/qk_dialog.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/train_panel.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/explain_tile.h"
#include "ui/widgets/head_cost_chart.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/word_chips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
#include <QTableWidget>
#include <QTreeWidget>
#include "tests/test_main.h"

using namespace cl;

class TestGui : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void captionMatchesCli();
    void attentionGridHasEveryHead();
    void clickingAWordChangesTheOverlay();
    void corruptImageKeepsPreviousState();
    void corruptCheckpointKeepsPreviousModel();
    void textFromFilesIsNeverMarkup();
    void survivesRapidSwitches();
    void longThenShortCaption();
    void exportsPngAndCsv();
    void outOfWorldImageSaysSo();
    void beamHypothesisShowsEverywhere();
    void explainPanelExplainsTheSelectedWord();
    void headsPanelShowsWhatEachHeadCosts();

  private:
    bool openAndWait(const QString& image) { return m_f.openAndWait(image); }
    QString saveScene(quint64 seed) { return m_f.saveScene(seed); }
    cltest::GuiFixture m_f;
};

void TestGui::init() {
    QVERIFY(m_f.start());
}
void TestGui::cleanup() {
    m_f.stop();
}

void TestGui::captionMatchesCli() {
    const QString image = saveScene(42);
    QVERIFY(openAndWait(image));
    QProcess cli;
    cli.start(CL_CLI, {"caption", "--checkpoint", cltest::kModel, image});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QString expected = QString(cli.readAllStandardOutput()).trimmed();
    QVERIFY(!expected.isEmpty());
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), expected);
    QCOMPARE(m_f.window->captionPanel()->captionText(), expected);
}

void TestGui::attentionGridHasEveryHead() {
    QVERIFY(openAndWait(saveScene(7)));
    const auto& c = m_f.window->model().config;
    auto* panel = m_f.window->attentionPanel();
    QCOMPARE(panel->thumbnailCount(), int(c.numLayers * (c.numHeads + 1))); // + average column
    for (int l = 0; l < c.numLayers; ++l)
        for (int h = 0; h < c.numHeads; ++h) {
            auto* plot = panel->thumbnail(l, h);
            QVERIFY(plot);
            const int t = int(m_f.window->view().trace.steps.size());
            QCOMPARE(plot->rows(), t);
            QVERIFY(plot->describeCell(0, 1).contains("masked")); // causal mask is empty
        }
    QCOMPARE(panel->crossTileCount(), int(c.numLayers * (c.numHeads + 1)));
    QCOMPARE(panel->stripTileCount(), int(m_f.window->view().trace.steps.size()));
    // Clicking a thumbnail selects that head for the large view.
    QTest::mouseClick(panel->thumbnail(1, 2), Qt::LeftButton, {}, QPoint(40, 50));
    QCOMPARE(m_f.window->selection()->layer(), 1);
    QCOMPARE(m_f.window->selection()->head(), 2);
}

void TestGui::clickingAWordChangesTheOverlay() {
    QVERIFY(openAndWait(saveScene(3)));
    auto* panel = m_f.window->captionPanel();
    auto* chips = panel->chips();
    QVERIFY(chips->count() >= 4);
    QTest::mouseClick(chips->chip(0), Qt::LeftButton);
    QCOMPARE(m_f.window->selection()->step(), 0);
    const QImage before = panel->imageTile()->composed();
    QTest::mouseClick(chips->chip(3), Qt::LeftButton); // the first shape word
    QCOMPARE(m_f.window->selection()->step(), 3);
    const QImage after = panel->imageTile()->composed();
    QCOMPARE(after.size(), before.size());
    QVERIFY(after != before);
    QVERIFY(chips->chip(3)->isChecked());
}

void TestGui::corruptImageKeepsPreviousState() {
    QVERIFY(openAndWait(saveScene(5)));
    const QString caption = QString::fromStdString(m_f.window->view().trace.text());
    const QImage image = m_f.window->view().image;
    QFile bad(m_f.dir.filePath("broken.png"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("\x89PNG\r\n\x1a\n this is not the rest of a png");
    bad.close();
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    m_f.window->openImage(bad.fileName()); // decoded off the GUI thread
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY(m_f.window->lastError().contains("broken.png"));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), caption);
    QCOMPARE(m_f.window->view().image, image);
    QCOMPARE(m_f.window->captionPanel()->captionText(), caption);
}

void TestGui::corruptCheckpointKeepsPreviousModel() {
    QVERIFY(openAndWait(saveScene(6)));
    const QString caption = QString::fromStdString(m_f.window->view().trace.text());
    QFile bad(m_f.dir.filePath("student.pt"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray(500, 'x'));
    bad.close();
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    m_f.window->openCheckpoint(bad.fileName());
    QVERIFY(errors.wait(30000));
    QVERIFY(m_f.window->lastError().contains("not a PyTorch zip checkpoint"));
    QCOMPARE(QString::fromStdString(m_f.window->model().path), cltest::kModel);
    QCOMPARE(m_f.window->captionPanel()->captionText(), caption);
    // The old model still works.
    QVERIFY(openAndWait(saveScene(6)));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), caption);
}

void TestGui::textFromFilesIsNeverMarkup() {
    // A vocabulary word holding markup is shown as its characters in the Heads panel's rich text,
    // and a file name holding markup and a control byte reaches the error escaped and plain.
    QVERIFY(openAndWait(saveScene(6)));
    ui::CaptionView view = m_f.window->view();
    view.trace.steps[0].token = "<a href='x'>click</a>";
    m_f.window->headsPanel()->setView(view);
    QVERIFY2(m_f.window->headsPanel()->captionsText().contains("&lt;a href='x'&gt;click&lt;/a&gt;"),
             qPrintable(m_f.window->headsPanel()->captionsText()));
    const QString named = m_f.dir.filePath("<b>bold<i>\x1b[2J.pt");
    QFile bad(named);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray(500, 'x'));
    bad.close();
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    m_f.window->openCheckpoint(named);
    QVERIFY(errors.wait(30000));
    QVERIFY2(m_f.window->lastError().contains("<b>bold<i>\\x1b[2J.pt"),
             qPrintable(m_f.window->lastError()));
}

void TestGui::survivesRapidSwitches() {
    QSignalSpy updates(m_f.window.get(), &ui::MainWindow::viewUpdated);
    for (quint64 seed = 100; seed < 150; ++seed)
        m_f.window->openRandomScene(seed);
    QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy(), 60000);
    QVERIFY(updates.count() >= 1);
    QVERIFY(updates.count() < 50); // superseded requests were dropped, not all drawn
    QCOMPARE(m_f.window->view().imageName, QString("scene 149")); // the last request wins
    const QString last = saveScene(149);
    const QString shown = QString::fromStdString(m_f.window->view().trace.text());
    QVERIFY(openAndWait(last));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), shown);
}

void TestGui::longThenShortCaption() {
    // Regression: the last word of a long caption selected, then a short caption arrives (and
    // back): every panel must clamp the step (this once threw out_of_range).
    QVERIFY(openAndWait(saveScene(2))); // three objects: 15 words
    const int longSteps = int(m_f.window->view().trace.steps.size());
    m_f.window->selection()->setStep(longSteps - 1);
    for (const QString panel : {"caption", "attention", "pe", "decode"}) {
        m_f.window->showPanel(panel);
        QVERIFY(openAndWait(saveScene(1))); // one object: 4 words
        QVERIFY(int(m_f.window->view().trace.steps.size()) < longSteps);
        QVERIFY(m_f.window->selection()->step() < int(m_f.window->view().trace.steps.size()));
        m_f.window->selection()->setStep(longSteps + 3); // beyond this caption: panels clamp
        QVERIFY(openAndWait(saveScene(2)));
        m_f.window->selection()->setStep(longSteps - 1);
    }
}

void TestGui::exportsPngAndCsv() {
    QVERIFY(openAndWait(saveScene(8)));
    QVERIFY(m_f.window->exportView(m_f.dir.filePath("view.png")));
    QVERIFY(QImage(m_f.dir.filePath("view.png")).width() > 400);
    QVERIFY(m_f.window->exportView(m_f.dir.filePath("view.pdf")));
    QFile pdf(m_f.dir.filePath("view.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5) == "%PDF-");
    QVERIFY(m_f.window->exportAttentionCsv(m_f.dir.filePath("a.csv")));
    QFile csv(m_f.dir.filePath("a.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const auto lines = QString(csv.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), int(m_f.window->view().trace.steps.size()) + 1);
    // The header names the matrix (layer, head) and the words on both axes.
    m_f.window->selection()->setLayerHead(1, 2);
    QVERIFY(m_f.window->exportAttentionCsv(m_f.dir.filePath("b.csv")));
    QFile named(m_f.dir.filePath("b.csv"));
    QVERIFY(named.open(QIODevice::ReadOnly));
    const QString header = QString(named.readLine()).trimmed();
    QVERIFY2(header.startsWith("\"layer 2, head 3: query \\ key\",<START>,"), qPrintable(header));
    QVERIFY(lines[0].startsWith("\"layer "));
    QVERIFY(m_f.window->statusBar()->currentMessage().contains(m_f.dir.filePath("b.csv")));
    // Descriptive default names: input, panel, layer, head and word.
    const QString name = m_f.window->exportName("attention", "png");
    QVERIFY2(name.startsWith("scene8-attention-L2-H3-") && name.endsWith(".png"), qPrintable(name));
    // The Explain panel's export says what its own boxes show (before: "L2-avg" while its head
    // box said 1, as the average of the heads is no explanation's head).
    m_f.window->selection()->setLayerHead(1, -1);
    m_f.window->showPanel("explain");
    const QString explained = m_f.window->exportName("explain", "png");
    QVERIFY2(explained.startsWith("scene8-explain-L2-H1-") && !explained.contains("avg"),
             qPrintable(explained));
}

// The bundled model carries its world statistics: a scene of its world shows no notice, a noise
// image shows the one sentence, and the next in-world image takes it away again.
void TestGui::outOfWorldImageSaysSo() {
    QVERIFY(m_f.window->model().worldCalibrated);
    auto* panel = m_f.window->captionPanel();
    QVERIFY(openAndWait(saveScene(11)));
    QVERIFY(panel->worldNotice().isEmpty());
    QImage noise(96, 96, QImage::Format_RGB32);
    quint32 state = 12345;
    for (int y = 0; y < noise.height(); ++y)
        for (int x = 0; x < noise.width(); ++x) {
            state = state * 1664525u + 1013904223u;
            noise.setPixel(x, y, state >> 8);
        }
    const QString path = m_f.dir.filePath("noise.png");
    QVERIFY(noise.save(path));
    QVERIFY(openAndWait(path));
    QVERIFY2(panel->worldNotice().contains("unlike anything the model was trained on"),
             qPrintable(panel->worldNotice()));
    QVERIFY(m_f.window->view().trace.outOfWorld());
    // Issue 37: Decoding, Beam and the title showed a photo's caption with no warning.
    QCOMPARE(m_f.window->decodePanel()->worldNotice(), panel->worldNotice());
    QCOMPARE(m_f.window->beamPanel()->worldNotice(), panel->worldNotice());
    // Every panel that shows the caption or its attention says so too (before: Caption,
    // Decoding and Beam only; the Attention, Explain and Heads panels drew the maps of a guess).
    QCOMPARE(m_f.window->attentionPanel()->worldNotice(), panel->worldNotice());
    QCOMPARE(m_f.window->explainPanel()->worldNotice(), panel->worldNotice());
    QCOMPARE(m_f.window->headsPanel()->worldNotice(), panel->worldNotice());
    // And the panels that caption the same image with other models (Compare, Timeline, the
    // Train panel's probe), each brought up to date as it is shown: the open model judges it.
    for (const char* tab : {"compare", "timeline", "train"})
        m_f.window->showPanel(tab);
    QCOMPARE(m_f.window->comparePanel()->worldNotice(), panel->worldNotice());
    QCOMPARE(m_f.window->timelinePanel()->worldNotice(), panel->worldNotice());
    QCOMPARE(m_f.window->trainPanel()->worldNotice(), panel->worldNotice());
    m_f.window->showPanel("caption");
    // The attention CSV's corner cell says so too (its rows and columns are the guessed words).
    QVERIFY(m_f.window->exportAttentionCsv(m_f.dir.filePath("guess.csv")));
    QFile csv(m_f.dir.filePath("guess.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readLine().contains("(image out of the training world: the caption is a guess)"));
    QVERIFY2(m_f.window->windowTitle().contains("(a guess: out of the training world)"),
             qPrintable(m_f.window->windowTitle()));
    // A lesson of the photo says it again when it is opened on another day.
    const QString lesson = m_f.dir.filePath("guess.cllesson");
    QVERIFY(m_f.window->saveLesson(lesson));
    QVERIFY(openAndWait(saveScene(13)));
    QVERIFY(panel->worldNotice().isEmpty());
    QSignalSpy opened(m_f.window.get(), &ui::MainWindow::lessonOpened);
    m_f.window->openLesson(lesson);
    QVERIFY(opened.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy(), 30000);
    m_f.window->showPanel("caption");
    QVERIFY2(panel->worldNotice().contains("unlike anything the model was trained on"),
             qPrintable(panel->worldNotice()));
    QVERIFY(openAndWait(saveScene(12)));
    QVERIFY(panel->worldNotice().isEmpty());
    QVERIFY(m_f.window->decodePanel()->worldNotice().isEmpty());
    QVERIFY(m_f.window->beamPanel()->worldNotice().isEmpty());
    QVERIFY(m_f.window->headsPanel()->worldNotice().isEmpty());
    for (const char* tab : {"compare", "timeline", "caption"})
        m_f.window->showPanel(tab);
    QVERIFY(m_f.window->comparePanel()->worldNotice().isEmpty());
    QVERIFY(m_f.window->timelinePanel()->worldNotice().isEmpty());
    QVERIFY(!m_f.window->windowTitle().contains("a guess"));
}

// Beam search: the tab searches by itself, Search asks again, clicking a hypothesis shows it in
// every panel with the results kept, and Back to greedy returns.
void TestGui::beamHypothesisShowsEverywhere() {
    QVERIFY(openAndWait(saveScene(21)));
    const QString greedy = QString::fromStdString(m_f.window->view().trace.text());
    m_f.window->showPanel("beam");
    auto* panel = m_f.window->beamPanel();
    auto* list = panel->hypothesisList();
    QTRY_VERIFY_WITH_TIMEOUT(list->count() >= 2, 30000);
    QCOMPARE(panel->greedyText(), greedy);
    list->clear();
    QTest::mouseClick(panel->searchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(list->count() >= 2, 30000);
    QCOMPARE(list->count(), int(panel->hypotheses().size()));
    int row = 0;
    while (QString::fromStdString(panel->hypotheses()[size_t(row)].text()) == greedy)
        ++row;
    const QString wanted = QString::fromStdString(panel->hypotheses()[size_t(row)].text());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      list->visualItemRect(list->item(row)).center());
    QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(m_f.window->view().trace.text()), wanted,
                              30000);
    QCOMPARE(m_f.window->captionPanel()->captionText(), wanted);
    // Issue 37: the Caption panel said nothing of the caption not being the greedy one.
    QVERIFY(m_f.window->captionPanel()->beamText().contains("not the greedy caption"));
    QCOMPARE(list->count(), int(panel->hypotheses().size())); // kept: the same image
    QVERIFY(panel->greedyButton()->isEnabled());
    QTest::mouseClick(panel->greedyButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(m_f.window->view().trace.text()), greedy,
                              30000);
    QVERIFY(m_f.window->captionPanel()->beamText().isEmpty());
    // The tree: <START>, then every step's candidates under their parents.
    QCOMPARE(panel->tree()->topLevelItemCount(), 1);
    QVERIFY(panel->tree()->topLevelItem(0)->childCount() >= 2);
}

void TestGui::explainPanelExplainsTheSelectedWord() {
    m_f.window->openRandomScene(4); // a scene with ground truth: the pointing game is scored
    QTRY_VERIFY_WITH_TIMEOUT(m_f.window->view().valid() && !m_f.window->busy(), 30000);
    m_f.window->showPanel("explain");
    auto* panel = m_f.window->explainPanel();
    // The first word is explained as soon as the panel shows.
    QTRY_VERIFY_WITH_TIMEOUT(panel->result().maps.size() == allExplainMethods().size(), 60000);
    QCOMPARE(panel->result().word, int64_t(m_f.window->selection()->step()));
    // A person picks the fourth word (the first object's shape) with the keyboard.
    auto* words = panel->wordBox();
    words->setFocus();
    QTest::keyClick(words, Qt::Key_Home);
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(words, Qt::Key_Down);
    QCOMPARE(words->currentIndex(), 3);
    QCOMPARE(m_f.window->selection()->step(), 3); // every panel follows
    QTRY_COMPARE_WITH_TIMEOUT(panel->result().word, int64_t(3), 60000);
    QCOMPARE(QString::fromStdString(panel->result().token),
             QString::fromStdString(m_f.window->view().trace.steps[3].token));
    QVERIFY(panel->status().contains(QString::fromStdString(panel->result().token)));
    for (auto* tile : panel->tiles()) {
        QVERIFY(!tile->map()->composed().isNull());
        QVERIFY(tile->map()->titleFits());
        QVERIFY(tile->curves()->isVisible());
        QVERIFY2(tile->figures()->text().contains("the object"), // a shapes scene: pointing
                 qPrintable(tile->figures()->text()));
        QVERIFY2(!tile->figures()->text().endsWith(">0 ms"), // sub-millisecond maps say so
                 qPrintable(tile->figures()->text()));
    }
    QVERIFY(panel->tiles()[0]->figures()->text().endsWith("&lt; 1 ms")); // read from the trace
    QVERIFY(panel->tiles()[0]->map()->title().contains("Cross-attention"));
    // Curves off: the next answer comes without them.
    QTest::mouseClick(panel->curvesBox(), Qt::LeftButton, {},
                      QPoint(8, panel->curvesBox()->height() / 2));
    QVERIFY(!panel->curvesBox()->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(panel->result().maps.front().deletion.empty(), 60000);
    QVERIFY(!panel->tiles()[0]->curves()->isVisible());
    // Explain again asks anew (the answer replaces the maps, the word stays).
    const double before = panel->result().maps.front().milliseconds;
    QTest::mouseClick(panel->explainButton(), Qt::LeftButton);
    QVERIFY(panel->status().startsWith("Explaining"));
    QTRY_VERIFY_WITH_TIMEOUT(!panel->status().startsWith("Explaining"), 60000);
    QCOMPARE(panel->result().word, int64_t(3));
    QVERIFY(panel->result().maps.front().milliseconds != before ||
            panel->status().contains("probability"));
    // Q.K: the walkthrough of the selected word, layer and head; its weights are the trace's.
    QTest::mouseClick(panel->qkButton(), Qt::LeftButton);
    auto* qk = panel->qkDialog();
    QVERIFY(qk && qk->isVisible());
    const auto& trace = m_f.window->view().trace;
    auto* table = qk->table();
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), int(trace.steps.size()), 30000);
    const auto sel = m_f.window->selection();
    const int layer = sel->layer(), head = std::max(0, sel->head());
    for (int k = 0; k < table->rowCount(); ++k) {
        const QString weight = table->item(k, 3)->text();
        QCOMPARE(weight == "0" && table->item(k, 2)->text() == "masked", k > 3);
        if (k <= 3)
            QVERIFY(std::abs(weight.toDouble() - trace.selfWeight(layer, head, 3, k)) < 1e-4);
    }
    QVERIFY(qk->summary().contains("block's output"));
    // Cross-attention, picked with the keyboard: one row per grid cell.
    qk->kindBox()->setFocus();
    QTest::keyClick(qk->kindBox(), Qt::Key_Down);
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), int(trace.memoryTokens), 30000);
    QCOMPARE(table->item(0, 0)->text(), QString("row 1, column 1"));
    qk->close();
}

void TestGui::headsPanelShowsWhatEachHeadCosts() {
    m_f.window->openRandomScene(4);
    QTRY_VERIFY_WITH_TIMEOUT(m_f.window->view().valid() && !m_f.window->busy(), 30000);
    const CaptionTrace every = m_f.window->view().trace;
    m_f.window->showPanel("heads");
    auto* panel = m_f.window->headsPanel();
    auto* chart = panel->costChart();
    const int count = m_f.window->view().headCount();
    // Asked for as the panel shows; every head gets a row and, beside its box, its figure.
    QTRY_COMPARE_WITH_TIMEOUT(int(chart->costs().drop.size()), count, 30000);
    const ui::HeadCosts costs = chart->costs();
    for (int l = 0; l < int(every.layers); ++l)
        for (int kind = 0; kind < 2; ++kind)
            for (int h = 0; h < int(every.heads); ++h) {
                const size_t i = size_t((l * 2 + kind) * every.heads + h);
                QCOMPARE(panel->costLabel(l, kind, h)->text(),
                         QString::number(costs.drop[i], 'f', 2));
            }
    QVERIFY(panel->importanceText().contains("costs the most"));
    // The chart fills the page rather than leaving it empty.
    QVERIFY(chart->height() >= 160);
    QCOMPARE(chart->headAtSlot(0), 0); // the model's order first
    // One click sorts by importance: the top row is the costliest head.
    QTest::mouseClick(panel->sortButton(), Qt::LeftButton);
    QVERIFY(chart->sorted());
    const int top = chart->headAtSlot(0);
    for (size_t i = 0; i < costs.drop.size(); ++i)
        QVERIFY(costs.drop[size_t(top)] >= costs.drop[i]);
    // A click on its bar, where a person clicks, switches that head (and only it) off.
    chart->replot();
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->slotCentre(top));
    QTRY_COMPARE_WITH_TIMEOUT(m_f.window->view().headsOff, 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy(), 30000);
    std::vector<uint8_t> off(size_t(count), 0);
    off[size_t(top)] = 1;
    QCOMPARE(panel->headsOff(), off);
    // The figure is what the ablated model says: without the head the caption either changes
    // (orange) or keeps its words with log-probability lower by exactly the drop.
    const CaptionTrace& ablated = m_f.window->view().trace;
    if (costs.changes[size_t(top)]) {
        QVERIFY(ablated.text() != every.text());
    } else {
        QCOMPARE(ablated.text(), every.text());
        double before = 0, after = 0;
        for (size_t t = 0; t < every.steps.size(); ++t) {
            before += std::log(double(every.steps[t].prob));
            after += std::log(double(ablated.steps[t].prob));
        }
        QVERIFY2(std::abs((before - after) - costs.drop[size_t(top)]) < 1e-3,
                 qPrintable(QString("%1 vs %2").arg(before - after).arg(costs.drop[size_t(top)])));
    }
    // The costs do not depend on the heads switched off: nothing is asked again.
    QCOMPARE(chart->costs().drop, costs.drop);
}

CL_TEST_MAIN(TestGui)
#include "tst_gui.moc"
