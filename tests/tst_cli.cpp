// captionlens-cli end to end: import a course state_dict, caption feature rows as Python's greedy
// decode does, print JSON with attention, and fail with one readable line on bad input.
#include "tests/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include "tests/test_main.h"

namespace {

using Run = cltest::CliRun;

Run cli(const QStringList& args) {
    return cltest::runCli(args);
}

QString data(const char* name) {
    return QString(CL_TEST_DATA) + "/" + name;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void captionsLikePython();
    void imports2025Layout();
    void jsonWithAttention();
    void forcePrefix();
    void info();
    void errors_data();
    void errors();
    void fuzzFindingsStayBounded_data();
    void fuzzFindingsStayBounded();
    void outOfWorldOnNamedImages();
    void trainUntilExact();
    void trainGridSide();

  private:
    QTemporaryDir m_dir;
    QString m_ck, m_npy;
};

void TestCli::initTestCase() {
    m_ck = m_dir.filePath("tiny.pt");
    const auto r = cli({"import-cs231n", data("course_2021.pt"), "--vocab", data("tiny_vocab.json"),
                        "--heads", "2", "-o", m_ck});
    QVERIFY2(r.code == 0, r.err.constData());
    // The golden's three feature rows, as a float32 .npy written by Python.
    m_npy = m_dir.filePath("features.npy");
    QProcess py;
    py.start(CL_PYTHON3, {"-c",
                          "import sys, numpy, torch; numpy.save(sys.argv[2], "
                          "torch.load(sys.argv[1])['features'].numpy())",
                          data("golden_2021.pt"), m_npy});
    QVERIFY(py.waitForFinished(120000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
}

void TestCli::captionsLikePython() {
    // tests/reference.py's sample() gave [4 4 6 6 ...], [4 4 4 ...], [4 4 6 ...]: the same words.
    const auto r =
        cli({"caption", "--checkpoint", m_ck, "--features", m_npy, "--max-length", "10"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto lines = QString(r.out).trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QString("a a blue blue blue blue blue blue blue blue"));
    QCOMPARE(lines[1], QString("a a a a a a a a blue a"));
    const auto one = cli(
        {"caption", "--checkpoint", m_ck, "--features", m_npy, "--row", "1", "--max-length", "10"});
    QCOMPARE(QString(one.out).trimmed(), lines[1]);
}

void TestCli::imports2025Layout() {
    // The 2025 layout (cross_attn, ffn.fc1/2, GELU) through import-cs231n --layout auto: the same
    // token ids as tests/reference.py's sample() on the golden's first feature row.
    const QString ck = m_dir.filePath("tiny2025.pt"), npy = m_dir.filePath("f2025.npy");
    auto r = cli(
        {"import-cs231n", data("course_2025.pt"), "--vocab", data("tiny_vocab.json"), "-o", ck});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.contains("layout 2025"));
    QProcess py;
    py.start(CL_PYTHON3, {"-c",
                          "import sys, numpy, torch; numpy.save(sys.argv[2], "
                          "torch.load(sys.argv[1])['features'].numpy())",
                          data("golden_2025.pt"), npy});
    QVERIFY(py.waitForFinished(120000));
    r = cli({"caption", "--checkpoint", ck, "--features", npy, "--row", "0", "--max-length", "10",
             "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto json = QJsonDocument::fromJson(r.out).object();
    // A feature model cannot tell whether its input is out of world: false, and no score.
    QCOMPARE(json["out_of_world"], QJsonValue(false));
    QVERIFY(json.contains("world_score") && json["world_score"].isNull());
    const auto ids = json["token_ids"].toArray();
    const QList<int> expected = {10, 10, 10, 9, 10, 9, 0, 0, 0, 0};
    QCOMPARE(ids.size(), expected.size());
    for (int i = 0; i < ids.size(); ++i)
        QCOMPARE(ids[i].toInt(), expected[i]);
}

void TestCli::jsonWithAttention() {
    const auto r = cli({"caption", "--checkpoint", m_ck, "--features", m_npy, "--row", "0",
                        "--max-length", "4", "--top-k", "3", "--json", "--attention"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["tokens"].toArray().size(), 4);
    QCOMPARE(j["token_ids"].toArray()[0].toInt(), 4);
    const auto step = j["steps"].toArray()[0].toObject();
    QCOMPARE(step["top_k"].toArray().size(), 3);
    QCOMPARE(step["top_k"].toArray()[0].toObject()["token"].toString(), step["token"].toString());
    const auto self = j["self_attention"].toArray(); // [layer][head][T][T]
    QCOMPARE(self.size(), 2);
    const auto rows = self[1].toArray()[1].toArray();
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[0].toArray()[1].toDouble(), 0.0); // causal mask
    double sum = 0;
    for (const auto v : rows[3].toArray())
        sum += v.toDouble();
    QVERIFY(std::abs(sum - 1.0) < 1e-5);
    const auto cross = j["cross_attention"].toArray()[0].toArray()[0].toArray();
    QCOMPARE(cross.size(), 4);
    QCOMPARE(cross[2].toArray()[0].toDouble(), 1.0); // one memory token: trivially 1
}

void TestCli::forcePrefix() {
    const auto r = cli({"caption", "--checkpoint", m_ck, "--features", m_npy, "--row", "0",
                        "--max-length", "5", "--force-prefix", "red square", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["tokens"].toArray()[0].toString(), QString("red"));
    QCOMPARE(j["tokens"].toArray()[1].toString(), QString("square"));
    QVERIFY(j["steps"].toArray()[1].toObject()["forced"].toBool());
    QVERIFY(!j["steps"].toArray()[2].toObject()["forced"].toBool());
}

void TestCli::info() {
    const auto r = cli({"info", m_ck});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.contains("heads        2"));
    QVERIFY(r.out.contains("vocabulary   12 words"));
}

void TestCli::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing checkpoint")
        << QStringList{"caption", "--checkpoint", "/nonexistent.pt", "x.png"} << "no such file";
    QTest::newRow("bare state_dict")
        << QStringList{"caption", "--checkpoint", data("course_2021.pt"), "x.png"}
        << "import-cs231n";
    QTest::newRow("wrong heads") << QStringList{"import-cs231n",
                                                data("course_2021.pt"),
                                                "--vocab",
                                                data("tiny_vocab.json"),
                                                "--heads",
                                                "3",
                                                "-o",
                                                "/tmp/never.pt"}
                                 << "--heads 3 does not divide the width 16";
    // Refused before training (it failed at the first step on a tensor shape mismatch).
    QTest::newRow("image size off the grid")
        << QStringList{"train", "--steps", "1", "--image-size", "48", "-o", "/tmp/never.pt"}
        << "encoder image size 48 is not the grid (8) times a power of two";
    QTest::newRow("grid of one cell")
        << QStringList{"train", "--steps", "1", "--grid", "1", "-o", "/tmp/never.pt"} << "--grid";
    QTest::newRow("bad row") << QStringList{"caption", "--checkpoint", "CK", "--features",
                                            "NPY",     "--row",        "9"}
                             << "--row 9 is outside the 3 rows";
    QTest::newRow("image to feature model")
        << QStringList{"caption", "--checkpoint", "CK", data("tiny_vocab.json")}
        << "cannot read image";
    QTest::newRow("unknown word") << QStringList{"caption", "--checkpoint",   "CK",   "--features",
                                                 "NPY",     "--force-prefix", "zebra"}
                                  << "'zebra' is not in the vocabulary";
    // Issue 15: a zero divided by zero, a NaN learning rate wrote NaN weights, a million
    // threads were started.
    QTest::newRow("save every 0") << QStringList{"train", "--steps",      "2", "--save-every", "0",
                                                 "-o",    "/tmp/never.pt"}
                                  << "--save-every";
    QTest::newRow("nan learning rate")
        << QStringList{"train", "--steps", "2", "--lr", "nan", "-o", "/tmp/never.pt"} << "--lr";
    QTest::newRow("a million threads")
        << QStringList{"--threads", "1000000", "info", "CK"} << "--threads";
}

void TestCli::errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    args.replaceInStrings("CK", m_ck);
    args.replaceInStrings("NPY", m_npy);
    const auto r = cli(args);
    QVERIFY(r.code != 0);
    QVERIFY(r.code != -1); // no crash
    const auto err = QString(r.err).trimmed();
    QVERIFY2(err.contains(expected), qPrintable(err));
    QVERIFY2(!err.contains('\n'), qPrintable(err));
    QVERIFY(err.startsWith("captionlens-cli: error: "));
}

// Inputs libFuzzer found (tests/fuzz/fuzz_image): tiny GIFs whose logical screen declares tens
// of millions of pixels, just under Qt's 256 MiB allocation limit. They once took 2 GB and
// seconds to caption; now the preprocessing works band by band. Each must caption (or fail
// cleanly) and, outside sanitizer builds, stay under 1.2 GB of resident memory.
void TestCli::fuzzFindingsStayBounded_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("gif 65535x1023 (was out-of-memory)")
        << QByteArray("GIF89a\xff\xff\xff\x03\x80\x00\x00\xff\xff\xff\x00\x00\x00\x21\xf9"
                      "\x04\x01\x00\x00\x00\x00\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00"
                      "\x02\x02\x44\x01\x00\x3b",
                      43);
    QTest::newRow("gif 513x65377, empty frame (slow under load)") << QByteArray(
        "\x47\x49\x46\x38\x39\x61\x01\x02\x61\xff\x00\x00\x00\x21\xf9\x04\x01\x00\x00\x00\x00\x2c"
        "\x00\x00\x00\x00\x00\x00\x00\x0e\x61\x00\x02\xfe\xbb\x01\x00\x3b",
        38);
    QTest::newRow("gif 513x18177 (was timeout)")
        << QByteArray("GIF89a\x01\x02\x01\x47\xb0\x46\x38\x37\x61\xff\x00\x00\x00\x21\xf9"
                      "\x04\x01\x00\x00\x00\x00\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00"
                      "\x00\x0f\x61\x00\x02\xfe\xbb\x01\x00\x3b",
                      47);
}

void TestCli::fuzzFindingsStayBounded() {
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    QFile f(dir.filePath("finding.gif"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    const auto r = cli({"--threads", "1", "caption", "--checkpoint",
                        CL_SOURCE_DIR "/resources/models/default.pt", f.fileName()});
    QVERIFY(r.code != -1); // no crash, no hang (cli() waits at most 120 s)
    QVERIFY2(r.code == 0 || QString(r.err).startsWith("captionlens-cli: error: "), r.err.data());
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CL_NO_RSS_BOUND
#endif
#endif
#ifndef CL_NO_RSS_BOUND
    rusage children{};
    getrusage(RUSAGE_CHILDREN, &children); // the largest child so far
    QVERIFY2(children.ru_maxrss < 1200 * 1024, qPrintable(QString::number(children.ru_maxrss)));
#endif
}

// The shipped model's out-of-world notice on named images of each kind (tests/golden/world:
// uniform noise, a colour gradient, two crops of a photograph from the Rust embedded book, a
// rendered page of text), and none on scenes of its training world; every object carries the
// flag and its score.
void TestCli::outOfWorldOnNamedImages() {
    const QString model = CL_SOURCE_DIR "/resources/models/default.pt";
    QStringList images;
    for (const char* name :
         {"noise.png", "gradient.png", "photo-closeup.jpg", "photo-board.jpg", "text.png",
          "text-large.png"})
        images << data("world/") + name;
    auto r = cli(QStringList{"caption", "--checkpoint", model, "--json"} + images);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.err.contains("looks unlike anything the model was trained on"));
    const auto lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), images.size());
    for (const auto& line : lines) {
        const auto o = QJsonDocument::fromJson(line).object();
        QVERIFY2(o["out_of_world"].toBool() && o["world_score"].toDouble() > 1, line.constData());
        QVERIFY2(QStringList({"features", "sentence", "colour"})
                     .contains(o["world_reason"].toString()),
                 line.constData());
    }
    // Large black text: the encoder's statistics score it near the line (0.94 with the first
    // varied-world model, 1.15 today), and its caption names colours the page does not hold.
    const auto text = QJsonDocument::fromJson(lines.last()).object();
    QCOMPARE(text["world_reason"].toString(), QString("colour"));
    QVERIFY(!text["world_colour"].toString().isEmpty());
    QVERIFY(r.err.contains("but the image holds no"));
    // A caption the user forced words into is the user's, not evidence about the image.
    r = cli({"caption", "--checkpoint", model, "--json", "--force-prefix", "a",
             data("world/text-large.png")});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto forced = QJsonDocument::fromJson(r.out.trimmed()).object();
    QVERIFY2(forced["world_reason"].toString() != "colour" &&
                 forced["world_reason"].toString() != "sentence",
             r.out.constData());
    QStringList scenes;
    for (int seed = 1; seed <= 8; ++seed) {
        scenes << m_dir.filePath(QString("varied%1.png").arg(seed));
        QCOMPARE(cli({"scene", "--seed", QString::number(seed), "--world", "varied", "-o",
                      scenes.back()})
                     .code,
                 0);
    }
    r = cli(QStringList{"caption", "--checkpoint", model, "--json"} + scenes);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.err.isEmpty());
    for (const auto& line : r.out.trimmed().split('\n')) {
        const auto o = QJsonDocument::fromJson(line).object();
        QVERIFY2(!o["out_of_world"].toBool() && o["world_score"].toDouble() < 1, line.constData());
    }
}

// Time to quality (issue 17): the run evaluates after each save and stops at the target.
void TestCli::trainUntilExact() {
    const QString out = m_dir.filePath("quality.pt");
    const QStringList tiny{"train", "--batch", "2", "--heads", "2", "--layers", "1", "--width",
                           "32", "--ffn", "64", "--calibration-scenes", "64", "--eval-every", "10",
                           "--eval-scenes", "4", "-o", out};
    // A target every model meets: the first evaluation ends the run, as a final model.
    const Run met = cli(tiny + QStringList{"--steps", "30", "--until-exact", "0"});
    QVERIFY2(met.code == 0, met.err.constData());
    QVERIFY(met.out.contains("step 10: exact match"));
    QVERIFY(!met.out.contains("step 20:"));
    QVERIFY2(met.out.contains("time to quality: exact match") && met.out.contains("after 10 steps"),
             met.out.constData());
    const Run info = cli({"info", out, "--json"});
    const auto j = QJsonDocument::fromJson(info.out).object();
    QCOMPARE(j["metadata"].toObject()["steps"].toInt(), 10);
    QVERIFY(j["world_check"].toBool()); // written again as a final, calibrated model
    // A target no model meets in 20 steps: the run goes to its end and says so.
    const Run missed = cli(tiny + QStringList{"--steps", "20", "--until-exact", "1"});
    QVERIFY2(missed.code == 0, missed.err.constData());
    QVERIFY(missed.out.contains("step 10:") && missed.out.contains("step 20:"));
    QVERIFY2(missed.out.contains("did not reach 100.0% within 20 steps"), missed.out.constData());
    // --eval-every alone: one line.
    const Run alone = cli({"train", "--steps", "2", "--eval-every", "1", "-o", out});
    QVERIFY(alone.code != 0);
    QVERIFY(alone.err.contains("--until-exact"));
    QCOMPARE(alone.err.count('\n'), 1);
}

// The image grid's side is a choice of the recipe: a finer grid of image tokens (issue 38).
void TestCli::trainGridSide() {
    const QString out = m_dir.filePath("grid.pt");
    const Run run = cli({"train", "--steps", "1", "--batch", "2", "--heads", "2", "--layers", "1",
                         "--width", "32", "--ffn", "64", "--calibration-scenes", "0", "--grid",
                         "6", "--image-size", "48", "-o", out});
    QVERIFY2(run.code == 0, run.err.constData());
    const auto j = QJsonDocument::fromJson(cli({"info", out, "--json"}).out).object();
    const auto encoder = j["config"].toObject()["encoder"].toObject();
    QCOMPARE(encoder["grid"].toInt(), 6);
    QCOMPARE(encoder["image_size"].toInt(), 48);
    const QString image = m_dir.filePath("scene.png");
    QCOMPARE(cli({"scene", "--seed", "3", "-o", image}).code, 0);
    const Run caption = cli({"caption", "--checkpoint", out, "--json", "--attention", image});
    QVERIFY2(caption.code == 0, caption.err.constData());
    const auto traced = QJsonDocument::fromJson(caption.out.split('\n').first()).object();
    QCOMPARE(traced["grid"].toArray().first().toInt(), 6);
}

CL_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
