#include "ui/window/background.h"

#include <atomic>
#include <set>

namespace cl::ui {

namespace {

std::mutex g_mutex;            // guards g_running: threads leave it from their own thread
std::set<QThread*> g_running;  // started by runInBackground and not finished yet
std::atomic<bool> g_stopping{false};

} // namespace

namespace detail {

void track(QThread* thread) {
    {
        const std::lock_guard<std::mutex> lock(g_mutex);
        g_running.insert(thread);
    }
    // Emitted in the thread itself, as its last act (before deleteLater can run).
    QObject::connect(
        thread, &QThread::finished, thread,
        [thread] {
            const std::lock_guard<std::mutex> lock(g_mutex);
            g_running.erase(thread);
        },
        Qt::DirectConnection);
}

} // namespace detail

bool backgroundStopping() {
    return g_stopping.load();
}

int backgroundThreadsRunning() {
    const std::lock_guard<std::mutex> lock(g_mutex);
    return int(g_running.size());
}

void joinBackgroundWork() {
    g_stopping = true;
    std::set<QThread*> running;
    {
        const std::lock_guard<std::mutex> lock(g_mutex);
        running = g_running;
    }
    for (QThread* t : running) {
        t->requestInterruption();
        t->wait(); // its deleteLater waits for an event loop that has ended: it stays allocated
    }
    g_stopping = false; // later work (another window in a test) runs normally
}

} // namespace cl::ui
