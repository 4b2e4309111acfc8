// Explanations (issue 18, part 1): gradients against finite differences on a tiny double model,
// Integrated Gradients' completeness, occlusion against a direct re-run per cell, attention maps
// against the decode's trace, rollout by hand, faithfulness curves' end points, the pointing
// game, captionlens-cli explain (JSON, PNG, refusals) and eval --explain (the Q.K walkthrough:
// tst_walkthrough.cpp; head importance: tst_heads.cpp).
#include "model/api/captioner.h"
#include "model/explain/maps.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/nn/folded_cross.h"
#include "model/nn/image_encoder.h"
#include "model/shapes/scene.h"
#include "tests/cli_run.h"
#include "tests/feature_model.h"
#include "tests/scene_image.h"
#include "tests/test_util.h"
#include "tests/tiny_image.h"

#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/test_main.h"
#include <cmath>

using namespace cl;

class TestExplain : public QObject {
    Q_OBJECT
  private slots:
    void foldedCrossEqualsTheMemoryPath();
    void gradInputMatchesFiniteDifferences();
    void integratedGradientsAreComplete();
    void certainWordStopsSampling();
    void occlusionMatchesDirectRerun();
    void windowedOcclusionIsExactOnEveryCell();
    void attentionMapsAreTheTraces();
    void rolloutByHand();
    void curvesStartAndEndRight();
    void pointingGameUsesThePeak();
    void refusesBadRequests();
    void cliWritesJsonAndPngs();
    void cliRefusesWithOneLine();
    void evalExplainScoresEveryMethod();
};

namespace {

const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";

using cltest::sceneImage;
using cltest::TinyImage;

// The default model, reached inside (the facade hides tensors).
struct Default {
    CaptioningTransformer model{nullptr};
    Vocabulary vocab;
    Default() {
        Checkpoint ck = readCheckpoint(kDefault);
        vocab = Vocabulary(ck.vocab);
        model = buildModel(ck, vocab.nullId(), nullptr);
        model->eval();
    }
    torch::Tensor input(const RgbImage& im) const {
        const auto& e = model->config().encoder;
        return preprocessImage(im.pixels.data(), im.height, im.width, e);
    }
};

using cltest::featureModel;
using cltest::runCli;
using Run = cltest::CliRun;

// Both Integrated Gradients maps (no curves) of one word of scene 3 on the shipped model.
Explanation integratedGradientsOfWord(int64_t word) {
    ExplainOptions o;
    o.word = word;
    o.methods = {ExplainMethod::IgBlack, ExplainMethod::IgBlur};
    o.curves = false;
    return Captioner::open(kDefault)->explainImage(sceneImage(3), {}, o);
}

} // namespace

// The objective's keys and values come folded from the encoder's hidden grid (one product):
// the same as the tokens, the visual projection and each layer's projections, position code
// on or off.
void TestExplain::foldedCrossEqualsTheMemoryPath() {
    TinyImage tiny(3);
    auto& m = *tiny.model;
    const auto x = torch::randn({2, 3, 8, 8}, torch::kDouble);
    // Folded once per model (the same matrices twice), refolded after a parameter changes (the
    // comparisons below fail with the old ones) and when the position code is switched.
    const auto once = foldedProjections(m).front().weight;
    QCOMPARE(foldedProjections(m).front().weight.data_ptr(), once.data_ptr());
    {
        torch::NoGradGuard noGrad;
        m.visual_projection->weight.mul_(0.5);
    }
    for (bool position : {true, false}) {
        m.encoder->setPositionEnabled(position);
        const auto memory = m.memory(m.encode(x));
        const auto folded = foldedCross(m, m.encoder->hidden(x));
        QCOMPARE(folded.size(), m.transformer->size());
        for (size_t l = 0; l < folded.size(); ++l) {
            const auto want = m.transformer->layer(l).cross_attn->project(memory, memory);
            QVERIFY(torch::allclose(folded[l].k, want.k, 1e-12, 1e-12));
            QVERIFY(torch::allclose(folded[l].v, want.v, 1e-12, 1e-12));
        }
        const auto f = tiny.objective();
        QVERIFY(torch::allclose(f.logProb(x), f.logProbOfTokens(m.encode(x)), 1e-12, 1e-12));
    }
    m.encoder->setPositionEnabled(true);
    QVERIFY_THROWS_EXCEPTION(c10::Error,
                             foldedCross(m, torch::zeros({1, 4, 1, 1}, torch::kDouble)));
}

void TestExplain::gradInputMatchesFiniteDifferences() {
    TinyImage tiny(7);
    const auto f = tiny.objective();
    const auto x = torch::randn({1, 3, 8, 8}, torch::kDouble);
    const auto maps = explain::gradientMaps(f, x);
    QCOMPARE(maps.gradInput.sizes(), (torch::IntArrayRef{8, 8}));
    QCOMPARE(maps.gradCam.sizes(), (torch::IntArrayRef{2, 2}));
    // Gradient x input at a pixel is the derivative of f along x restricted to that pixel.
    torch::NoGradGuard noGrad;
    const double eps = 1e-6;
    for (int64_t i = 0; i < 64; i += 5) {
        auto mask = torch::zeros({1, 1, 8, 8}, torch::kDouble);
        mask.view({-1})[i] = 1;
        const auto d = x * mask;
        const double fd =
            (f.logProb(x + eps * d) - f.logProb(x - eps * d)).item<double>() / (2 * eps);
        const double g = maps.gradInput.view({-1})[i].item<double>();
        QVERIFY2(std::abs(fd - g) <= 1e-6 + 1e-5 * std::abs(fd),
                 qPrintable(
                     QString("pixel %1: finite difference %2, autograd %3").arg(i).arg(fd).arg(g)));
    }
}

void TestExplain::integratedGradientsAreComplete() {
    // The tiny model's encoder (x8 per layer) and visual projection (x100) scaled up: at
    // initialisation the word hardly depends on the image (f(x) - f(x0) was 1e-6, which any
    // sum matches); scaled, f changes by 0.6-1.3 nats along a curved path.
    constexpr double kTinyScale = 8, kTinyProjection = 100;
    TinyImage tiny(11);
    {
        torch::NoGradGuard noGrad;
        for (auto& p : tiny.model->named_parameters())
            if (p.key().rfind("encoder", 0) == 0)
                p.value().mul_(kTinyScale);
            else if (p.key().rfind("visual_projection", 0) == 0)
                p.value().mul_(kTinyProjection);
    }
    const auto f = tiny.objective();
    const auto x = torch::randn({1, 3, 8, 8}, torch::kDouble);
    for (const auto& baseline : {-torch::ones_like(x), explain::blurred(x, 1.0)}) {
        double gap = -1;
        int64_t samples = 0;
        const auto map = explain::integratedGradients(f, x, baseline, 256, &gap, &samples);
        torch::NoGradGuard noGrad;
        const double diff = (f.logProb(x) - f.logProb(baseline)).item<double>();
        const double sum = map.sum().item<double>();
        qInfo("f(x) - f(x0) %g, %lld samples", diff, (long long)samples);
        QVERIFY2(std::abs(diff) > 0.1, qPrintable(QString("f(x) - f(x0) %1").arg(diff)));
        QVERIFY2(std::abs(sum - diff) <= 0.01 * std::abs(diff),
                 qPrintable(QString("sum %1, f(x) - f(x0) %2").arg(sum).arg(diff)));
        QVERIFY(std::abs(gap - std::abs(sum - diff) / std::abs(diff)) < 1e-9);
        QVERIFY(samples > explain::kIgFirstSamples); // the curved path needed refining
    }
    // The shipped model through the facade: both baselines within 1 % at the default 32 steps.
    const Explanation e = integratedGradientsOfWord(2);
    for (const auto& m : e.maps)
        QVERIFY2(m.completenessGap < 0.01,
                 qPrintable(QString::fromStdString(explainMethodName(m.method)) +
                            QString(" gap %1").arg(m.completenessGap)));
}

// The caption's first "a" is certain on the image and on both baselines: f barely changes along
// the path, so the first uniform samples are complete (relative to the 0.1-nat floor) and the
// adaptive rule must not spend its whole budget chasing rounding (it spent all 128).
void TestExplain::certainWordStopsSampling() {
    const Explanation e = integratedGradientsOfWord(0);
    QCOMPARE(e.token, std::string("a"));
    QVERIFY(e.probability > 0.999);
    for (const auto& m : e.maps) {
        QVERIFY2(m.completenessGap < 0.01, qPrintable(QString("gap %1").arg(m.completenessGap)));
        QCOMPARE(m.gradientSamples, explain::kIgFirstSamples);
        double sum = 0;
        for (float v : m.values)
            sum += v;
        QVERIFY(std::abs(sum) < 1e-3); // log 1 - log 1: nothing to attribute
    }
}

void TestExplain::occlusionMatchesDirectRerun() {
    Default d;
    c10::InferenceMode inference;
    const auto x = d.input(sceneImage(5));
    const explain::WordObjective f{
        *d.model,
        torch::tensor({d.vocab.startId(), d.vocab.encode("a")[0]}, torch::kLong).view({1, -1}),
        d.vocab.encode("large")[0]};
    const auto fill = explain::backgroundFill(x);
    const int64_t g = d.model->config().encoder.grid, side = x.size(2) / g;
    const auto map = explain::occlusionMap(f, x, fill, g);
    const double p = f.logProb(x).exp().item<double>();
    for (int64_t cell : {int64_t(0), g + 1, 3 * g + 3, g * g / 2 + g / 2, g * g - 1}) {
        auto covered = x.clone();
        const int64_t r = cell / g * side, c = cell % g * side;
        covered.narrow(2, r, side).narrow(3, c, side).copy_(fill.expand({1, x.size(1), side, side}));
        const double direct = p - f.logProb(covered).exp().item<double>();
        QVERIFY2(std::abs(direct - map.view({-1})[cell].item<double>()) < 1e-5,
                 qPrintable(QString("cell %1: direct %2, batched %3")
                                .arg(cell)
                                .arg(direct)
                                .arg(map.view({-1})[cell].item<double>())));
    }
}

// Occlusion encodes each covered image on the window of cells it can change (perturbation.cpp):
// on a random 12 x 12 model in double precision, every cell against covering it in the whole
// image, corners and edges included (windows clamped to the border).
void TestExplain::windowedOcclusionIsExactOnEveryCell() {
    TinyImage tiny(11, 96, 12, 8);
    auto& model = tiny.model;
    {
        torch::NoGradGuard noGrad; // let the image move the word more than random weights do
        model->visual_projection->weight.mul_(200);
    }
    QCOMPARE(model->encoder->stride(), int64_t(8));
    QCOMPARE(model->encoder->reach(), int64_t(15));
    const explain::WordObjective f = tiny.objective();
    c10::InferenceMode inference;
    const auto x = torch::randn({1, 3, 96, 96}, torch::kDouble);
    const auto fill = explain::backgroundFill(x);
    const auto map = explain::occlusionMap(f, x, fill, 12).view({-1});
    const double p = f.logProb(x).exp().item<double>();
    double worst = 0;
    for (int64_t cell = 0; cell < 144; ++cell) {
        auto covered = x.clone();
        covered.narrow(2, cell / 12 * 8, 8)
            .narrow(3, cell % 12 * 8, 8)
            .copy_(fill.expand({1, x.size(1), 8, 8}));
        const double direct = p - f.logProb(covered).exp().item<double>();
        worst = std::max(worst, std::abs(direct - map[cell].item<double>()));
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString("largest difference %1").arg(worst)));
    // Random weights attend almost evenly (a cell moves p by ~1e-6): still five orders above
    // the tolerance, so a wrong window or paste fails.
    QVERIFY2(map.abs().max().item<double>() > 1e-8,
             qPrintable(QString::number(map.abs().max().item<double>())));
}

void TestExplain::attentionMapsAreTheTraces() {
    auto model = Captioner::open(kDefault);
    ExplainOptions o;
    o.word = 3;
    o.layer = 0;
    o.head = 2;
    o.methods = {ExplainMethod::Attention, ExplainMethod::AttentionMean};
    o.curves = false;
    const Explanation e = model->explainImage(sceneImage(8), {}, o);
    const auto row = e.trace.crossRow(0, 2, 3);
    const SaliencyMap* one = e.find(ExplainMethod::Attention);
    const SaliencyMap* mean = e.find(ExplainMethod::AttentionMean);
    QVERIFY(one && mean);
    QCOMPARE(one->side * one->side, e.trace.memoryTokens);
    for (size_t i = 0; i < row.size(); ++i) {
        QVERIFY(std::abs(one->values[i] - row[i]) < 1e-5);
        double avg = 0;
        for (int64_t h = 0; h < e.trace.heads; ++h)
            avg += e.trace.crossRow(0, h, 3)[i] / double(e.trace.heads);
        QVERIFY(std::abs(mean->values[i] - avg) < 1e-5);
    }
    QCOMPARE(e.token, e.trace.steps[3].token);
    QVERIFY(std::abs(e.probability - e.trace.steps[3].prob) < 1e-4);
}

void TestExplain::rolloutByHand() {
    // One layer, one head, two words, two cells.
    LayerAttention l;
    l.self = torch::tensor({1.0, 0.0, 0.25, 0.75}).view({1, 1, 2, 2});
    l.cross = torch::tensor({0.9, 0.1, 0.2, 0.8}).view({1, 1, 2, 2});
    // R = 0 after the self step, then (0 + cross) / 2: the last word's row is cross / 2.
    auto r = explain::rolloutMap({l});
    QVERIFY(torch::allclose(r, torch::tensor({0.1, 0.4})));
    // A second identical layer: R1 = cross / 2; self: (I + S) / 2 R1; then (. + cross) / 2.
    const auto r1 = l.cross.view({2, 2}) / 2;
    const auto mixed = torch::matmul(0.5 * (torch::eye(2) + l.self.view({2, 2})), r1);
    const auto expected = (0.5 * (mixed + l.cross.view({2, 2})))[1];
    QVERIFY(torch::allclose(explain::rolloutMap({l, l}), expected));
}

void TestExplain::curvesStartAndEndRight() {
    Default d;
    c10::InferenceMode inference;
    const auto x = d.input(sceneImage(4));
    const explain::WordObjective f{*d.model,
                                   torch::tensor({d.vocab.startId()}, torch::kLong).view({1, -1}),
                                   d.vocab.encode("a")[0]};
    const auto fill = explain::backgroundFill(x), blur = explain::blurred(x, 8);
    const auto map = torch::rand({8, 8});
    const auto c = explain::faithfulness(f, x, fill, blur, map, 4);
    QCOMPARE(c.deletion.size(), size_t(5));
    const double p = f.logProb(x).exp().item<double>();
    QVERIFY(std::abs(c.deletion.front() - p) < 1e-5);
    QVERIFY(std::abs(c.insertion.back() - p) < 1e-5);
    QVERIFY(std::abs(c.insertion.front() - f.logProb(blur).exp().item<double>()) < 1e-5);
    QVERIFY(std::abs(c.deletion.back() - f.logProb(fill.expand_as(x)).exp().item<double>()) < 1e-5);
    QCOMPARE(explain::areaUnder({1, 0}), 0.5);
    QCOMPARE(explain::areaUnder({1, 1, 0}), 0.75);
}

void TestExplain::pointingGameUsesThePeak() {
    auto model = Captioner::open(kDefault);
    const Scene s = generateScene(12, World::Varied);
    const RgbImage image{s.spec.width(), s.spec.height(), s.rgb};
    const Box box = s.spec.objects.front().box();
    ExplainOptions o;
    o.word = 3; // "a SIZE COLOUR SHAPE": the first mention's shape
    o.curves = false;
    o.target = ExplainTarget{box.x0, box.y0, box.x1, box.y1, 15.0};
    const Explanation e = model->explainImage(image, {}, o);
    QCOMPARE(e.maps.size(), allExplainMethods().size());
    int hits = 0;
    for (const auto& m : e.maps) {
        QCOMPARE(m.values.size(), size_t(m.side * m.side));
        QVERIFY(m.pointingHit == 0 || m.pointingHit == 1);
        QCOMPARE(m.pointingHit == 1, box.contains(m.peakX, m.peakY, 15.0));
        hits += m.pointingHit;
    }
    QVERIFY2(hits >= 1, "no method points at the word's object");
}

void TestExplain::refusesBadRequests() {
    auto model = Captioner::open(kDefault);
    const RgbImage image = sceneImage(2);
    auto refuses = [&](ExplainOptions o, const char* expected) {
        try {
            model->explainImage(image, {}, o);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what()).find(expected) != std::string::npos;
        }
        return false;
    };
    ExplainOptions o;
    o.word = 99;
    QVERIFY(refuses(o, "--word 99 is outside 0.."));
    o = {};
    o.head = 4;
    QVERIFY(refuses(o, "--head 4"));
    o = {};
    o.layer = 2;
    QVERIFY(refuses(o, "--layer 2"));
    o = {};
    o.igSteps = 0;
    QVERIFY(refuses(o, "--ig-steps 0"));
    o.igSteps = 2; // Simpson's rule needs both ends and a midpoint
    QVERIFY(refuses(o, "--ig-steps 2 is outside 3.."));
    QTemporaryDir dir;
    auto course = Captioner::open(featureModel(dir));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, course->explainImage(image, {}, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainMethodFromName("saliency"));
    // A refused request leaves the model as it was: the next caption is the same.
    QCOMPARE(model->captionImages({image}, {}).front().text(),
             Captioner::open(kDefault)->captionImages({image}, {}).front().text());
}

void TestExplain::cliWritesJsonAndPngs() {
    QTemporaryDir dir;
    const QString image = dir.filePath("scene.png");
    const Run scene = runCli({"scene", "--seed", "6", "--world", "varied", "-o", image});
    QCOMPARE(scene.code, 0);
    const QString out = dir.filePath("maps");
    const Run r = runCli({"explain", "--checkpoint", kDefault, image, "--word", "3", "--out", out,
                          "--json", "--curve-steps", "8"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["word"].toInt(), 3);
    const auto methods = j["methods"].toArray();
    QCOMPARE(methods.size(), qsizetype(allExplainMethods().size()));
    const QImage source(image);
    for (const auto& m : methods) {
        const auto o = m.toObject();
        const int side = o["side"].toInt();
        QCOMPARE(o["values"].toArray().size(), qsizetype(side * side));
        QCOMPARE(o["deletion"].toArray().size(), qsizetype(9));
        const QImage png(o["png"].toString());
        QCOMPARE(png.size(), source.size());
        QVERIFY(png != source);
    }
    QVERIFY(QFile::exists(out + "/explain.json"));
    // By word, one method, plain table.
    const QString word = j["token"].toString();
    const Run t = runCli({"explain", "--checkpoint", kDefault, image, "--word", word, "--method",
                          "occlusion,rollout"});
    QVERIFY2(t.code == 0, t.err.constData());
    QVERIFY(t.out.contains("Occlusion"));
    QVERIFY(t.out.contains("Attention rollout"));
    QVERIFY(!t.out.contains("Grad-CAM"));
}

void TestExplain::cliRefusesWithOneLine() {
    QTemporaryDir dir;
    const QString image = dir.filePath("scene.png");
    QCOMPARE(runCli({"scene", "--seed", "6", "--world", "varied", "-o", image}).code, 0);
    const QList<QStringList> bad = {
        {"--word", "giraffe"}, {"--word", "40"}, {"--method", "saliency"},
        {"--target", "1,2,3"}, {"--head", "9"},
    };
    for (const auto& extra : bad) {
        const Run r = runCli(QStringList{"explain", "--checkpoint", kDefault, image} + extra);
        QVERIFY2(r.code != 0, qPrintable(extra.join(' ')));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
    }
    const Run course =
        runCli({"explain", "--checkpoint", QString::fromStdString(featureModel(dir)), image});
    QVERIFY(course.code != 0);
    QVERIFY(course.err.contains("image model"));
}

void TestExplain::evalExplainScoresEveryMethod() {
    // Seeds 14 and 15 of the varied world hold one object each: few words, quick under ASan.
    const Run r = runCli({"eval", "--checkpoint", kDefault, "--explain", "--world", "varied",
                          "--first-seed", "14", "--scenes", "2", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["scenes"].toInt(), 2);
    QVERIFY(j["words"].toInt() >= 3); // at least one "a SIZE COLOUR SHAPE"
    const auto methods = j["methods"].toObject();
    QCOMPARE(methods.size(), qsizetype(allExplainMethods().size()));
    // Each scene scored on its own: the two-scene figures are their word-weighted means.
    const auto one = [&](const char* seed) {
        const Run s = runCli({"eval", "--checkpoint", kDefault, "--explain", "--world", "varied",
                              "--first-seed", seed, "--scenes", "1", "--json"});
        return QJsonDocument::fromJson(s.out).object()["methods"].toObject();
    };
    const auto a = one("14"), b = one("15");
    int64_t words = 0;
    for (const auto& type : {"size", "colour", "shape", "relation"}) {
        words += methods["occlusion"].toObject()[type].toObject()["words"].toInt();
        for (const QString& m : methods.keys()) {
            const auto cell = [&](const QJsonObject& all) {
                return all[m].toObject()[type].toObject();
            };
            const int n = cell(methods)["words"].toInt();
            QCOMPARE(n, cell(a)["words"].toInt() + cell(b)["words"].toInt());
            for (const char* figure : {"pointing", "peak_is_occlusion_peak"}) {
                const QString key = figure == QString("pointing") ? "pointing_words" : "words";
                const auto sum = [&](const QJsonObject& c) {
                    return c[figure].toDouble() * c[key].toInt();
                };
                const double p = cell(methods)[figure].toDouble();
                QVERIFY(p >= 0 && p <= 1);
                QVERIFY2(std::abs(sum(cell(methods)) - sum(cell(a)) - sum(cell(b))) < 1e-4,
                         qPrintable(m + " " + type + " " + figure));
            }
        }
    }
    QCOMPARE(words, int64_t(j["words"].toInt()));
    QVERIFY(words > 0);
    // The plain table names every method; --beam does not combine with it.
    const Run table = runCli({"eval", "--checkpoint", kDefault, "--explain", "--world", "varied",
                              "--first-seed", "16", "--scenes", "1"});
    QVERIFY2(table.code == 0, table.err.constData());
    QVERIFY(table.out.contains("Attention rollout") && table.out.contains("Occlusion"));
    const Run beam =
        runCli({"eval", "--checkpoint", kDefault, "--explain", "--beam", "3", "--scenes", "1"});
    QVERIFY(beam.code != 0);
    QVERIFY(beam.err.contains("--explain"));
}

CL_TEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
