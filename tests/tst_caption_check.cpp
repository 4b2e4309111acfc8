// The app's caption check (model/novelty/caption_check.h): which word sequences are sentences
// of the shapes world, and whether the colours a caption names are on the image.
#include "tests/test_util.h"
#include "tests/test_main.h"

#include "model/novelty/caption_check.h"

#include <array>

using namespace cl;

class TestCaptionCheck : public QObject {
    Q_OBJECT
  private slots:
    void worldSentences_data();
    void worldSentences();
    void colourEvidenceCountsRegions();
    void captionCheckReasons();
};

void TestCaptionCheck::worldSentences_data() {
    QTest::addColumn<QString>("caption");
    QTest::addColumn<bool>("sentence");
    QTest::newRow("one object") << "a large red circle" << true;
    QTest::newRow("two, left of") << "a small blue star left of a large green square" << true;
    QTest::newRow("two, below") << "a small purple triangle below a small yellow star" << true;
    QTest::newRow("three") << "a large red circle above a small blue star and a small red star"
                           << true;
    QTest::newRow("repeated words") << "a large circle circle circle" << false;
    QTest::newRow("no size") << "a red circle" << false;
    QTest::newRow("and without relation") << "a large red circle and a small blue star" << false;
    QTest::newRow("relation at the end") << "a large red circle left of" << false;
    QTest::newRow("four objects")
        << "a large red circle above a small blue star and a small red star and a small red star"
        << false;
    QTest::newRow("left without of") << "a large red circle left a small blue star" << false;
    QTest::newRow("empty") << "" << false;
}

void TestCaptionCheck::worldSentences() {
    QFETCH(QString, caption);
    QFETCH(bool, sentence);
    std::vector<std::string> words;
    for (const auto& w : caption.split(' ', Qt::SkipEmptyParts))
        words.push_back(w.toStdString());
    QCOMPARE(isWorldSentence(words), sentence);
}

namespace {
// A white canvas with filled rectangles of given colours.
struct Canvas {
    int64_t w, h;
    std::vector<uint8_t> rgb;
    Canvas(int64_t width, int64_t height) : w(width), h(height), rgb(size_t(w * h * 3), 255) {}
    void fill(int64_t x0, int64_t y0, int64_t x1, int64_t y1, std::array<uint8_t, 3> c) {
        for (int64_t y = y0; y < y1; ++y)
            for (int64_t x = x0; x < x1; ++x)
                for (int k = 0; k < 3; ++k)
                    rgb[size_t((y * w + x) * 3 + k)] = c[size_t(k)];
    }
};
} // namespace

void TestCaptionCheck::colourEvidenceCountsRegions() {
    Canvas c(200, 100);
    c.fill(10, 10, 20, 20, {220, 30, 30}); // a red 10 x 10 square
    c.fill(50, 10, 53, 13, {220, 30, 30}); // a smaller red one, not connected
    QCOMPARE(colourEvidence(c.rgb.data(), c.h, c.w, "red"), int64_t(100));
    QCOMPARE(colourEvidence(c.rgb.data(), c.h, c.w, "blue"), int64_t(0));
    QCOMPARE(colourEvidence(c.rgb.data(), c.h, c.w, "square"), int64_t(-1));
    // A thin purple outline anti-aliased onto white keeps its hue, not its saturation (0.23 here,
    // below the name's 0.4): still purple.
    Canvas thin(100, 100);
    thin.fill(20, 50, 80, 51, {209, 177, 229}); // purple (140, 60, 190) mixed 60 % with white
    QCOMPARE(colourEvidence(thin.rgb.data(), thin.h, thin.w, "purple"), int64_t(60));
    // A large image is looked at with its short side at 128 px: a 100 x 100 block of a 1000 x 1000
    // image covers about 12.8 x 12.8 view pixels.
    Canvas big(1000, 1000);
    big.fill(500, 500, 600, 600, {40, 80, 230});
    const int64_t e = colourEvidence(big.rgb.data(), big.h, big.w, "blue");
    QVERIFY2(e >= 144 && e <= 196, qPrintable(QString::number(e)));
}

void TestCaptionCheck::captionCheckReasons() {
    Canvas c(200, 120);
    c.fill(20, 20, 60, 60, {220, 30, 30});
    c.fill(120, 20, 160, 60, {40, 80, 230});
    auto check = [&](const QString& caption) {
        std::vector<std::string> words;
        for (const auto& w : caption.split(' '))
            words.push_back(w.toStdString());
        return checkCaption(words, c.rgb.data(), c.h, c.w);
    };
    auto fine = check("a large red square left of a large blue square");
    QCOMPARE(fine.reason, std::string());
    QVERIFY(fine.score <= 1);
    auto missing = check("a large red square left of a large green square");
    QCOMPARE(missing.reason, std::string("colour"));
    QCOMPARE(missing.colour, std::string("green"));
    QCOMPARE(missing.score, 10.0);
    auto babble = check("a large red red red red");
    QCOMPARE(babble.reason, std::string("sentence"));
    QVERIFY(babble.score > 1);
}

CL_TEST_APPLESS_MAIN(TestCaptionCheck)
#include "tst_caption_check.moc"
