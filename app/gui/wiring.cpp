#include "app/gui/wiring.h"

#include "app/gui/caption_worker.h"
#include "app/gui/compare_worker.h"
#include "app/gui/courier.h"
#include "app/gui/web_export.h"
#include "ui/window/main_window.h"

#include <functional>

namespace cl {

namespace {

// A queued connection from `sender`'s signal to `receiver`'s slot, run by `courier` (which lives
// in the receiver's thread): the arguments are copied in the sender's thread before the hand-over.
template <typename S, typename Signal, typename R, typename Slot>
void queue(S* sender, Signal signal, R* receiver, Slot slot, Courier* courier) {
    QObject::connect(
        sender, signal, courier,
        [receiver, slot, courier](const auto&... args) {
            post(courier, [receiver, slot, args...] { (receiver->*slot)(args...); });
        },
        Qt::DirectConnection);
}

} // namespace

ModelThread::ModelThread(ui::MainWindow& window)
    : m_worker(new CaptionWorker), m_compare(new CompareWorker),
      m_windowCourier(new Courier(&window)), m_workerCourier(new Courier(m_worker)),
      m_compareCourier(new Courier(m_compare)) {
    using W = CaptionWorker;
    using M = ui::MainWindow;
    using S = ui::Session;
    ui::Session* session = window.session(); // lives in the window's thread
    // A window-side call that throws is shown like any failure, and the window goes on.
    m_windowCourier->setFailureHandler([session](const QString& m) { emit session->failed(m); });
    m_worker->moveToThread(&m_thread);
    // Shutdown: quit() reaches the thread through Qt's queue, wait() through a futex; both are
    // invisible to TSan, so the hand-over is stated here too (see ~ModelThread).
    const auto lastWords = [] {
        takeOver();
        handOver();
    };
    QObject::connect(&m_thread, &QThread::finished, m_worker, lastWords, Qt::DirectConnection);
    // Direct connections only touch the worker's atomics; the work itself is queued.
    QObject::connect(
        session, &S::captionRequested, m_worker,
        [w = m_worker](const ui::CaptionRequest& r) { w->noteCaptionRequest(r); },
        Qt::DirectConnection);
    QObject::connect(
        session, &S::checkpointCancelled, m_worker,
        [w = m_worker](quint64 id) { w->cancelCheckpoint(id); }, Qt::DirectConnection);
    queue(session, &S::captionRequested, m_worker, &W::caption, m_workerCourier);
    queue(session, &S::checkpointRequested, m_worker, &W::openCheckpoint, m_workerCourier);
    queue(m_worker, &W::answered, session, &S::onAnswered, m_windowCourier);
    queue(m_worker, &W::checkpointOpened, session, &S::onCheckpointOpened, m_windowCourier);
    queue(m_worker, &W::checkpointFailed, session, &S::onCheckpointFailed, m_windowCourier);
    m_thread.start();
    window.setWebPageMaker([](const ui::CaptionView& v, int step, int layer, int head) {
        return webPageOf(v, step, layer, head);
    });

    m_compare->moveToThread(&m_compareThread);
    QObject::connect(&m_compareThread, &QThread::finished, m_compare, lastWords,
                     Qt::DirectConnection);
    QObject::connect(
        session, &S::compareRequested, m_compare,
        [w = m_compare](const ui::CompareRequest& r) { w->noteRequest(r); }, Qt::DirectConnection);
    queue(session, &S::compareRequested, m_compare, &CompareWorker::compare, m_compareCourier);
    queue(m_compare, &CompareWorker::compared, &window, &M::onCompared, m_windowCourier);
    m_compareThread.start();
}

ModelThread::~ModelThread() {
    handOver();
    m_thread.quit();
    m_compareThread.quit();
    m_thread.wait();
    m_compareThread.wait();
    takeOver();
    // The threads have ended: the workers are deleted here, after their last request.
    delete m_worker;
    delete m_compare;
}

} // namespace cl
