// The defects a teacher hit in front of a class, each driven through the real widgets: clicks at
// the bar's, checkbox's or button's position, key presses, panel switches, scene edits.
#include "tests/gui_fixture.h"
#include "ui/math/attention_math.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"
#include "ui/widgets/word_chips.h"
#include "ui/lessons/lesson.h"

#include <QCheckBox>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSlider>
#include <QStatusBar>

#include <cmath>
#include <qcustomplot.h>
#include "tests/test_main.h"

using namespace cl;

namespace {

const QString kNoPosition = QStringLiteral(CL_SOURCE_DIR "/resources/models/no-position2d.pt");

// A float32 .npy of `rows` x `cols` values (what the course's feature files hold).
void writeNpy(const QString& path, int rows, int cols) {
    QByteArray header = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1, "
                                       "%2), }")
                            .arg(rows)
                            .arg(cols)
                            .toLatin1();
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    out += header;
    for (int i = 0; i < rows * cols; ++i) {
        const float v = std::sin(0.7f * float(i));
        out.append(reinterpret_cast<const char*>(&v), 4);
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(out);
}

QPushButton* addShapeButton(ui::SceneEditor* editor) {
    for (auto* b : editor->findChildren<QPushButton*>())
        if (b->text().remove('&') == QLatin1String("Add shape"))
            return b;
    return nullptr;
}

double largestFont(QWidget* w) {
    double size = 0;
    for (auto* l : w->findChildren<QLabel*>())
        size = std::max(size, l->font().pointSizeF());
    return size;
}

int colourDistance(QRgb a, QRgb b) {
    return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
           std::abs(qBlue(a) - qBlue(b));
}

} // namespace

class TestClassroom : public QObject {
    Q_OBJECT
  private slots:
    void init() { QVERIFY(m_f.start()); }
    void cleanup() { m_f.stop(); }
    void presenterModeStaysFullScreenAndRestores();
    void clickingABarForcesThatWord();
    void ablationIsVisibleAndTheReferenceFollowsTheImage();
    void overlaysAreReadableByDefaultWithTheirOwnOpacity();
    void windowFitsTheScreenAndNeverGrows();
    void compareTakesTheOpenModelAsA();
    void sceneEditorKeepsTheLoadedImageUntilAnEdit();
    void exportsTheWholePanel();
    void lessonsNameBundledFilesRelatively();
    void commandLineFailsFastAndTakesFeatures();
    void commandLineOverridesALesson();
    void featureModelsInThePanels();
    void latencyProbesRunToTheEnd();

  private:
    bool waitView() {
        QSignalSpy spy(m_f.window.get(), &ui::MainWindow::viewUpdated);
        return spy.wait(30000);
    }
    QString featureModel();
    cltest::GuiFixture m_f;
};

void TestClassroom::presenterModeStaysFullScreenAndRestores() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(8)));
    w->resize(900, 640);
    QTest::qWait(50);
    const QRect before = w->geometry();
    auto* caption = w->captionPanel();
    const double headingBefore = largestFont(caption);
    const double chipBefore = caption->chips()->chip(0)->fontInfo().pointSizeF();
    auto* badge = w->statusBar()->findChild<QLabel*>("ablation");
    QVERIFY(badge);
    const double badgeBefore = badge->fontInfo().pointSizeF();
    const auto penWidths = [w] {
        QList<double> widths;
        for (auto* plot : w->findChildren<QCustomPlot*>())
            for (int i = 0; i < plot->graphCount(); ++i)
                widths << plot->graph(i)->pen().widthF();
        return widths;
    };
    const QList<double> widthsBefore = penWidths();
    QVERIFY(widthsBefore.contains(1.0)); // the Train chart's raw loss
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_F11);
    QVERIFY(QTest::qWaitFor([&] { return w->isFullScreen(); }, 3000));
    QVERIFY(caption->chips()->chip(0)->fontInfo().pointSizeF() > chipBefore * 1.3);
    QVERIFY(largestFont(caption) > headingBefore * 1.3);
    // Every panel, an edit that adds shapes, a dialog: still full screen.
    for (const char* p : {"attention", "pe", "decode", "heads", "compare", "timeline", "scene"}) {
        w->showPanel(p);
        QTest::qWait(20);
        QVERIFY2(w->isFullScreen(), p);
    }
    auto* editor = w->sceneEditor();
    for (int i = 0; i < 2; ++i) {
        QTest::mouseClick(addShapeButton(editor), Qt::LeftButton);
        QVERIFY(waitView());
    }
    QVERIFY(w->isFullScreen());
    QVERIFY(w->geometry() == w->screen()->geometry());
    // A head switched off in presenter mode: the badge appears, at presenter size.
    w->showPanel("heads");
    QCheckBox* head = w->headsPanel()->headBox(1, 1, 0);
    QTest::mouseClick(head, Qt::LeftButton, {}, head->rect().center());
    QVERIFY(waitView());
    QVERIFY(badge->isVisible());
    QTest::keyClick(w, Qt::Key_F11);
    QVERIFY(QTest::qWaitFor([&] { return !w->isFullScreen(); }, 3000));
    QTest::qWait(50);
    QCOMPARE(w->geometry(), before);
    w->showPanel("caption");
    QVERIFY(std::abs(caption->chips()->chip(0)->fontInfo().pointSizeF() - chipBefore) < 0.6);
    // Issue 37: the badge and the "Ablated model" line stayed at presenter size.
    QVERIFY2(std::abs(badge->fontInfo().pointSizeF() - badgeBefore) < 0.6,
             qPrintable(QString::number(badge->fontInfo().pointSizeF())));
    QVERIFY2(largestFont(caption) < headingBefore * 1.1,
             qPrintable(QString::number(largestFont(caption))));
    QCOMPARE(penWidths(), widthsBefore); // and the chart lines their own width
}

void TestClassroom::clickingABarForcesThatWord() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(2)));
    auto* decode = m_f.window->decodePanel();
    m_f.window->showPanel("decode");
    m_f.window->selection()->setStep(4);
    decode->setTemperature(3.0);
    QTest::qWait(50);
    const auto candidates = decode->candidates();
    QVERIFY(candidates.size() >= 3);
    for (int i : {1, int(candidates.size()) - 1}) {
        // Click well above the bar (a near-zero one is a few pixels tall): its column counts.
        QSignalSpy branch(m_f.window->session(), &ui::Session::branchReady);
        const QPoint at = decode->candidatePoint(i, 0.8);
        QCOMPARE(decode->candidateAt(at), i);
        QTest::mouseClick(decode->candidatePlot(), Qt::LeftButton, {}, at);
        QVERIFY(branch.wait(30000));
        QVERIFY(decode->showingBranch());
        QCOMPARE(QString::fromStdString(decode->shownTrace().steps.at(4).token),
                 candidates[size_t(i)].first);
        decode->backToOriginal();
    }
}

void TestClassroom::ablationIsVisibleAndTheReferenceFollowsTheImage() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(8)));
    w->showPanel("heads");
    auto* heads = w->headsPanel();
    QTest::qWait(30);
    QCheckBox* first = heads->headBox(1, 1, 0);
    QCheckBox* second = heads->headBox(1, 1, 1);
    const QPoint secondAt = second->mapTo(w, second->rect().center());
    // The word and head the class is looking at stay when a head is switched off (issue 37:
    // the new caption threw them away).
    w->selection()->setStep(2);
    w->selection()->setLayerHead(0, 3);
    QTest::mouseClick(first, Qt::LeftButton, {}, first->rect().center());
    QVERIFY(waitView());
    QCOMPARE(w->selection()->step(), 2);
    QCOMPARE(w->selection()->layer(), 0);
    QCOMPARE(w->selection()->head(), 3);
    QTest::qWait(30);
    QCOMPARE(second->mapTo(w, second->rect().center()), secondAt); // nothing moved
    // One head: "1 head off" (issue 37 read "1 heads off" in the title bar).
    QVERIFY2(w->windowTitle().endsWith(QString::fromUtf8("— 1 head off")),
             qPrintable(w->windowTitle()));
    QVERIFY(w->decodePanel()->stepText().contains("[1 head off]"));
    QTest::mouseClick(second, Qt::LeftButton, {}, second->rect().center());
    QVERIFY(waitView());
    QCOMPARE(heads->offCount(), 2);
    QVERIFY(!first->isChecked() && !second->isChecked());
    QVERIFY(w->windowTitle().contains("2 heads off"));
    auto* badge = w->statusBar()->findChild<QLabel*>("ablation");
    QVERIFY(badge && badge->isVisible());
    QVERIFY(w->captionPanel()->ablationText().contains("2 of 16"));
    QVERIFY(w->decodePanel()->stepText().contains("2 heads off"));
    // A new image: the "every head on" line is that image's, not the previous one's.
    // (The previous image's reference may still land first: wait for this image's.)
    QVERIFY(m_f.openAndWait(m_f.saveScene(3)));
    QTRY_VERIFY_WITH_TIMEOUT(!heads->captionsText().contains("captioning"), 30000);
    const QString text = heads->captionsText();
    heads->reset();
    QVERIFY(waitView());
    QVERIFY2(text.contains(QString::fromStdString(w->view().trace.text())), qPrintable(text));
    QVERIFY(!badge->isVisible());
    QVERIFY(!w->windowTitle().contains("heads off"));
}

void TestClassroom::overlaysAreReadableByDefaultWithTheirOwnOpacity() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(1))); // "a small blue circle"
    QVERIFY(w->selection()->autoContrast());
    auto* caption = w->captionPanel();
    QVERIFY(caption->scaleLabel().contains("scaled"));
    // The map's peak stands out from the image underneath.
    const auto& trace = w->view().trace;
    const auto row = ui::crossRow(trace, w->selection()->layer(), w->selection()->head(),
                                  w->selection()->step());
    const int peak = int(std::max_element(row.begin(), row.end()) - row.begin());
    const QImage shown = caption->imageTile()->composed();
    const QImage plain = w->view().image.scaled(shown.size());
    const int g = int(trace.gridSide);
    const QPoint at((peak % g * 2 + 1) * shown.width() / (2 * g),
                    (peak / g * 2 + 1) * shown.height() / (2 * g));
    QVERIFY(colourDistance(shown.pixel(at), plain.pixel(at)) > 90);
    // Turning the Caption panel's opacity down leaves the Attention panel's maps alone.
    w->showPanel("attention");
    auto* attention = w->attentionPanel();
    auto* tile = attention->findChildren<ui::AttentionTile*>().first();
    const QImage tileBefore = tile->composed();
    w->selection()->setOpacity(0.0);
    QCOMPARE(tile->composed(), tileBefore);
    attention->findChild<ui::OpacitySlider*>()->setValue(0.0);
    QVERIFY(tile->composed() != tileBefore);
}

void TestClassroom::windowFitsTheScreenAndNeverGrows() {
    auto* w = m_f.window.get();
    const QRect screen = w->screen()->availableGeometry();
    QVERIFY(screen.contains(w->frameGeometry()) || screen.contains(w->geometry()));
    QVERIFY(w->minimumSizeHint().width() <= 1024 && w->minimumSizeHint().height() <= 560);
    w->showPanel("scene");
    auto* editor = w->sceneEditor();
    editor->setSpec(generateScene(6).spec);
    QVERIFY(waitView());
    const QSize before = w->size();
    for (int i = 0; i < 2; ++i) {
        QTest::mouseClick(addShapeButton(editor), Qt::LeftButton);
        QVERIFY(waitView());
    }
    QCOMPARE(int(editor->spec().objects.size()), 3);
    QTest::qWait(30);
    QCOMPARE(w->size(), before);
}

void TestClassroom::compareTakesTheOpenModelAsA() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(3))); // the two models disagree on "right"
    QSignalSpy compared(w, &ui::MainWindow::compared);
    w->showPanel("compare");
    w->comparePanel()->addPaths({kNoPosition});
    QVERIFY(compared.wait(60000));
    auto* panel = w->comparePanel();
    QCOMPARE(panel->paths(), QStringList({cltest::kModel, kNoPosition}));
    QCOMPARE(panel->modelA(), 0);
    QCOMPARE(panel->modelB(), 1);
    QVERIFY(panel->probabilityTable()->rowCount() > 3);
    const auto a = panel->result().runs[0].own.words(), b = panel->result().runs[1].own.words();
    int first = 0;
    while (first < int(std::min(a.size(), b.size())) && a[size_t(first)] == b[size_t(first)])
        ++first;
    QVERIFY(first < int(a.size()));
    QCOMPARE(panel->step(), first); // opens on the first difference
    panel->setHeadPair(2, 5);
    QCOMPARE(panel->divergencePlot()->highlightedCells(), QRect(5, 2, 1, 1));
}

void TestClassroom::sceneEditorKeepsTheLoadedImageUntilAnEdit() {
    auto* w = m_f.window.get();
    w->openRandomScene(5);
    QVERIFY(waitView());
    w->showPanel("scene");
    QTest::qWait(30);
    auto* editor = w->sceneEditor();
    QCOMPARE(w->view().imageName, QString("scene 5"));
    QVERIFY(editor->showsCurrentScene()); // the random scene, taken up as it is
    QCOMPARE(editor->spec().objects.size(), generateScene(5).spec.objects.size());
    const QString file = m_f.saveScene(9);
    QVERIFY(m_f.openAndWait(file));
    w->showPanel("caption");
    w->showPanel("scene");
    QTest::qWait(30);
    QCOMPARE(w->view().imageName, QString("scene9.png")); // not replaced by opening the tab
    QVERIFY(editor->showingText().contains("scene9.png"));
    QTest::mouseClick(editor->showingButton(), Qt::LeftButton); // "Show this scene"
    QVERIFY(waitView());
    QCOMPARE(w->view().imageName, QString("edited scene"));
    QVERIFY(editor->showingButton()->text().contains("scene9.png"));
    QTest::mouseClick(editor->showingButton(), Qt::LeftButton); // "Back to scene9.png"
    QVERIFY(waitView());
    QCOMPARE(w->view().imageName, QString("scene9.png"));
}

void TestClassroom::exportsTheWholePanel() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(8)));
    w->resize(700, 480); // the tab page scrolls
    w->showPanel("decode");
    QTest::qWait(50);
    const QString png = m_f.dir.filePath("decode.png");
    QVERIFY(w->exportView(png));
    const QImage image(png);
    auto* panel = w->decodePanel();
    auto* viewport = panel->parentWidget();        // the tab page's
    QVERIFY(viewport->height() < panel->height()); // on screen the page scrolls...
    QCOMPARE(image.size(), panel->size());         // ...the picture has all of it
    QVERIFY(w->statusBar()->currentMessage().contains(png));
}

void TestClassroom::lessonsNameBundledFilesRelatively() {
    auto* w = m_f.window.get();
    // Two installs: the bundled files as seen from two different places.
    const QString installA = m_f.dir.filePath("a"), installB = m_f.dir.filePath("b");
    QVERIFY(QFile::link(CL_SOURCE_DIR "/resources", installA));
    QVERIFY(QFile::link(CL_SOURCE_DIR "/resources", installB));
    w->setResourceDir(installA);
    w->openCheckpoint(installA + "/models/default.pt");
    QVERIFY(QTest::qWaitFor([&] { return !w->busy(); }, 30000));
    QVERIFY(m_f.openAndWait(m_f.saveScene(4)));
    const QString path = m_f.dir.filePath("sent.cllesson");
    QVERIFY(w->saveLesson(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray json = f.readAll();
    QVERIFY(json.contains("\"@resources/models/default.pt\""));
    QVERIFY(!json.contains(installA.toUtf8()));
    const ui::Lesson there = ui::readLesson(path, installB);
    QCOMPARE(there.checkpoint, installB + "/models/default.pt");
    w->setResourceDir(installB);
    QSignalSpy opened(w, &ui::MainWindow::lessonOpened);
    w->openLesson(path);
    QVERIFY(opened.wait(30000));
    QVERIFY(w->lastError().isEmpty()); // the same bundled model, found through the other place
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, ui::readLesson(path, QString()));
    // Picked in the real folder behind the link (as a file dialog may hand it over): still the
    // bundled model (before: saved as an absolute path, so the lesson did not travel).
    w->openCheckpoint(CL_SOURCE_DIR "/resources/models/default.pt");
    QVERIFY(QTest::qWaitFor([&] { return !w->busy(); }, 30000));
    const QString real = m_f.dir.filePath("real.cllesson");
    QVERIFY(w->saveLesson(real));
    QFile g(real);
    QVERIFY(g.open(QIODevice::ReadOnly));
    const QByteArray saved = g.readAll();
    QVERIFY2(saved.contains("\"@resources/models/default.pt\""), saved.constData());
    QVERIFY(!saved.contains(CL_SOURCE_DIR));
}

QString TestClassroom::featureModel() {
    const QString out = m_f.dir.filePath("features.pt");
    QProcess cli;
    cli.start(CL_CLI, {"import-cs231n", CL_TEST_DATA "/course_2021.pt", "--vocab",
                       CL_TEST_DATA "/tiny_vocab.json", "-o", out});
    return cli.waitForFinished(60000) && cli.exitCode() == 0 ? out : QString();
}

void TestClassroom::commandLineFailsFastAndTakesFeatures() {
    m_f.stop(); // the app runs as its own process here
    const QString app = QFileInfo(CL_CLI).absolutePath() + "/../gui/captionlens";
    QFile notImage(m_f.dir.filePath("notes.png"));
    QVERIFY(notImage.open(QIODevice::WriteOnly));
    notImage.write("not an image at all");
    notImage.close();
    QProcess p;
    p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    p.start(app, {notImage.fileName(), "--screenshot", m_f.dir.filePath("x.png")});
    QVERIFY(p.waitForFinished(30000)); // not its 120 s timer
    QCOMPARE(p.exitCode(), 1);
    const QString err = p.readAllStandardError().trimmed();
    QVERIFY2(err.contains("captionlens: error:") && err.contains("notes.png"), qPrintable(err));
    QVERIFY(!QFile::exists(m_f.dir.filePath("x.png")));
    // --features FILE --row I captions one row of a feature file.
    const QString model = featureModel(), npy = m_f.dir.filePath("rows.npy");
    QVERIFY(!model.isEmpty());
    writeNpy(npy, 3, 10);
    p.start(app, {"--checkpoint", model, "--features", npy, "--row", "2", "--screenshot",
                  m_f.dir.filePath("f.png")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(QImage(m_f.dir.filePath("f.png")).width() > 100);
    p.start(app, {"--checkpoint", model, "--features", npy, "--row", "7", "--screenshot",
                  m_f.dir.filePath("g.png")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 1); // row 7 of 3
    QVERIFY(m_f.start());      // for cleanup()
}

void TestClassroom::commandLineOverridesALesson() {
    auto* w = m_f.window.get();
    QVERIFY(m_f.openAndWait(m_f.saveScene(4)));
    w->showPanel("decode");
    const QString path = m_f.dir.filePath("l.cllesson");
    QVERIFY(w->saveLesson(path));
    w->showPanel("caption");
    QSignalSpy opened(w, &ui::MainWindow::lessonOpened);
    ui::MainWindow::LessonOverrides o;
    o.panel = "attention";
    o.compare = {kNoPosition};
    w->openLesson(path, o);
    QVERIFY(opened.wait(30000));
    QCOMPARE(w->currentPanel(), QString("attention"));
    QCOMPARE(w->comparePanel()->paths(), QStringList({cltest::kModel, kNoPosition}));
}

void TestClassroom::featureModelsInThePanels() {
    auto* w = m_f.window.get();
    const QString model = featureModel(), npy = m_f.dir.filePath("rows.npy");
    QVERIFY(!model.isEmpty());
    writeNpy(npy, 3, 10);
    w->openCheckpoint(model);
    QVERIFY(QTest::qWaitFor([&] { return !w->busy() && w->model().path == model.toStdString(); },
                            30000));
    QSignalSpy view(w, &ui::MainWindow::viewUpdated);
    w->openFeatures(npy, 1);
    QVERIFY(view.wait(30000));
    // The Caption panel names what it shows; its colour bar spans 0..1.
    auto* caption = w->captionPanel();
    bool named = false;
    for (auto* l : caption->findChildren<QLabel*>())
        named = named || (l->text().contains("rows.npy") && l->text().contains("row 1"));
    QVERIFY(named);
    // Decoding step 1: one key with weight 1.0 is drawn, not blank.
    w->showPanel("decode");
    w->selection()->setStep(0);
    QTest::qWait(50);
    auto* rows = w->decodePanel()->findChild<ui::HeatmapPlot*>();
    QVERIFY(rows && rows->cols() == 1);
    const QImage drawn = rows->grab().toImage();
    const QRgb top = drawn.pixel(rows->cellCenter(0, 0));
    QVERIFY2(qRed(top) > 200 && qGreen(top) > 180 && qBlue(top) < 90, // viridis' yellow end
             qPrintable(QColor(top).name()));
    // Compare defaults to self-attention for one memory token.
    QSignalSpy compared(w, &ui::MainWindow::compared);
    w->comparePanel()->setPaths({model, model});
    w->showPanel("compare");
    QVERIFY(compared.wait(60000));
    QCOMPARE(w->comparePanel()->kind(), AttentionKind::Self);
}

// The latency probes drive the app as a person would; the drag probe waited forever once the
// editor tab stopped captioning its scene by merely being shown.
void TestClassroom::latencyProbesRunToTheEnd() {
    m_f.stop();
    const QString app = QFileInfo(CL_CLI).absolutePath() + "/../gui/captionlens";
    for (const QStringList& args :
         {QStringList{"--profile-drag", "3"}, QStringList{"--profile", "2"}}) {
        QProcess p;
        p.start(app, QStringList{"--threads", "1"} + args);
        QVERIFY(p.waitForFinished(90000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("median"));
    }
    QVERIFY(m_f.start());
}

CL_TEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
