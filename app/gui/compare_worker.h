#pragma once
// The comparison view's and the timeline's model work, on a thread of its own so that comparing
// never delays the main caption. Loaded checkpoints are cached by path and modification time
// (a training run's snapshots are small), so scrubbing the timeline loads each file once.
#include "ui/window/requests.h"

#include <QDateTime>
#include <QObject>

#include <array>
#include <atomic>
#include <map>
#include <memory>

namespace cl {

class CompareWorker final : public QObject {
    Q_OBJECT
  public:
    CompareWorker();
    ~CompareWorker() override;

    // Called from the GUI thread (direct connection): atomics only.
    void noteRequest(const cl::ui::CompareRequest& r) { m_latest[static_cast<size_t>(r.purpose)] = r.id; }

  public slots:
    void compare(const cl::ui::CompareRequest& request);

  signals:
    void compared(const cl::ui::CompareResult& result);

  private:
    struct Cached {
        QDateTime modified;
        std::shared_ptr<Captioner> model;
        QString error;
    };
    const Cached& load(const QString& path);

    std::map<QString, Cached> m_cache;
    std::array<std::atomic<quint64>, 2> m_latest{}; // Compare, Timeline
};

} // namespace cl
