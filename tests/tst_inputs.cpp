// Feature files, vocabularies and images: good ones read correctly, bad ones give one clear line.
#include "image_loader.h"
#include "npy.h"
#include "vocab_json.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace cl;

namespace {

std::string npy(const std::string& descr, const std::string& shape, const std::string& data,
                bool fortran = false) {
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + data;
}

std::string floats(std::initializer_list<float> v) {
    std::string s(v.size() * 4, '\0');
    std::memcpy(s.data(), std::data(v), s.size());
    return s;
}

} // namespace

class TestInputs : public QObject {
    Q_OBJECT
  private slots:
    void npyReads();
    void npyErrors_data();
    void npyErrors();
    void vocabReads();
    void vocabErrors_data();
    void vocabErrors();
    void imageFormats();
    void imageErrors();
};

void TestInputs::npyReads() {
    auto m = parseNpy(npy("<f4", "(2, 3)", floats({1, 2, 3, 4, 5, 6})));
    QCOMPARE(m.rows, int64_t(2));
    QCOMPARE(m.cols, int64_t(3));
    QCOMPARE(m.data, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    // Fortran order: columns first in the file, rows first in memory.
    m = parseNpy(npy("<f4", "(2, 3)", floats({1, 4, 2, 5, 3, 6}), true));
    QCOMPARE(m.data, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    double d[2] = {0.5, -2.0};
    m = parseNpy(npy("<f8", "(2,)", std::string(reinterpret_cast<char*>(d), 16)));
    QCOMPARE(m.rows, int64_t(1));
    QCOMPARE(m.data, (std::vector<float>{0.5f, -2.0f}));
}

void TestInputs::npyErrors_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bad magic") << QByteArray("hello world") << "bad magic";
    QTest::newRow("int dtype") << QByteArray::fromStdString(npy("<i8", "(1,)", std::string(8, 0)))
                               << "dtype '<i8' is not supported";
    QTest::newRow("big endian") << QByteArray::fromStdString(npy(">f4", "(1,)", std::string(4, 0)))
                                << "not supported";
    QTest::newRow("3d") << QByteArray::fromStdString(npy("<f4", "(1, 1, 1)", std::string(4, 0)))
                        << "3 dimensions";
    QTest::newRow("truncated data")
        << QByteArray::fromStdString(npy("<f4", "(100, 512)", floats({1, 2}))) << "truncated";
    QTest::newRow("huge shape") << QByteArray::fromStdString(
                                       npy("<f4", "(999999999999, 999999999999)", floats({1})))
                                << "truncated";
    QTest::newRow("truncated header")
        << QByteArray("\x93NUMPY\x01\0\xff\x00{'descr'", 18) << "header is truncated";
}

void TestInputs::npyErrors() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    try {
        parseNpy(bytes.toStdString());
        QFAIL("bad npy accepted");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
}

void TestInputs::vocabReads() {
    const auto w = parseVocabJson(R"({"idx_to_word": ["<NULL>", "<START>", "<END>", "cat"],
        "word_to_idx": {"cat": 3, "<END>": 2, "<NULL>": 0, "<START>": 1}})");
    QCOMPARE(w, (std::vector<std::string>{"<NULL>", "<START>", "<END>", "cat"}));
}

void TestInputs::vocabErrors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not json") << "{oops"
                              << "not valid JSON";
    QTest::newRow("no list") << R"({"word_to_idx": {}})"
                             << "lacks \"idx_to_word\"";
    QTest::newRow("wrong type") << R"({"idx_to_word": ["a", 3]})"
                                << "[1] is not a string";
    QTest::newRow("disagree") << R"({"idx_to_word": ["a", "b"], "word_to_idx": {"a": 1, "b": 0}})"
                              << "disagrees";
}

void TestInputs::vocabErrors() {
    QFETCH(QString, json);
    QFETCH(QString, expected);
    try {
        parseVocabJson(json.toStdString());
        QFAIL("bad vocabulary accepted");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
}

void TestInputs::imageFormats() {
    QTemporaryDir dir;
    // Grayscale, paletted, 16-bit and alpha all arrive as RGB bytes of the same size.
    QImage gray(5, 4, QImage::Format_Grayscale8);
    gray.fill(200);
    QImage indexed = gray.convertToFormat(QImage::Format_Indexed8);
    QImage deep(5, 4, QImage::Format_RGBX64);
    deep.fill(QColor(10, 20, 30));
    QImage alpha(5, 4, QImage::Format_ARGB32);
    alpha.fill(Qt::transparent);
    const QList<QPair<QString, QImage>> images = {
        {"gray.png", gray}, {"indexed.png", indexed}, {"deep.png", deep}, {"alpha.png", alpha}};
    for (const auto& [name, img] : images) {
        QVERIFY(img.save(dir.filePath(name)));
        const auto loaded = loadImage(dir.filePath(name));
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.rgb.width, int64_t(5));
        QCOMPARE(loaded.rgb.pixels.size(), size_t(5 * 4 * 3));
    }
    QCOMPARE(int(loadImage(dir.filePath("gray.png")).rgb.pixels[0]), 200);
    QCOMPARE(int(loadImage(dir.filePath("deep.png")).rgb.pixels[2]), 30);
    QCOMPARE(int(loadImage(dir.filePath("alpha.png")).rgb.pixels[1]), 255); // over white
}

void TestInputs::imageErrors() {
    QTemporaryDir dir;
    QCOMPARE(loadImage(dir.filePath("none.png")).error,
             QString("cannot open %1: no such file").arg(dir.filePath("none.png")));
    QImage img(64, 64, QImage::Format_RGB32);
    img.fill(Qt::red);
    QByteArray png;
    QBuffer buf(&png);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, "PNG");
    QFile f(dir.filePath("cut.png"));
    f.open(QIODevice::WriteOnly);
    f.write(png.left(png.size() / 3));
    f.close();
    QVERIFY(loadImage(dir.filePath("cut.png")).error.startsWith("cannot read image"));
}

QTEST_GUILESS_MAIN(TestInputs)
#include "tst_inputs.moc"
