#pragma once
// The model behind the window, on its own QThread. Every slot catches everything: no exception
// crosses a slot. Requests older than the newest one are skipped unprocessed (superseded), and a
// cancelled checkpoint load is discarded, so the previous model stays.
#include "ui/window/requests.h"

#include <QObject>

#include <array>
#include <atomic>
#include <memory>

namespace cl {

class CaptionWorker final : public QObject {
    Q_OBJECT
  public:
    CaptionWorker();
    ~CaptionWorker() override;

    // Called from the GUI thread (direct connections): atomics only.
    void noteCaptionRequest(const cl::ui::CaptionRequest& r) {
        m_latest[ui::requestLane(r.purpose)] = r.id;
    }
    void cancelCheckpoint(quint64 id) { m_cancelledCheckpoint = id; }

  public slots:
    void openCheckpoint(const cl::ui::CheckpointRequest& request);
    void caption(const cl::ui::CaptionRequest& request);

  signals:
    void checkpointOpened(quint64 id, const cl::ModelInfo& info);
    void checkpointFailed(quint64 id, const QString& message);
    void answered(const cl::ui::CaptionAnswer& answer); // every CaptionRequest, once

  private:
    // What the model computes for the request (one case per purpose); throws on failure.
    ui::CaptionResult answer(const ui::CaptionRequest& r, bool imageModel);

    std::unique_ptr<Captioner> m_model;
    std::array<std::atomic<quint64>, ui::kRequestLanes> m_latest{}; // newest request id per lane
    std::atomic<quint64> m_cancelledCheckpoint{0};
};

} // namespace cl
