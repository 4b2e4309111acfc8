#include "model/api/captioner.h"

#include "model/decode/beam.h"
#include "model/decode/decode_scope.h"
#include "model/decode/greedy.h"
#include "model/explain/explain.h"
#include "model/explain/head_importance.h"
#include "model/explain/lens.h"
#include "model/explain/patching.h"
#include "model/explain/walkthrough.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/novelty/caption_check.h"
#include "model/novelty/world_stats.h"

#include <algorithm>
#include <stdexcept>

namespace cl {

namespace {

// The image's half of the out-of-world check (`featureScore`) and the caption's half
// (novelty/caption_check.h); a caption the user forced words into is the user's, not evidence.
void judgeWorld(CaptionTrace& trace, double featureScore, const RgbImage& image) {
    trace.worldChecked = true;
    trace.worldScore = featureScore;
    trace.worldReason = featureScore > 1 ? "features" : "";
    const bool forced = std::any_of(trace.steps.begin(), trace.steps.end(),
                                    [](const DecodeStep& s) { return s.forced; });
    if (forced)
        return;
    const CaptionCheck c =
        checkCaption(trace.words(), image.pixels.data(), image.height, image.width);
    if (c.score > featureScore) {
        trace.worldScore = c.score;
        trace.worldReason = c.reason;
        trace.worldColour = c.colour;
    }
}

void checkFeatureRows(const ModelConfig& c, const std::vector<float>& rows, int64_t count) {
    if (c.memory != MemoryKind::Features)
        throw std::invalid_argument("this model captions images, not feature vectors");
    const auto size = static_cast<int64_t>(rows.size());
    if (count > 0 && size % count == 0 && size != count * c.inputDim)
        throw std::invalid_argument("feature rows of width " + std::to_string(size / count) +
                                    " but the model expects " + std::to_string(c.inputDim));
    if (count <= 0 || size != count * c.inputDim)
        throw std::invalid_argument("expected " + std::to_string(count) +
                                    " feature rows of width " + std::to_string(c.inputDim));
}

// The checkpoint's world statistics, if they fit this model's encoder (the signature of one
// blank image tells how many numbers they must have).
WorldStats checkedWorld(const StateDict& dict, CaptioningTransformerImpl& model) {
    WorldStats s = worldFromStateDict(dict);
    const auto& e = model.config().encoder;
    std::vector<torch::Tensor> activations;
    c10::InferenceMode guard;
    model.encode(torch::zeros({1, e.inputChannels(), e.imageSize, e.imageSize}), &activations);
    const auto sig = worldSignature(activations);
    bool fits = sig.size() == s.layers.size();
    for (size_t l = 0; fits && l < sig.size(); ++l)
        fits = sig[l].size(1) == s.layers[l].mean.size(0);
    if (!fits)
        throw std::runtime_error("world_stats do not fit this model's encoder");
    return s;
}

} // namespace

struct Captioner::Impl {
    ModelInfo info;
    Vocabulary vocab;
    CaptioningTransformer model{nullptr};
    torch::Device device{torch::kCPU};
    WorldStats world; // empty: no out-of-world check

    // The encoder's input (N, 3, S, S) on the model's device.
    torch::Tensor inputs(const std::vector<RgbImage>& images,
                         std::vector<CropRect>* seen = nullptr) const {
        const auto& c = info.config;
        if (c.memory != MemoryKind::ImageGrid)
            throw std::invalid_argument(
                "this model takes feature vectors, not images; use --features");
        std::vector<torch::Tensor> batch;
        for (const auto& im : images) {
            if (im.pixels.size() != static_cast<size_t>(im.width * im.height * 3))
                throw std::invalid_argument("image pixel buffer does not match its size");
            CropRect kept;
            batch.push_back(
                preprocessImage(im.pixels.data(), im.height, im.width, c.encoder, &kept));
            if (seen)
                seen->push_back(kept);
        }
        return torch::cat(batch, 0).to(device);
    }

    torch::Tensor encodeImages(const std::vector<RgbImage>& images,
                               std::vector<torch::Tensor>* activations = nullptr,
                               std::vector<CropRect>* seen = nullptr) {
        return model->encode(inputs(images, seen), activations);
    }

    std::vector<CaptionTrace> decodeImages(const std::vector<RgbImage>& images,
                                           const DecodeOptions& options, bool fullRerun) {
        DecodeScope scope(model, options);
        std::vector<torch::Tensor> activations;
        std::vector<CropRect> seen;
        const auto encoded = encodeImages(images, world.empty() ? nullptr : &activations, &seen);
        const auto memory = model->memory(encoded);
        auto traces = fullRerun ? greedyDecodeFullRerun(*model, memory, vocab, options)
                                : greedyDecode(*model, memory, vocab, options);
        for (size_t i = 0; i < traces.size() && i < seen.size(); ++i)
            traces[i].seen = seen[i];
        if (!world.empty()) {
            auto sig = worldSignature(activations);
            for (auto& t : sig)
                t = t.cpu();
            const auto d = worldScore(world, sig);
            for (size_t i = 0; i < traces.size(); ++i)
                judgeWorld(traces[i], d[int64_t(i)].item<double>(), images[i]);
        }
        return traces;
    }
};

Captioner::Captioner(std::unique_ptr<Impl> impl) : d(std::move(impl)) {}
Captioner::~Captioner() = default;

void checkDevice(const std::string& device) {
    if (device == "cpu")
        return;
    if (device != "cuda")
        throw std::invalid_argument("unknown device '" + device + "' (cpu or cuda)");
    if (!torch::cuda::is_available())
        throw std::runtime_error("device cuda is not available: this LibTorch was built without "
                                 "CUDA or no GPU is visible; use --device cpu");
}

std::unique_ptr<Captioner> Captioner::open(const std::string& path, const std::string& device) {
    checkDevice(device);
    auto impl = std::make_unique<Impl>();
    Checkpoint ck = readCheckpoint(path);
    try {
        impl->vocab = Vocabulary(ck.vocab);
        impl->model = buildModel(ck, impl->vocab.nullId(), &impl->info.warnings);
        if (!ck.worldStats.empty() && ck.config.memory == MemoryKind::ImageGrid) {
            // Damaged statistics cost the notice, not the model.
            try {
                impl->world = checkedWorld(ck.worldStats, *impl->model);
            } catch (const std::exception& e) {
                impl->info.warnings.push_back(
                    std::string("its out-of-world statistics are unusable (") + e.what() +
                    "): no out-of-world notice; captionlens-cli calibrate renews them");
            }
        }
        impl->info.worldCalibrated = !impl->world.empty();
    } catch (const c10::Error& e) {
        throw std::runtime_error(path + ": " + e.what_without_backtrace());
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    impl->device = torch::Device(device == "cuda" ? torch::kCUDA : torch::kCPU);
    impl->model->to(impl->device);
    impl->info.path = path;
    impl->info.config = ck.config;
    impl->info.meta = ck.meta;
    impl->info.vocab = impl->vocab.words();
    for (const auto& p : impl->model->parameters())
        impl->info.parameters += p.numel();
    return std::unique_ptr<Captioner>(new Captioner(std::move(impl)));
}

const ModelInfo& Captioner::info() const {
    return d->info;
}
const Vocabulary& Captioner::vocab() const {
    return d->vocab;
}

std::vector<CaptionTrace> Captioner::captionFeatures(const std::vector<float>& rows, int64_t count,
                                                     const DecodeOptions& options) {
    const auto dim = d->info.config.inputDim;
    checkFeatureRows(d->info.config, rows, count);
    DecodeScope scope(d->model, options);
    auto x = torch::from_blob(const_cast<float*>(rows.data()), {count, dim}).to(d->device);
    return greedyDecode(*d->model, d->model->memory(x), d->vocab, options);
}

Captioner::CaptionLoss Captioner::featureCaptionLoss(const std::vector<float>& rows,
                                                     const std::vector<int64_t>& captions,
                                                     int64_t count, int64_t length) {
    const auto dim = d->info.config.inputDim;
    if (d->info.config.memory != MemoryKind::Features)
        throw std::invalid_argument("this model captions images, not feature vectors");
    if (count <= 0 || length < 2 || static_cast<int64_t>(rows.size()) != count * dim ||
        static_cast<int64_t>(captions.size()) != count * length)
        throw std::invalid_argument("caption loss needs matching feature rows and captions");
    const int64_t vocab = d->info.config.vocabSize;
    for (auto id : captions)
        if (id < 0 || id >= vocab)
            throw std::invalid_argument("a caption holds word id " + std::to_string(id) +
                                        ", outside this model's " + std::to_string(vocab) +
                                        " words");
    // Positions past the model's table cannot be scored; the course's captions (17) fit in 30.
    const int64_t steps = std::min<int64_t>(length - 1, d->info.config.maxLength);
    c10::InferenceMode inference;
    auto x = torch::from_blob(const_cast<float*>(rows.data()), {count, dim}).to(d->device);
    auto ids =
        torch::from_blob(const_cast<int64_t*>(captions.data()), {count, length}, torch::kLong)
            .to(d->device);
    auto in = ids.slice(1, 0, steps), target = ids.slice(1, 1, steps + 1);
    auto scores = d->model->forward(x, in);
    auto loss =
        torch::nn::functional::cross_entropy(scores.reshape({-1, vocab}), target.reshape({-1}),
                                             torch::nn::functional::CrossEntropyFuncOptions()
                                                 .ignore_index(d->vocab.nullId())
                                                 .reduction(torch::kSum));
    CaptionLoss out;
    out.sum = loss.item<double>();
    out.tokens = target.ne(d->vocab.nullId()).sum().item<int64_t>();
    return out;
}

std::vector<CaptionTrace> Captioner::captionImages(const std::vector<RgbImage>& images,
                                                   const DecodeOptions& options) {
    return d->decodeImages(images, options, false);
}

std::vector<CaptionTrace> Captioner::captionImagesFullRerun(const std::vector<RgbImage>& images,
                                                            const DecodeOptions& options) {
    return d->decodeImages(images, options, true);
}

namespace {

// The best hypothesis as a full trace: decoded again with its tokens forced, then marked as the
// beam's choices rather than the user's (a prefix the user forced stays forced).
template <class Decode>
BeamCaption traced(BeamResult beam, const DecodeOptions& options, Decode decode) {
    BeamCaption out;
    out.beam = std::move(beam);
    DecodeOptions o = options;
    o.forcedPrefix = out.beam.hypotheses.front().ids;
    out.trace = decode(o);
    for (size_t t = options.forcedPrefix.size(); t < out.trace.steps.size(); ++t)
        out.trace.steps[t].forced = false;
    return out;
}

} // namespace

std::vector<BeamCaption> Captioner::beamImages(const std::vector<RgbImage>& images,
                                               const DecodeOptions& options,
                                               const BeamOptions& beam) {
    std::vector<BeamCaption> out;
    for (const auto& image : images) {
        BeamResult r;
        {
            DecodeScope scope(d->model, options);
            const auto memory = d->model->memory(d->encodeImages({image}));
            r = beamSearch(*d->model, memory, d->vocab, options, beam);
        }
        out.push_back(traced(std::move(r), options, [&](const DecodeOptions& o) {
            return d->decodeImages({image}, o, false).front();
        }));
        auto& trace = out.back().trace;
        if (trace.worldChecked) // decoded forced, so judged by the image alone: now by both
            judgeWorld(trace, trace.worldScore, image);
    }
    return out;
}

std::vector<BeamCaption> Captioner::beamFeatures(const std::vector<float>& rows, int64_t count,
                                                 const DecodeOptions& options,
                                                 const BeamOptions& beam) {
    const auto dim = d->info.config.inputDim;
    checkFeatureRows(d->info.config, rows, count);
    std::vector<BeamCaption> out;
    for (int64_t i = 0; i < count; ++i) {
        const std::vector<float> row(rows.begin() + i * dim, rows.begin() + (i + 1) * dim);
        BeamResult r;
        {
            DecodeScope scope(d->model, options);
            auto x = torch::from_blob(const_cast<float*>(row.data()), {1, dim}).to(d->device);
            r = beamSearch(*d->model, d->model->memory(x), d->vocab, options, beam);
        }
        out.push_back(traced(std::move(r), options, [&](const DecodeOptions& o) {
            return captionFeatures(row, 1, o).front();
        }));
    }
    return out;
}

Explanation Captioner::explainImage(const RgbImage& image, const DecodeOptions& options,
                                    const ExplainOptions& explain) {
    const CaptionTrace trace = d->decodeImages({image}, options, false).front();
    explain::checkExplainOptions(d->info.config, trace, explain);
    DecodeScope scope(d->model, options, /*inference=*/false);
    explain::ExplainInput in;
    in.x = d->inputs({image});
    in.imageWidth = image.width;
    in.imageHeight = image.height;
    in.letterboxed = d->info.config.encoder.letterbox;
    in.seen = trace.seen;
    in.startId = d->vocab.startId();
    try {
        return explain::explainWord(*d->model, in, trace, explain);
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("explaining failed: ") + e.what_without_backtrace());
    }
}

namespace {

// The walkthrough of `trace` over `memory`: the tokens fed in are <START> and the caption's
// tokens before the last step; memory cells are labelled by grid row and column.
AttentionWalkthrough walk(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                          const torch::Tensor& memory, const CaptionTrace& trace,
                          const WalkthroughOptions& o) {
    std::vector<int64_t> fed{vocab.startId()};
    std::vector<std::string> fedLabels{"<START>"};
    for (size_t t = 0; t + 1 < trace.steps.size(); ++t) {
        fed.push_back(trace.steps[t].id);
        fedLabels.push_back(trace.steps[t].token);
    }
    std::vector<std::string> cells;
    const int64_t g = trace.gridSide;
    for (int64_t i = 0; i < memory.size(1); ++i)
        cells.push_back(g > 0 ? "row " + std::to_string(i / g + 1) + ", column " +
                                    std::to_string(i % g + 1)
                              : "features");
    try {
        return explain::walkthrough(model, memory, fed, fedLabels, cells, o);
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("walkthrough failed: ") + e.what_without_backtrace());
    }
}

} // namespace

AttentionWalkthrough Captioner::walkthroughImage(const RgbImage& image, const DecodeOptions& decode,
                                                 const WalkthroughOptions& o) {
    const CaptionTrace trace = d->decodeImages({image}, decode, false).front();
    DecodeScope scope(d->model, decode);
    return walk(*d->model, d->vocab, d->model->memory(d->encodeImages({image})), trace, o);
}

AttentionWalkthrough Captioner::walkthroughFeatures(const std::vector<float>& row,
                                                    const DecodeOptions& decode,
                                                    const WalkthroughOptions& o) {
    const CaptionTrace trace = captionFeatures(row, 1, decode).front();
    DecodeScope scope(d->model, decode);
    const auto x = torch::from_blob(const_cast<float*>(row.data()), {1, d->info.config.inputDim})
                       .to(d->device);
    return walk(*d->model, d->vocab, d->model->memory(x), trace, o);
}

PatchReport Captioner::patchImages(const RgbImage& clean, const RgbImage& corrupt,
                                   const DecodeOptions& decode, const PatchOptions& options) {
    if (d->info.config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("this model reads feature vectors: patch two rows of a "
                                    "feature file");
    const auto traces = d->decodeImages({clean, corrupt}, decode, false);
    DecodeScope scope(d->model, decode, false); // attribution patching takes a gradient
    return explain::patchPair(*d->model, d->vocab,
                              {traces[0],
                               traces[1],
                               d->model->memory(d->encodeImages({clean})),
                               d->model->memory(d->encodeImages({corrupt})),
                               {d->vocab.startId()}},
                              options);
}

PatchReport Captioner::patchFeatures(const std::vector<float>& clean,
                                     const std::vector<float>& corrupt, const DecodeOptions& decode,
                                     const PatchOptions& options) {
    const CaptionTrace a = captionFeatures(clean, 1, decode).front();
    const CaptionTrace b = captionFeatures(corrupt, 1, decode).front();
    DecodeScope scope(d->model, decode, false);
    auto memoryOf = [this](const std::vector<float>& row) {
        const auto x =
            torch::from_blob(const_cast<float*>(row.data()), {1, d->info.config.inputDim})
                .to(d->device);
        return d->model->memory(x);
    };
    return explain::patchPair(*d->model, d->vocab,
                              {a, b, memoryOf(clean), memoryOf(corrupt), {d->vocab.startId()}},
                              options);
}

double Captioner::patchImagesTogether(const RgbImage& clean, const RgbImage& corrupt,
                                      const DecodeOptions& decode, const PatchOptions& options,
                                      const std::vector<PatchSite>& sites) {
    const PatchReport r = patchImages(clean, corrupt, decode, options); // the words and position
    std::vector<int64_t> fed{d->vocab.startId()};
    const auto trace = d->decodeImages({clean}, decode, false).front();
    for (size_t t = 0; t + 1 < trace.steps.size(); ++t)
        fed.push_back(trace.steps[t].id);
    DecodeScope scope(d->model, decode);
    const auto& words = d->vocab.words();
    const auto id = [&words](const std::string& w) {
        return int64_t(std::find(words.begin(), words.end(), w) - words.begin());
    };
    return explain::patchTogether(*d->model, d->model->memory(d->encodeImages({clean})),
                                  d->model->memory(d->encodeImages({corrupt})), fed, r.position,
                                  id(r.cleanWord), id(r.corruptWord), options.noising, sites);
}

LensReport Captioner::lensImage(const RgbImage& image, const DecodeOptions& decode, int64_t top) {
    const CaptionTrace trace = d->decodeImages({image}, decode, false).front();
    DecodeScope scope(d->model, decode);
    return explain::lensOfTrace(*d->model, d->vocab, d->model->memory(d->encodeImages({image})),
                                trace, top);
}

LensReport Captioner::lensFeatures(const std::vector<float>& row, const DecodeOptions& decode,
                                   int64_t top) {
    const CaptionTrace trace = captionFeatures(row, 1, decode).front();
    DecodeScope scope(d->model, decode);
    const auto x = torch::from_blob(const_cast<float*>(row.data()), {1, d->info.config.inputDim})
                       .to(d->device);
    return explain::lensOfTrace(*d->model, d->vocab, d->model->memory(x), trace, top);
}

namespace {

// The caption of `trace` scored with each head off alone, over `memory` (1, M, W).
HeadImportance importance(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                          const torch::Tensor& memory, const CaptionTrace& trace, size_t forced) {
    try {
        return explain::headImportance(model, memory, trace, vocab.startId(), forced);
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("head importance failed: ") +
                                 e.what_without_backtrace());
    }
}

DecodeOptions everyHeadOn(DecodeOptions o) {
    o.headsOff.clear();
    o.keepLogits = false;
    return o;
}

} // namespace

HeadImportance Captioner::headImportanceImage(const RgbImage& image, const DecodeOptions& options) {
    const DecodeOptions every = everyHeadOn(options);
    const CaptionTrace trace = d->decodeImages({image}, every, false).front();
    DecodeScope scope(d->model, every);
    return importance(*d->model, d->vocab, d->model->memory(d->encodeImages({image})), trace,
                      every.forcedPrefix.size());
}

HeadImportance Captioner::headImportanceFeatures(const std::vector<float>& row,
                                                 const DecodeOptions& options) {
    const DecodeOptions every = everyHeadOn(options);
    const CaptionTrace trace = captionFeatures(row, 1, every).front();
    DecodeScope scope(d->model, every);
    const auto x = torch::from_blob(const_cast<float*>(row.data()), {1, d->info.config.inputDim})
                       .to(d->device);
    return importance(*d->model, d->vocab, d->model->memory(x), trace, every.forcedPrefix.size());
}

} // namespace cl
