#include "model/bench/benchmark.h"

#include "model/dataset/shapes_data.h"
#include "model/decode/beam.h"
#include "model/decode/greedy.h"
#include "model/explain/explain.h"
#include "model/explain/head_importance.h"
#include "model/explain/patching.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/nn/captioning_transformer.h"
#include "model/novelty/caption_check.h"
#include "model/novelty/world_stats.h"
#include "model/shapes/scene.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace cl {

namespace {

torch::Device deviceOf(const std::string& name) {
    if (name == "cuda") {
        TORCH_CHECK(torch::cuda::is_available(), "device cuda is not available in this LibTorch");
        return torch::kCUDA;
    }
    return torch::kCPU;
}

void sync(const torch::Device& d) {
    if (d.is_cuda())
        torch::cuda::synchronize();
}

// Bytes of the weight matrices one decode step reads (cached keys/values of the memory aside).
double stepWeightBytes(const ModelConfig& c) {
    const double w = c.wordvecDim, f = c.ffnDim;
    const double perLayer = 4 * w * w + 2 * w * w + 2 * w * f; // self qkv+proj, cross q+proj, FFN
    return 4.0 * (c.numLayers * perLayer + w * c.vocabSize);
}

// Time of streaming `bytes` of float weights through a matrix-vector product, per call.
double gemvFloorMs(double bytes, int64_t width, const torch::Device& d, int runs) {
    torch::InferenceMode guard;
    const int64_t rows = static_cast<int64_t>(bytes / 4 / width);
    auto m = torch::randn({rows, width}, torch::TensorOptions().device(d));
    auto v = torch::randn({width}, torch::TensorOptions().device(d));
    return timeIt("gemv", 3, runs,
                  [&] {
                      auto r = torch::mv(m, v);
                      sync(d);
                  })
        .medianMs;
}

// Time of `flops` floating point operations done as one plain GEMM of the model's shapes.
double gemmFloorMs(double flops, int64_t batch, int64_t width, const torch::Device& d, int runs) {
    torch::InferenceMode guard;
    const int64_t n = 2048;
    auto a = torch::randn({batch, width}, torch::TensorOptions().device(d));
    auto b = torch::randn({width, n}, torch::TensorOptions().device(d));
    const double ms = timeIt("gemm", 3, runs, [&] {
                          auto r = torch::mm(a, b);
                          sync(d);
                      }).medianMs;
    const double rate = 2.0 * batch * width * n / ms; // flops per ms
    return flops / rate;
}

double millisecondsOf(const std::function<void()>& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Median and spread of measured times (at least one).
BenchFigure figureOf(const std::string& name, std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    BenchFigure f;
    f.name = name;
    f.runs = static_cast<int>(ms.size());
    f.medianMs = ms[ms.size() / 2];
    f.minMs = ms.front();
    f.maxMs = ms.back();
    return f;
}

} // namespace

BenchFigure timeIt(const std::string& name, int warmup, int runs, const std::function<void()>& fn) {
    for (int i = 0; i < warmup; ++i)
        fn();
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i)
        ms.push_back(millisecondsOf(fn));
    return figureOf(name, ms);
}

namespace {

// Feature models: the seed's sample() setting on given rows (same weights and inputs as Python).
BenchReport benchFeatureModel(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                              const torch::Device& d, const BenchOptions& o) {
    const auto& c = model.config();
    TORCH_CHECK(o.featureRows >= 64 && int64_t(o.features.size()) == o.featureRows * c.inputDim,
                "feature models are benchmarked on --features with at least 64 rows of width ",
                c.inputDim);
    BenchReport r;
    r.device = o.device;
    r.threads = at::get_num_threads();
    DecodeOptions opt;
    opt.maxLength = o.tokens;
    opt.stopAtEnd = false;
    torch::InferenceMode guard;
    const auto all =
        torch::from_blob(const_cast<float*>(o.features.data()), {o.featureRows, c.inputDim}).to(d);
    for (int64_t batch : {1, 64}) {
        const auto x = all.narrow(0, 0, batch);
        auto cached = timeIt("cached decode, batch " + std::to_string(batch), 2, o.runs, [&] {
            greedyDecode(model, model.memory(x), vocab, opt);
            sync(d);
        });
        auto full = timeIt("full re-run (seed sample()), batch " + std::to_string(batch), 1,
                           std::max(3, o.runs / 4), [&] {
                               greedyDecodeFullRerun(model, model.memory(x), vocab, opt);
                               sync(d);
                           });
        const double bytes = stepWeightBytes(c);
        cached.floorMs = batch == 1 ? o.tokens * gemvFloorMs(bytes, c.wordvecDim, d, o.runs)
                                    : gemmFloorMs(2.0 * bytes / 4 * batch * o.tokens, batch,
                                                  c.wordvecDim, d, o.runs);
        r.figures.push_back(cached);
        r.figures.push_back(full);
    }
    // Beam search of width 5 against greedy decoding of 5 rows at once (issue 18: within 2x).
    const auto five = all.narrow(0, 0, 5), one = all.narrow(0, 0, 1);
    r.figures.push_back(timeIt("cached decode, batch 5", 2, o.runs, [&] {
        greedyDecode(model, model.memory(five), vocab, opt);
        sync(d);
    }));
    r.figures.push_back(timeIt("beam search, width 5", 2, o.runs, [&] {
        beamSearch(model, model.memory(one), vocab, opt, BeamOptions{5, 0});
        sync(d);
    }));
    return r;
}

} // namespace

BenchReport benchNotebook(const BenchOptions& given) {
    const auto d = deviceOf(given.device);
    const auto c = presets::notebook();
    const auto vocab = Vocabulary::numbered(c.vocabSize);
    torch::manual_seed(0);
    CaptioningTransformer model(c, vocab.nullId());
    model->eval();
    model->to(d);
    BenchOptions o = given; // 64 random feature rows
    o.featureRows = 64;
    const auto rows = torch::randn({64, c.inputDim});
    o.features.assign(rows.data_ptr<float>(), rows.data_ptr<float>() + rows.numel());
    auto r = benchFeatureModel(*model, vocab, d, o);
    r.title = "notebook configuration (W=256, H=2, 2 layers, V=1004, D=512), " +
              std::to_string(o.tokens) + " tokens, random weights";
    return r;
}

// A 128-pixel scene as the explanation methods take it.
explain::ExplainInput explainInput(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                                   const Scene& scene, const torch::Device& d) {
    const auto& e = model.config().encoder;
    explain::ExplainInput in;
    in.x = preprocessImage(scene.rgb.data(), 128, 128, e).to(d);
    in.imageWidth = in.imageHeight = 128;
    in.letterboxed = e.letterbox;
    in.startId = vocab.startId();
    return in;
}

CaptionTrace greedyTrace(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                         const torch::Tensor& x) {
    torch::InferenceMode guard;
    DecodeOptions opt;
    return greedyDecode(model, model.memory(model.encode(x)), vocab, opt).front();
}

// Every word of six 128-pixel classic scenes (one with fewer than 20 runs: a sanitizer's smoke
// run), each timed once (after one warm-up word): what a class clicking through captions in the
// Explain panel waits for.
BenchFigure explainEveryWord(CaptioningTransformerImpl& model, const Vocabulary& vocab,
                             const torch::Device& d, int runs) {
    const uint64_t scenes = runs >= 20 ? 6 : 1;
    std::vector<std::pair<explain::ExplainInput, CaptionTrace>> words;
    for (uint64_t seed = 1; seed <= scenes; ++seed) {
        const auto in = explainInput(model, vocab, generateScene(seed), d);
        words.emplace_back(in, greedyTrace(model, vocab, in.x));
    }
    ExplainOptions eo;
    eo.curves = false;
    explain::explainWord(model, words[0].first, words[0].second, eo); // warm-up
    std::vector<double> ms;
    for (const auto& w : words) // no structured bindings: C++17 lambdas cannot capture them
        for (eo.word = 0; eo.word < int64_t(w.second.steps.size()); ++eo.word)
            ms.push_back(
                millisecondsOf([&] { explain::explainWord(model, w.first, w.second, eo); }));
    return figureOf("explain every word of " + std::to_string(scenes) + " scene" +
                        (scenes > 1 ? "s" : "") + ": all 8 maps",
                    ms);
}

// One word's explanation (model/explain): every map, then every map with its deletion and
// insertion curves, then every word of six scenes. Autograd on, so outside inference mode.
void benchExplain(BenchReport& r, CaptioningTransformerImpl& model, const Vocabulary& vocab,
                  const Scene& scene, const torch::Device& d, int runs) {
    const explain::ExplainInput in = explainInput(model, vocab, scene, d);
    const CaptionTrace trace = greedyTrace(model, vocab, in.x);
    ExplainOptions eo;
    eo.word = std::min<int64_t>(3, int64_t(trace.steps.size()) - 1);
    eo.curves = false;
    r.figures.push_back(timeIt("explain one word: all 8 maps", 1, std::max(1, runs / 4),
                               [&] { explain::explainWord(model, in, trace, eo); }));
    eo.curves = true;
    r.figures.push_back(timeIt("explain one word: maps + deletion/insertion", 1,
                               std::max(1, runs / 4),
                               [&] { explain::explainWord(model, in, trace, eo); }));
    r.figures.push_back(explainEveryWord(model, vocab, d, runs));
}

// Head importance (explain/head_importance.cpp): the caption scored with every head on and with
// each head off alone, one teacher-forced batch (the image already encoded).
void benchHeads(BenchReport& r, CaptioningTransformerImpl& model, const Vocabulary& vocab,
                const Scene& scene, const torch::Device& d, int runs) {
    const auto& c = model.config();
    const auto x = preprocessImage(scene.rgb.data(), 128, 128, c.encoder).to(d);
    torch::InferenceMode guard;
    const auto memory = model.memory(model.encode(x));
    const CaptionTrace trace = greedyDecode(model, memory, vocab, DecodeOptions{}).front();
    const int64_t rows = 1 + c.numLayers * 2 * c.numHeads;
    r.figures.push_back(
        timeIt("head importance: " + std::to_string(rows) + " rows, one batch", 3, runs,
               [&] { explain::headImportance(model, memory, trace, vocab.startId(), 0); }));
}

// Activation patching (explain/patching.cpp) of one counterfactual pair: a classic scene with two
// objects and the same scene with one recoloured; every site with attribution patching, then
// attribution patching alone. Autograd on, so outside inference mode.
void benchPatching(BenchReport& r, CaptioningTransformerImpl& model, const Vocabulary& vocab,
                   const torch::Device& d, int runs) {
    SceneSpec clean = randomSpec(4, 128, 2);
    for (uint64_t seed = 5; clean.objects.size() != 2; ++seed)
        clean = randomSpec(seed, 128, 2);
    SceneSpec corrupt = clean;
    auto& o = corrupt.objects[1];
    o.colour = static_cast<Colour>((static_cast<int>(o.colour) + 2) % kColourCount);
    o.rgb = namedColour(o.colour);
    const auto& c = model.config();
    auto memoryOf = [&](const SceneSpec& spec) {
        const Scene s = renderScene(spec);
        return model.memory(model.encode(preprocessImage(s.rgb.data(), 128, 128, c.encoder).to(d)));
    };
    const auto cleanMemory = memoryOf(clean), corruptMemory = memoryOf(corrupt);
    const CaptionTrace a = greedyDecode(model, cleanMemory, vocab, DecodeOptions{}).front();
    const CaptionTrace b = greedyDecode(model, corruptMemory, vocab, DecodeOptions{}).front();
    std::vector<int64_t> fed{vocab.startId()};
    int64_t at = -1;
    for (size_t t = 0; t < a.steps.size(); ++t) {
        if (at < 0 && (t >= b.steps.size() || a.steps[t].id != b.steps[t].id))
            at = int64_t(t);
        if (t + 1 < a.steps.size())
            fed.push_back(a.steps[t].id);
    }
    if (at < 0 || size_t(at) >= b.steps.size())
        return; // the recolour did not change the caption: nothing to time
    const int64_t cleanWord = a.steps[size_t(at)].id, corruptWord = b.steps[size_t(at)].id;
    const int64_t sites =
        c.encoder.grid * c.encoder.grid +
        int64_t(fed.size()) * (c.numLayers + 1 + 2 * c.numLayers * c.numHeads + c.numLayers);
    r.figures.push_back(
        timeIt("patching: every site of a pair (" + std::to_string(sites) + ") + attribution", 1,
               std::max(1, runs / 4), [&] {
                   explain::patchEverySite(model, cleanMemory, corruptMemory, fed, at, cleanWord,
                                           corruptWord, false);
               }));
    r.figures.push_back(
        timeIt("attribution patching alone: every site, one backward pass", 2, runs, [&] {
            explain::attributionPatch(model, cleanMemory, corruptMemory, fed, at, cleanWord,
                                      corruptWord, false);
        }));
}

BenchReport benchCheckpoint(const std::string& path, const BenchOptions& o) {
    const auto d = deviceOf(o.device);
    const Checkpoint ck = readCheckpoint(path);
    const Vocabulary vocab(ck.vocab);
    auto model = buildModel(ck, vocab.nullId());
    model->to(d);
    const auto& c = ck.config;
    if (c.memory == MemoryKind::Features) {
        auto r = benchFeatureModel(*model, vocab, d, o);
        r.title = path + " (feature input, " + std::to_string(o.tokens) + " tokens)";
        return r;
    }
    BenchReport r;
    r.title = path + " (" + std::to_string(c.numLayers) + " layers x " +
              std::to_string(c.numHeads) + " heads, W=" + std::to_string(c.wordvecDim) + ", " +
              std::to_string(c.encoder.grid) + "x" + std::to_string(c.encoder.grid) + " grid)";
    r.device = o.device;
    r.threads = at::get_num_threads();
    const Scene scene = generateScene(3);
    benchExplain(r, *model, vocab, scene, d, o.runs);
    benchHeads(r, *model, vocab, scene, d, o.runs);
    benchPatching(r, *model, vocab, d, o.runs);
    torch::InferenceMode guard;
    r.figures.push_back(timeIt("preprocess 128x128 image", 3, o.runs, [&] {
        preprocessImage(scene.rgb.data(), 128, 128, c.encoder.imageSize);
    }));
    const Scene wide = generateVariedScene(12); // 415 x 128: cut to its drawing first
    r.figures.push_back(timeIt("preprocess 415x128 slide, letterboxed", 3, o.runs, [&] {
        preprocessImage(wide.rgb.data(), wide.spec.height(), wide.spec.width(), c.encoder.imageSize,
                        true);
    }));
    const auto image = preprocessImage(scene.rgb.data(), 128, 128, c.encoder).to(d);
    r.figures.push_back(timeIt("encoder", 3, o.runs, [&] {
        model->encode(image);
        sync(d);
    }));
    DecodeOptions opt;
    opt.maxLength = c.maxLength;
    r.figures.push_back(timeIt("caption + all attention maps (cached)", 3, o.runs, [&] {
        greedyDecode(*model, model->memory(model->encode(image)), vocab, opt);
        sync(d);
    }));
    if (!ck.worldStats.empty()) {
        // What the app adds to every caption: the encoder's feature maps kept, their statistics
        // and both distances per layer (model/novelty).
        const WorldStats world = worldFromStateDict(ck.worldStats);
        r.figures.push_back(timeIt("out-of-world check", 3, o.runs, [&] {
            std::vector<torch::Tensor> activations;
            model->encode(image, &activations);
            auto sig = worldSignature(activations);
            for (auto& t : sig)
                t = t.cpu();
            worldScore(world, sig);
        }));
        // The caption's half (novelty/caption_check.h), on the scene's canonical caption.
        std::vector<std::string> words;
        std::istringstream caption(scene.captions.front());
        for (std::string w; caption >> w;)
            words.push_back(w);
        r.figures.push_back(timeIt("caption check (sentence, colours)", 3, o.runs,
                                   [&] { checkCaption(words, scene.rgb.data(), 128, 128); }));
    }
    r.figures.push_back(timeIt("same, full re-run like sample()", 2, o.runs, [&] {
        greedyDecodeFullRerun(*model, model->memory(model->encode(image)), vocab, opt);
        sync(d);
    }));
    for (int64_t batch : {1, 8, 64}) {
        std::vector<uint64_t> seeds;
        for (int64_t i = 0; i < batch; ++i)
            seeds.push_back(static_cast<uint64_t>(i));
        const auto images = shapesBatch(seeds, c.encoder, vocab).images.to(d);
        auto f =
            timeIt("batch " + std::to_string(batch) + " captions", 1, std::max(3, o.runs / 4), [&] {
                greedyDecode(*model, model->memory(model->encode(images)), vocab, opt);
                sync(d);
            });
        f.name += " (" + std::to_string(int(batch * 1000.0 / f.medianMs)) + " images/s)";
        r.figures.push_back(f);
    }
    return r;
}

std::string BenchReport::toText() const {
    std::ostringstream out;
    out << title << "\ndevice " << device << ", " << threads << " thread(s)\n";
    char line[256];
    for (const auto& f : figures) {
        std::snprintf(line, sizeof line, "  %-52s median %8.2f ms  (min %.2f, max %.2f, %d runs)",
                      f.name.c_str(), f.medianMs, f.minMs, f.maxMs, f.runs);
        out << line;
        if (f.floorMs > 0) {
            std::snprintf(line, sizeof line, "  floor %.2f ms, %.2fx", f.floorMs,
                          f.medianMs / f.floorMs);
            out << line;
        }
        out << "\n";
    }
    return out.str();
}

std::string BenchReport::toJson() const {
    std::ostringstream j;
    j << "{\"title\": \"" << title << "\", \"device\": \"" << device
      << "\", \"threads\": " << threads << ", \"figures\": [";
    for (size_t i = 0; i < figures.size(); ++i) {
        const auto& f = figures[i];
        j << (i ? ", " : "") << "{\"name\": \"" << f.name << "\", \"median_ms\": " << f.medianMs
          << ", \"min_ms\": " << f.minMs << ", \"max_ms\": " << f.maxMs << ", \"runs\": " << f.runs
          << ", \"floor_ms\": " << f.floorMs << "}";
    }
    j << "]}";
    return j.str();
}

} // namespace cl
