// Feature files, vocabularies and images: good ones read correctly, bad ones give one clear line.
#include "app/common/vocab_json.h"
#include "model/core/files.h"
#include "model/data/npy.h"
#include "model/core/vocabulary.h"
#include "ui/imaging/image_loader.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cstring>
#include <sys/stat.h>
#include <thread>
#include "tests/test_main.h"

using namespace cl;

namespace {

// A version-1 .npy with this header dict (padded as numpy pads it) and data.
std::string npyWithHeader(std::string header, const std::string& data) {
    while ((10 + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY\x01";
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    return out + header + data;
}

std::string npy(const std::string& descr, const std::string& shape, const std::string& data,
                bool fortran = false) {
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    return npyWithHeader(header, data);
}

std::string floats(std::initializer_list<float> v) {
    std::string s(v.size() * 4, '\0');
    std::memcpy(s.data(), std::data(v), s.size());
    return s;
}

uint32_t crc32(const QByteArray& bytes) {
    uint32_t c = 0xffffffffu;
    for (char ch : bytes) {
        c ^= uint8_t(ch);
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

QByteArray be32(uint32_t v) {
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    return QByteArray(b, 4);
}

QByteArray pngChunk(const char* type, const QByteArray& data) {
    const QByteArray body = QByteArray(type) + data;
    return be32(uint32_t(data.size())) + body + be32(crc32(body));
}

// A valid PNG header declaring width x height RGB pixels, with a tiny (incomplete) image body:
// a decompression bomb needs only a few bytes to ask for gigabytes.
QByteArray pngDeclaring(uint32_t width, uint32_t height) {
    QByteArray ihdr = be32(width) + be32(height);
    ihdr += QByteArray("\x08\x02\x00\x00\x00", 5); // 8-bit RGB, no interlace
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) +
           pngChunk("IDAT", QByteArray("\x78\x9c\x03\x00\x00\x00\x00\x01", 8)) +
           pngChunk("IEND", {});
}

// Two 1x1 frames of different colours (palette red and blue): the loader takes the first.
const char kAnimatedGif[] =
    "GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\xff"
    "!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    "!\xf9\x04\x00\x0a\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00"
    "!\xf9\x04\x00\x0a\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02L\x01\x00;";

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
}

} // namespace

class TestInputs : public QObject {
    Q_OBJECT
  private slots:
    void replaceNeverLeavesNoFile();
    void replaceRefusesWhatIsNotAFile();
    void npyReads();
    void npyErrors_data();
    void npyErrors();
    void npyHeaderOfSpacesIsRead();
    void deeplyNestedVocabularyIsRefused();
    void vocabReads();
    void vocabErrors_data();
    void vocabErrors();
    void imageFormats();
    void imageErrors();
    void hostileImages();
    void hugeVocabularyIsRefused();
};

// files::replace (the Train panel's Save, and every atomic write) is one rename: a reader polling
// the path while it is replaced again and again never finds it missing, which the old
// remove-then-rename did between its two calls.
void TestInputs::replaceNeverLeavesNoFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.pt").toStdString();
    files::write(path, "old");
    std::atomic<bool> done{false}, missing{false};
    std::thread reader([&] {
        while (!done)
            if (!files::notRegularReason(path).empty())
                missing = true;
    });
    for (int i = 0; i < 300; ++i) {
        const std::string tmp = path + ".saving";
        files::write(tmp, "new " + std::to_string(i));
        files::replace(tmp, path);
    }
    done = true;
    reader.join();
    QVERIFY(!missing);
    QCOMPARE(files::readRegular(path, 100, "model"), std::string("new 299"));
}

void TestInputs::replaceRefusesWhatIsNotAFile() {
    QTemporaryDir dir;
    const std::string from = dir.filePath("new.pt").toStdString();
    files::write(from, "new");
    const QString fifo = dir.filePath("pipe");
    QCOMPARE(mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, files::replace(from, fifo.toStdString()));
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile()); // left as it was
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, files::replace(from, dir.path().toStdString()));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             files::replace(dir.filePath("none").toStdString(), from));
    QCOMPARE(files::readRegular(from, 10, "model"), std::string("new"));
}

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
    // 'shape' inside another key's string is not the shape (numpy reads the dict, so do we).
    QTest::newRow("shape inside a string")
        << QByteArray::fromStdString(npyWithHeader(
               R"npy({"descr": "'shape': (2,)", 'fortran_order': False, 'shape': (1,), })npy",
               floats({1})))
        << "dtype ''shape': (2,)' is not supported";
}

// Issue 15: a header with a long run of spaces overflowed the stack of the regex parser.
void TestInputs::npyHeaderOfSpacesIsRead() {
    const auto m = parseNpy(npyWithHeader("{'descr': '<f4', " + std::string(40000, ' ') +
                                              "'fortran_order': False, 'shape': (2,), }",
                                          floats({1.5f, 2.5f})));
    QCOMPARE(m.rows, int64_t(1));
    QCOMPARE(m.data, (std::vector<float>{1.5f, 2.5f}));
}

// Issue 15: deeply nested JSON recursed the parser to a crash; refused before parsing.
void TestInputs::deeplyNestedVocabularyIsRefused() {
    const std::string deep =
        "{\"idx_to_word\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    try {
        parseVocabJson(deep);
        QFAIL("a 100,000-deep vocabulary was accepted");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("nests 100001 levels"), e.what());
    }
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
             QString("cannot open image %1: no such file").arg(dir.filePath("none.png")));
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

void TestInputs::hostileImages() {
    QTemporaryDir dir;
    // Zero bytes, and a file that is all header.
    QVERIFY(loadImage(writeFile(dir, "empty.png", {})).error.startsWith("cannot read image"));
    QVERIFY(!loadImage(writeFile(dir, "header.png", QByteArray("\x89PNG\r\n\x1a\n", 8))).ok());
    // A decompression bomb: 60000 x 60000 RGB declared (10 GB decoded) in under 100 bytes. Qt's
    // allocation limit (256 MiB, set by the loader) refuses it before allocating anything.
    const QByteArray bomb = pngDeclaring(60000, 60000);
    QVERIFY(bomb.size() < 100);
    const auto refused = loadImage(writeFile(dir, "bomb.png", bomb));
    QVERIFY2(!refused.ok(), "a decompression bomb decoded");
    QVERIFY(refused.error.startsWith("cannot read image"));
    QVERIFY(!loadImageData(bomb).ok());
    // Declared 0 x 0.
    QVERIFY(!loadImage(writeFile(dir, "zero.png", pngDeclaring(0, 0))).ok());
    // Animated GIF: the first frame is the image.
    const auto gif =
        loadImage(writeFile(dir, "anim.gif", QByteArray(kAnimatedGif, sizeof kAnimatedGif - 1)));
    QVERIFY2(gif.ok(), qPrintable(gif.error));
    QCOMPARE(gif.rgb.width, int64_t(1));
    QImageReader frames(dir.filePath("anim.gif"));
    const QColor first = frames.read().pixelColor(0, 0), second = frames.read().pixelColor(0, 0);
    QVERIFY(first != second);
    QCOMPARE(QColor(gif.rgb.pixels[0], gif.rgb.pixels[1], gif.rgb.pixels[2]), first);
    // A JPEG cut in half: either a clean error or an image of the declared size, never a crash.
    QImage photo(96, 64, QImage::Format_RGB32);
    photo.fill(QColor(30, 120, 200));
    QByteArray jpeg;
    QBuffer buf(&jpeg);
    buf.open(QIODevice::WriteOnly);
    QVERIFY(photo.save(&buf, "JPEG"));
    const auto cut = loadImage(writeFile(dir, "cut.jpg", jpeg.left(jpeg.size() / 2)));
    QVERIFY(cut.ok() ? cut.rgb.width == 96 && cut.rgb.height == 64
                     : cut.error.startsWith("cannot read image"));
    // Every prefix of a PNG: no crash, and a short one is an error.
    QByteArray png;
    QBuffer pbuf(&png);
    pbuf.open(QIODevice::WriteOnly);
    QVERIFY(photo.save(&pbuf, "PNG"));
    for (int n = 0; n < png.size(); n += 7) {
        const auto r = loadImageData(png.left(n));
        QVERIFY(!r.ok() || (r.rgb.width == 96 && r.rgb.height == 64));
    }
    QVERIFY(loadImageData(png).ok());
}

void TestInputs::hugeVocabularyIsRefused() {
    QTemporaryDir dir;
    QFile f(dir.filePath("huge.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(65 << 20)); // sparse: 65 MiB without writing them
    f.close();
    try {
        readVocabJson(f.fileName().toStdString());
        QFAIL("a 65 MiB vocabulary was read");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("over the 16 MiB a vocabulary may have"), e.what());
    }
    // Duplicates and missing special tokens reach the Vocabulary's own checks.
    QVERIFY_THROWS_EXCEPTION(
        std::exception, Vocabulary(parseVocabJson(R"({"idx_to_word": ["<NULL>", "a", "a"]})")));
}

CL_TEST_GUILESS_MAIN(TestInputs)
#include "tst_inputs.moc"
