// The shapes world, the trainer and the shipped model.
#include "tests/test_main.h"
#include "tests/test_util.h"

#include "model/api/captioner.h"
#include "model/api/trainer.h"
#include "model/dataset/shapes_data.h"
#include "model/evaluation/evaluation.h"
#include "model/evaluation/robustness.h"
#include "model/io/checkpoint.h"
#include "model/shapes/scene.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>

#include <future>
#include <numeric>

using namespace cl;

class TestShapes : public QObject {
    Q_OBJECT
  private slots:
    void deterministicScenes();
    void objectCurriculumCapsCounts();
    void classicFloorStaysAfterTheRamp();
    void groundTruthAndCaptions();
    void bleuMatchesHandComputed();
    void parseMentions();
    void shippedDefaultModel();
    void suiteJudging_data();
    void suiteJudging();
    void suiteFromAnotherRenderer_data();
    void suiteFromAnotherRenderer();
    void shippedModelOnOtherRenderers_data();
    void shippedModelOnOtherRenderers();
};

void TestShapes::deterministicScenes() {
    // Pinned pixel hashes: a change to the generator or renderer shows up here.
    QCOMPARE(pixelHash(generateScene(1).rgb), PINNED_1);
    QCOMPARE(pixelHash(generateScene(2).rgb), PINNED_2);
    QCOMPARE(pixelHash(generateScene(12345).rgb), PINNED_3);
    // No hidden state: after other scenes, on another thread, seed 1 is still the pinned scene.
    auto later = std::async(std::launch::async, [] {
        generateScene(99);
        return pixelHash(generateScene(1).rgb);
    });
    QCOMPARE(later.get(), PINNED_1);
    QVERIFY(pixelHash(generateScene(7).rgb) != pixelHash(generateScene(8).rgb));
}

void TestShapes::classicFloorStaysAfterTheRamp() {
    TrainOptions o;
    o.steps = 1000;
    o.classicShare = 0.125; // classic only for 125 steps, then the ramp over 125 more
    QCOMPARE(variedShareAt(o, 0), 0.0);
    QCOMPARE(variedShareAt(o, 125), 0.0);
    QCOMPARE(variedShareAt(o, 187), 62.0 / 125.0);
    QCOMPARE(variedShareAt(o, 999), 1.0);
    o.classicFloor = 0.15; // the ramp stops short: 15 % classic scenes to the end
    QCOMPARE(variedShareAt(o, 187), 62.0 / 125.0);
    QCOMPARE(variedShareAt(o, 250), 0.85);
    QCOMPARE(variedShareAt(o, 999), 0.85);
    o.classicShare = 0; // no curriculum: the floor from the first step
    QCOMPARE(variedShareAt(o, 0), 0.85);
}

void TestShapes::objectCurriculumCapsCounts() {
    // The cap keeps each seed's random stream: a capped layout is the uncapped one's first
    // objects, so the curriculum changes how many objects a scene shows, nothing else.
    int three = 0;
    for (uint64_t seed = 0; seed < 200; ++seed) {
        const SceneSpec full = randomSpec(seed);
        three += full.objects.size() == 3;
        for (int cap : {1, 2}) {
            const SceneSpec capped = randomSpec(seed, 128, cap);
            QCOMPARE(int(capped.objects.size()), std::min(cap, int(full.objects.size())));
            for (size_t i = 0; i < capped.objects.size(); ++i) {
                QCOMPARE(capped.objects[i].cx, full.objects[i].cx);
                QCOMPARE(capped.objects[i].cy, full.objects[i].cy);
                QCOMPARE(int(capped.objects[i].shape), int(full.objects[i].shape));
                QCOMPARE(int(capped.objects[i].colour), int(full.objects[i].colour));
            }
        }
    }
    QVERIFY(three > 30);
    // Through the training batches: one object, so <START> a SIZE COLOUR SHAPE <END> each.
    std::vector<uint64_t> seeds(32);
    std::iota(seeds.begin(), seeds.end(), kTrainSeedBase);
    const Vocabulary vocab(shapesVocabulary());
    EncoderConfig input;
    input.letterbox = true;
    QCOMPARE(shapesBatch(seeds, input, vocab, World::Classic, 1.0, 1).captions.size(1), int64_t(6));
    QVERIFY(shapesBatch(seeds, input, vocab, World::Classic, 1.0, 3).captions.size(1) > 6);
}

void TestShapes::groundTruthAndCaptions() {
    int counts[4] = {0, 0, 0, 0};
    for (uint64_t seed = 0; seed < 300; ++seed) {
        const Scene s = generateScene(seed);
        const size_t n = s.spec.objects.size();
        QVERIFY(n >= 1 && n <= 3);
        ++counts[n];
        QCOMPARE(s.captions.size(), n == 1 ? size_t(1) : size_t(2));
        for (const auto& c : s.captions) {
            const auto words = QString::fromStdString(c).split(' ');
            QVERIFY(words.size() < 20);
            QCOMPARE(words.count("a"), int(n));
        }
        for (size_t i = 0; i < n; ++i) {
            const auto& o = s.spec.objects[i];
            const auto& c = s.captions[0];
            QVERIFY(c.find(sizeName(o.size) + " " + colourName(o.colour) + " " +
                           shapeName(o.shape)) != std::string::npos);
            // The mask lies inside the box and is not empty.
            int64_t area = 0;
            const Box b = o.box();
            for (int y = 0; y < 128; ++y)
                for (int x = 0; x < 128; ++x)
                    if (s.masks[i][y * 128 + x]) {
                        ++area;
                        QVERIFY(b.contains(x + 0.5, y + 0.5, 1.0));
                    }
            QVERIFY(area > 40);
        }
        if (n >= 2) {
            const auto order = mentionOrder(s.spec);
            const auto rel = relation(s.spec.objects[order[0]], s.spec.objects[order[1]]);
            QVERIFY(s.captions[0].find(" " + rel + " ") != std::string::npos);
        }
    }
    QVERIFY(counts[1] > 50 && counts[2] > 50 && counts[3] > 50);
}

void TestShapes::bleuMatchesHandComputed() {
    using W = std::vector<std::string>;
    const W ref = {"a", "small", "red", "circle", "left", "of", "a", "large", "blue", "square"};
    QCOMPARE(corpusBleu4({ref}, {{ref}}), 1.0);
    // One word changed: p1 9/10, p2 7/9, p3 6/8, p4 5/7; no brevity penalty.
    W cand = ref;
    cand[8] = "green";
    const double expected =
        std::exp((std::log(0.9) + std::log(7.0 / 9) + std::log(6.0 / 8) + std::log(5.0 / 7)) / 4);
    QVERIFY(std::abs(corpusBleu4({cand}, {{ref}}) - expected) < 1e-12);
    // Shorter candidate: brevity penalty exp(1 - 10/4).
    const W shortCand = {"a", "small", "red", "circle"};
    QVERIFY(std::abs(corpusBleu4({shortCand}, {{ref}}) - std::exp(1 - 10.0 / 4)) < 1e-12);
}

void TestShapes::parseMentions() {
    const auto ms =
        cl::parseMentions({"a", "large", "red", "star", "above", "a", "small", "blue", "circle"});
    QCOMPARE(ms.size(), size_t(2));
    QCOMPARE(ms[1].colour, std::string("blue"));
    QCOMPARE(ms[1].shapeStep, int64_t(8));
}

void TestShapes::shippedDefaultModel() {
    // A real check of the shipped file: held-out scenes, exact match above 90%.
    auto model = Captioner::open(std::string(CL_SOURCE_DIR) + "/resources/models/default.pt");
    EvalOptions o;
    o.scenes = 200;
    const auto r = evaluate(*model, o);
    QVERIFY2(r.exactMatch > 0.90, qPrintable(QString::fromStdString(r.toJson())));
    QVERIFY(r.attributeAccuracy > 0.95);
    // Each kind of error is a scene that is not an exact match (and appears in the JSON).
    for (double e : {r.missed, r.invented, r.wrongAttribute, r.wrongRelation})
        QVERIFY2(e >= 0 && e <= 1 - r.exactMatch + 1e-9, qPrintable(QString::number(e)));
    QVERIFY(QString::fromStdString(r.toJson()).contains("\"errors\": {\"missed\": "));
}

// Scenes drawn by other programs are judged on colours, shapes, the object count and the relation
// in either phrasing; sizes are not judged.
void TestShapes::suiteJudging_data() {
    QTest::addColumn<QString>("caption");
    QTest::addColumn<bool>("right");
    QTest::addColumn<int>("attributesRight");
    QTest::addColumn<QString>("errors"); // missed, invented, wrong attribute, wrong relation
    const auto row = [](const char* tag, const char* caption, bool right, int attributes,
                        const char* errors) {
        QTest::newRow(tag) << caption << right << attributes << QString(errors);
    };
    // Truth: a red circle left of a blue square.
    row("as drawn", "a small red circle left of a large blue square", true, 4, "0 0 0 0");
    row("other phrasing", "a large blue square right of a small red circle", true, 4, "0 0 0 0");
    row("wrong relation", "a small red circle right of a large blue square", false, 4, "0 0 0 1");
    row("circle called a square", "a small red square left of a large blue square", false, 3,
        "0 0 1 0");
    row("hallucinated third",
        "a small red circle left of a large blue square and a small green star", false, 4,
        "0 1 0 0");
    row("one missing", "a small red circle", false, 2, "1 0 0 0");
}

void TestShapes::suiteJudging() {
    QFETCH(QString, caption);
    QFETCH(bool, right);
    QFETCH(int, attributesRight);
    const SuiteScene truth{{{"red", "circle"}, {"blue", "square"}}, "left of"};
    std::vector<std::string> words;
    for (const auto& w : caption.split(' '))
        words.push_back(w.toStdString());
    const auto j = judgeCaption(words, truth);
    // Two objects alike: either relation describes them.
    const SuiteScene twins{{{"red", "circle"}, {"red", "circle"}}, "left of"};
    for (const char* twinCaption : {"a small red circle left of a small red circle",
                                    "a small red circle right of a small red circle"}) {
        std::vector<std::string> t;
        for (const auto& w : QString(twinCaption).split(' '))
            t.push_back(w.toStdString());
        QVERIFY2(judgeCaption(t, twins).right(), twinCaption);
    }
    QCOMPARE(j.right(), right);
    QCOMPARE(j.attributesRight, attributesRight);
    QCOMPARE(j.attributes, 4);
    QFETCH(QString, errors);
    QCOMPARE(QStringLiteral("%1 %2 %3 %4")
                 .arg(j.missed)
                 .arg(j.invented)
                 .arg(int(j.wrongAttribute))
                 .arg(int(j.wrongRelation)),
             errors);
}

// Both other renderers (tests/robust_suite.py with PIL, tests/robust_suite_qt.cpp with QPainter)
// are deterministic per seed, and eval --suite reads what they write.
void TestShapes::suiteFromAnotherRenderer_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("categories");
    const QStringList four{"slide", "paper", "outline", "wide"};
    QTest::newRow("PIL") << QString(CL_PYTHON3)
                         << QStringList{CL_SOURCE_DIR "/tests/robust_suite.py"}
                         << four + QStringList{"lamp"}; // paper under a lamp: issue 38
    QTest::newRow("QPainter") << QString(CL_SUITE_QT) << QStringList{} << four;
}

void TestShapes::suiteFromAnotherRenderer() {
    QFETCH(QString, program);
    QFETCH(QStringList, args);
    CL_REQUIRE(!program.isEmpty(), "/usr/bin/python3 with PIL");
    QTemporaryDir a, b;
    for (const QString& dir : {a.path(), b.path()}) {
        QProcess p;
        p.start(program, args + QStringList{dir, "3", "5"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }
    for (const char* f : {"slide/0002.png", "paper/0001.jpg", "outline/0000.png", "wide/0002.png",
                          "wide/0002.json"})
        QCOMPARE(cltest::readBytes(a.filePath(f).toStdString()),
                 cltest::readBytes(b.filePath(f).toStdString()));
    QProcess cli;
    cli.start(CL_CLI, {"eval", "--checkpoint", CL_SOURCE_DIR "/resources/models/default.pt",
                       "--suite", a.path(), "--json"});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const auto out = cli.readAllStandardOutput();
    QFETCH(QStringList, categories);
    for (const QString& c : categories)
        QVERIFY2(out.contains(('"' + c + '"').toUtf8()), out.constData());
    for (const char* key : {"\"attribute_accuracy\"", "\"invented\""})
        QVERIFY2(out.contains(key), out.constData());
    QVERIFY(out.contains(QStringLiteral("\"scenes\": %1").arg(3 * categories.size()).toUtf8()));
    // --store keeps each suite's figures in the checkpoint under its folder's name.
    const QString copy = a.filePath("copy.pt");
    QVERIFY(QFile::copy(CL_SOURCE_DIR "/resources/models/default.pt", copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
    QJsonObject stored;
    for (const QString& suite : {a.path(), b.path()}) {
        cli.start(CL_CLI, {"eval", "--checkpoint", copy, "--suite", suite, "--store", "--json"});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        stored[QDir(suite).dirName()] =
            QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    }
    // Run inside the folder, --suite . files them under the folder's own name, not ".".
    cli.setWorkingDirectory(b.path());
    cli.start(CL_CLI, {"eval", "--checkpoint", copy, "--suite", ".", "--store", "--json"});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    cli.setWorkingDirectory(QString());
    cli.start(CL_CLI, {"info", copy, "--json"});
    QVERIFY(cli.waitForFinished(60000));
    const auto info = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const auto robustness = info["metadata"].toObject()["robustness"].toObject();
    QCOMPARE(stored.size(), 2);
    for (auto it = stored.begin(); it != stored.end(); ++it) // beside the shipped file's own
        QCOMPARE(robustness[it.key()].toObject(), it.value().toObject());
    QVERIFY(robustness.contains("pil-seed0")); // the shipped suites stay
    QVERIFY(!robustness.contains("."));
    cli.start(CL_CLI, {"info", copy});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.readAllStandardOutput().contains(QStringLiteral("robustness   suite %1: %2 scenes")
                                                      .arg(QDir(a.path()).dirName())
                                                      .arg(3 * categories.size())
                                                      .toUtf8()),
             "info names each stored suite");
}

// A real check of the shipped file on 100 scenes per category from each other renderer (seed 0,
// the suites of the README's table). Floors sit a few points under what the model scores today
// (README: "Robustness"; today 97-100 % right in every category). The out-of-world notice may
// call at most 1 % of the 400 scenes out of world (today 3, all PIL slides with a dark border).
void TestShapes::shippedModelOnOtherRenderers_data() {
    suiteFromAnotherRenderer_data();
}

void TestShapes::shippedModelOnOtherRenderers() {
    QFETCH(QString, program);
    QFETCH(QStringList, args);
    CL_REQUIRE(!program.isEmpty(), "/usr/bin/python3 with PIL");
    QTemporaryDir dir;
    QProcess p;
    const int perCategory = 100;
    p.start(program, args + QStringList{dir.path(), QString::number(perCategory), "0"});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QProcess cli;
    cli.start(CL_CLI, {"eval", "--checkpoint", CL_SOURCE_DIR "/resources/models/default.pt",
                       "--suite", dir.path(), "--json"});
    QVERIFY(cli.waitForFinished(300000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const auto all = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const auto categories = all["categories"].toObject();
    int outOfWorld = 0;
    const QMap<QString, double> floor = {
        {"slide", 0.93}, {"paper", 0.93}, {"outline", 0.92}, {"wide", 0.92}};
    for (auto it = floor.begin(); it != floor.end(); ++it) {
        const auto c = categories[it.key()].toObject();
        const QString why = it.key() + ": " + QJsonDocument(c).toJson(QJsonDocument::Compact);
        QCOMPARE(c["scenes"].toInt(), perCategory);
        QVERIFY2(c["right"].toDouble() >= it.value(), qPrintable(why));
        QVERIFY2(c["attribute_accuracy"].toDouble() >= 0.93, qPrintable(why));
        outOfWorld += c["out_of_world"].toInt();
        // The last layer's head average points into the named object (today 82-93 %; on wide
        // canvases 73-79 %, 26-28 % with the content crop but cells mapped as uncut).
        QVERIFY2(c["pointing_words"].toInt() > perCategory, qPrintable(why));
        const double pointing = it.key() == "wide" ? 0.68 : 0.78;
        QVERIFY2(c["pointing_last_layer_average"].toDouble() >= pointing, qPrintable(why));
    }
    QVERIFY2(outOfWorld <= 4 * perCategory / 100, qPrintable(QString::number(outOfWorld)));
}

CL_TEST_APPLESS_MAIN(TestShapes)
#include "tst_shapes.moc"
