#include "wiring.h"

#include "caption_worker.h"
#include "compare_worker.h"
#include "main_window.h"

namespace cl {

ModelThread::ModelThread(ui::MainWindow& window)
    : m_worker(new CaptionWorker), m_compare(new CompareWorker) {
    using W = CaptionWorker;
    using M = ui::MainWindow;
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    // Direct connections only touch the worker's atomics; the work itself is queued.
    QObject::connect(
        &window, &M::captionRequested, m_worker,
        [w = m_worker](const ui::CaptionRequest& r) { w->noteCaptionRequest(r); },
        Qt::DirectConnection);
    QObject::connect(
        &window, &M::checkpointCancelled, m_worker,
        [w = m_worker](quint64 id) { w->cancelCheckpoint(id); }, Qt::DirectConnection);
    QObject::connect(&window, &M::captionRequested, m_worker, &W::caption, Qt::QueuedConnection);
    QObject::connect(&window, &M::checkpointRequested, m_worker, &W::openCheckpoint,
                     Qt::QueuedConnection);
    QObject::connect(m_worker, &W::captioned, &window, &M::onCaptioned);
    QObject::connect(m_worker, &W::captionFailed, &window, &M::onCaptionFailed);
    QObject::connect(m_worker, &W::checkpointOpened, &window, &M::onCheckpointOpened);
    QObject::connect(m_worker, &W::checkpointFailed, &window, &M::onCheckpointFailed);
    m_thread.start();

    m_compare->moveToThread(&m_compareThread);
    QObject::connect(&m_compareThread, &QThread::finished, m_compare, &QObject::deleteLater);
    QObject::connect(
        &window, &M::compareRequested, m_compare,
        [w = m_compare](const ui::CompareRequest& r) { w->noteRequest(r); }, Qt::DirectConnection);
    QObject::connect(&window, &M::compareRequested, m_compare, &CompareWorker::compare,
                     Qt::QueuedConnection);
    QObject::connect(m_compare, &CompareWorker::compared, &window, &M::onCompared);
    m_compareThread.start();
}

ModelThread::~ModelThread() {
    m_thread.quit();
    m_compareThread.quit();
    m_thread.wait();
    m_compareThread.wait();
}

} // namespace cl
