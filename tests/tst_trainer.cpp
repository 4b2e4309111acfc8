// The training loop (model/api/trainer.h, model/train/): the loss falls, a killed run resumes, the
// focal loss and the weights' moving average.
#include "tests/test_main.h"
#include "tests/test_util.h"
#include "tests/tiny_training.h"

#include "model/api/captioner.h"
#include "model/api/trainer.h"
#include "model/io/checkpoint.h"
#include "model/train/weight_average.h"
#include "model/train/word_loss.h"

#include <QTemporaryDir>

#include <cmath>

using namespace cl;

class TestTrainer : public QObject {
    Q_OBJECT
  private slots:
    void trainingLowersLoss();
    void resumeAfterKill();
    void focalLossWeighsHardWords();
    void weightAverageFollowsTheWeights();
    void filesHoldTheAverage();
    void averageSurvivesAResume();
};

namespace {
// A tiny run whose weights move at once (no warm-up, no dropout: two runs alike are alike).
TrainOptions briskTraining(const std::string& out, int64_t steps) {
    auto o = cltest::tinyTraining(out, steps);
    o.dropout = 0;
    o.warmup = 1;
    o.lr = 3e-3;
    return o;
}
} // namespace

void TestTrainer::trainingLowersLoss() {
    QTemporaryDir dir;
    TrainOptions o;
    o.steps = 40;
    o.batch = 8;
    o.width = 32;
    o.ffn = 64;
    o.heads = 2;
    o.layers = 1;
    o.encoderChannels = 16;
    o.warmup = 5;
    o.lr = 3e-3;
    o.calibrationScenes = 128;
    o.out = dir.filePath("tiny.pt").toStdString();
    std::vector<double> losses;
    o.onProgress = [&](const TrainProgress& p) { losses.push_back(p.stepLoss); };
    trainShapes(o);
    QCOMPARE(losses.size(), size_t(40));
    const double first = (losses[0] + losses[1] + losses[2] + losses[3]) / 4;
    const double last = (losses[36] + losses[37] + losses[38] + losses[39]) / 4;
    QVERIFY2(last < 0.8 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
    auto model = Captioner::open(o.out);
    QCOMPARE(model->info().meta.steps, int64_t(40));
    QCOMPARE(model->info().config.numHeads, int64_t(2));
    QVERIFY(model->info().worldCalibrated); // the out-of-world check comes with the file
}

void TestTrainer::resumeAfterKill() {
    QTemporaryDir dir;
    TrainOptions o;
    o.steps = 20;
    o.batch = 4;
    o.width = 32;
    o.ffn = 64;
    o.heads = 2;
    o.layers = 1;
    o.encoderChannels = 16;
    o.saveEvery = 10;
    o.calibrationScenes = 0;
    o.out = dir.filePath("run.pt").toStdString();
    o.onProgress = [](const TrainProgress& p) {
        if (p.step == 13)
            throw std::runtime_error("killed"); // after the step-10 checkpoint
    };
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, trainShapes(o));
    const auto mid = readCheckpoint(o.out);
    QCOMPARE(mid.meta.steps, int64_t(10));
    QVERIFY(!mid.trainState.empty()); // optimiser moments saved for the resume
    TrainOptions r = o;
    r.resume = o.out;
    r.width = 999; // ignored: the checkpoint's config wins
    std::vector<int64_t> steps;
    r.onProgress = [&](const TrainProgress& p) { steps.push_back(p.step); };
    trainShapes(r);
    QCOMPARE(steps.front(), int64_t(11));
    QCOMPARE(steps.back(), int64_t(20));
    const auto done = readCheckpoint(o.out);
    QCOMPARE(done.meta.steps, int64_t(20));
    QCOMPARE(done.config.wordvecDim, int64_t(32));
    QVERIFY(done.trainState.empty()); // final files are lean
}

void TestTrainer::focalLossWeighsHardWords() {
    // Two words of a 3-word vocabulary (<NULL> = 0): one the model is sure of, one it is not,
    // and a <NULL> that counts for nothing.
    const auto scores = torch::tensor({{{0.0, 4.0, 0.0}, {0.0, 0.0, 0.5}, {9.0, 0.0, 0.0}}});
    const auto target = torch::tensor({{1, 1, 0}}, torch::kLong);
    const auto plain = wordLosses(scores, target, 0);
    const double easy = std::log(1 + 2 * std::exp(-4.0)), hard = std::log(2 + std::exp(0.5));
    QVERIFY(plain.allclose(torch::tensor({easy, hard, 0.0}).to(torch::kFloat), 1e-5, 1e-6));
    const auto focal = focalTerms(wordLosses(scores, target, 0), 2);
    const auto expected = torch::tensor(
        {easy * std::pow(1 - std::exp(-easy), 2), hard * std::pow(1 - std::exp(-hard), 2), 0.0});
    QVERIFY(focal.allclose(expected.to(torch::kFloat), 1e-5, 1e-7));
    // The sure word loses far more of its weight than the unsure one.
    QVERIFY(focal[0].item<double>() / easy < 0.01 && focal[1].item<double>() / hard > 0.3);
}

void TestTrainer::weightAverageFollowsTheWeights() {
    auto w = torch::zeros({2});
    WeightAverage avg({{"w", w}}, 0.5);
    w.fill_(1.0);
    avg.update(); // first update: (1 + 1) / (10 + 1) of the old average kept
    const double kept = 2.0 / 11.0;
    avg.swap();
    QVERIFY(w.allclose(torch::full({2}, 1 - kept)));
    avg.swap(); // back: the live weights again
    QVERIFY(w.allclose(torch::ones({2})));
    for (int i = 0; i < 50; ++i)
        avg.update(); // the decay (0.5) caps the warm-up: the average reaches the weights
    avg.swap();
    QVERIFY(w.allclose(torch::ones({2}), 1e-6, 1e-6));
    avg.swap();
    auto other = torch::full({2}, 7.0);
    WeightAverage resumed({{"w", other}}, 0.5);
    resumed.restore(avg.state());
    resumed.swap();
    QVERIFY(other.allclose(torch::ones({2}), 1e-6, 1e-6)); // the saved average, not the weights
}

void TestTrainer::filesHoldTheAverage() {
    QTemporaryDir dir;
    auto o = briskTraining(dir.filePath("last.pt").toStdString(), 12);
    trainShapes(o);
    auto a = o;
    a.average = 0.9;
    a.out = dir.filePath("average.pt").toStdString();
    trainShapes(a);
    const auto last = readCheckpoint(o.out), averaged = readCheckpoint(a.out);
    QVERIFY(last.stateDict.size() == averaged.stateDict.size());
    double apart = 0;
    for (size_t i = 0; i < last.stateDict.size(); ++i)
        apart = std::max(
            apart,
            (last.stateDict[i].second - averaged.stateDict[i].second).abs().max().item<double>());
    QVERIFY2(apart > 1e-4, qPrintable(QString::number(apart))); // the average, not the last step
    QVERIFY(QString::fromStdString(averaged.meta.source).contains("--average 0.9"));
}

void TestTrainer::averageSurvivesAResume() {
    QTemporaryDir dir;
    auto o = briskTraining(dir.filePath("straight.pt").toStdString(), 20);
    o.average = 0.9;
    o.saveEvery = 10;
    trainShapes(o);
    auto k = o;
    k.out = dir.filePath("killed.pt").toStdString();
    k.onProgress = [](const TrainProgress& p) {
        if (p.step == 13)
            throw std::runtime_error("killed"); // after the step-10 checkpoint
    };
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, trainShapes(k));
    bool saved = false;
    for (const auto& [key, value] : readCheckpoint(k.out).trainState)
        saved = saved || key.rfind("average.", 0) == 0;
    QVERIFY(saved); // the average travels with the optimiser's state
    auto r = k;
    r.onProgress = nullptr;
    r.resume = k.out;
    trainShapes(r);
    const auto straight = readCheckpoint(o.out), resumed = readCheckpoint(k.out);
    for (size_t i = 0; i < straight.stateDict.size(); ++i)
        QVERIFY2(straight.stateDict[i].second.allclose(resumed.stateDict[i].second, 1e-4, 1e-5),
                 straight.stateDict[i].first.c_str());
}

CL_TEST_APPLESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
