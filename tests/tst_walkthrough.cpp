// The Q.K walkthrough (issue 18, part 3): every number of a head's step (query, keys, dot
// products, scaling, mask, softmax, value-weighted sum) equals the decode's trace, on the shipped
// image model and on a course feature model, and captionlens-cli qk.
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
using cltest::featureModel;
using cltest::runCli;
using cltest::sceneImage;
using Run = cltest::CliRun;

namespace {
const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";
} // namespace

class TestWalkthrough : public QObject {
    Q_OBJECT
  private slots:
    void walkthroughIsTheTrace();
    void walkthroughOfAFeatureModel();
    void cliQk();
};

void TestWalkthrough::walkthroughIsTheTrace() {
    auto model = Captioner::open(kDefault);
    const RgbImage image = sceneImage(9);
    const CaptionTrace trace = model->captionImages({image}, {}).front();
    const int64_t step = 3;
    for (int64_t layer = 0; layer < trace.layers; ++layer)
        for (int64_t head = 0; head < trace.heads; ++head)
            for (bool cross : {false, true}) {
                const auto w = model->walkthroughImage(image, {}, {layer, head, step, cross});
                const auto expected =
                    cross ? trace.crossRow(layer, head, step) : std::vector<float>{};
                QCOMPARE(w.weights.size(), cross ? size_t(trace.memoryTokens) : trace.steps.size());
                double total = 0;
                std::vector<double> out(size_t(w.headDim), 0.0);
                for (size_t k = 0; k < w.weights.size(); ++k) {
                    const double want =
                        cross ? expected[k] : trace.selfWeight(layer, head, step, int64_t(k));
                    QVERIFY2(std::abs(w.weights[k] - want) < 1e-6,
                             qPrintable(QString("L%1 H%2 %3 key %4: %5 vs trace %6")
                                            .arg(layer)
                                            .arg(head)
                                            .arg(cross ? "cross" : "self")
                                            .arg(k)
                                            .arg(w.weights[k])
                                            .arg(want)));
                    QCOMPARE(bool(w.masked[k]), !cross && int64_t(k) > step);
                    if (!w.masked[k]) {
                        // float rounding: relative (sharper heads have dot products of 100+)
                        QVERIFY(std::abs(w.scaled[k] - w.dots[k] / w.scale) <
                                1e-6 * (1 + std::abs(w.scaled[k])));
                        double dot = 0;
                        for (int64_t i = 0; i < w.headDim; ++i)
                            dot += double(w.query[size_t(i)]) * w.keys[k][size_t(i)];
                        QVERIFY(std::abs(dot - w.dots[k]) < 1e-3 * (1 + std::abs(dot)));
                    }
                    total += w.weights[k];
                    for (int64_t i = 0; i < w.headDim; ++i)
                        out[size_t(i)] += w.weights[k] * w.values[k][size_t(i)];
                }
                QVERIFY(std::abs(total - 1) < 1e-5);
                for (int64_t i = 0; i < w.headDim; ++i)
                    QVERIFY(std::abs(out[size_t(i)] - w.output[size_t(i)]) < 1e-4);
                QCOMPARE(w.scale, std::sqrt(double(w.headDim)));
                QVERIFY(w.contributionNorm > 0 && w.blockNorm > 0);
            }
    // A head switched off contributes nothing, and says so.
    DecodeOptions off;
    off.headsOff.assign(size_t(trace.layers * 2 * trace.heads), 0);
    off.headsOff[size_t((1 * 2 + 1) * trace.heads + 2)] = 1; // layer 2, cross, head 3
    const auto w = model->walkthroughImage(image, off, {1, 2, 1, true});
    QVERIFY(w.headOff);
    QCOMPARE(w.contributionNorm, 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             model->walkthroughImage(image, {}, {2, 0, 0, false}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             model->walkthroughImage(image, {}, {0, 0, 99, false}));
}

void TestWalkthrough::walkthroughOfAFeatureModel() {
    QTemporaryDir dir;
    auto model = Captioner::open(featureModel(dir));
    const std::vector<float> row(size_t(model->info().config.inputDim), 0.5f);
    const CaptionTrace trace = model->captionFeatures(row, 1, {}).front();
    const auto cross = model->walkthroughFeatures(row, {}, {1, 1, 0, true});
    QCOMPARE(cross.weights.size(), size_t(1)); // one memory token: all the weight
    QVERIFY(std::abs(cross.weights[0] - 1) < 1e-6);
    QCOMPARE(QString::fromStdString(cross.keyLabels[0]), QString("features"));
    const int64_t last = int64_t(trace.steps.size()) - 1;
    const auto self = model->walkthroughFeatures(row, {}, {0, 1, last, false});
    for (int64_t k = 0; k <= last; ++k)
        QVERIFY(std::abs(self.weights[size_t(k)] - trace.selfWeight(0, 1, last, k)) < 1e-6);
    QCOMPARE(QString::fromStdString(self.keyLabels[0]), QString("<START>"));
    // Head importance reads feature rows too: row 0 of its batch is the caption as decoded.
    const HeadImportance hi = model->headImportanceFeatures(row, {});
    QCOMPARE(hi.drop.size(), size_t(trace.layers * 2 * trace.heads));
    double logp = 0;
    for (const auto& s : trace.steps)
        logp += std::log(double(s.prob));
    QVERIFY(std::abs(hi.logProb - logp) < 1e-3);
}

void TestWalkthrough::cliQk() {
    QTemporaryDir dir;
    const QString image = dir.filePath("scene.png");
    QCOMPARE(runCli({"scene", "--seed", "6", "--world", "varied", "-o", image}).code, 0);
    const Run r = runCli({"qk", "--checkpoint", kDefault, image, "--word", "2", "--layer", "1",
                          "--head", "3", "--cross", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["kind"].toString(), QString("cross"));
    const int grid = int(std::lround(std::sqrt(double(j["weights"].toArray().size()))));
    QCOMPARE(j["weights"].toArray().size(), qsizetype(grid * grid));
    QVERIFY(grid >= 4);
    QCOMPARE(j["key_labels"].toArray()[grid + 1].toString(), QString("row 2, column 2"));
    const Run table = runCli({"qk", "--checkpoint", kDefault, image, "--word", "3"});
    QVERIFY2(table.code == 0, table.err.constData());
    QVERIFY(table.out.contains("<START>") && table.out.contains("masked"));
    const Run bad = runCli({"qk", "--checkpoint", kDefault, image, "--head", "7"});
    QVERIFY(bad.code != 0);
    QVERIFY(bad.err.contains("head 7 is outside 0..3"));
}

CL_TEST_GUILESS_MAIN(TestWalkthrough)
#include "tst_walkthrough.moc"
