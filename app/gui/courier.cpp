#include "app/gui/courier.h"

#include "model/core/errors.h"

#include <QCoreApplication>
#include <QEvent>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <sanitizer/tsan_interface.h>
#define CL_TSAN 1
#endif
#endif

namespace cl {

namespace {

[[maybe_unused]] char g_channel; // used by the annotations in TSan builds only

// A call carried to another thread as our own event: it is built and filled in the sender's
// thread, handed over, then posted; Qt only queues it. (A queued signal would copy its arguments
// inside Qt, after any hand-over we could state.)
class CallEvent final : public QEvent {
  public:
    explicit CallEvent(std::function<void()> call) : QEvent(kType), call(std::move(call)) {}
    static constexpr QEvent::Type kType = QEvent::Type(QEvent::User + 17);
    std::function<void()> call;
};

} // namespace

void handOver() {
#ifdef CL_TSAN
    __tsan_release(&g_channel);
#endif
}

void takeOver() {
#ifdef CL_TSAN
    __tsan_acquire(&g_channel);
#endif
}

bool Courier::event(QEvent* e) {
    takeOver();
    if (e->type() != CallEvent::kType)
        return QObject::event(e);
    QString failure;
    try {
        static_cast<CallEvent*>(e)->call();
        return true;
    } catch (const std::exception& ex) {
        failure = QString::fromStdString(errorLine(ex));
    } catch (...) {
        failure = QStringLiteral("an unexpected failure (not a std::exception)");
    }
    if (m_onFailure)
        m_onFailure(failure);
    else
        qWarning("CaptionLens: %s", qUtf8Printable(failure));
    return true;
}

void post(Courier* courier, std::function<void()> call) {
    auto* event = new CallEvent(std::move(call));
    handOver();
    QCoreApplication::postEvent(courier, event);
}

} // namespace cl
