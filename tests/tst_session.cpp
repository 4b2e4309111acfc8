// The window's controller without a window: requests, supersession, failures, model changes,
// lesson replay (Session), and lazy panel filling (PanelRouter).
#include "app/gui/courier.h"
#include "ui/window/background.h"
#include "ui/window/panel_router.h"
#include "ui/window/session.h"

#include <QSignalSpy>

#include <atomic>
#include <set>
#include <QTest>
#include "tests/test_main.h"

using namespace cl;
using namespace cl::ui;

namespace {

CaptionTrace traceOf(const std::string& word, int64_t layers = 2, int64_t heads = 4) {
    CaptionTrace t;
    t.layers = layers;
    t.heads = heads;
    DecodeStep s;
    s.token = word;
    t.steps = {s};
    return t;
}

CaptionInput imageInput(const QString& name, bool fromEditor = false) {
    CaptionInput in;
    in.image.image = QImage(4, 4, QImage::Format_RGB888);
    in.image.image.fill(Qt::white);
    in.image.rgb = {4, 4, std::vector<uint8_t>(48, 255)};
    in.name = name;
    in.fromEditor = fromEditor;
    return in;
}

ModelInfo modelInfo(const std::string& path, MemoryKind memory = MemoryKind::ImageGrid) {
    ModelInfo m;
    m.path = path;
    m.config.memory = memory;
    m.config.numLayers = 2;
    m.config.numHeads = 4;
    return m;
}

// The worker's answer to a request (as CaptionWorker::answered sends it), or its failure.
void answer(Session& s, const CaptionRequest& r, const CaptionResult& value) {
    s.onAnswered({r.id, r.purpose, value, {}});
}
void answer(Session& s, quint64 mainId, const CaptionTrace& trace) {
    s.onAnswered({mainId, CaptionPurpose::Main, trace, {}});
}
void failAnswer(Session& s, quint64 mainId, const QString& message) {
    s.onAnswered({mainId, CaptionPurpose::Main, {}, message});
}

// The last request a spy on captionRequested / checkpointRequested saw.
template <typename R> R last(const QSignalSpy& spy) {
    return spy.last().at(0).value<R>();
}

class FakePanel final : public Panel {
  public:
    void setView(const CaptionView& view) override {
        ++calls;
        shown = QString::fromStdString(view.trace.text());
    }
    int calls = 0;
    QString shown;
};

} // namespace

class TestSession : public QObject {
    Q_OBJECT
  private slots:
    void newerCaptionSupersedesOlder();
    void failedCaptionKeepsTheView();
    void variantsGoToTheirPanelsNotTheView();
    void everyPurposeHasItsLaneAndSignal();
    void mistypedAnswerFailsInsteadOfThrowing();
    void newerCheckpointCancelsOlder();
    void failedCheckpointKeepsTheModel();
    void newModelRecaptionsTheLatestInput();
    void headsOffTravelWithEveryRequest();
    void editorDragKeepsTheSelection();
    void lessonReplaysModelInputHeadsView();
    void lessonWithBrokenModelChangesNothing();
    void cancelDropsWhatIsInFlight();
    void routerFillsOnlyStalePanelsOnce();
    void courierKeepsThrowsOutOfTheEventLoop();
    void backgroundWorkThatThrowsAnythingFails();
    void backgroundWorkIsJoinedBeforeTheAppGoes();
};

void TestSession::newerCaptionSupersedesOlder() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy views(&s, &Session::viewChanged);
    s.caption(imageInput("first"));
    s.caption(imageInput("second"));
    QCOMPARE(requests.count(), 2);
    const quint64 first = requests.first().at(0).value<CaptionRequest>().id;
    const quint64 second = last<CaptionRequest>(requests).id;
    QVERIFY(s.busy());
    answer(s, first, traceOf("old"));
    QCOMPARE(views.count(), 0); // superseded: dropped
    QVERIFY(!s.view().valid());
    answer(s, second, traceOf("new"));
    QCOMPARE(views.count(), 1);
    QCOMPARE(s.view().trace.text(), std::string("new"));
    QCOMPARE(s.view().imageName, QString("second"));
    QVERIFY(!s.busy());
    answer(s, second, traceOf("again")); // answered once only
    QCOMPARE(views.count(), 1);
}

void TestSession::failedCaptionKeepsTheView() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy failures(&s, &Session::failed);
    s.caption(imageInput("good"));
    answer(s, last<CaptionRequest>(requests), traceOf("kept"));
    s.caption(imageInput("broken"));
    failAnswer(s, last<CaptionRequest>(requests).id, "cannot caption");
    QCOMPARE(failures.count(), 1);
    QCOMPARE(failures.last().at(0).toString(), QString("cannot caption"));
    QCOMPARE(s.view().trace.text(), std::string("kept"));
    QCOMPARE(s.shown().name, QString("good"));
    QVERIFY(!s.busy());
    failAnswer(s, 12345, "stale"); // not ours: ignored
    QCOMPARE(failures.count(), 1);
}

void TestSession::variantsGoToTheirPanelsNotTheView() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy branches(&s, &Session::branchReady);
    QSignalSpy ablations(&s, &Session::ablationReady);
    s.requestVariant(CaptionRequest::Branch, {5}, true);
    QCOMPARE(requests.count(), 0); // nothing on screen to branch from
    s.caption(imageInput("shown"));
    answer(s, last<CaptionRequest>(requests), traceOf("main"));
    s.requestVariant(CaptionRequest::Branch, {1, 7}, true);
    const CaptionRequest branch = last<CaptionRequest>(requests);
    QVERIFY(branch.purpose == CaptionPurpose::Branch);
    QCOMPARE(branch.options.forcedPrefix, (std::vector<int64_t>{1, 7}));
    QCOMPARE(branch.image.pixels, s.shown().image.rgb.pixels);
    s.requestVariant(CaptionRequest::Ablation, {}, false);
    const CaptionRequest ablation = last<CaptionRequest>(requests);
    QVERIFY(!ablation.options.positionalEncoding);
    answer(s, ablation, traceOf("no pe"));
    answer(s, branch, traceOf("forced"));
    QCOMPARE(branches.count(), 1);
    QCOMPARE(ablations.count(), 1);
    QCOMPARE(s.view().trace.text(), std::string("main"));
}

// Each purpose supersedes only its own lane (Main and Reference share one), and its answer
// reaches its own signal, never the view.
void TestSession::everyPurposeHasItsLaneAndSignal() {
    std::set<std::size_t> lanes;
    for (std::size_t i = 0; i < kCaptionPurposes; ++i) {
        const auto lane = requestLane(CaptionPurpose(i));
        QVERIFY(lane < kRequestLanes);
        lanes.insert(lane);
    }
    QCOMPARE(lanes.size(), kRequestLanes);
    QCOMPARE(requestLane(CaptionPurpose::Reference), requestLane(CaptionPurpose::Main));

    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    s.caption(imageInput("shown"));
    answer(s, last<CaptionRequest>(requests), traceOf("main"));
    QSignalSpy beams(&s, &Session::beamReady), explained(&s, &Session::explainReady),
        walked(&s, &Session::walkthroughReady), heads(&s, &Session::headImportanceReady),
        views(&s, &Session::viewChanged);
    s.requestBeam(BeamOptions{});
    answer(s, last<CaptionRequest>(requests), BeamCaption{});
    s.requestExplain(ExplainOptions{});
    answer(s, last<CaptionRequest>(requests), Explanation{});
    s.requestWalkthrough(WalkthroughOptions{});
    answer(s, last<CaptionRequest>(requests), AttentionWalkthrough{});
    s.requestHeadImportance();
    answer(s, last<CaptionRequest>(requests), HeadImportance{});
    QCOMPARE(beams.count() + explained.count() + walked.count() + heads.count(), 4);
    QCOMPARE(views.count(), 0);
    QCOMPARE(s.view().trace.text(), std::string("main"));
}

// An answer whose value is not what its purpose promises is that request's failure, not an
// exception out of the slot (std::get would have thrown into the event loop).
void TestSession::mistypedAnswerFailsInsteadOfThrowing() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy failures(&s, &Session::explainFailed), mainFailures(&s, &Session::failed);
    s.caption(imageInput("shown"));
    answer(s, last<CaptionRequest>(requests), traceOf("main"));
    s.requestExplain(ExplainOptions{});
    answer(s, last<CaptionRequest>(requests), traceOf("not an explanation"));
    QCOMPARE(failures.count(), 1);
    s.caption(imageInput("next"));
    answer(s, last<CaptionRequest>(requests), BeamCaption{});
    QCOMPARE(mainFailures.count(), 1);
    QCOMPARE(s.view().trace.text(), std::string("main")); // the view stays
    QVERIFY(!s.busy());
}

void TestSession::newerCheckpointCancelsOlder() {
    Session s;
    QSignalSpy loads(&s, &Session::checkpointRequested);
    QSignalSpy cancels(&s, &Session::checkpointCancelled);
    QSignalSpy models(&s, &Session::modelChanged);
    s.openCheckpoint("a.pt", "cpu");
    const quint64 a = last<CheckpointRequest>(loads).id;
    s.openCheckpoint("b.pt", "cpu");
    const CheckpointRequest b = last<CheckpointRequest>(loads);
    QCOMPARE(cancels.count(), 1);
    QCOMPARE(cancels.last().at(0).value<quint64>(), a);
    QCOMPARE(b.path, QString("b.pt"));
    s.onCheckpointOpened(a, modelInfo("a.pt"));
    QCOMPARE(models.count(), 0);
    s.onCheckpointOpened(b.id, modelInfo("b.pt"));
    QCOMPARE(models.count(), 1);
    QCOMPARE(s.model().path, std::string("b.pt"));
    QVERIFY(!s.busy());
}

void TestSession::failedCheckpointKeepsTheModel() {
    Session s;
    QSignalSpy loads(&s, &Session::checkpointRequested);
    QSignalSpy failures(&s, &Session::failed);
    s.openCheckpoint("good.pt", "cpu");
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("good.pt"));
    s.openCheckpoint("corrupt.pt", "cpu");
    s.onCheckpointFailed(last<CheckpointRequest>(loads).id, "not a checkpoint");
    QCOMPARE(failures.count(), 1);
    QCOMPARE(s.model().path, std::string("good.pt"));
    QVERIFY(!s.busy());
}

void TestSession::newModelRecaptionsTheLatestInput() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy loads(&s, &Session::checkpointRequested);
    s.caption(imageInput("picture"));
    answer(s, last<CaptionRequest>(requests), traceOf("x"));
    s.openCheckpoint("image-model.pt", "cpu");
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("image-model.pt"));
    QCOMPARE(requests.count(), 2); // the picture again, with the new model
    QCOMPARE(last<CaptionRequest>(requests).image.pixels, s.shown().image.rgb.pixels);
    s.openCheckpoint("features.pt", "cpu");
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id,
                         modelInfo("features.pt", MemoryKind::Features));
    QCOMPARE(requests.count(), 2); // a feature model cannot caption a picture
}

void TestSession::headsOffTravelWithEveryRequest() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy loads(&s, &Session::checkpointRequested);
    s.caption(imageInput("p"));
    answer(s, last<CaptionRequest>(requests), traceOf("x"));
    const std::vector<uint8_t> off = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    s.setHeadsOff(off);
    QCOMPARE(requests.count(), 2); // re-captioned at once
    QCOMPARE(last<CaptionRequest>(requests).options.headsOff, off);
    s.requestVariant(CaptionRequest::Branch, {3}, true);
    QCOMPARE(last<CaptionRequest>(requests).options.headsOff, off);
    s.openCheckpoint("other.pt", "cpu");
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("other.pt"));
    QVERIFY(s.headsOff().empty()); // a new model starts with every head on
    QVERIFY(last<CaptionRequest>(requests).options.headsOff.empty());
}

void TestSession::editorDragKeepsTheSelection() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy views(&s, &Session::viewChanged);
    s.caption(imageInput("scene", true));
    answer(s, last<CaptionRequest>(requests), traceOf("a"));
    QCOMPARE(views.last().at(0).toBool(), false); // the first edited scene picks a selection
    QVERIFY(s.viewFromEditor());
    s.caption(imageInput("scene", true)); // a drag step
    answer(s, last<CaptionRequest>(requests), traceOf("b"));
    QCOMPARE(views.last().at(0).toBool(), true);
    s.caption(imageInput("scene", true)); // different heads: the old selection may not exist
    answer(s, last<CaptionRequest>(requests), traceOf("c", 2, 2));
    QCOMPARE(views.last().at(0).toBool(), false);
    s.caption(imageInput("file.png"));
    answer(s, last<CaptionRequest>(requests), traceOf("d", 2, 2));
    QCOMPARE(views.last().at(0).toBool(), false);
    QVERIFY(!s.viewFromEditor());
}

void TestSession::lessonReplaysModelInputHeadsView() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy loads(&s, &Session::checkpointRequested);
    QSignalSpy inputs(&s, &Session::lessonInputDue);
    QSignalSpy views(&s, &Session::lessonViewDue);
    // The window's part: caption the lesson's input, switch the heads the panel shows.
    connect(&s, &Session::lessonInputDue, &s, [&] { s.caption(imageInput("lesson image")); });
    connect(&s, &Session::lessonHeadsDue, &s, &Session::setHeadsOff);
    Lesson l;
    l.input = Lesson::Input::Image;
    l.checkpoint = "/lessons/model.pt";
    l.headsOff = std::vector<uint8_t>(16, 0);
    l.headsOff[3] = 1;
    l.panel = "attention";
    s.playLesson(l, "cpu");
    QVERIFY(s.lessonPending());
    QCOMPARE(inputs.count(), 0); // the model first
    QCOMPARE(last<CheckpointRequest>(loads).path, l.checkpoint);
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("/lessons/model.pt"));
    QCOMPARE(inputs.count(), 1);
    QCOMPARE(requests.count(), 1);
    QVERIFY(last<CaptionRequest>(requests).options.headsOff.empty());
    answer(s, last<CaptionRequest>(requests), traceOf("all heads"));
    QCOMPARE(views.count(), 0); // its heads first: one more caption
    QCOMPARE(requests.count(), 2);
    QCOMPARE(last<CaptionRequest>(requests).options.headsOff, l.headsOff);
    answer(s, last<CaptionRequest>(requests), traceOf("ablated"));
    QCOMPARE(views.count(), 1);
    QCOMPARE(views.last().at(0).value<Lesson>().panel, QString("attention"));
    QVERIFY(!s.lessonPending());
    QCOMPARE(s.view().trace.text(), std::string("ablated"));
}

void TestSession::lessonWithBrokenModelChangesNothing() {
    Session s;
    QSignalSpy loads(&s, &Session::checkpointRequested);
    QSignalSpy inputs(&s, &Session::lessonInputDue);
    s.openCheckpoint("current.pt", "cpu");
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("current.pt"));
    Lesson l;
    l.input = Lesson::Input::Image;
    l.checkpoint = "/elsewhere/broken.pt";
    s.playLesson(l, "cpu");
    s.onCheckpointFailed(last<CheckpointRequest>(loads).id, "corrupt");
    QVERIFY(!s.lessonPending());
    QCOMPARE(inputs.count(), 0);
    QCOMPARE(s.model().path, std::string("current.pt"));
}

void TestSession::cancelDropsWhatIsInFlight() {
    Session s;
    QSignalSpy requests(&s, &Session::captionRequested);
    QSignalSpy loads(&s, &Session::checkpointRequested);
    QSignalSpy cancels(&s, &Session::checkpointCancelled);
    QSignalSpy models(&s, &Session::modelChanged);
    s.caption(imageInput("slow"));
    s.openCheckpoint("big.pt", "cpu");
    QVERIFY(s.busy());
    s.cancel();
    QVERIFY(!s.busy());
    QCOMPARE(cancels.count(), 1);
    s.onCheckpointOpened(last<CheckpointRequest>(loads).id, modelInfo("big.pt"));
    answer(s, last<CaptionRequest>(requests), traceOf("late"));
    QCOMPARE(models.count(), 0);
    QVERIFY(!s.view().valid());
}

void TestSession::routerFillsOnlyStalePanelsOnce() {
    PanelRouter router;
    FakePanel a, b;
    router.add("a", nullptr, &a);
    router.add("b", nullptr, &b);
    QCOMPARE(router.keys(), QStringList({"a", "b"}));
    CaptionView view;
    QVERIFY(!router.refresh("a", view)); // nothing to show yet
    view.trace = traceOf("one");
    QVERIFY(router.refresh("a", view));
    QVERIFY(!router.refresh("a", view)); // already up to date
    QCOMPARE(a.calls, 1);
    QCOMPARE(b.calls, 0); // not shown, not filled
    QVERIFY(router.stale("b"));
    view.trace = traceOf("two");
    router.markStale();
    QVERIFY(router.refresh("b", view));
    QVERIFY(router.refresh("a", view));
    QCOMPARE(a.shown, QString("two"));
    QCOMPARE(b.calls, 1);
    QVERIFY(!router.refresh("missing", view));
    QVERIFY(router.panel("missing") == nullptr);
    QVERIFY(!a.stepBy(1)); // an ordinary panel lets the window step the word
}

// Every queued call between the window and the workers runs through a Courier: one that throws
// is reported as a failure line, and the next call still runs (before: the exception left
// QObject::event, into the event loop).
void TestSession::courierKeepsThrowsOutOfTheEventLoop() {
    Courier courier;
    QStringList failures;
    courier.setFailureHandler([&](const QString& m) { failures << m; });
    int ran = 0;
    post(&courier, [] { throw std::runtime_error("a slot failed"); });
    post(&courier, [] { throw 42; });
    post(&courier, [&] { ++ran; });
    QCoreApplication::processEvents();
    QCOMPARE(ran, 1);
    QCOMPARE(failures.size(), 2);
    QVERIFY(failures[0].contains("a slot failed"));
    QVERIFY(failures[1].contains("unexpected"));
}

// Not only std::exception: anything thrown on a background thread reaches `done` as a failure
// (before: it left the thread and ended the process).
void TestSession::backgroundWorkThatThrowsAnythingFails() {
    QObject context;
    QString error;
    bool done = false;
    tryInBackground<int>(
        &context, []() -> int { throw 42; },
        [&](Outcome<int>& o) {
            error = o.error;
            done = true;
        });
    QTRY_VERIFY(done);
    QVERIFY(error.contains("unexpected"));
}

// Background work is asked to stop and joined before the application object goes: none is left
// running (before: the threads were never joined, and a calibration outlived QApplication).
void TestSession::backgroundWorkIsJoinedBeforeTheAppGoes() {
    QObject context;
    std::atomic<bool> started{false}, stopped{false};
    runInBackground<int>(
        &context,
        [&] {
            started = true;
            while (!backgroundStopping())
                QThread::msleep(2);
            stopped = true;
            return 0;
        },
        [](int&) {});
    QTRY_VERIFY(started.load());
    QCOMPARE(backgroundThreadsRunning(), 1);
    joinBackgroundWork();
    QVERIFY(stopped.load());
    QCOMPARE(backgroundThreadsRunning(), 0);
    QVERIFY(!backgroundStopping()); // later work runs normally
}

CL_TEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
