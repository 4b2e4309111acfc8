// The scene editor and lessons, driven through the real window and its model thread (offscreen).
#include "tests/gui_fixture.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/scene_canvas.h"
#include "ui/lessons/lesson.h"

#include <QComboBox>
#include <QFile>
#include <QSettings>

#include <sys/stat.h>
#include "tests/test_main.h"

using namespace cl;

namespace {
const QString kRun = QStringLiteral(CL_SOURCE_DIR "/resources/models/default-run");

SceneObject object(Shape shape, Colour colour, Size size, double cx, double cy) {
    SceneObject o;
    o.shape = shape;
    o.colour = colour;
    o.rgb = namedColour(colour);
    o.size = size;
    o.radius = size == Size::Large ? 21.5 : 11.5;
    o.cx = cx;
    o.cy = cy;
    return o;
}

// A large red circle left of a small blue square, on a plain background.
SceneSpec twoShapes() {
    SceneSpec s = randomSpec(4);
    s.objects = {object(Shape::Circle, Colour::Red, Size::Large, 28, 64),
                 object(Shape::Square, Colour::Blue, Size::Small, 70, 64)};
    return s;
}
} // namespace

class TestEditor : public QObject {
    Q_OBJECT
  private slots:
    void init() { QVERIFY(m_f.start()); }
    void cleanup() { m_f.stop(); }
    void draggingTurnsLeftOfIntoRightOf();
    void controlsRecolourResizeAddDelete();
    void outOfWorldSceneSaysSo();
    void lessonReopensTheSameState();
    void lessonEmbedsAnImage();
    void badLessonsChangeNothing_data();
    void badLessonsChangeNothing();
    void lessonWriteFailureLeavesNoFile();
    void lessonFromFifoIsRefused();
    void lessonModelStaysOutOfRecentFiles();

  private:
    bool editAndWait(const std::function<void()>& edit);
    cltest::GuiFixture m_f;
};

bool TestEditor::editAndWait(const std::function<void()>& edit) {
    auto* editor = m_f.window->sceneEditor();
    QSignalSpy spy(m_f.window.get(), &ui::MainWindow::viewUpdated);
    edit();
    return QTest::qWaitFor([&] { return editor->showsCurrentScene() && !m_f.window->busy(); },
                           30000);
}

void TestEditor::draggingTurnsLeftOfIntoRightOf() {
    m_f.window->showPanel("scene");
    auto* editor = m_f.window->sceneEditor();
    QVERIFY(editAndWait([&] { editor->setSpec(twoShapes()); }));
    QCOMPARE(editor->referenceText(), QString("a large red circle left of a small blue square"));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), editor->referenceText());
    const QImage before = editor->sceneImage();

    // Drag the circle with the mouse to the other side of the square.
    auto* canvas = editor->canvas();
    const QPoint from = canvas->toWidget(28, 64);
    QTest::mousePress(canvas, Qt::LeftButton, {}, from);
    QCOMPARE(canvas->selected(), 0);
    QVERIFY(editAndWait([&] {
        for (int x = 28; x <= 108; x += 8)
            QTest::mouseMove(canvas, canvas->toWidget(x, 64));
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, canvas->toWidget(108, 64));
    }));
    QVERIFY(std::abs(editor->spec().objects[0].cx - 106.5) < 2.0); // kept inside the canvas
    QVERIFY(editor->sceneImage() != before);
    QCOMPARE(editor->referenceText(), QString("a large red circle right of a small blue square"));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), editor->referenceText());
    QVERIFY(editor->modelText().contains("right of"));
    QVERIFY(editor->lastLatencyMs() > 0);
    QCOMPARE(m_f.window->view().image, editor->sceneImage()); // every panel shows the scene
    // The same caption shown again (a language switch redraws every panel) is no edit: the
    // figure stays the last edit's (it once grew by every second since, e.g. 77648 ms).
    const double latency = editor->lastLatencyMs();
    QTest::qWait(50);
    editor->setView(m_f.window->view());
    QCOMPARE(editor->lastLatencyMs(), latency);
}

void TestEditor::controlsRecolourResizeAddDelete() {
    m_f.window->showPanel("scene");
    auto* editor = m_f.window->sceneEditor();
    QVERIFY(editAndWait([&] { editor->setSpec(twoShapes()); }));
    editor->canvas()->setSelected(1);
    auto* colour = editor->findChild<QComboBox*>("colour");
    auto* size = editor->findChild<QComboBox*>("size");
    QVERIFY(colour && size);
    QVERIFY(editAndWait([&] { colour->setCurrentIndex(int(Colour::Yellow)); }));
    QVERIFY(editor->referenceText().contains("small yellow square"));
    QVERIFY(editAndWait([&] { size->setCurrentIndex(1); }));
    QVERIFY(editor->referenceText().contains("large yellow square"));
    QCOMPARE(editor->spec().objects[1].radius, 21.5);
    QVERIFY(editAndWait([&] { editor->addObject(); }));
    QCOMPARE(editor->spec().objects.size(), size_t(3));
    QVERIFY(editor->referenceText().contains(" and "));
    QVERIFY(editAndWait([&] { editor->deleteSelected(); }));
    QCOMPARE(editor->spec().objects.size(), size_t(2));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()).count(' ') > 3, true);
}

// The editor's caption carries the out-of-world sentence like every other caption view. A drawn
// scene is in the world by construction, so the check's verdict is set here by hand.
void TestEditor::outOfWorldSceneSaysSo() {
    m_f.window->showPanel("scene");
    auto* editor = m_f.window->sceneEditor();
    QVERIFY(editAndWait([&] { editor->setSpec(twoShapes()); }));
    QVERIFY(editor->worldNotice().isEmpty());
    ui::CaptionView view = m_f.window->view();
    view.trace.worldChecked = true;
    view.trace.worldScore = 3.0;
    editor->setView(view);
    QVERIFY2(editor->worldNotice().contains("unlike anything the model was trained on"),
             qPrintable(editor->worldNotice()));
    editor->setView(m_f.window->view());
    QVERIFY(editor->worldNotice().isEmpty());
}

void TestEditor::lessonReopensTheSameState() {
    auto* w = m_f.window.get();
    w->showPanel("scene");
    QVERIFY(editAndWait([&] { w->sceneEditor()->setSpec(twoShapes()); }));
    const std::string caption = w->view().trace.text();
    w->comparePanel()->setPaths({cltest::kModel, kRun + "/step01000.pt"});
    QVERIFY(w->openRunFolder(kRun));
    w->timelinePanel()->setPosition(1);
    QSignalSpy views(w, &ui::MainWindow::viewUpdated);
    w->headsPanel()->setHeadOff(0, 1, 2, true);
    QVERIFY(views.wait(30000));
    const auto headsOff = w->headsPanel()->headsOff();
    w->selection()->setStep(2);
    w->selection()->setLayerHead(1, 3);
    w->showPanel("attention");
    const QString path = m_f.dir.filePath("moment.cllesson");
    QVERIFY(w->saveLesson(path));
    QVERIFY(QFileInfo(path).size() < 16 * 1024); // a scene lesson is small

    // Change everything, then reopen.
    w->headsPanel()->reset();
    QVERIFY(m_f.openAndWait(m_f.saveScene(3)));
    w->comparePanel()->setPaths({});
    w->selection()->setLayerHead(0, -1);
    w->showPanel("caption");
    QSignalSpy opened(w, &ui::MainWindow::lessonOpened);
    w->openLesson(path);
    QVERIFY(opened.wait(30000));
    QCOMPARE(w->currentPanel(), QString("attention"));
    QCOMPARE(w->selection()->step(), 2);
    QCOMPARE(w->selection()->layer(), 1);
    QCOMPARE(w->selection()->head(), 3);
    QCOMPARE(w->headsPanel()->headsOff(), headsOff);
    QCOMPARE(w->comparePanel()->paths().size(), 2);
    QCOMPARE(w->timelinePanel()->position(), 1);
    const auto& spec = w->sceneEditor()->spec();
    QCOMPARE(spec.objects.size(), size_t(2));
    QCOMPARE(spec.objects[0].cx, 28.0);
    QCOMPARE(w->view().image, w->sceneEditor()->sceneImage());
    // The ablated caption of the same scene: identical to before the changes.
    QCOMPARE(w->view().trace.steps.size() > 0, true);
    w->headsPanel()->reset();
    QVERIFY(views.wait(30000));
    QCOMPARE(w->view().trace.text(), caption);
}

void TestEditor::lessonEmbedsAnImage() {
    auto* w = m_f.window.get();
    const QString image = m_f.saveScene(17);
    QVERIFY(m_f.openAndWait(image));
    const auto before = w->view().trace;
    const QString path = m_f.dir.filePath("image.cllesson");
    QVERIFY(w->saveLesson(path));
    QFile::remove(image); // the lesson carries the image itself
    QVERIFY(m_f.openAndWait(m_f.saveScene(18)));
    QSignalSpy opened(w, &ui::MainWindow::lessonOpened);
    w->openLesson(path);
    QVERIFY(opened.wait(30000));
    QCOMPARE(w->view().trace.text(), before.text());
    QCOMPARE(w->view().trace.steps[0].prob, before.steps[0].prob);
}

void TestEditor::badLessonsChangeNothing_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << QByteArray("{ nope") << "not a lesson";
    QTest::newRow("foreign json") << QByteArray(R"({"format": "other"})") << "no format tag";
    QTest::newRow("future version")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 9})") << "version 9";
    QTest::newRow("missing checkpoint")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 1,
                         "checkpoint": "/nonexistent/model.pt",
                         "input": {"kind": "none"}})")
        << "which is missing";
    QTest::newRow("unknown shape")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 1, "input": {"kind":
            "scene", "scene": {"side": 128, "background": {"from": [1,2,3], "to": [1,2,3],
            "direction": 0, "noise": 0, "noise_seed": "1"}, "objects": [{"shape": "hexagon",
            "colour": "red", "size": "small", "cx": 5, "cy": 5, "radius": 4, "rgb": [1,2,3]}]}}})")
        << "unknown shape 'hexagon'";
    QTest::newRow("broken image") << QByteArray(R"({"format": "captionlens-lesson", "version": 1,
                         "input": {"kind": "image", "png_base64": "AAAA"}})")
                                  << "embedded image is not readable";
    QTest::newRow("nothing to show")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 1})") << "no image";
    // Hostile lessons (issue 15): a negative index crashed the Compare panel, a string where a
    // number belongs became 0, a compare list of hundreds took gigabytes.
    const QByteArray scene = R"("input": {"kind": "scene", "scene": {"side": 128, "background":
        {"from": [1,2,3], "to": [1,2,3], "direction": 0, "noise": 0, "noise_seed": "1"},
        "objects": []}})";
    QTest::newRow("negative compare index")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 1, "compare": {"a": -1}, )" +
                      scene + "}")
        << "compare.a";
    QTest::newRow("string for a number")
        << QByteArray(R"({"format": "captionlens-lesson", "version": 1,
                         "selection": {"step": "three"}, )" +
                      scene + "}")
        << "selection.step";
    QByteArray many = R"({"format": "captionlens-lesson", "version": 1, "compare": {"paths": [)";
    for (int i = 0; i < 300; ++i)
        many += QByteArray(i ? "," : "") + "\"model.pt\"";
    QTest::newRow("300 compared") << many + "]}, " + scene + "}"
                                  << "compares 300 checkpoints";
    // Round two: every field of its exact type, files through the checked readers.
    const QByteArray head = R"({"format": "captionlens-lesson", "version": 1, )";
    QTest::newRow("text for the opacity")
        << head + R"("selection": {"opacity": "high"}, )" + scene + "}"
        << "'selection.opacity' must be a number";
    QTest::newRow("number for the checkpoint") << head + R"("checkpoint": 7, )" + scene + "}"
                                               << "'checkpoint' must be text";
    QTest::newRow("object for the heads") << head + R"("heads_off": {"a": 1}, )" + scene + "}"
                                          << "'heads_off' must be a list";
    QTest::newRow("two for a head switch") << head + R"("heads_off": [0, 2], )" + scene + "}"
                                           << "'heads_off' must be a list of 0/1";
    QTest::newRow("number in the compare list")
        << head + R"("compare": {"paths": [3]}, )" + scene + "}"
        << "'compare.paths'";
    QTest::newRow("features from a folder")
        << head + R"("input": {"kind": "features", "path": ".", "row": 0}})"
        << "it is a directory";
}

void TestEditor::badLessonsChangeNothing() {
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QVERIFY(m_f.openAndWait(m_f.saveScene(9)));
    const std::string caption = m_f.window->view().trace.text();
    const QString path = m_f.dir.filePath("bad.cllesson");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    m_f.window->openLesson(path);
    QVERIFY(m_f.window->lessonPending()); // read off the GUI thread
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY2(m_f.window->lastError().contains(expected), qPrintable(m_f.window->lastError()));
    QVERIFY(!m_f.window->lessonPending());
    QVERIFY(!m_f.window->busy());
    QCOMPARE(m_f.window->view().trace.text(), caption);
}

void TestEditor::lessonWriteFailureLeavesNoFile() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(9)));
    const QString path = m_f.dir.filePath("no/such/folder/x.cllesson");
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    QVERIFY(!m_f.window->saveLesson(path));
    QCOMPARE(errors.count(), 1);
    QVERIFY(!QFileInfo::exists(path));
    // An existing lesson is replaced whole or not at all (QSaveFile).
    const QString good = m_f.dir.filePath("good.cllesson");
    QVERIFY(m_f.window->saveLesson(good));
    QVERIFY(ui::readLesson(good).input == ui::Lesson::Input::Image);
}

void TestEditor::lessonFromFifoIsRefused() {
    const QString fifo = m_f.dir.filePath("pipe.cllesson");
    QCOMPARE(mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    QSignalSpy errors(m_f.window.get(), &ui::MainWindow::errorShown);
    m_f.window->openLesson(fifo); // used to block the GUI thread until someone wrote to it
    QTRY_COMPARE(errors.count(), 1);
    QVERIFY2(m_f.window->lastError().contains("it is a FIFO (named pipe)"),
             qPrintable(m_f.window->lastError()));
    QVERIFY(!m_f.window->lessonPending());
}

void TestEditor::lessonModelStaysOutOfRecentFiles() {
    const QString copy = m_f.dir.filePath("lesson-model.pt");
    QVERIFY(QFile::copy(cltest::kModel, copy));
    const QString path = m_f.dir.filePath("m.cllesson");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "captionlens-lesson", "version": 1, "checkpoint": "lesson-model.pt",
        "input": {"kind": "scene", "scene": {"side": 128, "background": {"from": [250,250,250],
        "to": [250,250,250], "direction": 0, "noise": 0, "noise_seed": "1"}, "objects": []}}})");
    f.close();
    QSignalSpy opened(m_f.window.get(), &ui::MainWindow::lessonOpened);
    m_f.window->openLesson(path);
    QVERIFY(opened.wait(30000));
    QCOMPARE(QString::fromStdString(m_f.window->model().path), copy);
    auto recent = [] { return QSettings().value("recentCheckpoints").toStringList(); };
    QVERIFY(!recent().contains(copy)); // the lesson brought it; the user did not open it
    m_f.window->openCheckpoint(copy);
    QTRY_VERIFY(recent().contains(copy));
}

CL_TEST_MAIN(TestEditor)
#include "tst_editor.moc"
