// Cutting the empty background off a long canvas before the letterbox (model/nn/content_crop.h):
// what is cut, what never is, and how the encoder's cells map back through the cut.
#include "model/core/letterbox.h"
#include "model/shapes/scene.h"
#include "model/nn/content_crop.h"
#include "model/nn/image_encoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <cmath>
#include <random>
#include "tests/test_main.h"

using namespace cl;

namespace {

struct Canvas {
    int64_t w, h;
    std::vector<uint8_t> rgb;
    Canvas(int64_t width, int64_t height, uint8_t grey = 255)
        : w(width), h(height), rgb(size_t(width * height * 3), grey) {}
    void set(int64_t x, int64_t y, std::array<uint8_t, 3> c) {
        if (x >= 0 && y >= 0 && x < w && y < h)
            std::copy(c.begin(), c.end(), rgb.begin() + (y * w + x) * 3);
    }
    // A disc, filled or as a ring `stroke` px wide.
    void disc(double cx, double cy, double r, std::array<uint8_t, 3> c, double stroke = 0) {
        for (int64_t y = 0; y < h; ++y)
            for (int64_t x = 0; x < w; ++x) {
                const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
                if (d <= r && (stroke <= 0 || d >= r - stroke))
                    set(x, y, c);
            }
    }
    CropRect crop() const { return contentCrop(rgb.data(), h, w); }
    void savePpm(const std::string& path) const {
        std::ofstream f(path, std::ios::binary);
        f << "P6\n" << w << " " << h << "\n255\n";
        f.write(reinterpret_cast<const char*>(rgb.data()), std::streamsize(rgb.size()));
    }
};

bool inside(const CropRect& c, double x0, double y0, double x1, double y1) {
    return x0 >= c.x0 && y0 >= c.y0 && x1 <= c.x0 + c.width && y1 <= c.y0 + c.height;
}

bool whole(const CropRect& c, const Canvas& k) {
    return c.x0 == 0 && c.y0 == 0 && c.width == k.w && c.height == k.h;
}

} // namespace

class TestCrop : public QObject {
    Q_OBJECT
  private slots:
    void cutsTheEmptyEndsOfAWideSlide();
    void tallCanvasesAreCutAlongTheirHeight();
    void keepsWhatCannotBeCut();
    void noiseAndGrainAreNotDrawing();
    void thinOutlinesAndPaleColoursAreDrawing();
    void neverCutsAnObjectOfTheVariedWorld();
    void cellsMapBackThroughTheCut();
    void encoderSeesTheCut();
    void captionJsonSaysWhatWasSeen();
};

void TestCrop::cutsTheEmptyEndsOfAWideSlide() {
    Canvas k(390, 130); // 3:1, one red disc near the left
    k.disc(70, 65, 20, {220, 40, 40});
    const CropRect c = k.crop();
    QCOMPARE(c.y0, int64_t(0));
    QCOMPARE(c.height, int64_t(130));                               // the short side is never cut
    QVERIFY2(c.width == 130, qPrintable(QString::number(c.width))); // never shorter than it
    QVERIFY(inside(c, 50, 45, 90, 85));
    QVERIFY(c.x0 + c.width < 200); // the empty right end is gone
}

void TestCrop::tallCanvasesAreCutAlongTheirHeight() {
    Canvas k(130, 390);
    k.disc(65, 300, 20, {40, 85, 225});
    k.disc(40, 230, 12, {40, 175, 60});
    const CropRect c = k.crop();
    QCOMPARE(c.x0, int64_t(0));
    QCOMPARE(c.width, int64_t(130));
    QVERIFY(inside(c, 28, 218, 85, 320));
    QVERIFY(c.y0 > 150 && c.height < 250);
}

void TestCrop::keepsWhatCannotBeCut() {
    Canvas square(200, 180); // nearly square: fitted whole
    square.disc(30, 30, 15, {220, 40, 40});
    QVERIFY(whole(square.crop(), square));
    Canvas ends(390, 130); // drawing at both ends: nothing worth cutting
    ends.disc(25, 65, 15, {220, 40, 40});
    ends.disc(365, 65, 15, {40, 85, 225});
    QVERIFY(whole(ends.crop(), ends));
    Canvas framed(390, 130); // a frame cut open would be a shape no canvas has
    framed.disc(70, 65, 20, {220, 40, 40});
    for (int64_t x = 0; x < framed.w; ++x)
        for (int64_t y = 0; y < framed.h; ++y)
            if (x < 4 || y < 4 || x >= framed.w - 4 || y >= framed.h - 4)
                framed.set(x, y, {30, 30, 30});
    QVERIFY(whole(framed.crop(), framed));
    Canvas empty(390, 130, 240);
    QVERIFY(whole(empty.crop(), empty));
    Canvas line(1, 3); // degenerate sizes
    QVERIFY(whole(line.crop(), line));
}

void TestCrop::noiseAndGrainAreNotDrawing() {
    // Paper: a warm grey with a lighting gradient along the long side, grain and sensor noise.
    Canvas k(1200, 400);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0, 8);
    for (int64_t y = 0; y < k.h; ++y)
        for (int64_t x = 0; x < k.w; ++x) {
            const double v = 170 + 70.0 * x / k.w + noise(rng);
            const auto b = uint8_t(std::clamp(v, 0.0, 255.0));
            k.set(x, y, {b, uint8_t(b * 0.97), uint8_t(b * 0.9)});
        }
    QVERIFY(whole(k.crop(), k));
    k.disc(900, 200, 60, {150, 60, 200}); // then one object: cut to it (in a 1200 px photo)
    const CropRect c = k.crop();
    QVERIFY(inside(c, 840, 140, 960, 260));
    QCOMPARE(c.width, int64_t(400));
}

void TestCrop::thinOutlinesAndPaleColoursAreDrawing() {
    Canvas k(600, 200); // a 2 px yellow ring at the right, a pale one at the left
    k.disc(480, 100, 40, {240, 205, 30}, 2);
    k.disc(60, 100, 30, {250, 215, 120});
    const CropRect c = k.crop();
    QVERIFY(inside(c, 30, 70, 520, 140));
    Canvas one(600, 200);
    one.disc(480, 100, 40, {240, 205, 30}, 2);
    QVERIFY(inside(one.crop(), 440, 60, 520, 140));
    QVERIFY(one.crop().width < 400);
}

// Every look of the training world (gradients, paper grain, shadows, blur, JPEG, outlines, frames)
// on 400 seeds: no object's box is cut, and the crop is used on many long canvases. Measured on
// 3,000 seeds (CL_CROP_SEEDS=3000): 3 objects cut (scenes hold 1-3), each an outline at the edge of
// visibility (faint colour, blur, noise) that the model misses uncropped too in two of the three;
// hence at most one object in a thousand.
void TestCrop::neverCutsAnObjectOfTheVariedWorld() {
    int longCanvases = 0, cut = 0, lost = 0, objects = 0;
    const uint64_t seeds = qEnvironmentVariableIntValue("CL_CROP_SEEDS") > 0
                               ? uint64_t(qEnvironmentVariableIntValue("CL_CROP_SEEDS"))
                               : 400; // scripts can ask for more
    for (uint64_t seed = 0; seed < seeds; ++seed) {
        const Scene s = generateVariedScene(seed);
        const int64_t w = s.spec.width(), h = s.spec.height();
        const CropRect c = contentCrop(s.rgb.data(), h, w);
        QVERIFY(c.width >= std::min(w, h) && c.height >= std::min(w, h));
        for (const auto& o : s.spec.objects) {
            ++objects;
            const Box b = o.box();
            if (inside(c, b.x0, b.y0, b.x1, b.y1))
                continue;
            if (++lost <= 5)
                qWarning("%s", qPrintable(QStringLiteral(
                                              "seed %1: box %2,%3-%4,%5 outside crop %6,%7 %8x%9")
                                              .arg(seed)
                                              .arg(b.x0)
                                              .arg(b.y0)
                                              .arg(b.x1)
                                              .arg(b.y1)
                                              .arg(c.x0)
                                              .arg(c.y0)
                                              .arg(c.width)
                                              .arg(c.height)));
        }
        if (std::max(w, h) >= 1.4 * std::min(w, h)) {
            ++longCanvases;
            cut += c.width < w || c.height < h;
        }
    }
    QVERIFY2(lost * 1000 <= objects, qPrintable(QStringLiteral("%1 of %2").arg(lost).arg(objects)));
    QVERIFY2(cut * 3 > longCanvases,
             qPrintable(QStringLiteral("%1 of %2").arg(cut).arg(longCanvases)));
}

void TestCrop::cellsMapBackThroughTheCut() {
    // A 300 x 100 image of which x 150..250 was seen: the square crop fills the 64 px input, so
    // 8 x 8 cells are 12.5 image px, starting at x 150.
    const CropRect seen{150, 0, 100, 100};
    const GridMap g = gridMap(300, 100, 8, 64, true, seen);
    QVERIFY(std::abs(g.centreX(0) - 156.25) < 1e-9 && std::abs(g.centreY(0) - 6.25) < 1e-9);
    QVERIFY(std::abs(g.centreX(63) - 243.75) < 1e-9 && std::abs(g.centreY(63) - 93.75) < 1e-9);
    // No crop (width 0) and a crop of the whole image agree with the plain letterbox.
    const GridMap a = gridMap(300, 100, 8, 64, true),
                  b = gridMap(300, 100, 8, 64, true, {0, 0, 300, 100});
    QCOMPARE(a.x0, b.x0);
    QCOMPARE(a.y0, b.y0);
    QCOMPARE(a.cellW, b.cellW);
    // Squashed models are never cropped.
    QCOMPARE(gridMap(300, 100, 8, 64, false, seen).x0, 0.0);
}

void TestCrop::encoderSeesTheCut() {
    Canvas k(390, 130);
    k.disc(300, 65, 20, {40, 175, 60});
    CropRect seen;
    const auto x = preprocessImage(k.rgb.data(), k.h, k.w, 64, true, &seen);
    QVERIFY(seen.width == 130 && seen.x0 > 200);
    // The crop is square, so it fills the input: no padding rows, and the disc (radius 20 of
    // 130 px) is about 20 input px across instead of 6.6 letterboxed whole.
    const auto green = x.select(1, 1).gt(0.2).logical_and(x.select(1, 0).lt(-0.4));
    const auto wide = green.sum(2).amax().item<int64_t>();
    QVERIFY2(wide >= 17 && wide <= 22, qPrintable(QString::number(wide)));
    CropRect none;
    preprocessImage(k.rgb.data(), k.h, k.w, 64, false, &none);
    QVERIFY(none.x0 == 0 && none.width == 390); // squashed: the whole image
}

void TestCrop::captionJsonSaysWhatWasSeen() {
    QTemporaryDir dir;
    Canvas k(390, 130);
    k.disc(300, 65, 24, {220, 40, 40});
    const std::string path = dir.filePath("wide.ppm").toStdString();
    k.savePpm(path);
    QProcess cli;
    cli.start(CL_CLI, {"caption", "--checkpoint", CL_SOURCE_DIR "/resources/models/default.pt",
                       QString::fromStdString(path), "--json", "--attention"});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const auto j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const auto crop = j["input_crop"].toArray();
    const CropRect c = k.crop();
    QCOMPARE(crop.size(), 4);
    QCOMPARE(crop[0].toInt(), int(c.x0));
    QCOMPARE(crop[2].toInt(), 130);
    QCOMPARE(crop[3].toInt(), 130);
    QVERIFY2(j["caption"].toString().contains("red circle"), qPrintable(j["caption"].toString()));
}

CL_TEST_APPLESS_MAIN(TestCrop)
#include "tst_crop.moc"
