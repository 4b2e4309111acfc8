#pragma once
// Reads that may block (a slow disk, a network folder) run on a thread of their own, never on the
// GUI thread; the result comes back on `context`'s thread, unless `context` is gone by then.
#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

namespace cl::ui {

template <typename Result>
void runInBackground(QObject* context, std::function<Result()> work,
                     std::function<void(Result&)> done) {
    auto result = std::make_shared<Result>();
    QThread* thread = QThread::create([work, result] { *result = work(); });
    QObject::connect(thread, &QThread::finished, context, [done, result] { done(*result); });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

} // namespace cl::ui
