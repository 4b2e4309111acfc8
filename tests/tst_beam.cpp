// Beam search (issue 18): width 1 is greedy decoding exactly, a wide enough beam is exhaustive
// search, the tree is consistent, and the CLI's --beam and --length-penalty.
#include "model/api/captioner.h"
#include "model/shapes/scene.h"
#include "model/decode/beam.h"
#include "tests/cli_run.h"
#include "tests/scene_image.h"
#include "tests/test_util.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;

class TestBeam : public QObject {
    Q_OBJECT
  private slots:
    void widthOneIsGreedy();
    void wideBeamIsExhaustiveSearch();
    void treeIsConsistent();
    void cliBeam();
};

namespace {

const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";

using cltest::sceneImage;

RgbImage noiseImage() {
    RgbImage im{96, 64, std::vector<uint8_t>(96 * 64 * 3)};
    uint32_t x = 12345;
    for (auto& p : im.pixels)
        p = static_cast<uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
    return im;
}

using cltest::runCli;
using Run = cltest::CliRun;

// A tiny random feature model: 2 words besides the 4 specials, 3 steps at most.
struct Tiny {
    Vocabulary vocab{{"<NULL>", "<START>", "<END>", "<UNK>", "a", "b"}};
    CaptioningTransformer model{nullptr};
    torch::Tensor memory;
    Tiny(uint64_t seed) {
        torch::manual_seed(seed);
        ModelConfig c = presets::tinyTest();
        c.vocabSize = 6;
        c.maxLength = 3;
        model = CaptioningTransformer(c, vocab.nullId());
        model->eval();
        memory = model->memory(torch::randn({1, c.inputDim}) * 3);
    }
    // log P of tokens (after <START>) by a full forward pass, like the seed's sample().
    double logProb(const std::vector<int64_t>& ids) {
        std::vector<int64_t> in{vocab.startId()};
        in.insert(in.end(), ids.begin(), ids.end() - 1);
        auto x = torch::tensor(in, torch::kLong).view({1, -1});
        auto lp = torch::log_softmax(model->decode(memory, x), -1).to(torch::kDouble);
        double sum = 0;
        for (size_t t = 0; t < ids.size(); ++t)
            sum += lp[0][int64_t(t)][ids[t]].item<double>();
        return sum;
    }
};

} // namespace

void TestBeam::widthOneIsGreedy() {
    auto model = Captioner::open(kDefault);
    std::vector<RgbImage> images;
    for (uint64_t seed = 1; seed <= 24; ++seed)
        images.push_back(sceneImage(4000 + seed));
    images.push_back(noiseImage()); // long, odd captions too
    DecodeOptions d;
    const auto greedy = model->captionImages(images, d);
    const auto beam = model->beamImages(images, d, BeamOptions{1, 0});
    QCOMPARE(beam.size(), greedy.size());
    for (size_t i = 0; i < greedy.size(); ++i) {
        QCOMPARE(QString::fromStdString(beam[i].trace.text()),
                 QString::fromStdString(greedy[i].text()));
        QCOMPARE(beam[i].trace.steps.size(), greedy[i].steps.size());
        double logProb = 0;
        for (const auto& s : greedy[i].steps)
            logProb += std::log(double(s.prob));
        QVERIFY2(std::abs(beam[i].beam.hypotheses.front().logProb - logProb) < 1e-4,
                 qPrintable(QString::number(logProb)));
        QVERIFY(!beam[i].trace.steps.front().forced); // the beam's choices, not the user's
        QCOMPARE(beam[i].trace.outOfWorld(), greedy[i].outOfWorld());
    }
}

void TestBeam::wideBeamIsExhaustiveSearch() {
    // Width 36 = 6^2 keeps every prefix of a 3-step search over 6 tokens: the beam's best must be
    // the best of all 6 + 6^2 + 6^3 sequences (ended by <END>, or cut at 3 tokens).
    for (uint64_t seed : {1, 2, 3, 4, 5}) {
        Tiny tiny(seed);
        torch::NoGradGuard noGrad;
        double best = -1e300;
        std::vector<int64_t> bestIds;
        std::function<void(std::vector<int64_t>)> walk = [&](std::vector<int64_t> ids) {
            const bool ended = !ids.empty() && ids.back() == tiny.vocab.endId();
            if (ended || ids.size() == 3) {
                const double lp = tiny.logProb(ids);
                if (lp > best)
                    best = lp, bestIds = ids;
                return;
            }
            for (int64_t v = 0; v < 6; ++v) {
                auto next = ids;
                next.push_back(v);
                walk(next);
            }
        };
        walk({});
        DecodeOptions d;
        d.maxLength = 3;
        const auto r = beamSearch(*tiny.model, tiny.memory, tiny.vocab, d, BeamOptions{36, 0});
        const auto& top = r.hypotheses.front();
        QCOMPARE(top.ids, bestIds);
        QVERIFY2(std::abs(top.logProb - best) < 1e-5, qPrintable(QString::number(best)));
        QCOMPARE(top.finished, bestIds.back() == tiny.vocab.endId());
    }
}

void TestBeam::treeIsConsistent() {
    auto model = Captioner::open(kDefault);
    DecodeOptions d;
    const auto out = model->beamImages({sceneImage(77)}, d, BeamOptions{4, 0.7}).front();
    const auto& beam = out.beam;
    QVERIFY(!beam.hypotheses.empty() && beam.hypotheses.size() <= 4);
    for (size_t i = 1; i < beam.hypotheses.size(); ++i)
        QVERIFY(beam.hypotheses[i - 1].score >= beam.hypotheses[i].score);
    QCOMPARE(QString::fromStdString(out.trace.text()),
             QString::fromStdString(beam.hypotheses.front().text()));
    int64_t previousKept = 1; // <START>
    for (const auto& step : beam.tree) {
        int64_t kept = 0;
        for (const auto& n : step) {
            QVERIFY(n.parent >= 0 && n.parent < previousKept);
            QCOMPARE(n.finished, n.token == "<END>");
            QVERIFY(!(n.kept && n.finished));
            kept += n.kept;
        }
        QVERIFY(kept <= 4 && step.size() <= 8);
        previousKept = kept;
    }
    // Every finished hypothesis is a path of the tree.
    const auto& h = beam.hypotheses.front();
    QVERIFY(h.finished);
    QCOMPARE(h.score, beamScore(h.logProb, int64_t(h.ids.size()), 0.7));
}

void TestBeam::cliBeam() {
    QTemporaryDir dir;
    const QString image = dir.filePath("scene.png");
    QCOMPARE(runCli({"scene", "--seed", "9", "--world", "varied", "-o", image}).code, 0);
    auto r = runCli({"caption", "--checkpoint", kDefault, "--beam", "3", "--json", image});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto o = QJsonDocument::fromJson(r.out).object();
    const auto hyps = o["beam"].toObject()["hypotheses"].toArray();
    QVERIFY(hyps.size() >= 1 && hyps.size() <= 3);
    QCOMPARE(o["caption"].toString(), hyps[0].toObject()["caption"].toString());
    QVERIFY(!o["greedy"].toString().isEmpty());
    QCOMPARE(o["beam"].toObject()["width"].toInt(), 3);
    // eval --beam 1 is greedy decoding: the same figures side by side.
    r = runCli({"eval", "--checkpoint", kDefault, "--scenes", "12", "--beam", "1", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto e = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(e["beam_width"].toInt(), 1);
    for (const char* key : {"exact_match", "bleu4", "attribute_accuracy"})
        QCOMPARE(e["beam"].toObject()[key].toDouble(), e["greedy"].toObject()[key].toDouble());
    QVERIFY(e["greedy"].toObject().contains("exact_match"));
    r = runCli({"eval", "--checkpoint", kDefault, "--beam", "2", "--suite", dir.path()});
    QVERIFY(r.code != 0 && r.err.contains("--beam evaluates held-out shapes scenes"));
    for (const auto& bad : {QStringList{"--length-penalty", "0.5"}, QStringList{"--beam", "0"}}) {
        r = runCli(QStringList{"caption", "--checkpoint", kDefault} + bad + QStringList{image});
        QCOMPARE(r.code == 0, false);
        QVERIFY2(QString(r.err).trimmed().count('\n') == 0, r.err.constData());
    }
}

CL_TEST_GUILESS_MAIN(TestBeam)
#include "tst_beam.moc"
