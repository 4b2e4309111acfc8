// Comparing checkpoints and the training timeline: the comparison maths, and the panels driven
// through the real window and its workers (offscreen).
#include "model/io/checkpoint.h" // LibTorch before Qt: its headers use the word `slots`

#include "model/evaluation/comparison.h"
#include "app/gui/screenshot.h"
#include "tests/gui_fixture.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/heatmap_plot.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include "tests/test_main.h"

using namespace cl;

namespace {
const QString kRun = QStringLiteral(CL_SOURCE_DIR "/resources/models/default-run");
const QString kSample = QStringLiteral(CL_SOURCE_DIR "/resources/samples/two-shapes.png");
const QString kCourse = QStringLiteral(CL_TEST_DATA "/course_2021.pt");

RgbImage sceneImage(quint64 seed) {
    const Scene s = generateScene(seed);
    return {s.spec.side, s.spec.side, s.rgb};
}
} // namespace

class TestCompare : public QObject {
    Q_OBJECT
  private slots:
    void jensenShannonBounds();
    void diffWordsMarksOnlyChanges();
    void modelAgainstItselfHasNoDivergence();
    void forcedProbabilitiesScoreTheOtherCaption();
    void differentShapesCompareEveryPair();
    void differentGridsCompareOnTheirCommonRefinement();
    void panelShowsNoDifferenceForOneModelTwice();
    void panelShowsTwoSnapshotsCaptions();
    void compareShowsTheModelWithItsHeadsOff();
    void emptyListLeavesNoMapsBehind();
    void panelSaysWhatItCannotCompare();
    void differentVocabulariesScoreWhatTheyShare();
    void timelineScrubsThroughTheRun();
    void timelineRejectsAnEmptyFolder();
    void timelineKeepsAtMost64Snapshots();
    void timelineOrdersNamesByNumberInTheCLocale();
    void screenshotWaitsForTheTimelineRows();
    void courseRunOrdersByStepsWithValFigures();

  private:
    bool startWith(const QStringList& compare);
    cltest::GuiFixture m_f;
};

void TestCompare::jensenShannonBounds() {
    const float p[] = {0.5f, 0.5f, 0.f, 0.f}, q[] = {0.f, 0.f, 0.5f, 0.5f};
    const float r[] = {0.25f, 0.25f, 0.25f, 0.25f};
    QCOMPARE(jensenShannon(p, p, 4), 0.0);
    QVERIFY(std::abs(jensenShannon(p, q, 4) - 1.0) < 1e-9); // disjoint: one bit
    QVERIFY(std::abs(jensenShannon(p, r, 4) - jensenShannon(r, p, 4)) < 1e-12);
    const double mid = jensenShannon(p, r, 4);
    QVERIFY(mid > 0.1 && mid < 0.5);
}

void TestCompare::diffWordsMarksOnlyChanges() {
    const std::vector<std::string> a = {"a", "red", "star", "left", "of", "a", "square"};
    const std::vector<std::string> b = {"a", "red", "square", "right", "of", "a", "square"};
    const auto [da, db] = diffWords(a, b);
    QCOMPARE(da, (std::vector<bool>{false, false, true, true, false, false, false}));
    QCOMPARE(db, (std::vector<bool>{false, false, true, true, false, false, false}));
    const auto [same, same2] = diffWords(a, a);
    QVERIFY(std::none_of(same.begin(), same.end(), [](bool x) { return x; }));
}

void TestCompare::modelAgainstItselfHasNoDivergence() {
    auto m = Captioner::open(cltest::kModel.toStdString());
    const auto runs = compareModels({m.get(), m.get()}, sceneImage(5), {}, 20);
    QCOMPARE(runs.size(), size_t(2));
    QCOMPARE(runs[0].own.text(), runs[1].own.text());
    // Model 1 forced on model 0's caption reproduces model 0's probabilities exactly.
    const auto& forced = runs[1].forced[0];
    QCOMPARE(forced.steps.size(), runs[0].own.steps.size());
    for (size_t t = 0; t < forced.steps.size(); ++t)
        QVERIFY(std::abs(forced.steps[t].prob - runs[0].own.steps[t].prob) < 1e-6);
    for (auto kind : {AttentionKind::Cross, AttentionKind::Self}) {
        const auto d = headDivergence(runs[0].own, forced, kind);
        QVERIFY(d.reason.empty());
        QCOMPARE(d.rows, d.cols);
        double offDiagonal = 0;
        for (int64_t i = 0; i < d.rows; ++i) {
            QVERIFY(d.values[size_t(i * d.cols + i)] < 1e-9);
            for (int64_t j = 0; j < d.cols; ++j)
                offDiagonal = std::max(offDiagonal, d.values[size_t(i * d.cols + j)]);
        }
        QVERIFY(offDiagonal > 0.01); // different heads do look at different things
    }
}

void TestCompare::forcedProbabilitiesScoreTheOtherCaption() {
    auto early = Captioner::open((kRun + "/step01000.pt").toStdString());
    auto late = Captioner::open((kRun + "/step48000.pt").toStdString());
    const auto img = loadImage(kSample);
    QVERIFY(img.ok());
    const auto runs = compareModels({late.get(), early.get()}, img.rgb, {}, 20);
    QVERIFY(runs[0].own.text() != runs[1].own.text());
    // The early model, forced on the late model's words, gives them the probabilities a
    // forced decode through the facade gives.
    DecodeOptions opt;
    for (const auto& s : runs[0].own.steps)
        opt.forcedPrefix.push_back(early->vocab().id(s.token));
    opt.maxLength = int64_t(opt.forcedPrefix.size());
    opt.stopAtEnd = false;
    const auto direct = early->captionImages({img.rgb}, opt).front();
    const auto& forced = runs[1].forced[0];
    QCOMPARE(forced.steps.size(), direct.steps.size());
    bool someDoubt = false;
    for (size_t t = 0; t < direct.steps.size(); ++t) {
        QCOMPARE(forced.steps[t].token, runs[0].own.steps[t].token);
        QVERIFY(std::abs(forced.steps[t].prob - direct.steps[t].prob) < 1e-6);
        someDoubt = someDoubt || forced.steps[t].prob < 0.5f;
    }
    QVERIFY(someDoubt); // where the captions differ the early model doubts the late one's word
}

void TestCompare::differentShapesCompareEveryPair() {
    const QString small = m_f.dir.filePath("small.pt");
    QProcess cli;
    cli.start(CL_CLI, {"train", "--steps", "2", "--batch", "2", "--heads", "2", "--layers", "1",
                       "--width", "32", "--ffn", "64", "--calibration-scenes", "128", "-o", small});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    auto a = Captioner::open(cltest::kModel.toStdString());
    auto b = Captioner::open(small.toStdString());
    const auto runs = compareModels({a.get(), b.get()}, sceneImage(7), {}, 20);
    QVERIFY(runs[0].error.empty() && runs[1].error.empty());
    const auto d = headDivergence(runs[0].own, runs[1].forced[0], AttentionKind::Cross);
    QVERIFY(d.reason.empty());
    QCOMPARE(d.rows, int64_t(2 * 4));
    QCOMPARE(d.cols, int64_t(1 * 2));
    for (double v : d.values)
        QVERIFY(v >= 0 && v <= 1);
}

namespace {
// A one-step trace of one layer and head attending over a side x side grid.
CaptionTrace gridTrace(int64_t side, const std::vector<float>& row) {
    CaptionTrace t;
    t.layers = t.heads = 1;
    t.memoryTokens = side * side;
    DecodeStep s;
    s.token = "a";
    s.selfAttn = {1.f};
    s.crossAttn = row;
    t.steps.push_back(s);
    return t;
}
} // namespace

// An 8 x 8 model against a 12 x 12 one (the bundled model's grid against a student's): both
// spread over their common 24 x 24 refinement. Attention on the same square of the image is no
// divergence; on different squares, all of it.
void TestCompare::differentGridsCompareOnTheirCommonRefinement() {
    QCOMPARE(commonGridSide(64, 144), int64_t(24));
    QCOMPARE(commonGridSide(144, 144), int64_t(12));
    QCOMPARE(commonGridSide(64, 1), int64_t(0));   // a feature model's one token
    QCOMPARE(commonGridSide(64, 50), int64_t(0));  // not a square grid
    QCOMPARE(commonGridSide(121, 144), int64_t(0)); // 132 x 132: past the 64 x 64 bound
    std::vector<float> coarse(4, 0.f), fine(36, 0.f), elsewhere(36, 0.f);
    coarse[0] = 1; // the top-left quarter of a 2 x 2 grid ...
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) {
            fine[size_t(y * 6 + x)] = 1.f / 9; // ... is the top-left 3 x 3 of a 6 x 6 one
            elsewhere[size_t((y + 3) * 6 + x + 3)] = 1.f / 9;
        }
    const auto same = headDivergence(gridTrace(2, coarse), gridTrace(6, fine), AttentionKind::Cross);
    QVERIFY2(same.reason.empty(), same.reason.c_str());
    QCOMPARE(same.values.size(), size_t(1));
    QVERIFY(std::abs(same.values[0]) < 1e-6);
    const auto apart =
        headDivergence(gridTrace(2, coarse), gridTrace(6, elsewhere), AttentionKind::Cross);
    QVERIFY(std::abs(apart.values[0] - 1.0) < 1e-6);
    const auto single = headDivergence(gridTrace(2, coarse), gridTrace(1, {1.f}),
                                       AttentionKind::Cross);
    QVERIFY(single.reason.find("different memories") != std::string::npos);
}

bool TestCompare::startWith(const QStringList& compare) {
    if (!m_f.start() || !m_f.openAndWait(kSample))
        return false;
    QSignalSpy spy(m_f.window.get(), &ui::MainWindow::compared);
    m_f.window->comparePanel()->setPaths(compare);
    m_f.window->showPanel("compare");
    return spy.wait(60000);
}

void TestCompare::panelShowsNoDifferenceForOneModelTwice() {
    QVERIFY(startWith({cltest::kModel, cltest::kModel}));
    auto* panel = m_f.window->comparePanel();
    QVERIFY(!panel->captionsText().contains("<u>")); // no word marked as different
    const auto& d = panel->divergence();
    QVERIFY(d.rows > 0);
    for (int64_t i = 0; i < d.rows; ++i)
        QVERIFY(d.values[size_t(i * d.cols + i)] < 1e-9);
    panel->setHeadPair(3, 3);
    panel->setStep(1);
    QVERIFY(panel->pairDivergence() < 1e-9);
    auto* table = panel->probabilityTable();
    QVERIFY(table->rowCount() > 2);
    for (int r = 0; r < table->rowCount(); ++r)
        QCOMPARE(table->item(r, 1)->text(), table->item(r, 2)->text());
    m_f.stop();
}

// Heads switched off apply to the model on screen in Compare too: its caption there is the one
// every other panel shows (before: Compare decoded it with every head on).
void TestCompare::compareShowsTheModelWithItsHeadsOff() {
    QVERIFY(startWith({cltest::kModel, kRun + "/step48000.pt"}));
    const std::string allHeads = m_f.window->view().trace.text();
    std::vector<uint8_t> off(16, 0);
    for (int h = 12; h < 16; ++h) // every cross-attention head of layer 2
        off[size_t(h)] = 1;
    QSignalSpy compared(m_f.window.get(), &ui::MainWindow::compared);
    m_f.window->session()->setHeadsOff(off);
    QVERIFY(compared.wait(60000));
    const std::string shown = m_f.window->view().trace.text();
    QVERIFY2(shown != allHeads, shown.c_str()); // the switch changed the caption
    const auto& result = m_f.window->comparePanel()->result();
    QVERIFY(result.ok(0) && result.ok(1));
    QCOMPARE(result.runs[0].own.text(), shown);
    QVERIFY(m_f.window->comparePanel()->captionsText().contains(
        QString::fromStdString(shown).split(' ').last()));
    m_f.stop();
}

// A lesson with no compare list empties the list: the maps and the JSD matrix of the pair
// compared before go too (before: they stayed on screen beside an empty list).
void TestCompare::emptyListLeavesNoMapsBehind() {
    QVERIFY(startWith({cltest::kModel, kRun + "/step48000.pt"}));
    auto* panel = m_f.window->comparePanel();
    QVERIFY(panel->showsMaps());
    QVERIFY(panel->divergence().rows > 0);
    // 12 x 12 against 8 x 8: the pair's JSD under the maps is the matrix's measure at this word
    // (it said 0.00: the rows of different lengths were not compared).
    const auto& ta = panel->result().runs[0].own;
    const auto& tb = panel->result().runs[1].forced[0];
    QVERIFY(ta.gridSide != tb.gridSide);
    auto p = refinedRow(ta.crossRow(0, 0, panel->step()), ta.gridSide, 24);
    auto q = refinedRow(tb.crossRow(0, 0, panel->step()), tb.gridSide, 24);
    QCOMPARE(p.size(), size_t(24 * 24));
    QVERIFY(panel->pairDivergence() > 0.01);
    QVERIFY(std::abs(panel->pairDivergence() - jensenShannon(p.data(), q.data(), p.size())) < 1e-9);
    panel->setPaths({}); // what MainWindow::applyLessonInput does for such a lesson
    QTRY_VERIFY(!panel->showsMaps());
    QCOMPARE(panel->divergence().rows, int64_t(0));
    QCOMPARE(panel->divergencePlot()->rows(), 0);
    m_f.stop();
}

void TestCompare::panelShowsTwoSnapshotsCaptions() {
    QVERIFY(startWith({kRun + "/step48000.pt", kRun + "/step01000.pt"}));
    auto* panel = m_f.window->comparePanel();
    const auto& result = panel->result();
    QVERIFY(result.ok(0) && result.ok(1));
    const QString late = QString::fromStdString(result.runs[0].own.text());
    const QString early = QString::fromStdString(result.runs[1].own.text());
    QVERIFY(late != early);
    const QString text = panel->captionsText();
    for (const QString& caption : {late, early})
        for (const QString& word : caption.split(' '))
            QVERIFY2(text.contains(word), qPrintable(word));
    QVERIFY(text.contains("<u>"));          // the differing words are marked
    QVERIFY(text.contains("(1000 steps)")); // the snapshot says how far it trained
    QCOMPARE(m_f.window->view().trace.text(), late.toStdString()); // the open model agrees
    // A different head pair diverges; the panel's number is the pair's JSD at the step.
    panel->setHeadPair(0, 5);
    QVERIFY(panel->pairDivergence() > 0.0);
    QCOMPARE(panel->divergencePlot()->rows(), 8);
    m_f.stop();
}

void TestCompare::panelSaysWhatItCannotCompare() {
    const QString features = m_f.dir.filePath("features.pt");
    QProcess cli;
    cli.start(CL_CLI, {"import-cs231n", kCourse, "--vocab", CL_TEST_DATA "/tiny_vocab.json", "-o",
                       features});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    QVERIFY(startWith({cltest::kModel, features, kCourse, m_f.dir.filePath("missing.pt")}));
    auto* panel = m_f.window->comparePanel();
    const auto& result = panel->result();
    QVERIFY(result.ok(0));
    QVERIFY2(result.error(1).contains("feature vectors"), qPrintable(result.error(1)));
    QVERIFY(result.error(2).contains("import-cs231n")); // a bare state_dict says how to convert
    QVERIFY(!result.error(3).isEmpty());
    QVERIFY(panel->captionsText().contains("feature vectors"));
    QCOMPARE(panel->probabilityTable()->rowCount(), 0); // nothing to pair with A
    m_f.stop();
}

void TestCompare::differentVocabulariesScoreWhatTheyShare() {
    // The bundled model with "star" renamed: B cannot name stars, so A's "star" is fed to it as
    // <UNK>, and its probability is not shown.
    Checkpoint ck = readCheckpoint(cltest::kModel.toStdString());
    std::replace(ck.vocab.begin(), ck.vocab.end(), std::string("star"), std::string("asterisk"));
    const QString renamed = m_f.dir.filePath("renamed.pt");
    writeCheckpoint(renamed.toStdString(), ck);
    QVERIFY(startWith({cltest::kModel, renamed}));
    auto* panel = m_f.window->comparePanel();
    const auto& result = panel->result();
    QVERIFY(result.ok(0) && result.ok(1));
    const auto& words = result.runs[0].own.steps;
    const auto star = std::find_if(words.begin(), words.end(),
                                   [](const DecodeStep& s) { return s.token == "star"; });
    QVERIFY2(star != words.end(), "the sample's caption names a star");
    const int t = int(star - words.begin());
    QVERIFY(!result.runs[1].known[0][size_t(t)]);
    QVERIFY(result.runs[1].known[0][0]); // "a" is shared
    QCOMPARE(result.runs[1].forced[0].steps[size_t(t)].token, std::string("<UNK>"));
    QCOMPARE(panel->probabilityTable()->item(t, 2)->text(), QString("— not in vocabulary"));
    QVERIFY(panel->noteText().contains("not in B's vocabulary"));
    // B says "asterisk" where A says "star": the words differ, the rest is the same caption.
    QVERIFY(result.runs[1].own.text().find("asterisk") != std::string::npos);
    m_f.stop();
}

// Issue 42: --screenshot of the Timeline fired at the first caption, before the snapshots were
// captioned: every row read "…". The picture now waits for them.
void TestCompare::screenshotWaitsForTheTimelineRows() {
    QVERIFY(m_f.start());
    auto* w = m_f.window.get();
    w->showPanel("timeline");
    QVERIFY(w->openRunFolder(kRun));
    QStringList seen; // the run's captions in the table when the picture is taken
    cl::whenPictureComplete(w, &ui::MainWindow::viewUpdated, [&] {
        auto* table = w->timelinePanel()->figuresTable();
        if (!seen.isEmpty())
            return;
        for (int r = 0; r < table->rowCount(); ++r)
            seen << (table->item(r, 2) ? table->item(r, 2)->text() : QString());
    });
    w->openImage(kSample);
    QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty(), 60000);
    QCOMPARE(seen.size(), 3);
    for (const QString& caption : seen)
        QVERIFY2(!caption.isEmpty() && caption != QString("…"), qPrintable(seen.join(" | ")));
}

void TestCompare::timelineScrubsThroughTheRun() {
    QVERIFY(m_f.start() && m_f.openAndWait(kSample));
    QSignalSpy spy(m_f.window.get(), &ui::MainWindow::compared);
    QVERIFY(m_f.window->openRunFolder(kRun));
    QVERIFY(spy.wait(60000));
    auto* tl = m_f.window->timelinePanel();
    QCOMPARE(tl->snapshots().size(), 3);
    QVERIFY(tl->snapshots()[0].endsWith("step01000.pt")); // natural order
    QCOMPARE(tl->position(), 2);                          // the trained end first
    QVERIFY(tl->captionText().contains("48000 training steps"));
    auto* table = tl->figuresTable();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(0, 1)->text(), QString("1000"));
    QVERIFY(table->item(0, 3)->text().endsWith("%")); // stored eval figures shown
    const QString lateCaption = table->item(2, 2)->text();
    QVERIFY(table->item(0, 2)->text() != lateCaption);
    tl->setPosition(0); // scrubbing needs no new model work
    QVERIFY(tl->captionText().contains("1000 training steps"));
    QVERIFY(tl->captionText().contains(table->item(0, 2)->text()));
    // A slide clicker's PageDown moves through the run on this panel.
    QTest::keyClick(m_f.window.get(), Qt::Key_PageDown);
    QCOMPARE(tl->position(), 1);
    QVERIFY(tl->captionText().contains("4000 training steps"));
    tl->setPosition(0);
    // A new image re-captions every snapshot.
    const QString other = m_f.saveScene(21);
    QVERIFY(m_f.openAndWait(other));
    QVERIFY(spy.wait(60000));
    tl->setPlaying(true);
    QVERIFY(tl->playing());
    QTRY_VERIFY_WITH_TIMEOUT(tl->position() != 0, 5000);
    tl->setPlaying(false);
    m_f.stop();
}

void TestCompare::timelineRejectsAnEmptyFolder() {
    QVERIFY(m_f.start());
    QVERIFY(m_f.window->openRunFolder(kRun));
    QTemporaryDir empty;
    QVERIFY(!m_f.window->openRunFolder(empty.path())); // no checkpoints there
    QVERIFY(m_f.window->lastError().contains("no checkpoints"));
    QCOMPARE(m_f.window->timelinePanel()->snapshots().size(), 3); // the run stays
    m_f.stop();
}

void TestCompare::timelineOrdersNamesByNumberInTheCLocale() {
    // A fresh Debian machine's locale is C.UTF-8, where QCollator's numeric mode compares code
    // points: the slider read step120, step25, step300, step60. Equal stored steps keep name order.
    QTemporaryDir run;
    for (int step : {120, 25, 300, 60})
        QVERIFY(QFile::copy(kRun + "/step01000.pt", run.filePath(QString("step%1.pt").arg(step))));
    QVERIFY(m_f.start());
    QLocale::setDefault(QLocale::c());
    const bool opened = m_f.window->openRunFolder(run.path());
    QLocale::setDefault(QLocale::system());
    QVERIFY(opened);
    const QStringList shown = m_f.window->timelinePanel()->snapshots();
    QCOMPARE(shown.size(), 4);
    QStringList names;
    for (const QString& path : shown)
        names << QFileInfo(path).fileName();
    QCOMPARE(names, QStringList({"step25.pt", "step60.pt", "step120.pt", "step300.pt"}));
    m_f.stop();
}

void TestCompare::timelineKeepsAtMost64Snapshots() {
    // A run folder of 150 snapshots (a lesson's folder of 300 took 880 MB): 64 evenly spaced,
    // the first and the last among them.
    QTemporaryDir run;
    for (int i = 1; i <= 150; ++i)
        QVERIFY(QFile::copy(kRun + "/step01000.pt",
                            run.filePath(QString("step%1.pt").arg(i * 10, 5, 10, QChar('0')))));
    QVERIFY(m_f.start());
    QVERIFY(m_f.window->openRunFolder(run.path()));
    QStringList shown = m_f.window->timelinePanel()->snapshots();
    QCOMPARE(shown.size(), 64);
    QVERIFY(shown.first().endsWith("step00010.pt"));
    QVERIFY(shown.last().endsWith("step01500.pt"));
    QVERIFY(shown.removeDuplicates() == 0);
    const auto labels = m_f.window->timelinePanel()->findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel* l) {
        return l->text().contains("64 of its 150 snapshots, evenly spaced");
    }));
    m_f.stop();
}

// Two course checkpoints over training (issue 19): a run folder of imported state_dicts whose
// file names do not sort by step, each with its stored val figures (eval --data --store).
void TestCompare::courseRunOrdersByStepsWithValFigures() {
    CL_REQUIRE(!QString(CL_PYTHON3).isEmpty(), "/usr/bin/python3 with torch and h5py");
    QTemporaryDir dir;
    const QString run = dir.filePath("run"), data = dir.filePath("s300/coco_captioning");
    QVERIFY(QDir().mkpath(run));
    auto make = [&](const QString& steps, const QString& name) {
        QProcess p;
        p.start(CL_PYTHON3,
                {CL_SOURCE_DIR "/tests/course_data.py", dir.filePath("s" + steps), steps});
        if (!p.waitForFinished(120000) || p.exitCode() != 0)
            return false;
        const QString out = run + "/" + name;
        const QString own = dir.filePath("s" + steps + "/coco_captioning");
        for (const QStringList& args :
             {QStringList{"import-cs231n", dir.filePath("s" + steps + "/course_model.pt"),
                          "--vocab", own + "/coco2014_vocab.json", "--steps", steps, "-o", out},
              QStringList{"eval", "--checkpoint", out, "--data", own, "--store"}}) {
            p.start(CL_CLI, args);
            if (!p.waitForFinished(120000) || p.exitCode() != 0)
                return false;
        }
        return true;
    };
    QVERIFY(make("300", "a-final.pt")); // sorts first by name, last by steps
    QVERIFY(make("100", "b-early.pt"));
    QVERIFY(m_f.start());
    auto* w = m_f.window.get();
    w->openCheckpoint(run + "/a-final.pt");
    QVERIFY(QTest::qWaitFor([&] { return !w->busy() && w->model().config.inputDim == 16; }, 30000));
    QSignalSpy views(w, &ui::MainWindow::viewUpdated);
    w->openFeatures(data + "/val2014_vgg16_fc7_pca.h5", 3); // one row of the course's .h5
    QVERIFY(views.wait(30000));
    QSignalSpy compared(w, &ui::MainWindow::compared);
    QVERIFY(w->openRunFolder(run));
    QVERIFY(compared.wait(60000));
    auto* table = w->timelinePanel()->figuresTable();
    QTRY_COMPARE(table->item(0, 1)->text(), QString("100")); // ordered by recorded steps
    QCOMPARE(table->item(1, 1)->text(), QString("300"));
    QVERIFY(w->timelinePanel()->snapshots()[0].endsWith("b-early.pt"));
    QStringList headers;
    for (int c = 0; c < table->columnCount(); ++c)
        headers << table->horizontalHeaderItem(c)->text();
    QVERIFY2(headers.contains("val BLEU-1") && headers.contains("val loss") &&
                 !headers.contains("attributes"),
             qPrintable(headers.join(", ")));
    const int loss = int(headers.indexOf("val loss"));
    QVERIFY(table->item(0, loss)->text().toDouble() > table->item(1, loss)->text().toDouble());
    m_f.stop();
}

CL_TEST_MAIN(TestCompare)
#include "tst_compare.moc"
