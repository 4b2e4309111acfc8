#pragma once
// How calls cross between the window's thread and the workers' threads: a Courier lives in the
// receiving thread and runs the calls posted to it. It is the boundary of every queued call, so
// nothing thrown by one reaches Qt's event loop (which would end the process): the failure goes
// to the courier's failure handler, as one line.
#include <QObject>
#include <QString>

#include <functional>

class QEvent;

namespace cl {

class Courier final : public QObject {
  public:
    using QObject::QObject;
    // Called, in the courier's thread, with the line of a call that threw; unset: a warning.
    void setFailureHandler(std::function<void(const QString&)> handler) {
        m_onFailure = std::move(handler);
    }
    bool event(QEvent* e) override;

  private:
    std::function<void(const QString&)> m_onFailure;
};

// Posts `call` to run in `courier`'s thread (from any thread).
void post(Courier* courier, std::function<void()> call);

// Qt is not built with ThreadSanitizer, so the mutex of its event queue, which orders a queued
// call's arguments between the two threads, is invisible to it. These annotations state that
// ordering at our thread boundary (a release after the event is posted, an acquire before the
// call runs), so TSan checks our code without drowning in reports about Qt's queue.
void handOver();
void takeOver();

} // namespace cl
