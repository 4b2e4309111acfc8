#pragma once
// The model behind the window, on its own QThread. Every slot catches everything: no exception
// crosses a slot. Requests older than the newest one are skipped unprocessed (superseded), and a
// cancelled checkpoint load is discarded, so the previous model stays.
#include "ui/window/requests.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace cl {

class CaptionWorker final : public QObject {
    Q_OBJECT
  public:
    CaptionWorker();
    ~CaptionWorker() override;

    // Called from the GUI thread (direct connections): atomics only.
    void noteCaptionRequest(const cl::ui::CaptionRequest& r) { m_latest[slot(r)] = r.id; }
    void cancelCheckpoint(quint64 id) { m_cancelledCheckpoint = id; }

  public slots:
    void openCheckpoint(const cl::ui::CheckpointRequest& request);
    void caption(const cl::ui::CaptionRequest& request);

  signals:
    void checkpointOpened(quint64 id, const cl::ModelInfo& info);
    void checkpointFailed(quint64 id, const QString& message);
    void captioned(quint64 id, const cl::CaptionTrace& trace);
    void captionFailed(quint64 id, const QString& message);
    void beamed(quint64 id, const cl::BeamCaption& result);
    void explained(quint64 id, const cl::Explanation& result);
    void walked(quint64 id, const cl::AttentionWalkthrough& result);
    void headsScored(quint64 id, const cl::HeadImportance& result);

  private:
    // Main and Reference share a slot (a reference belongs to the main caption it was asked for).
    static int slot(const cl::ui::CaptionRequest& r) {
        if (r.purpose == cl::ui::CaptionRequest::Explain)
            return 4;
        if (r.purpose == cl::ui::CaptionRequest::Walkthrough)
            return 5;
        if (r.purpose == cl::ui::CaptionRequest::HeadImportance)
            return 6;
        return r.purpose == cl::ui::CaptionRequest::Beam ? 3 : r.purpose % 3;
    }
    std::unique_ptr<Captioner> m_model;
    std::atomic<quint64> m_latest[7] = {0, 0, 0, 0, 0, 0, 0}; // newest request id per slot
    std::atomic<quint64> m_cancelledCheckpoint{0};
};

} // namespace cl
