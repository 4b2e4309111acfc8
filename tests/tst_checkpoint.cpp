// Checkpoint files: our format round-trips in C++ and through Python's torch.load; course
// state_dicts of both layouts import; every kind of bad file is a clear error.
#include "tests/test_util.h"
#include "tests/tiny_training.h"

#include "model/api/captioner.h"
#include "model/api/trainer.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"
#include "model/io/pickle_archive.h"
#include "model/io/pickle_reader.h"
#include "model/nn/image_encoder.h"
#include "model/novelty/world_stats.h"
#include "model/train/smoothed_loss.h"

#include <QProcess>
#include <QTemporaryDir>

#include "tests/test_main.h"
#include <fstream>
#include <functional>

using namespace cl;
using namespace std::string_literals; // the pickles below hold NUL bytes

namespace {

const std::vector<std::string> kWords = {"<NULL>", "<START>", "<END>",  "<UNK>", "a",  "red",
                                         "blue",   "circle",  "square", "left",  "of", "right"};

Checkpoint imported(const std::string& layout, int64_t heads = 2) {
    Checkpoint ck;
    ck.stateDict = readStateDict(cltest::dataPath(("course_" + layout + ".pt").c_str()));
    ck.config = courseConfig(ck.stateDict, 12, heads, detectLayout(ck.stateDict));
    ck.vocab = kWords;
    ck.meta.steps = 42;
    ck.meta.dataset = "tiny";
    return ck;
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
}

} // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT
  private slots:
    void smoothedLossIsDebiased();
    void init() { QVERIFY(m_dir.isValid()); }
    void roundTripInCpp();
    void deeplyNestedEvalIsRefused();
    void importBothLayouts_data();
    void importBothLayouts();
    void roundTripThroughPython();
    void badFiles_data();
    void badFiles();
    void badConfigs();
    void nonFiniteWeightsLoadWithAWarning();
    void integerWeightsAreRefused();
    void duplicatedZipEntriesAreRefused();
    void damagedWorldStatsCostTheNoticeOnly();
    void deadChannelCountsAFewUnits();
    void initStartsFromAnotherGridsWeights();
    void initAddsTheScaleCue();

  private:
    std::string path(const char* name) const { return (m_dir.path() + "/" + name).toStdString(); }
    QTemporaryDir m_dir;
};

void TestCheckpoint::roundTripInCpp() {
    const auto ck = imported("2021");
    writeCheckpoint(path("a.pt"), ck);
    const auto back = readCheckpoint(path("a.pt"));
    QCOMPARE(back.vocab, kWords);
    QCOMPARE(back.config.numHeads, int64_t(2));
    QCOMPARE(back.config.numLayers, int64_t(2));
    QCOMPARE(back.meta.steps, int64_t(42));
    QCOMPARE(back.stateDict.size(), ck.stateDict.size());
    for (size_t i = 0; i < ck.stateDict.size(); ++i) {
        QCOMPARE(back.stateDict[i].first, ck.stateDict[i].first);
        QVERIFY(torch::equal(back.stateDict[i].second, ck.stateDict[i].second));
    }
}

// Issue 15: `info --json` parsed a checkpoint's stored eval JSON recursively; 100,000 levels of
// nesting crashed it. Now one readable line, exit 1.
void TestCheckpoint::deeplyNestedEvalIsRefused() {
    auto ck = imported("2021");
    ck.meta.evalJson = std::string(100000, '[') + std::string(100000, ']');
    writeCheckpoint(path("deep.pt"), ck);
    QProcess cli;
    cli.start(CL_CLI, {"info", "--json", QString::fromStdString(path("deep.pt"))});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit); // no crash
    QCOMPARE(cli.exitCode(), 1);
    const QString err = cli.readAllStandardError().trimmed();
    QVERIFY2(err.startsWith("captionlens-cli: error:") && err.contains("nests 100000 levels") &&
                 !err.contains('\n'),
             qPrintable(err));
}

void TestCheckpoint::importBothLayouts_data() {
    QTest::addColumn<QString>("layout");
    QTest::newRow("2021") << "2021";
    QTest::newRow("2025") << "2025";
}

void TestCheckpoint::importBothLayouts() {
    QFETCH(QString, layout);
    const auto ck = imported(layout.toStdString());
    QCOMPARE(layoutName(ck.config.layout), layout.toStdString());
    QCOMPARE(ck.config.wordvecDim, int64_t(16));
    QCOMPARE(ck.config.inputDim, int64_t(10));
    QCOMPARE(ck.config.ffnDim, int64_t(32));
    QCOMPARE(ck.config.maxLength, int64_t(12));
    auto model = buildModel(ck, 0);
    QCOMPARE(stateDictOf(*model).size(), ck.stateDict.size());
}

void TestCheckpoint::roundTripThroughPython() {
    auto ck = imported("2025");
    writeCheckpoint(path("ours.pt"), ck);
    QProcess py;
    py.start(CL_PYTHON3,
             {QString(CL_SOURCE_DIR) + "/tests/roundtrip.py",
              QString::fromStdString(path("ours.pt")), QString::fromStdString(path("back.pt"))});
    QVERIFY(py.waitForFinished(120000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    QCOMPARE(py.readAllStandardOutput().trimmed(), QByteArray("captionlens-checkpoint 1 2 58 42"));
    // Python wrote an OrderedDict state_dict with every tensor doubled.
    const auto back = readStateDict(path("back.pt"));
    QCOMPARE(back.size(), ck.stateDict.size());
    for (size_t i = 0; i < back.size(); ++i) {
        QCOMPARE(back[i].first, ck.stateDict[i].first);
        QVERIFY(torch::allclose(back[i].second, ck.stateDict[i].second * 2.0));
    }
}

void TestCheckpoint::badFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const std::string good = cltest::readBytes(cltest::dataPath("course_2021.pt"));
    QTest::newRow("empty") << QByteArray() << "the file is empty";
    QTest::newRow("random bytes") << QByteArray("\x13\x37 this is not a checkpoint at all", 33)
                                  << "not a PyTorch zip checkpoint";
    QTest::newRow("truncated") << QByteArray::fromStdString(good.substr(0, good.size() / 2))
                               << "damaged zip archive";
    QTest::newRow("legacy pickle") // how to re-save it, also for PyTorch 1.13's legacy option
        << QByteArray("\x80\x02\x8a\x0a", 4)
        << "re-save it in the zip format: torch.save(torch.load(";
    QTest::newRow("zip without pickle")
        << QByteArray::fromStdString(cltest::zipWith({{"version", "3\n"}})) << "has no data.pkl";
    QTest::newRow("foreign global")
        << QByteArray::fromStdString(cltest::zipWith({{"data.pkl", "\x80\x02"
                                                                   "cos\nsystem\n(X\x02\0\0\0lst"
                                                                   "R."s}}))
        << "refusing to load: the file references os.system";
    QTest::newRow("builtins eval")
        << QByteArray::fromStdString(cltest::zipWith({{"data.pkl", "\x80\x04\x8c\x08"
                                                                   "builtins\x8c\x04"
                                                                   "eval\x93."s}}))
        << "references builtins.eval";
    QTest::newRow("unknown opcode")
        << QByteArray::fromStdString(cltest::zipWith({{"data.pkl", "\x80\x02I12\n."s}}))
        << "pickle opcode 0x49";
    QTest::newRow("truncated pickle")
        << QByteArray::fromStdString(cltest::zipWith({{"data.pkl", "\x80\x02X\xff\0\0\0ab"s}}))
        << "pickle is truncated";
    QTest::newRow("storage larger than record")
        << QByteArray::fromStdString(cltest::zipWith(
               {{"data.pkl", "\x80\x02"
                             "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\0\0\0storage"
                             "ctorch\nFloatStorage\nX\x01\0\0\0"
                             "0X\x03\0\0\0cpuK\x10tQK\0K\x10\x85"
                             "K\x01\x85\x89)tR."s},
                {"data/0", std::string(8, '\0')}}))
        << "holds 8 bytes but 64 are declared";
    QTest::newRow("view beyond storage")
        << QByteArray::fromStdString(cltest::zipWith(
               {{"data.pkl", "\x80\x02"
                             "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\0\0\0storage"
                             "ctorch\nFloatStorage\nX\x01\0\0\0"
                             "0X\x03\0\0\0cpuK\x02tQK\0K\x10\x85"
                             "K\x01\x85\x89)tR."s},
                {"data/0", std::string(8, '\0')}}))
        << "reaches element 15 of a storage holding 2";
    QTest::newRow("unsupported dtype")
        << QByteArray::fromStdString(cltest::zipWith(
               {{"data.pkl", "\x80\x02"
                             "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\0\0\0storage"
                             "ctorch\nComplexFloatStorage\nX\x01\0\0\0"
                             "0X\x03\0\0\0cpuK\x02tQK\0K\x02\x85"
                             "K\x01\x85\x89)tR."s},
                {"data/0", std::string(16, '\0')}}))
        << "ComplexFloatStorage";
    // 100,000 nested empty lists: "(((((...": the reader's depth bound, not the C++ stack.
    QTest::newRow("recursion bomb")
        << QByteArray::fromStdString(
               cltest::zipWith({{"data.pkl", "\x80\x02" + std::string(100000, ']') + "."}}))
        << "";
    QTest::newRow("deep marks") << QByteArray::fromStdString(cltest::zipWith(
                                       {{"data.pkl", "\x80\x02" + std::string(100000, '(') + "."}}))
                                << "";
}

void TestCheckpoint::badFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    writeBytes(path("bad.pt"), bytes.toStdString());
    try {
        readStateDict(path("bad.pt"));
        QFAIL("a bad file loaded");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
        QVERIFY2(!QString(e.what()).contains('\n'), "the message should be one line");
    }
}

void TestCheckpoint::badConfigs() {
    auto expectError = [](const std::function<void()>& f, const QString& text) {
        try {
            f();
        } catch (const std::exception& e) {
            QVERIFY2(QString(e.what()).contains(text), e.what());
            return;
        }
        QFAIL(qPrintable("no error; expected: " + text));
    };
    const auto sd = readStateDict(cltest::dataPath("course_2021.pt"));
    expectError([&] { courseConfig(sd, 12, 3, Layout::Course2021); },
                "--heads 3 does not divide the width 16");
    expectError([&] { courseConfig(sd, 1004, 2, Layout::Course2021); },
                "embedding.weight has 12 rows but the vocabulary has 1004 words");
    expectError([&] { Vocabulary(std::vector<std::string>{}); }, "vocabulary is empty");
    expectError(
        [&] {
            Vocabulary(std::vector<std::string>{"a", "b"});
        },
        "lacks the special token <NULL>");
    auto ck = imported("2021");
    ck.stateDict.erase(ck.stateDict.begin() + 10); // drop a key
    expectError([&] { buildModel(ck, 0); }, "lacks the key");
    ck = imported("2021");
    ck.stateDict[0].second = torch::zeros({10, 16});
    expectError([&] { buildModel(ck, 0); },
                "visual_projection.weight has shape [10, 16] but the model expects [16, 10]");
    // A config the tensors do not bear out is refused before any model is built.
    ck.stateDict[0].second = torch::zeros({3, 3});
    expectError([&] { buildModel(ck, 0); }, "config says input_dim 10, but none of its tensors");
    ck = imported("2021");
    ck.config.numLayers = 3;
    expectError([&] { buildModel(ck, 0); }, "config says 3 layers, but its tensors hold 2");
    // Our format: a config whose head count does not divide the width is refused on open.
    ck = imported("2021");
    ck.config.numHeads = 2;
    writeCheckpoint(path("h.pt"), ck);
    auto root = pickle::loadFile(path("h.pt"));
    for (auto& [k, v] : *root.find("config")->pairs)
        if (k.s == "num_heads")
            v = pickle::Value::integer(5);
    pickle::saveFile(path("h5.pt"), root);
    expectError([&] { Captioner::open(path("h5.pt")); },
                "head count 5 does not divide the width 16");
    expectError([&] { Captioner::open(path("missing.pt")); }, "no such file");
    expectError([&] { Captioner::open(cltest::dataPath("course_2021.pt")); },
                "bare course state_dict; convert it first");
}

void TestCheckpoint::nonFiniteWeightsLoadWithAWarning() {
    auto ck = imported("2021");
    auto& w = ck.stateDict[0].second;
    w = w.clone();
    w[0][0] = std::nanf("");
    w[1][1] = INFINITY;
    writeCheckpoint(path("nan.pt"), ck);
    const auto model = Captioner::open(path("nan.pt")); // loads: the user may want to see why
    const auto& warnings = model->info().warnings;
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY(QString::fromStdString(warnings[0])
                .contains(QString::fromStdString(ck.stateDict[0].first +
                                                 " holds NaN or infinite values")));
    const auto clean = Captioner::open(CL_SOURCE_DIR "/resources/models/default.pt");
    QVERIFY(clean->info().warnings.empty());
}

void TestCheckpoint::integerWeightsAreRefused() {
    auto ck = imported("2021");
    ck.stateDict[3].second = ck.stateDict[3].second.to(torch::kLong);
    writeCheckpoint(path("int.pt"), ck);
    try {
        Captioner::open(path("int.pt"));
        QFAIL("integer weights accepted");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("holds Long values, not floating point"), e.what());
    }
}

void TestCheckpoint::duplicatedZipEntriesAreRefused() {
    // Two records named data.pkl (the writer refuses that, so the second name is patched in):
    // a zip reader may pick either; the load must end in a clean error or one consistent value.
    std::string twice =
        cltest::zipWith({{"data.pkl", "\x80\x02}."s}, {"data.pkx", "\x80\x02K\x02."s}});
    for (size_t at = twice.find("data.pkx"); at != std::string::npos; at = twice.find("data.pkx"))
        twice.replace(at, 8, "data.pkl");
    writeBytes(path("dup.pt"), twice);
    try {
        readStateDict(path("dup.pt"));
        QFAIL("an empty state_dict loaded");
    } catch (const std::exception& e) {
        QVERIFY2(!QString(e.what()).contains('\n'), e.what());
        QVERIFY2(QString(e.what()).contains("two records named archive/data.pkl"), e.what());
    }
}

// A checkpoint whose out-of-world statistics are damaged (a wrong shape, a NaN threshold, a key
// this version does not know, statistics of another encoder) still captions, with a warning and no
// notice; intact ones check.
void TestCheckpoint::damagedWorldStatsCostTheNoticeOnly() {
    TrainOptions o;
    o.steps = 2;
    o.batch = 4;
    o.width = 16;
    o.ffn = 32;
    o.heads = 2;
    o.layers = 1;
    o.encoderChannels = 8;
    o.calibrationScenes = 64;
    o.out = path("world.pt");
    trainShapes(o);
    const Checkpoint good = readCheckpoint(o.out);
    QCOMPARE(good.worldStats.size(), size_t(6 * 4)); // 4 encoder layers, 6 entries each
    RgbImage image;
    image.width = image.height = 32;
    image.pixels.assign(32 * 32 * 3, 200);
    {
        auto model = Captioner::open(o.out);
        QVERIFY(model->info().worldCalibrated);
        QVERIFY(model->info().warnings.empty());
        QVERIFY(model->captionImages({image}, DecodeOptions{}).front().worldChecked);
    }
    const std::vector<std::function<void(StateDict&)>> damage = {
        [](StateDict& d) { d[0].second = torch::zeros({3}); },
        [](StateDict& d) {
            for (auto& [k, t] : d)
                if (k == "0.threshold")
                    t = torch::full({1}, NAN);
        },
        [](StateDict& d) {
            d.push_back({"0.extra", torch::zeros({1})});
        },
        [](StateDict& d) { d.resize(d.size() - 6); }, // whole, but one encoder layer short
    };
    for (const auto& hurt : damage) {
        Checkpoint bad = good;
        hurt(bad.worldStats);
        writeCheckpoint(path("bad.pt"), bad);
        auto model = Captioner::open(path("bad.pt"));
        QVERIFY(!model->info().worldCalibrated);
        QCOMPARE(model->info().warnings.size(), size_t(1));
        QVERIFY2(model->info().warnings[0].find("out-of-world statistics are unusable") !=
                     std::string::npos,
                 model->info().warnings[0].c_str());
        const auto trace = model->captionImages({image}, DecodeOptions{}).front();
        QVERIFY(!trace.worldChecked && !trace.outOfWorld() && !trace.steps.empty());
    }
}

// A number that never varied on the fitting scenes (a ReLU channel dead on all of them) and
// fires faintly on a new image moves both distances by a few units, not by thousands: the old
// floor (a millionth of the variance) made one such channel flag plain in-world slides.
void TestCheckpoint::deadChannelCountsAFewUnits() {
    torch::manual_seed(0);
    auto fit = torch::randn({512, 4}, torch::kDouble);
    fit.select(1, 3).zero_(); // dead on every fitting scene
    const WorldStats world = fitWorld({fit});
    const auto& layer = world.layers.front();
    auto typical = torch::zeros({1, 4}, torch::kDouble);
    auto faint = typical.clone();
    faint[0][3] = 0.05; // a twentieth of the live numbers' spread
    const double typicalMahalanobis = worldDistance(layer, typical).item<double>();
    const double faintMahalanobis = worldDistance(layer, faint).item<double>();
    const double typicalNeighbour = neighbourDistance(layer, typical).item<double>();
    const double faintNeighbour = neighbourDistance(layer, faint).item<double>();
    QVERIFY2(faintMahalanobis - typicalMahalanobis < 0.2,
             qPrintable(QString::number(faintMahalanobis)));
    QVERIFY2(faintNeighbour - typicalNeighbour < 0.5, qPrintable(QString::number(faintNeighbour)));
    // A live number 3 spreads away still counts as far.
    auto far = typical.clone();
    far[0][0] = 3.0;
    QVERIFY(worldDistance(layer, far).item<double>() > 1.5);
}

// Issue 37: the Train chart's "loss, smoothed" lay well above the raw loss for the first ~200
// steps: the average started from the first, untrained loss and kept 0.98^k of it.
// train --init: a model of another grid's weights as the start (the encoder is convolutional),
// the 2D position code remade for the new grid, the architecture the file's.
void TestCheckpoint::initStartsFromAnotherGridsWeights() {
    TrainOptions o = cltest::tinyTraining(path("grid6.pt"));
    o.imageSize = 48;
    o.grid = 6;
    trainShapes(o);
    TrainOptions fine;
    fine.steps = 1;
    fine.batch = 2;
    fine.lr = 1e-12; // one step that moves nothing: the weights are the start's
    fine.imageSize = 96;
    fine.grid = 12;
    fine.calibrationScenes = 0;
    fine.init = o.out;
    fine.out = path("grid12.pt");
    trainShapes(fine);
    const Checkpoint from = readCheckpoint(o.out), to = readCheckpoint(fine.out);
    QCOMPARE(to.config.encoder.grid, int64_t(6 * 2));
    QCOMPARE(to.config.encoder.imageSize, int64_t(96));
    QCOMPARE(to.config.numHeads, int64_t(2)); // the file's architecture, not the defaults
    QCOMPARE(to.config.wordvecDim, int64_t(32));
    QVERIFY(to.meta.source.find("--init grid6.pt --image-size 96 --grid 12") != std::string::npos);
    auto tensor = [](const Checkpoint& ck, const std::string& key) {
        for (const auto& [k, t] : ck.stateDict)
            if (k == key)
                return t;
        return torch::Tensor();
    };
    for (const char* key : {"encoder.stem.weight", "embedding.weight", "output.weight"})
        QVERIFY2(torch::allclose(tensor(from, key), tensor(to, key), 0, 1e-9), key);
    QCOMPARE(tensor(to, "encoder.pos2d").size(0), int64_t(144));
    QVERIFY(torch::equal(tensor(to, "encoder.pos2d"), positionCode2d(12, 32)));
    TrainOptions more = fine; // resumed, the run still says where it started
    more.init.clear();
    more.steps = 2;
    more.resume = fine.out;
    more.out = path("grid12-more.pt");
    trainShapes(more);
    QVERIFY(readCheckpoint(more.out).meta.source.find("--init grid6.pt") != std::string::npos);
    fine.init = path("missing.pt");
    QVERIFY_THROWS_EXCEPTION(std::exception, trainShapes(fine));
}

// --scale-cue on a model without it: a fourth input plane with zero weights, so the warm start
// captions exactly as its source until training uses the plane; the file says it has one.
void TestCheckpoint::initAddsTheScaleCue() {
    const TrainOptions o = cltest::tinyTraining(path("plain.pt"));
    trainShapes(o);
    TrainOptions cue = o;
    cue.lr = 1e-12;
    cue.scaleCue = true;
    cue.init = o.out;
    cue.out = path("cue.pt");
    trainShapes(cue);
    const Checkpoint ck = readCheckpoint(cue.out);
    QVERIFY(ck.config.encoder.scaleCue && !readCheckpoint(o.out).config.encoder.scaleCue);
    QVERIFY(ck.meta.source.find("--scale-cue") != std::string::npos);
    RgbImage wide{200, 50, std::vector<uint8_t>(200 * 50 * 3)};
    for (size_t i = 0; i < wide.pixels.size(); ++i)
        wide.pixels[i] = uint8_t(i * 7919 % 251); // no plain background: nothing cropped
    const auto a = Captioner::open(o.out)->captionImages({wide}, {}).front();
    const auto b = Captioner::open(cue.out)->captionImages({wide}, {}).front();
    QCOMPARE(b.text(), a.text());
    QVERIFY(std::abs(b.steps.front().prob - a.steps.front().prob) < 1e-5);
    TrainOptions squashed = cue; // a squashed image has no scale to give
    squashed.letterbox = false;
    squashed.init.clear();
    QVERIFY_THROWS_EXCEPTION(std::exception, trainShapes(squashed));
}

void TestCheckpoint::smoothedLossIsDebiased() {
    SmoothedLoss s;
    QCOMPARE(s.value(), 0.0);
    s.add(10);
    QCOMPARE(s.value(), 10.0); // the first step is its own mean
    for (int k = 0; k < 20; ++k)
        s.add(1);
    // Weights 0.02 * 0.98^age over their sum: the first loss keeps 3.8 %, not 67 %.
    const double first = 0.02 * std::pow(0.98, 20) / (1 - std::pow(0.98, 21));
    QVERIFY2(std::abs(s.value() - (1 + 9 * first)) < 1e-9, qPrintable(QString::number(s.value())));
    QVERIFY(s.value() < 1.4);
}

CL_TEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
