#include "model/api/trainer.h"
#include "model/novelty/world_stats.h"

#include "model/api/threads.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/shapes/shapes_data.h"

#include <chrono>
#include <cmath>
#include <future>
#include <stdexcept>

namespace cl {

namespace {

// AdamW written out (a dozen tensor ops) so its state is ours to save and resume.
class AdamW {
  public:
    AdamW(std::vector<std::pair<std::string, torch::Tensor>> params, double weightDecay)
        : m_params(std::move(params)), m_decay(weightDecay) {
        for (auto& [name, p] : m_params) {
            m_m.push_back(torch::zeros_like(p));
            m_v.push_back(torch::zeros_like(p));
        }
    }
    void step(double lr) {
        torch::NoGradGuard ng;
        ++m_step;
        const double c1 = 1 - std::pow(kBeta1, m_step), c2 = 1 - std::pow(kBeta2, m_step);
        for (size_t i = 0; i < m_params.size(); ++i) {
            auto& p = m_params[i].second;
            if (!p.grad().defined())
                continue;
            const auto& g = p.grad();
            if (p.dim() >= 2)
                p.mul_(1 - lr * m_decay); // matrices only: no decay on biases/norms
            m_m[i].mul_(kBeta1).add_(g, 1 - kBeta1);
            m_v[i].mul_(kBeta2).addcmul_(g, g, 1 - kBeta2);
            auto denom = (m_v[i] / c2).sqrt_().add_(kEps);
            p.addcdiv_(m_m[i], denom, -lr / c1);
        }
    }
    StateDict state() const {
        StateDict s;
        for (size_t i = 0; i < m_params.size(); ++i) {
            s.emplace_back("adam_m." + m_params[i].first, m_m[i]);
            s.emplace_back("adam_v." + m_params[i].first, m_v[i]);
        }
        s.emplace_back("adam_step", torch::tensor({static_cast<double>(m_step)}));
        return s;
    }
    void restore(const StateDict& s) {
        torch::NoGradGuard ng;
        for (const auto& [k, t] : s) {
            if (k == "adam_step")
                m_step = static_cast<int64_t>(t.item<double>());
            for (size_t i = 0; i < m_params.size(); ++i) {
                if (k == "adam_m." + m_params[i].first)
                    m_m[i].copy_(t);
                if (k == "adam_v." + m_params[i].first)
                    m_v[i].copy_(t);
            }
        }
    }

  private:
    static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
    std::vector<std::pair<std::string, torch::Tensor>> m_params;
    std::vector<torch::Tensor> m_m, m_v;
    double m_decay;
    int64_t m_step = 0;
};

double learningRate(const TrainOptions& o, int64_t step) {
    if (step < o.warmup)
        return o.lr * (step + 1) / o.warmup;
    const double progress = double(step - o.warmup) / std::max<int64_t>(1, o.steps - o.warmup);
    return o.lr * (0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * std::min(progress, 1.0))));
}

double variedShare(const TrainOptions& o, int64_t step) {
    const double ramp = o.classicShare * double(o.steps);
    if (ramp <= 0)
        return 1.0;
    return std::clamp((double(step) - ramp) / ramp, 0.0, 1.0);
}

TrainOptions optionsFrom(const Checkpoint& ck, const TrainOptions& given) {
    TrainOptions o = given; // steps, out, batch etc. from the command line
    o.heads = ck.config.numHeads;
    o.layers = ck.config.numLayers;
    o.width = ck.config.wordvecDim;
    o.ffn = ck.config.ffnDim;
    o.encoderChannels = ck.config.encoder.channels;
    o.imageSize = ck.config.encoder.imageSize;
    o.grid = ck.config.encoder.grid;
    o.position2d = ck.config.encoder.position2d;
    o.letterbox = ck.config.encoder.letterbox;
    return o;
}

} // namespace

ModelConfig shapesModelConfig(const TrainOptions& o) {
    ModelConfig c = presets::shapesImage(static_cast<int64_t>(shapesVocabulary().size()));
    c.inputDim = c.wordvecDim = o.width;
    c.numHeads = o.heads;
    c.numLayers = o.layers;
    c.ffnDim = o.ffn;
    c.encoder = {o.imageSize, o.grid, o.encoderChannels, o.position2d, o.letterbox};
    c.validate();
    return c;
}

double trainShapes(const TrainOptions& given) {
    keepBuffersInHeap();
    if (given.out.empty())
        throw std::invalid_argument("training needs --out");
    if (given.steps <= 0 || given.batch <= 0)
        throw std::invalid_argument("steps and batch must be positive");
    Checkpoint ck;
    TrainOptions o = given;
    if (!o.resume.empty()) {
        ck = readCheckpoint(o.resume);
        checkConfigAgainstTensors(ck.config, ck.stateDict);
        o = optionsFrom(ck, given);
    }
    const Vocabulary vocab(shapesVocabulary());
    const ModelConfig config = shapesModelConfig(o);
    torch::manual_seed(o.seed);
    CaptioningTransformer model(config, vocab.nullId());
    int64_t start = 0;
    AdamW opt(
        [&] {
            std::vector<std::pair<std::string, torch::Tensor>> ps;
            for (const auto& p : model->named_parameters())
                ps.emplace_back(p.key(), p.value());
            return ps;
        }(),
        o.weightDecay);
    if (!o.resume.empty()) {
        loadStateDict(*model, ck.stateDict);
        opt.restore(ck.trainState);
        start = ck.meta.steps;
    }
    auto save = [&](int64_t step, const std::string& path, bool withState) {
        Checkpoint out;
        out.config = config;
        out.vocab = vocab.words();
        out.stateDict = stateDictOf(*model);
        out.meta.steps = step;
        out.meta.dataset = std::string(o.world == World::Varied ? "shapes, varied world"
                                                                : "shapes, classic world") +
                           " (generated; held-out seeds below 1e9)";
        out.meta.date = isoDateNow();
        out.meta.source = "captionlens-cli train --seed " + std::to_string(o.seed) +
                          (o.world == World::Varied ? "" : " --world classic");
        if (withState)
            out.trainState = opt.state();
        else if (o.calibrationScenes > 0 && config.memory == MemoryKind::ImageGrid)
            // Files people open: the out-of-world check comes calibrated.
            out.worldStats = worldToStateDict(calibrateWorld(*model, o.calibrationScenes));
        writeCheckpoint(path, out);
        if (o.evaluateSnapshot && !withState) {
            out.meta.evalJson = o.evaluateSnapshot(path);
            writeCheckpoint(path, out);
        }
    };
    model->train();
    double avg = 0;
    const auto t0 = std::chrono::steady_clock::now();
    // The next batch is drawn on its own thread while this step runs (scenes depend only on
    // their seeds, so the run is the same as drawing them in turn); "data" below is the wait.
    auto draw = [&](int64_t step) {
        std::vector<uint64_t> seeds(static_cast<size_t>(o.batch));
        for (int64_t i = 0; i < o.batch; ++i)
            seeds[i] = kTrainSeedBase + (o.seed * 1000003ULL + step) * o.batch + i;
        return shapesBatch(seeds, o.imageSize, vocab, o.world, o.letterbox, variedShare(o, step));
    };
    std::future<ShapesBatch> next;
    if (start < o.steps)
        next = std::async(std::launch::async, draw, start);
    for (int64_t step = start; step < o.steps; ++step) {
        const auto tData = std::chrono::steady_clock::now();
        const auto batch = next.get();
        if (step + 1 < o.steps)
            next = std::async(std::launch::async, draw, step + 1);
        const auto tStep = std::chrono::steady_clock::now();
        const auto in = batch.captions.narrow(1, 0, batch.captions.size(1) - 1);
        const auto target = batch.captions.narrow(1, 1, batch.captions.size(1) - 1);
        auto scores = model->forward(batch.images, in); // (N, T, V)
        auto loss = torch::nn::functional::cross_entropy(
            scores.reshape({-1, scores.size(-1)}), target.reshape({-1}),
            torch::nn::functional::CrossEntropyFuncOptions().ignore_index(vocab.nullId()));
        model->zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        opt.step(learningRate(o, step));
        const double l = loss.item<double>();
        const auto tEnd = std::chrono::steady_clock::now();
        const auto ms = [](auto a, auto b) {
            return std::chrono::duration<double, std::milli>(b - a).count();
        };
        avg = step == start ? l : 0.98 * avg + 0.02 * l;
        const int64_t done = step + 1;
        if (o.onProgress) {
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double rate = (done - start) * o.batch / std::max(secs, 1e-9);
            o.onProgress({done, o.steps, avg, l, rate,
                          (o.steps - done) * o.batch / std::max(rate, 1e-9), ms(tData, tStep),
                          ms(tStep, tEnd)});
        }
        if (done % o.saveEvery == 0 || done == o.steps) {
            model->eval();
            save(done, o.out, done != o.steps);
            if (std::find(o.snapshotSteps.begin(), o.snapshotSteps.end(), done) !=
                o.snapshotSteps.end())
                save(done,
                     o.out.substr(0, o.out.rfind(".pt")) + "-step" + std::to_string(done) + ".pt",
                     false);
            const bool stop = o.stopAfter && o.stopAfter(done, o.out) && done != o.steps;
            if (stop) {
                save(done, o.out, false);
                return avg;
            }
            model->train();
        }
    }
    return avg;
}

} // namespace cl
