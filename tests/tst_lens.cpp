// The logit lens and direct logit attribution (issue 39): the parts of every logit add up to it,
// the logit is the decode's, the last layer's lens is the caption, a head switched off adds
// nothing, course feature models work, and captionlens-cli lens writes what scripts read.
// LibTorch's headers before Qt's (Qt's `slots` macro breaks them).
#include "tests/feature_model.h"

#include "model/api/captioner.h"
#include "tests/cli_run.h"
#include "tests/scene_image.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;

namespace {

const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";

double partsSum(const LogitAttribution& a) {
    double sum = 0;
    for (const auto& p : a.parts)
        sum += p.value;
    return sum;
}

double part(const LogitAttribution& a, const std::string& name) {
    for (const auto& p : a.parts)
        if (p.name == name)
            return p.value;
    return NAN;
}

} // namespace

class TestLens : public QObject {
    Q_OBJECT
  private slots:
    void partsAddUpToTheDecodesLogit();
    void lastLayerReadsTheCaption();
    void headSwitchedOffAddsNothing();
    void featureModelsToo();
    void cliWritesWordsLensAndDla();
};

void TestLens::partsAddUpToTheDecodesLogit() {
    auto model = Captioner::open(kDefault);
    DecodeOptions d;
    d.keepLogits = true;
    for (uint64_t seed : {3u, 11u}) {
        const RgbImage image = cltest::sceneImage(seed);
        const CaptionTrace trace = model->captionImages({image}, d).front();
        const LensReport r = model->lensImage(image, d, 3);
        QCOMPARE(r.attribution.size(), trace.steps.size());
        QCOMPARE(r.words.front(), std::string("<START>"));
        // 2 layers x 4 heads x (self, cross) + 2 FFNs + embedding, position code, biases.
        QCOMPARE(r.attribution.front().parts.size(), size_t(2 * 4 * 2 + 2 + 3));
        for (size_t t = 0; t < trace.steps.size(); ++t) {
            const auto& a = r.attribution[t];
            QCOMPARE(a.word, trace.steps[t].token);
            QVERIFY2(std::abs(partsSum(a) - a.logit) < 1e-4,
                     qPrintable(QStringLiteral("%1 vs %2").arg(partsSum(a)).arg(a.logit)));
            const double decoded = trace.steps[t].logits.at(size_t(trace.steps[t].id));
            QVERIFY2(std::abs(a.logit - decoded) < 1e-3,
                     qPrintable(QStringLiteral("%1 vs the decode's %2").arg(a.logit).arg(decoded)));
        }
    }
}

void TestLens::lastLayerReadsTheCaption() {
    auto model = Captioner::open(kDefault);
    const RgbImage image = cltest::sceneImage(5);
    const CaptionTrace trace = model->captionImages({image}, {}).front();
    const LensReport r = model->lensImage(image, {}, 5);
    const size_t positions = r.words.size();
    QCOMPARE(r.logitLens.size(), 3 * positions); // layers 0, 1, 2
    for (size_t t = 0; t < positions; ++t) {
        const LensRow& last = r.logitLens[2 * positions + t];
        QCOMPARE(last.layer, int64_t(2));
        QCOMPARE(last.position, int64_t(t));
        QCOMPARE(last.top.size(), size_t(5));
        QCOMPARE(last.top.front().word, trace.steps[t].token); // greedy: the argmax
        QVERIFY(last.top[0].p >= last.top[1].p);
        if (t + 1 < positions)
            QCOMPARE(r.words[t + 1], trace.steps[t].token);
    }
}

void TestLens::headSwitchedOffAddsNothing() {
    auto model = Captioner::open(kDefault);
    const RgbImage image = cltest::sceneImage(9);
    DecodeOptions d;
    d.headsOff.assign(2 * 2 * 4, 0);
    d.headsOff[1 * 8 + 1 * 4 + 2] = 1; // layer 2, cross-attention, head 3
    const LensReport r = model->lensImage(image, d, 1);
    for (const auto& a : r.attribution) {
        QCOMPARE(part(a, "L2 cross H3"), 0.0);
        QVERIFY(std::abs(partsSum(a) - a.logit) < 1e-4);
    }
    const LensReport on = model->lensImage(image, {}, 1);
    QVERIFY(part(on.attribution.front(), "L2 cross H3") != 0.0);
}

void TestLens::featureModelsToo() {
    QTemporaryDir dir;
    auto model = Captioner::open(cltest::featureModel(dir));
    const std::vector<float> row(size_t(model->info().config.inputDim), 0.5f);
    const LensReport r = model->lensFeatures(row, {}, 2);
    QVERIFY(!r.attribution.empty());
    for (const auto& a : r.attribution)
        QVERIFY(std::abs(partsSum(a) - a.logit) < 1e-4);
}

void TestLens::cliWritesWordsLensAndDla() {
    QTemporaryDir dir;
    const QString image = dir.filePath("scene.png");
    QCOMPARE(cltest::runCli({"scene", "--seed", "2", "--world", "varied", "-o", image}).code, 0);
    const auto run = cltest::runCli({"lens", "--checkpoint", kDefault, image, "--json"});
    QCOMPARE(run.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(run.out).object();
    const QJsonArray words = j["words"].toArray(), lens = j["logit_lens"].toArray(),
                     dla = j["dla"].toArray();
    QCOMPARE(words.first().toString(), QString("<START>"));
    QCOMPARE(lens.size(), 3 * words.size());
    QVERIFY(lens.first().toObject()["top"].toArray().first().toObject().contains("p"));
    QCOMPARE(dla.size(), words.size());
    for (const auto& entry : dla) {
        const QJsonObject a = entry.toObject();
        double sum = 0;
        for (const auto& c : a["components"].toArray())
            sum += c.toObject()["value"].toDouble();
        QVERIFY(std::abs(sum - a["logit"].toDouble()) < 1e-4);
    }
    const auto missing = cltest::runCli({"lens", "--checkpoint", kDefault, dir.filePath("no.png")});
    QCOMPARE(missing.code, 1);
    QCOMPARE(missing.err.trimmed().count('\n'), 0);
}

CL_TEST_GUILESS_MAIN(TestLens)
#include "tst_lens.moc"
