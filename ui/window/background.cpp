#include "ui/window/background.h"

#include <QCoreApplication>
#include <QPointer>

#include <algorithm>
#include <atomic>
#include <vector>

namespace cl::ui {

namespace {

// Started by runInBackground; touched on the GUI thread only (a thread's end reaches it as a
// queued call, so no slot of ours ever runs on the background thread).
std::vector<QPointer<QThread>>& running() {
    static std::vector<QPointer<QThread>> threads;
    return threads;
}

std::atomic<bool> g_stopping{false};

void forget(const QThread* thread) {
    auto& all = running();
    all.erase(std::remove_if(all.begin(), all.end(),
                             [thread](const QPointer<QThread>& t) {
                                 return t.isNull() || t.data() == thread;
                             }),
              all.end());
}

} // namespace

namespace detail {

void track(QThread* thread) {
    running().emplace_back(thread);
    QObject::connect(
        thread, &QThread::finished, QCoreApplication::instance(), [thread] { forget(thread); },
        Qt::QueuedConnection);
}

} // namespace detail

bool backgroundStopping() {
    return g_stopping.load();
}

int backgroundThreadsRunning() {
    const auto& all = running();
    return int(std::count_if(all.begin(), all.end(), [](const QPointer<QThread>& t) {
        return !t.isNull() && !t->isFinished();
    }));
}

void joinBackgroundWork() {
    g_stopping = true;
    for (const QPointer<QThread>& t : std::vector<QPointer<QThread>>(running()))
        if (!t.isNull()) {
            t->requestInterruption();
            t->wait(); // its deleteLater waits for an event loop that may have ended
        }
    running().clear();
    g_stopping = false; // later work (another window in a test) runs normally
}

} // namespace cl::ui
