// Paper photographed under a lamp or beside a phone (model/shapes/scene_photo.cpp): part of the
// varied world's paper scenes, deterministic, drawn from a stream of its own (no other choice of
// a scene moved), and never an object: masks and captions are those of the unlit scene.
#include "model/shapes/scene.h"

#include <QTest>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;

namespace {

// The first varied-world seed whose look has a lamp and a cast shadow.
uint64_t litSeed() {
    for (uint64_t seed = 0; seed < 2000; ++seed) {
        const SceneSpec spec = randomVariedSpec(seed);
        if (spec.look.lamp > 0 && spec.look.castShadow > 0)
            return seed;
    }
    return ~0ULL;
}

SceneSpec unlit(SceneSpec spec) {
    Look& l = spec.look;
    l.lamp = l.castShadow = l.vignette = l.crease = 0;
    l.whiteBalance = {1, 1, 1};
    return spec;
}

double luminance(const Scene& s, int x, int y) {
    const uint8_t* p = &s.rgb[(size_t(y) * size_t(s.spec.width()) + size_t(x)) * 3];
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
}

} // namespace

class TestSceneLooks : public QObject {
    Q_OBJECT
  private slots:
    void lampLitPaperIsCommonAndDeterministic();
    void shadingIsNeverAnObject();
    void lampDarkensItsSide();
};

void TestSceneLooks::lampLitPaperIsCommonAndDeterministic() {
    int lit = 0, paper = 0;
    for (uint64_t seed = 0; seed < 1000; ++seed) {
        const SceneSpec spec = randomVariedSpec(seed);
        paper += spec.look.texture > 0;
        lit += spec.look.lamp > 0;
        QVERIFY(spec.look.lamp == 0 || spec.look.texture > 0); // paper scenes only
    }
    QVERIFY2(lit > paper / 2 && lit < paper, qPrintable(QStringLiteral("%1 of %2").arg(lit).arg(paper)));
    const uint64_t seed = litSeed();
    QVERIFY(seed != ~0ULL);
    QCOMPARE(generateVariedScene(seed).rgb, generateVariedScene(seed).rgb);
}

void TestSceneLooks::shadingIsNeverAnObject() {
    const uint64_t seed = litSeed();
    const Scene lit = generateVariedScene(seed);
    const Scene plain = renderScene(unlit(lit.spec));
    QVERIFY(lit.rgb != plain.rgb);
    QCOMPARE(lit.masks, plain.masks);
    QCOMPARE(lit.captions, plain.captions);
    QCOMPARE(lit.masks.size(), lit.spec.objects.size());
}

// Lamp alone: far on its dark side the page keeps about 1 - lamp of its light, on the other
// side all of it.
void TestSceneLooks::lampDarkensItsSide() {
    SceneSpec spec = unlit(randomVariedSpec(litSeed()));
    spec.objects.clear();
    spec.look.blur = 0;
    spec.look.sensorNoise = 0;
    spec.look.jpegQuality = 0;
    spec.look.lamp = 0.4;
    spec.look.lampAngle = 0; // darker to the right
    const Scene plain = renderScene(unlit(spec)), lit = renderScene(spec);
    const int w = spec.width(), y = spec.height() / 2;
    const double right = luminance(lit, w - 1, y) / luminance(plain, w - 1, y);
    const double left = luminance(lit, 0, y) / luminance(plain, 0, y);
    QVERIFY2(std::abs(right - 0.6) < 0.03, qPrintable(QString::number(right)));
    QVERIFY2(std::abs(left - 1.0) < 0.02, qPrintable(QString::number(left)));
}

CL_TEST_GUILESS_MAIN(TestSceneLooks)
#include "tst_scene_looks.moc"
