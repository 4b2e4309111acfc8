#include "app/gui/caption_worker.h"

#include "model/core/errors.h"

namespace cl {

CaptionWorker::CaptionWorker() = default;
CaptionWorker::~CaptionWorker() = default;

void CaptionWorker::openCheckpoint(const cl::ui::CheckpointRequest& r) {
    try {
        auto model = Captioner::open(r.path.toStdString(), r.device.toStdString());
        if (m_cancelledCheckpoint == r.id)
            return; // the user cancelled: keep the old model
        m_model = std::move(model);
        emit checkpointOpened(r.id, m_model->info());
    } catch (const std::exception& e) {
        emit checkpointFailed(r.id, QString::fromStdString(errorLine(e)));
    } catch (...) {
        emit checkpointFailed(r.id, tr("unexpected failure while loading %1").arg(r.path));
    }
}

void CaptionWorker::caption(const cl::ui::CaptionRequest& r) {
    if (r.id < m_latest[ui::requestLane(r.purpose)])
        return; // superseded before it started
    try {
        if (!m_model)
            throw std::runtime_error(
                tr("no model is loaded; open a checkpoint first").toStdString());
        const bool imageModel = m_model->info().config.memory == MemoryKind::ImageGrid;
        if (imageModel && r.image.pixels.empty())
            throw std::runtime_error(tr("this model captions images; open an image").toStdString());
        if (!imageModel && r.features.empty())
            throw std::runtime_error(tr("this model reads feature vectors; open a feature "
                                        "file (.npy or .h5) or a course folder")
                                         .toStdString());
        const int64_t width = m_model->info().config.inputDim;
        if (!imageModel && static_cast<int64_t>(r.features.size()) != width)
            throw std::runtime_error(tr("the feature row has width %1 but the model expects %2")
                                         .arg(r.features.size())
                                         .arg(width)
                                         .toStdString());
        emit answered({r.id, r.purpose, answer(r, imageModel), {}});
    } catch (const std::exception& e) {
        emit answered({r.id, r.purpose, {}, QString::fromStdString(errorLine(e))});
    } catch (...) {
        emit answered({r.id, r.purpose, {}, tr("unexpected failure while captioning")});
    }
}

ui::CaptionResult CaptionWorker::answer(const ui::CaptionRequest& r, bool imageModel) {
    using P = ui::CaptionPurpose;
    switch (r.purpose) {
    case P::Explain:
        if (!imageModel)
            throw std::runtime_error(tr("explanations need an image model").toStdString());
        return m_model->explainImage(r.image, r.options, r.explain);
    case P::Walkthrough:
        return imageModel ? m_model->walkthroughImage(r.image, r.options, r.walkthrough)
                          : m_model->walkthroughFeatures(r.features, r.options, r.walkthrough);
    case P::HeadImportance:
        return imageModel ? m_model->headImportanceImage(r.image, r.options)
                          : m_model->headImportanceFeatures(r.features, r.options);
    case P::Circuits: {
        if (!imageModel)
            throw std::runtime_error(tr("the Circuits panel pairs two images; for a course "
                                        "feature model use captionlens-cli patch --features")
                                         .toStdString());
        ui::CircuitsResult out;
        out.patch = m_model->patchImages(r.image, r.corrupt, r.options, r.patch);
        out.lens = m_model->lensImage(r.image, r.options, 3);
        return out;
    }
    case P::Beam:
        return (imageModel ? m_model->beamImages({r.image}, r.options, r.beam)
                           : m_model->beamFeatures(r.features, 1, r.options, r.beam))
            .front();
    case P::Main:
    case P::Branch:
    case P::Ablation:
    case P::Reference: {
        auto traces = imageModel ? m_model->captionImages({r.image}, r.options)
                                 : m_model->captionFeatures(r.features, 1, r.options);
        if (r.beamChoice) // the beam's words, not the user's: nothing is marked forced
            for (auto& s : traces.front().steps)
                s.forced = false;
        return traces.front();
    }
    }
    throw std::logic_error("a request of no known purpose"); // not reached: a case for each
}

} // namespace cl
