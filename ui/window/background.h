#pragma once
// Reads that may block (a slow disk, a network folder) run on a thread of their own, never on the
// GUI thread; the result comes back on `context`'s thread, unless `context` is gone by then.
#include <QObject>
#include <QString>
#include <QThread>

#include <exception>
#include <functional>
#include <memory>
#include <mutex>

namespace cl::ui {

// Every thread runInBackground starts is tracked until it ends. joinBackgroundWork() asks them to
// stop (backgroundStopping() turns true: long work polls it and gives up) and waits for each, so
// none outlives the application object; the GUI's main() calls it when the event loop ends.
void joinBackgroundWork();
bool backgroundStopping();
int backgroundThreadsRunning();
namespace detail {
void track(QThread* thread); // from the GUI thread, before the thread starts
} // namespace detail

// The result is handed over under a mutex of ours, which ThreadSanitizer sees (Qt's event queue
// it does not).
template <typename Result>
void runInBackground(QObject* context, std::function<Result()> work,
                     std::function<void(Result&)> done) {
    struct Handover {
        std::mutex mutex;
        Result result;
    };
    auto box = std::make_shared<Handover>();
    QThread* thread = QThread::create([work, box] {
        Result r = work();
        const std::lock_guard<std::mutex> lock(box->mutex);
        box->result = std::move(r);
    });
    QObject::connect(thread, &QThread::finished, context, [done, box] {
        std::unique_lock<std::mutex> lock(box->mutex);
        Result r = std::move(box->result);
        lock.unlock();
        done(r);
    });
    detail::track(thread); // before deleteLater: its queued call is posted first
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

// The same for work that may throw: `done` gets the value, or the exception's one line.
template <typename T> struct Outcome {
    T value{};
    QString error; // empty when `value` holds the result
};

template <typename T>
void tryInBackground(QObject* context, std::function<T()> work,
                     std::function<void(Outcome<T>&)> done) {
    runInBackground<Outcome<T>>(
        context,
        [work] {
            Outcome<T> o;
            try {
                o.value = work();
            } catch (const std::exception& e) {
                o.error = QString::fromUtf8(e.what());
            } catch (...) { // nothing thrown on a worker ends the process
                o.error = QStringLiteral("an unexpected failure (not a std::exception)");
            }
            return o;
        },
        std::move(done));
}

} // namespace cl::ui
