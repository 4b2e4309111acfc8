#include "ui/training/training_run.h"

#include "model/api/captioner.h"
#include "model/evaluation/evaluation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <thread>

namespace cl::ui {

TrainSettings TrainSettings::quick() {
    return {};
}

// The bundled model's architecture on classic scenes, twice its learning rate, no dropout, the
// cosine decay over 3,500 steps (README: time to quality).
TrainSettings TrainSettings::lecture() {
    TrainSettings s;
    s.heads = 4;
    s.width = 128;
    s.steps = 3500;
    s.evalEvery = 250;
    return s;
}

TrainSettings TrainSettings::shipped() {
    TrainSettings s;
    s.heads = 4;
    s.width = 128;
    s.varied = true;
    s.dropout = 0.1;
    s.steps = 48000;
    s.evalEvery = 1000;
    s.evalScenes = 200;
    return s;
}

// The bundled model's architecture and world without dropout, 8,000 steps: 75.5 % exact on 200
// held-out varied-world scenes (captionlens-cli train --steps 8000 --lr 2e-3 --dropout 0
// --classic-floor 0.15, seed 1; 95 ms a step on two idle cores).
TrainSettings TrainSettings::variedWorld() {
    TrainSettings s;
    s.heads = 4;
    s.width = 128;
    s.varied = true;
    s.steps = 8000;
    s.evalEvery = 1000;
    return s;
}

TrainOptions TrainSettings::options() const {
    TrainOptions o;
    o.layers = layers;
    o.heads = heads;
    o.width = width;
    o.ffn = 4 * width;
    o.encoderChannels = width <= 64 ? 32 : 64;
    o.grid = grid;
    o.imageSize = 8 * grid;
    o.position2d = position2d;
    o.world = varied ? World::Varied : World::Classic;
    o.classicShare = varied ? 0.125 : 0.0;
    o.classicFloor = varied ? 0.15 : 0.0; // the bundled recipe: classic scenes stay in each batch
    o.batch = batch;
    o.lr = lr;
    o.dropout = dropout;
    o.steps = steps;
    o.warmup = std::clamp<int64_t>(steps / 10, 1, 200);
    o.saveEvery = evalEvery;
    o.calibrationScenes = 0; // Save model… calibrates the file people keep
    for (int64_t s = evalEvery; s <= steps; s += evalEvery)
        o.snapshotSteps.push_back(s);
    return o;
}

TrainingRun::TrainingRun(QObject* parent) : QObject(parent) {}

TrainingRun::~TrainingRun() {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool TrainingRun::start(const TrainSettings& settings, const QString& folder) {
    if (m_running) {
        m_error = tr("A training run is going; stop it first.");
        return false;
    }
    if (settings.width % settings.heads != 0) {
        m_error = tr("The width (%1) must be a multiple of the heads (%2).")
                      .arg(settings.width)
                      .arg(settings.heads);
        return false;
    }
    QDir dir(folder);
    if (folder.isEmpty() || !dir.mkpath(QStringLiteral("."))) {
        m_error = tr("Cannot create the run folder %1.").arg(folder);
        return false;
    }
    if (!dir.entryList({QStringLiteral("*.pt")}, QDir::Files).isEmpty()) {
        m_error = tr("%1 already holds a run (*.pt); choose an empty folder.").arg(folder);
        return false;
    }
    TrainOptions o = settings.options();
    m_folder = dir.absolutePath();
    o.out = (m_folder + QStringLiteral("/latest.ckpt")).toStdString();
    o.snapshotDir = m_folder.toStdString();
    o.keepGoing = [this](int64_t) { return keepGoing(); };
    if (m_thread.joinable())
        m_thread.join(); // the last run's thread, already at its end
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_paused = m_stop = false;
    }
    m_running = true;
    m_latest.clear();
    m_error.clear();
    m_thread = std::thread([this, o, n = settings.evalScenes] { work(o, n); });
    return true;
}

void TrainingRun::setPaused(bool on) {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_paused = on;
    }
    m_wake.notify_all();
}

bool TrainingRun::paused() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_paused;
}

void TrainingRun::stop() {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

bool TrainingRun::holding() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_holding;
}

bool TrainingRun::keepGoing() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_holding = m_paused && !m_stop;
    m_wake.wait(lock, [this] { return !m_paused || m_stop; });
    m_holding = false;
    return !m_stop;
}

void TrainingRun::post(std::function<void()> f) {
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

// On the training thread. Every result reaches the window through post().
void TrainingRun::work(TrainOptions o, int evalScenes) {
    // The process's thread count (--threads) stands: LibTorch's is process-wide, so setting it
    // here would change it for captioning too, from a thread that does not own it.
    int64_t lastStep = 0;
    double finalExact = -1;
    o.onProgress = [&](const TrainProgress& p) {
        lastStep = p.step;
        const double perSecond = p.scenesPerSecond / double(o.batch);
        post([this, p, perSecond] {
            emit progressed(p.step, p.steps, p.loss, p.stepLoss, perSecond, p.secondsLeft);
        });
    };
    o.evaluateSnapshot = [&](const std::string& path) {
        auto model = Captioner::open(path);
        EvalOptions e;
        e.scenes = evalScenes;
        e.world = o.world;
        const EvalResult r = evaluate(*model, e);
        if (path == o.out) {
            finalExact = r.exactMatch; // the final model: finished() below
        } else {
            const QString file = QString::fromStdString(path);
            post([this, file, step = lastStep, exact = r.exactMatch] {
                m_latest = file;
                emit snapshotWritten(file, step, exact);
            });
        }
        return r.toJson();
    };
    QString error;
    try {
        trainShapes(o);
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    } catch (...) { // nothing thrown on the training thread ends the process
        error = QStringLiteral("an unexpected failure (not a std::exception)");
    }
    // The last step as a snapshot too (a run stopped between snapshots), for the Timeline.
    const QString final = QString::fromStdString(o.out);
    const QString last = QString::fromStdString(o.snapshotDir) +
                         QString::asprintf("/step%06lld.pt", static_cast<long long>(lastStep));
    const bool copied =
        error.isEmpty() && lastStep > 0 && !QFileInfo::exists(last) && QFile::copy(final, last);
    post([this, error, last, copied, step = lastStep, finalExact] {
        m_running = false;
        if (error.isEmpty())
            m_latest = last;
        if (copied)
            emit snapshotWritten(last, step, finalExact);
        emit finished(error);
    });
}

} // namespace cl::ui
