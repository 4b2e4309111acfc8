#include "model/api/trainer.h"
#include "model/novelty/world_stats.h"

#include "model/api/threads.h"
#include "model/dataset/shapes_data.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/train/adamw.h"
#include "model/train/data_parallel.h"
#include "model/train/smoothed_loss.h"
#include "model/train/weight_average.h"
#include "model/train/word_loss.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <optional>
#include <stdexcept>

namespace cl {

namespace {

double learningRate(const TrainOptions& o, int64_t step) {
    if (step < o.warmup)
        return o.lr * (step + 1) / o.warmup;
    const double progress = double(step - o.warmup) / std::max<int64_t>(1, o.steps - o.warmup);
    return o.lr * (0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * std::min(progress, 1.0))));
}

} // namespace

double variedShareAt(const TrainOptions& o, int64_t step) {
    const double ramp = o.classicShare * double(o.steps);
    const double most = 1.0 - o.classicFloor;
    if (ramp <= 0)
        return most;
    return std::clamp((double(step) - ramp) / ramp, 0.0, most);
}

namespace {

int objectCap(const TrainOptions& o, int64_t step) {
    const double span = o.objectCurriculum * double(o.steps);
    if (span <= 0)
        return 3;
    return std::min(3, 1 + static_cast<int>(3.0 * double(step) / span));
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
    o.scaleCue = ck.config.encoder.scaleCue;
    o.dropout = ck.config.dropout;
    return o;
}

// A warm start's options: the architecture of `ck`, the input size, grid and dropout as given.
TrainOptions initOptionsFrom(const Checkpoint& ck, const TrainOptions& given) {
    TrainOptions o = optionsFrom(ck, given);
    o.imageSize = given.imageSize;
    o.grid = given.grid;
    o.dropout = given.dropout;
    o.letterbox = given.letterbox;
    o.scaleCue = given.scaleCue || o.scaleCue;
    return o;
}

// A convolution weight (out, in, k, k) of `ck` given input planes it lacked (the scale cue): zero
// weights for them, so the warm start computes what `ck` did until training uses them.
torch::Tensor widened(const torch::Tensor& weight, const torch::Tensor& own) {
    if (weight.dim() != 4 || own.dim() != 4 || weight.size(1) >= own.size(1) ||
        weight.size(0) != own.size(0))
        return weight;
    auto grown = torch::zeros_like(own);
    grown.narrow(1, 0, weight.size(1)).copy_(weight);
    return grown;
}

// The warm start's weights in `model`: every tensor of `ck` but the 2D position code, which is a
// function of the grid and stays the model's own; the first convolution widened for the scale
// cue when the model has one and `ck` had not.
void loadInitWeights(CaptioningTransformerImpl& model, const Checkpoint& ck,
                     const Vocabulary& vocab) {
    if (ck.vocab != vocab.words())
        throw std::invalid_argument("--init needs a shapes-world model (its vocabulary differs)");
    if (ck.config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("--init needs an image model, not a feature model");
    StateDict sd = ck.stateDict;
    for (const auto& [name, own] : stateDictOf(model))
        for (auto& [key, value] : sd)
            if (key == name && name.size() >= 5 && name.compare(name.size() - 5, 5, "pos2d") == 0)
                value = own.clone();
            else if (key == name && name == "encoder.stem.weight")
                value = widened(value, own);
    loadStateDict(model, sd);
}

std::string shortNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string baseName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// How a warm-started run began, for its source line (kept when it is resumed): the last part.
std::string warmStartNote(const TrainOptions& o, const Checkpoint& resumed) {
    if (!o.init.empty())
        return " --init " + baseName(o.init) + " --image-size " + std::to_string(o.imageSize) +
               " --grid " + std::to_string(o.grid);
    const auto at = o.resume.empty() ? std::string::npos : resumed.meta.source.find(" --init ");
    return at == std::string::npos ? "" : resumed.meta.source.substr(at);
}

std::string snapshotPath(const TrainOptions& o, int64_t step) {
    if (o.snapshotDir.empty())
        return o.out.substr(0, o.out.rfind(".pt")) + "-step" + std::to_string(step) + ".pt";
    char name[32];
    std::snprintf(name, sizeof name, "/step%06lld.pt", static_cast<long long>(step));
    return o.snapshotDir + name;
}

// What every data-parallel rank must have been given alike (the rest follows from these).
std::string runKey(const TrainOptions& o, int64_t start) {
    const ModelConfig c = shapesModelConfig(o);
    return "steps " + std::to_string(o.steps) + ", batch " + std::to_string(o.batch) + ", seed " +
           std::to_string(o.seed) + ", lr " + std::to_string(o.lr) + ", warm-up " +
           std::to_string(o.warmup) + ", curriculum " + std::to_string(o.classicShare) + "/" +
           std::to_string(o.classicFloor) + "/" + std::to_string(o.objectCurriculum) + ", world " +
           (o.world == World::Varied ? "varied" : "classic") + ", model " +
           std::to_string(c.numLayers) + "x" + std::to_string(c.numHeads) + " W " +
           std::to_string(c.wordvecDim) + " FFN " + std::to_string(c.ffnDim) + " input " +
           std::to_string(c.encoder.imageSize) + (c.encoder.scaleCue ? " scale cue" : "") +
           " dropout " + std::to_string(c.dropout) + ", average " + std::to_string(o.average) +
           ", focal " + std::to_string(o.focal) + ", save every " + std::to_string(o.saveEvery) +
           ", from step " + std::to_string(start);
}

// The step's scenes: rank r of N draws the r-th slice of the step's N x batch seeds, so N ranks
// see exactly the scenes one rank with N x batch would.
std::vector<uint64_t> stepSeeds(const TrainOptions& o, int64_t step) {
    const uint64_t global = static_cast<uint64_t>(o.batch * o.parallel.worldSize);
    std::vector<uint64_t> seeds(static_cast<size_t>(o.batch));
    for (int64_t i = 0; i < o.batch; ++i)
        seeds[i] = kTrainSeedBase + (o.seed * 1000003ULL + step) * global +
                   static_cast<uint64_t>(o.parallel.rank * o.batch + i);
    return seeds;
}

// Cross-entropy over the words that are not <NULL>, averaged over every rank's words (one rank:
// the plain mean); focal as train/word_loss.h says. Returns the loss to differentiate and the
// average cross-entropy to report.
std::pair<torch::Tensor, double> stepLoss(const torch::Tensor& scores, const torch::Tensor& target,
                                          int64_t nullId, double focal, DataParallel& dp) {
    namespace F = torch::nn::functional;
    if (dp.size() == 1 && focal <= 0) {
        auto loss = F::cross_entropy(scores.reshape({-1, scores.size(-1)}), target.reshape({-1}),
                                     F::CrossEntropyFuncOptions().ignore_index(nullId));
        return {loss, loss.item<double>()};
    }
    const auto ce = wordLosses(scores, target, nullId);
    const auto terms = focalTerms(ce, focal);
    auto both = torch::stack(
        {target.ne(nullId).sum().to(torch::kDouble), ce.detach().sum().to(torch::kDouble)});
    if (dp.size() > 1)
        dp.sum(both);
    const double words = std::max(1.0, both[0].item<double>());
    return {terms.sum() / words, both[1].item<double>() / words};
}

} // namespace

ModelConfig shapesModelConfig(const TrainOptions& o) {
    ModelConfig c = presets::shapesImage(static_cast<int64_t>(shapesVocabulary().size()));
    c.inputDim = c.wordvecDim = o.width;
    c.numHeads = o.heads;
    c.numLayers = o.layers;
    c.ffnDim = o.ffn;
    c.encoder = {o.imageSize, o.grid, o.encoderChannels, o.position2d, o.letterbox, o.scaleCue};
    c.dropout = o.dropout;
    c.validate();
    return c;
}

double trainShapes(const TrainOptions& given) {
    keepBuffersInHeap();
    if (given.out.empty())
        throw std::invalid_argument("training needs --out");
    if (given.steps <= 0 || given.batch <= 0)
        throw std::invalid_argument("steps and batch must be positive");
    if (!(given.dropout >= 0 && given.dropout < 1))
        throw std::invalid_argument("--dropout must be in [0, 1)");
    if (given.keepGoing && given.parallel.worldSize > 1)
        throw std::invalid_argument("a run that can be paused or stopped has one rank");
    DataParallel dp(given.parallel);
    Checkpoint ck;
    TrainOptions o = given;
    if (!o.resume.empty()) {
        ck = readCheckpoint(o.resume);
        checkConfigAgainstTensors(ck.config, ck.stateDict);
        o = optionsFrom(ck, given);
    } else if (!o.init.empty()) {
        ck = readCheckpoint(o.init);
        checkConfigAgainstTensors(ck.config, ck.stateDict);
        o = initOptionsFrom(ck, given);
    }
    const Vocabulary vocab(shapesVocabulary());
    const ModelConfig config = shapesModelConfig(o);
    torch::manual_seed(o.seed);
    CaptioningTransformer model(config, vocab.nullId());
    int64_t start = 0;
    std::vector<std::pair<std::string, torch::Tensor>> named;
    std::vector<torch::Tensor> params;
    for (const auto& p : model->named_parameters()) {
        named.emplace_back(p.key(), p.value());
        params.push_back(p.value());
    }
    AdamW opt(named, o.weightDecay);
    if (!o.resume.empty()) {
        loadStateDict(*model, ck.stateDict);
        opt.restore(ck.trainState);
        start = ck.meta.steps;
    } else if (!o.init.empty()) {
        loadInitWeights(*model, ck, vocab);
    }
    dp.agree("options", runKey(o, start));
    {
        torch::NoGradGuard ng; // every rank starts from rank 0's weights and moments
        auto all = params;
        for (const auto& m : opt.moments())
            all.push_back(m);
        dp.broadcast(all);
    }
    std::optional<WeightAverage> average;
    if (o.average > 0) {
        average.emplace(named, o.average);
        if (!o.resume.empty())
            average->restore(ck.trainState);
    }
    const std::string initNote = warmStartNote(o, ck);
    auto save = [&](int64_t step, const std::string& path, bool withState) {
        // Files people open hold the average (calibrated on it); resumable ones the live weights.
        const bool averaged = average && !withState;
        if (averaged)
            average->swap();
        Checkpoint out;
        out.config = config;
        out.vocab = vocab.words();
        out.stateDict = stateDictOf(*model);
        out.meta.steps = step;
        out.meta.dataset = std::string(o.world == World::Varied ? "shapes, varied world"
                                                                : "shapes, classic world") +
                           " (generated; held-out seeds below 1e9)";
        out.meta.date = isoDateNow();
        out.meta.source =
            "captionlens-cli train --seed " + std::to_string(o.seed) + " --batch " +
            std::to_string(o.batch) + " --lr " + shortNumber(o.lr) + " --dropout " +
            shortNumber(config.dropout) +
            (o.classicFloor > 0 ? " --classic-floor " + shortNumber(o.classicFloor) : "") +
            (o.world == World::Varied ? "" : " --world classic") +
            (dp.size() > 1 ? " --world-size " + std::to_string(dp.size()) : "") +
            (o.scaleCue ? " --scale-cue" : "") +
            (o.average > 0 ? " --average " + shortNumber(o.average) : "") +
            (o.focal > 0 ? " --focal " + shortNumber(o.focal) : "") + initNote;
        if (withState) {
            out.trainState = opt.state();
            if (average)
                for (auto& entry : average->state())
                    out.trainState.push_back(std::move(entry));
        } else if (o.calibrationScenes > 0 && config.memory == MemoryKind::ImageGrid)
            // Files people open: the out-of-world check comes calibrated.
            out.worldStats = worldToStateDict(calibrateWorld(*model, o.calibrationScenes));
        writeCheckpoint(path, out);
        if (o.evaluateSnapshot && !withState) {
            out.meta.evalJson = o.evaluateSnapshot(path);
            writeCheckpoint(path, out);
        }
        if (averaged)
            average->swap();
    };
    model->train();
    SmoothedLoss smoothed;
    const auto t0 = std::chrono::steady_clock::now();
    // The next batch is drawn on its own thread while this step runs (scenes depend only on
    // their seeds, so the run is the same as drawing them in turn); "data" below is the wait.
    auto draw = [&](int64_t step) {
        return shapesBatch(stepSeeds(o, step), config.encoder, vocab, o.world,
                           variedShareAt(o, step), objectCap(o, step));
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
        auto [loss, l] = stepLoss(scores, target, vocab.nullId(), o.focal, dp);
        model->zero_grad();
        loss.backward();
        dp.sumGradients(params);
        torch::nn::utils::clip_grad_norm_(params, 1.0);
        opt.step(learningRate(o, step));
        if (average)
            average->update();
        const auto tEnd = std::chrono::steady_clock::now();
        const auto ms = [](auto a, auto b) {
            return std::chrono::duration<double, std::milli>(b - a).count();
        };
        smoothed.add(l);
        const int64_t done = step + 1;
        if (o.onProgress) {
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const int64_t perStep = o.batch * dp.size();
            const double rate = (done - start) * perStep / std::max(secs, 1e-9);
            o.onProgress({done, o.steps, smoothed.value(), l, rate,
                          (o.steps - done) * perStep / std::max(rate, 1e-9), ms(tData, tStep),
                          ms(tStep, tEnd)});
        }
        const bool halt = o.keepGoing && !o.keepGoing(done) && done != o.steps;
        if (halt) {
            model->eval();
            save(done, o.out, false);
            return smoothed.value();
        }
        if (done % o.saveEvery == 0 || done == o.steps) {
            model->eval();
            if (dp.leader()) // rank 0 writes; the others wait for it at the next collective
                save(done, o.out, done != o.steps);
            if (dp.leader() && std::find(o.snapshotSteps.begin(), o.snapshotSteps.end(), done) !=
                                   o.snapshotSteps.end())
                save(done, snapshotPath(o, done), false);
            auto stop = torch::tensor(
                {dp.leader() && o.stopAfter && o.stopAfter(done, o.out) && done != o.steps ? 1
                                                                                           : 0});
            dp.broadcast({stop}); // rank 0's verdict, on every rank
            if (stop.item<int>() != 0) {
                if (dp.leader())
                    save(done, o.out, false);
                return smoothed.value();
            }
            model->train();
        }
    }
    return smoothed.value();
}

} // namespace cl
