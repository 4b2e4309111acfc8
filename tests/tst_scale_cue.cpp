// The encoder's scale cue (core/config.h EncoderConfig::scaleCue): the fourth input plane that
// preprocessing adds, and the explanation methods, which treat it as no pixel of the image
// (Integrated Gradients' baselines, occlusion's fill and the blur keep it; gradient x input sums
// the colour planes). Warm starts that add it: tst_checkpoint initAddsTheScaleCue.
#include "model/api/captioner.h"
#include "model/api/trainer.h"
#include "model/nn/image_encoder.h"
#include "tests/test_util.h"
#include "tests/tiny_image.h"
#include "tests/tiny_training.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "tests/test_main.h"

using namespace cl;

class TestScaleCue : public QObject {
    Q_OBJECT
  private slots:
    void preprocessingAddsThePlane();
    void explanationsLeaveThePlaneAlone();
    void explainAModelWithTheCue();
};

namespace {

// 200 x 50 pixels with no plain background (nothing is cropped).
RgbImage wideNoise() {
    RgbImage wide{200, 50, std::vector<uint8_t>(200 * 50 * 3)};
    for (size_t i = 0; i < wide.pixels.size(); ++i)
        wide.pixels[i] = uint8_t(i * 7919 % 251);
    return wide;
}

} // namespace

// log2 of the input's side that the short side spans (a 4:1 canvas: a quarter, -2), 0 for a
// square; the colour planes as without the cue.
void TestScaleCue::preprocessingAddsThePlane() {
    const RgbImage wide = wideNoise();
    const auto x = preprocessImage(wide.pixels.data(), 50, 200, 64, true, nullptr, true);
    QCOMPARE(x.size(1), int64_t(4));
    QVERIFY(
        torch::equal(x.narrow(1, 0, 3), preprocessImage(wide.pixels.data(), 50, 200, 64, true)));
    QVERIFY(torch::allclose(x.select(1, 3), torch::full({1, 64, 64}, -2.0)));
    const auto square = preprocessImage(wide.pixels.data(), 50, 50, 64, true, nullptr, true);
    QCOMPARE(square.select(1, 3).abs().max().item<float>(), 0.f);
    EncoderConfig e;
    e.letterbox = true;
    e.scaleCue = true;
    QVERIFY(torch::equal(preprocessImage(wide.pixels.data(), 50, 200, e), x));
    QVERIFY_THROWS_EXCEPTION(c10::Error, preprocessImage(wide.pixels.data(), 50, 200, 64, false,
                                                         nullptr, true)); // squashed: no scale
}

void TestScaleCue::explanationsLeaveThePlaneAlone() {
    cltest::TinyImage tiny(5, 8, 2, 4, true);
    const auto f = tiny.objective();
    auto x = torch::randn({1, 4, 8, 8}, torch::kDouble);
    x.select(1, 3).fill_(-1.5);
    const auto black = explain::blackImage(x);
    QVERIFY(torch::equal(black.select(1, 3), x.select(1, 3)));
    QCOMPARE(black.narrow(1, 0, 3).max().item<double>(), -1.0);
    QCOMPARE(explain::backgroundFill(x).flatten()[3].item<double>(), -1.5);
    QVERIFY(torch::allclose(explain::blurred(x, 1.0).select(1, 3), x.select(1, 3), 0, 1e-12));
    // Gradient x input over the colour planes only.
    const auto input = x.clone().requires_grad_(true);
    const auto grad = torch::autograd::grad({f.logProb(input).sum()}, {input})[0];
    const auto want = (grad * x).narrow(1, 0, 3).sum(1).select(0, 0);
    QVERIFY(torch::allclose(explain::gradientMaps(f, x).gradInput, want, 0, 1e-12));
    // Complete over the colour planes: the path never moves the plane.
    double gap = 1;
    const auto ig = explain::integratedGradients(f, x, black, 128, &gap);
    torch::NoGradGuard noGrad;
    const double change = (f.logProb(x) - f.logProb(black)).sum().item<double>();
    QVERIFY2(std::abs(ig.sum().item<double>() - change) < 1e-3 * std::max(1.0, std::abs(change)),
             qPrintable(QString::number(gap)));
}

// Through the facade: every method and its curves on a trained model with the cue, a wide image.
void TestScaleCue::explainAModelWithTheCue() {
    QTemporaryDir dir;
    TrainOptions o = cltest::tinyTraining(dir.filePath("cue.pt").toStdString(), 2);
    o.scaleCue = true;
    trainShapes(o);
    const auto model = Captioner::open(o.out);
    QVERIFY(model->info().config.encoder.scaleCue);
    ExplainOptions e;
    e.curveSteps = 4;
    const Explanation ex = model->explainImage(wideNoise(), {}, e);
    QCOMPARE(ex.maps.size(), allExplainMethods().size());
    for (const auto& m : ex.maps) {
        QCOMPARE(int64_t(m.values.size()), int64_t(m.side * m.side));
        for (float v : m.values)
            QVERIFY(std::isfinite(v));
        QVERIFY2(m.completenessGap < 0.05, qPrintable(QString::number(m.completenessGap)));
        QCOMPARE(int64_t(m.deletion.size()), int64_t(5));
    }
}

CL_TEST_APPLESS_MAIN(TestScaleCue)
#include "tst_scale_cue.moc"
