#include "app/gui/compare_worker.h"

#include "model/core/errors.h"

#include <QFileInfo>

namespace cl {

namespace {
constexpr size_t kCacheLimit = 64; // snapshots of the bundled model are ~2.6 MB each
}

CompareWorker::CompareWorker() = default;
CompareWorker::~CompareWorker() = default;

const CompareWorker::Cached& CompareWorker::load(const QString& path) {
    const QDateTime modified = QFileInfo(path).lastModified();
    auto it = m_cache.find(path);
    if (it != m_cache.end() && it->second.modified == modified)
        return it->second;
    if (m_cache.size() >= kCacheLimit)
        m_cache.clear();
    Cached c;
    c.modified = modified;
    try {
        c.model = Captioner::open(path.toStdString());
    } catch (const std::exception& e) {
        c.error = QString::fromStdString(errorLine(e));
    } catch (...) {
        c.error = tr("unexpected failure while loading %1").arg(path);
    }
    return m_cache[path] = std::move(c);
}

void CompareWorker::compare(const cl::ui::CompareRequest& r) {
    if (r.id < m_latest[static_cast<size_t>(r.purpose)])
        return; // superseded before it started
    ui::CompareResult result;
    result.id = r.id;
    result.purpose = r.purpose;
    result.paths = r.paths;
    std::vector<std::shared_ptr<Captioner>> held; // alive while comparing, even if evicted
    std::vector<Captioner*> models;
    std::vector<int> index; // result slot of each loaded model
    std::vector<std::vector<uint8_t>> headsOff; // of each loaded model
    for (int i = 0; i < r.paths.size(); ++i) {
        const Cached& c = load(r.paths[i]);
        result.loadErrors << c.error;
        result.models.push_back(c.model ? c.model->info() : ModelInfo{});
        if (c.model) {
            held.push_back(c.model);
            models.push_back(c.model.get());
            index.push_back(i);
            headsOff.push_back(size_t(i) < r.headsOff.size() ? r.headsOff[size_t(i)]
                                                              : std::vector<uint8_t>());
        }
    }
    result.runs.resize(size_t(r.paths.size()));
    try {
        auto runs =
            compareModels(models, r.image, r.features, r.maxLength, r.teacherForce, headsOff);
        // Re-spread forced traces over all slots so indices match paths.
        for (size_t k = 0; k < runs.size(); ++k) {
            ModelRun& out = result.runs[size_t(index[k])];
            out.error = runs[k].error;
            out.own = std::move(runs[k].own);
            out.forced.resize(size_t(r.paths.size()));
            out.known.resize(size_t(r.paths.size()));
            for (size_t j = 0; j < runs.size(); ++j) {
                out.forced[size_t(index[j])] = std::move(runs[k].forced[j]);
                out.known[size_t(index[j])] = std::move(runs[k].known[j]);
            }
        }
    } catch (const std::exception& e) {
        for (auto& run : result.runs)
            run.error = errorLine(e);
    } catch (...) {
        for (auto& run : result.runs)
            run.error = "an unexpected failure (not a std::exception)";
    }
    emit compared(result);
}

} // namespace cl
