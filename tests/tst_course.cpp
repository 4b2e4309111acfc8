// Students' own course files (issue 19): a course-shaped coco_captioning folder written by
// tests/course_data.py with h5py, and a course model it trained for 300 steps in PyTorch. The CLI
// must read the folder as it is and score the model exactly as the Python reference does.
#include "model/evaluation/checkpoint_tools.h"
#include "model/evaluation/course_eval.h"
#include "model/core/vocabulary.h"
#include "model/data/bounded_child.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>
#include "tests/test_main.h"

using cl::io::runBounded;

using namespace cl;

namespace {

struct Out {
    int code = -1;
    QByteArray out, err;
};

Out run(const QString& program, const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(program, args);
    Out o;
    if (!p.waitForFinished(timeoutMs))
        return o;
    o.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
}

Out cli(const QStringList& args) {
    return run(CL_CLI, args);
}

Out python(const QString& code) {
    return run(CL_PYTHON3, {"-c", code});
}

} // namespace

class TestCourse : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void h5ProbeIsAProgramOfItsOwn();
    void evalMatchesPythonReference();
    void exactMatchKeepsUnk();
    void evalListsEveryCaption();
    void captionsMatchPythonWithReferencesAndUrls();
    void h5FeatureRowsAreRead();
    void nanFeaturesThroughDataAreRefused();
    void stepsAreRecorded();
    void badCourseFiles_data();
    void badCourseFiles();
    void wrappersAreUnwrapped();
    void wholeModelIsRefusedWithAHint();
    void ourFilesLoadWithWeightsOnly();
    void headsAutoKeepsTheDefaultWhenUndecided();
    void headsAutoTakesAClearWinner();
    void headsAutoFindsTheTrainedCount_data();
    void headsAutoFindsTheTrainedCount();
    void headCountWithoutDataIsFlagged();

  private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString data() const { return path("coco_captioning"); }
    QJsonObject m_reference; // the Python figures
    QTemporaryDir m_dir;
};

void TestCourse::initTestCase() {
    CL_REQUIRE(!QString(CL_PYTHON3).isEmpty(), "/usr/bin/python3 with torch and h5py");
    QVERIFY(m_dir.isValid());
    const Out py = run(CL_PYTHON3, {CL_SOURCE_DIR "/tests/course_data.py", m_dir.path(), "300"});
    QVERIFY2(py.code == 0, py.err.constData());
    m_reference = QJsonDocument::fromJson(py.out).object();
    QVERIFY(m_reference.value("bleu1").toDouble() > 0.8); // the model learned something
    const Out imported =
        cli({"import-cs231n", path("course_model.pt"), "--vocab", data() + "/coco2014_vocab.json",
             "--steps", "300", "-o", path("model.pt")});
    QVERIFY2(imported.code == 0, imported.err.constData());
}

void TestCourse::evalMatchesPythonReference() {
    const Out e = cli({"eval", "--checkpoint", path("model.pt"), "--data", data(), "--json"});
    QVERIFY2(e.code == 0, e.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(e.out).object();
    QCOMPARE(j.value("images").toInt(), m_reference.value("images").toInt());
    QCOMPARE(j.value("loss_tokens").toInt(), m_reference.value("loss_tokens").toInt());
    // Exact match compares the words as said, <UNK> included; BLEU drops <UNK> as the course does.
    for (const char* key : {"bleu1", "bleu4", "exact", "exact_unk_blind"})
        QVERIFY2(std::abs(j.value(key).toDouble() - m_reference.value(key).toDouble()) < 1e-9, key);
    QVERIFY(std::abs(j.value("loss").toDouble() - m_reference.value("loss").toDouble()) < 1e-5);
    // --limit: the first N images of the split.
    const Out some =
        cli({"eval", "--checkpoint", path("model.pt"), "--data", data(), "--limit", "7", "--json"});
    QCOMPARE(QJsonDocument::fromJson(some.out).object().value("images").toInt(), 7);
}

// The case of the report: "two green dogs on the <UNK>" counted as exact for "two green dogs on
// the" when <UNK> was dropped before comparing.
void TestCourse::exactMatchKeepsUnk() {
    const Vocabulary v({"<NULL>", "<START>", "<END>", "<UNK>", "two", "green", "dogs", "on",
                        "the"});
    const auto ids = [&](const QString& text) {
        std::vector<int64_t> out{v.startId()};
        for (const QString& w : text.split(' '))
            out.push_back(v.id(w.toStdString()));
        out.push_back(v.endId());
        out.push_back(v.nullId());
        return out;
    };
    const auto said = ids("two green dogs on the <UNK>");
    QVERIFY(!exactMatch(said, {ids("two green dogs on the")}, v));
    QVERIFY(exactMatch(said, {ids("two dogs"), ids("two green dogs on the <UNK>")}, v));
    QVERIFY(!exactMatch(ids("two green dogs on the"), {said}, v));
    QVERIFY(exactMatch(ids("two green dogs"), {ids("two green dogs")}, v)); // padding aside
}

void TestCourse::evalListsEveryCaption() {
    const Out e = cli({"eval", "--checkpoint", path("model.pt"), "--data", data(), "--json",
                       "--captions"});
    QVERIFY2(e.code == 0, e.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(e.out).object();
    const QJsonArray rows = j.value("captions").toArray();
    QCOMPARE(rows.size(), j.value("images").toInt());
    const QJsonObject python = m_reference.value("captions").toObject();
    int exact = 0;
    for (const auto& v : rows) {
        const QJsonObject row = v.toObject();
        const QString caption = row.value("caption").toString();
        QString words = caption;
        words.replace("<UNK> ", "").replace(" <UNK>", "");
        QCOMPARE(words, python.value(QString::number(row.value("image").toInt())).toString());
        QStringList refs;
        for (const auto& r : row.value("references").toArray())
            refs << r.toString();
        QVERIFY(refs.size() >= 2);
        // Word for word against the references' text: "<UNK>" is a word like any other.
        QCOMPARE(row.value("exact").toBool(), refs.contains(caption));
        exact += refs.contains(caption) ? 1 : 0;
    }
    QVERIFY(std::abs(j.value("exact").toDouble() - double(exact) / rows.size()) < 1e-12);
    const Out plain = cli({"eval", "--checkpoint", path("model.pt"), "--data", data(), "--limit",
                           "2", "--captions"});
    QVERIFY2(plain.out.contains("ref: ") && plain.out.contains("<UNK> ignored"),
             plain.out.constData());
    const Out lone = cli({"eval", "--checkpoint", path("model.pt"), "--captions"});
    QCOMPARE(lone.code, 1);
    QVERIFY(lone.err.contains("--captions lists the course's images: it needs --data"));
}

void TestCourse::captionsMatchPythonWithReferencesAndUrls() {
    const QJsonObject captions = m_reference.value("captions").toObject();
    QStringList args{"caption", "--checkpoint", path("model.pt"), "--data", data(), "--json"};
    for (const QString& image : captions.keys())
        args << "--image" << image;
    const Out c = cli(args);
    QVERIFY2(c.code == 0, c.err.constData());
    const auto lines = c.out.trimmed().split('\n');
    QCOMPARE(lines.size(), captions.size());
    for (const auto& line : lines) {
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        const QString image = QString::number(j.value("image_index").toInt());
        QString words = j.value("caption").toString();
        words.replace("<UNK> ", "").replace(" <UNK>", ""); // the course's BLEU drops <UNK>
        QCOMPARE(words, captions.value(image).toString());
        QCOMPARE(j.value("url").toString(), "http://127.0.0.1:1/val/" + image + ".jpg");
        const QJsonArray refs = j.value("references").toArray();
        QVERIFY(refs.size() >= 2);
        for (const auto& r : refs) {
            QVERIFY(!r.toString().contains("<START>") && !r.toString().contains("<END>"));
            QVERIFY(!r.toString().contains("<NULL>") && !r.toString().isEmpty());
        }
    }
    // --caption-index: the image of that ground-truth caption.
    const Out k = cli({"caption", "--checkpoint", path("model.pt"), "--data", data(),
                       "--caption-index", "0", "--json"});
    QVERIFY2(k.code == 0, k.err.constData());
    QVERIFY(QJsonDocument::fromJson(k.out).object().contains("image_index"));
}

void TestCourse::h5FeatureRowsAreRead() {
    const Out a = cli({"caption", "--checkpoint", path("model.pt"), "--features",
                       data() + "/val2014_vgg16_fc7_pca.h5", "--row", "3"});
    const Out b =
        cli({"caption", "--checkpoint", path("model.pt"), "--data", data(), "--image", "3"});
    QVERIFY2(a.code == 0, a.err.constData());
    QCOMPARE(a.out, b.out);
    const Out wide = cli({"caption", "--checkpoint", path("model.pt"), "--features",
                          data() + "/val2014_vgg16_fc7.h5", "--row", "3"});
    QCOMPARE(wide.code, 1);
    QVERIFY2(wide.err.contains("has rows of width 48 but the model expects 16"),
             wide.err.constData());
}

void TestCourse::nanFeaturesThroughDataAreRefused() {
    // --features refused NaN rows; --data captioned them silently (issue 41).
    const QString nan = path("nan");
    QVERIFY(QDir().mkpath(nan));
    for (const QString& f : QDir(data()).entryList(QDir::Files))
        QVERIFY(QFile::copy(data() + "/" + f, nan + "/" + f));
    const Out py = run(CL_PYTHON3, {"-c", "import h5py, sys\n"
                                          "with h5py.File(sys.argv[1], 'r+') as f:\n"
                                          "    f['features'][3, 5] = float('nan')",
                                    nan + "/val2014_vgg16_fc7_pca.h5"});
    QVERIFY2(py.code == 0, py.err.constData());
    const Out r = cli({"caption", "--checkpoint", path("model.pt"), "--data", nan, "--image", "3"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("row 3 of the val features holds NaN (column 5)"), r.err.constData());
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(r.out.isEmpty());
}

void TestCourse::stepsAreRecorded() {
    const Out i = cli({"info", "--json", path("model.pt")});
    const QJsonObject meta = QJsonDocument::fromJson(i.out).object().value("metadata").toObject();
    QCOMPARE(meta.value("steps"), QJsonValue(300));
    QVERIFY(!QJsonDocument::fromJson(i.out).object().contains("world_check")); // image models only
    // Plain info: how the head count came to be, no calibrate advice a feature model refuses.
    QVERIFY(QFile::copy(path("model.pt"), path("stored.pt")));
    const Out before = cli({"info", path("stored.pt")});
    QVERIFY2(before.out.contains("heads        2 (assumed: the notebook's 2 (not checked))"),
             before.out.constData());
    QVERIFY(!before.out.contains("calibrate") && !before.out.contains("world check"));
    QVERIFY(!before.out.contains("course eval"));
    // eval --store: plain info shows the stored figures as --json does, and "written" is now.
    QTest::qWait(1100); // the date has seconds
    const Out stored =
        cli({"eval", "--checkpoint", path("stored.pt"), "--data", data(), "--store"});
    QVERIFY2(stored.code == 0, stored.err.constData());
    const Out after = cli({"info", path("stored.pt")});
    QVERIFY2(after.out.contains("course eval  val, 60 images: BLEU-1 "), after.out.constData());
    const auto written = [](const QByteArray& out) {
        const int at = out.indexOf("written      ");
        return out.mid(at, out.indexOf('\n', at) - at);
    };
    QVERIFY(!written(after.out).isEmpty());
    QVERIFY2(written(after.out) != written(before.out), written(after.out).constData());
}

void TestCourse::badCourseFiles_data() {
    QTest::addColumn<QString>("make"); // Python (h5py) writing X, or "text", "cut", "fifo"
    QTest::addColumn<QString>("expected");
    QTest::newRow("not HDF5") << "text"
                              << "not an HDF5 file";
    QTest::newRow("truncated") << "cut"
                               << "a truncated HDF5 file";
    QTest::newRow("FIFO") << "fifo"
                          << "it is a FIFO (named pipe)";
    QTest::newRow("wrong dataset name") << "f['feats'] = np.zeros((2, 16), 'f4')"
                                        << "lacks the dataset 'features'";
    QTest::newRow("integers") << "f['features'] = np.zeros((2, 16), 'i4')"
                              << "should be a 2-D array of floats";
    QTest::newRow("one dimension") << "f['features'] = np.zeros(16, 'f4')"
                                   << "should be a 2-D array of floats";
    // Found by fuzz_h5: a float type of 4 GB per number made HDF5 allocate that much to read.
    QTest::newRow("4 GB numbers") << "golden"
                                  << "bytes each, not 1 to 8";
    QTest::newRow("256 MiB chunks")
        << "f.create_dataset('features', shape=(2, 64), maxshape=(None, 64), "
           "chunks=(1 << 20, 64), dtype='f4')"
        << "chunks are over 64 MiB";
}

void TestCourse::badCourseFiles() {
    QFETCH(QString, make);
    QFETCH(QString, expected);
    const QString bad = path("bad.h5");
    QFile::remove(bad);
    if (make == "text") {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("features, but as text\n");
    } else if (make == "cut") {
        QFile whole(data() + "/val2014_vgg16_fc7_pca.h5");
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(whole.read(whole.size() / 2));
    } else if (make == "golden") {
        QVERIFY(QFile::copy(CL_TEST_DATA "/h5_huge_element.h5", bad));
    } else if (make == "fifo") {
        QCOMPARE(mkfifo(bad.toLocal8Bit().constData(), 0600), 0);
    } else {
        const Out py = python("import h5py, numpy as np\nwith h5py.File('" + bad +
                              "', 'w') as f:\n    " + make);
        QVERIFY2(py.code == 0, py.err.constData());
    }
    const Out c =
        cli({"caption", "--checkpoint", path("model.pt"), "--features", bad, "--row", "0"});
    QCOMPARE(c.code, 1);
    QVERIFY2(c.err.contains(expected.toUtf8()), c.err.constData());
    QCOMPARE(c.err.trimmed().count('\n'), 0);
    QFile::remove(bad);
}

void TestCourse::wrappersAreUnwrapped() {
    const QString sd = path("course_model.pt");
    const Out py = python("import torch\nsd = torch.load('" + sd +
                          "')\ntorch.save({'model': {'module.' + k: v for k, v in sd.items()}, "
                          "'epoch': 3}, '" +
                          path("wrapped.pt") + "')");
    QVERIFY2(py.code == 0, py.err.constData());
    const Out imported = cli({"import-cs231n", path("wrapped.pt"), "--vocab",
                              data() + "/coco2014_vocab.json", "-o", path("unwrapped.pt")});
    QVERIFY2(imported.code == 0, imported.err.constData());
    QVERIFY(imported.err.contains("note: unwrapped the 'model' entry"));
    QVERIFY(imported.err.contains("note: removed the 'module.' prefix"));
    const QStringList input{"--data", data(), "--image", "5"};
    QCOMPARE(cli(QStringList{"caption", "--checkpoint", path("unwrapped.pt")} + input).out,
             cli(QStringList{"caption", "--checkpoint", path("model.pt")} + input).out);
}

void TestCourse::wholeModelIsRefusedWithAHint() {
    const Out py = python("import sys, torch\nsys.path.insert(0, '" CL_SOURCE_DIR
                          "/tests')\nfrom reference import CaptioningTransformer\n"
                          "m = CaptioningTransformer({'<NULL>': 0, '<START>': 1, '<END>': 2, "
                          "'a': 3}, 4, 8, 2, 1, 5)\ntorch.save(m, '" +
                          path("whole.pt") + "')");
    QVERIFY2(py.code == 0, py.err.constData());
    const Out imported = cli({"import-cs231n", path("whole.pt"), "--vocab",
                              data() + "/coco2014_vocab.json", "-o", path("x.pt")});
    QCOMPARE(imported.code, 1);
    QVERIFY2(imported.err.contains("references reference.CaptioningTransformer"),
             imported.err.constData());
    QVERIFY(imported.err.contains("torch.save(model.state_dict(), 'model.pt')"));
    QVERIFY(!QFileInfo::exists(path("x.pt")));
}

void TestCourse::ourFilesLoadWithWeightsOnly() {
    // Debian's PyTorch 1.13 has no BINFLOAT in its weights_only unpickler: our pickles hold no
    // float. The shipped models and a fresh import must load that way.
    const Out py = python("import glob, torch\nfiles = ['" + path("model.pt") +
                          "'] + glob.glob('" CL_SOURCE_DIR "/resources/models/**/*.pt', "
                          "recursive=True)\nfor f in files:\n    ck = torch.load(f, "
                          "weights_only=True)\n    assert ck['format'] == "
                          "'captionlens-checkpoint', f\nprint(len(files))");
    QVERIFY2(py.code == 0, py.err.constData());
    QVERIFY(py.out.trimmed().toInt() >= 6);
}

void TestCourse::headsAutoKeepsTheDefaultWhenUndecided() {
    // A tolerance every count meets: the data cannot decide, and the import says so and keeps
    // --heads-default.
    const QStringList base{"import-cs231n", path("course_model.pt"),
                           "--vocab",       data() + "/coco2014_vocab.json",
                           "--heads",       "auto",
                           "--data",        data(),
                           "--heads-tolerance", "100"};
    const Out a = cli(base + QStringList{"--heads-default", "4", "-o", path("auto4.pt")});
    QVERIFY2(a.code == 0, a.err.constData());
    for (const char* heads : {"\n    1  ", "\n    2  ", "\n    4  ", "\n   32  "})
        QVERIFY2(a.out.contains(heads), a.out.constData()); // every divisor of the width 32
    QVERIFY(a.out.contains("the data cannot decide"));
    QVERIFY2(a.out.contains("kept 4") && a.out.contains("4 heads, width 32"), a.out.constData());
    QVERIFY(!QFileInfo::exists(path("auto4.pt.heads-2.tmp"))); // trial files are removed
    const Out info = cli({"info", path("auto4.pt")});
    QVERIFY2(info.out.contains("heads        4 (kept by --heads auto (--heads-default)"),
             info.out.constData());
}

// Models trained in PyTorch with 1, 2, 4 and 8 heads (one layer, float16) on a folder whose every
// image has one caption (tests/course_data.py --heads-models; the models are in tests/golden, the
// folder is written again here): --heads auto names each one's own count. The old rule (the best
// by a 5 % margin, else --heads-default) kept 2 for a 4-head model whose 4-, 8- and 16-head
// readings tied.
void TestCourse::headsAutoFindsTheTrainedCount_data() {
    QTest::addColumn<int>("heads");
    for (int heads : {1, 2, 4, 8})
        QTest::newRow(qPrintable(QString("%1 heads").arg(heads))) << heads;
}

void TestCourse::headsAutoFindsTheTrainedCount() {
    QFETCH(int, heads);
    const QString folder = path("heads/coco_captioning");
    if (!QFileInfo::exists(folder)) {
        const Out py = run(CL_PYTHON3, {CL_SOURCE_DIR "/tests/course_data.py", "--heads-models",
                                        path("heads"), "0"});
        QVERIFY2(py.code == 0, py.err.constData());
    }
    const QString model = QString(CL_TEST_DATA "/course_heads_h%1.pt").arg(heads);
    const Out a = cli({"import-cs231n", model, "--vocab", folder + "/coco2014_vocab.json",
                       "--heads", "auto", "--data", folder, "-o", path("found.pt")});
    QVERIFY2(a.code == 0, a.err.constData());
    QVERIFY2(a.out.contains(QString("%1 heads, width 32").arg(heads).toUtf8()), a.out.constData());
    QVERIFY2(a.out.contains("the fewest heads whose loss is within 2% of the best"),
             a.out.constData());
    QVERIFY(a.out.contains("(first 60 val images)")); // the folder's 60, not a fixed 500
    const Out info = cli({"info", path("found.pt")});
    const QString line = QString("heads        %1 (chosen by --heads auto").arg(heads);
    QVERIFY2(info.out.contains(line.toUtf8()), info.out.constData());
}

void TestCourse::headsAutoTakesAClearWinner() {
    // The rule itself: with no tolerance the lowest loss wins; with one that every count meets,
    // nothing does.
    CourseImport import;
    import.input = path("course_model.pt").toStdString();
    import.vocab = Vocabulary::numbered(18).words();
    import.output = path("rule.pt").toStdString();
    const auto any = chooseHeadCount(import, data().toStdString(), 60, 2, 0.0);
    QVERIFY(any.decided);
    const auto best = std::min_element(any.scores.begin(), any.scores.end(),
                                       [](auto& a, auto& b) { return a.loss < b.loss; });
    QCOMPARE(any.chosen, best->heads);
    const auto none = chooseHeadCount(import, data().toStdString(), 60, 2, 10.0);
    QVERIFY(!none.decided);
    QCOMPARE(none.chosen, int64_t(2));
}

void TestCourse::headCountWithoutDataIsFlagged() {
    const Out plain = cli({"import-cs231n", path("course_model.pt"), "--vocab",
                           data() + "/coco2014_vocab.json", "-o", path("plain.pt")});
    QVERIFY2(plain.code == 0, plain.err.constData());
    QVERIFY(plain.err.contains("WARNING: the head count is unchecked"));
    const Out noData =
        cli({"import-cs231n", path("course_model.pt"), "--vocab", data() + "/coco2014_vocab.json",
             "--heads", "auto", "-o", path("x.pt")});
    QCOMPARE(noData.code, 1);
    QVERIFY(noData.err.contains("--heads auto needs the course data"));
}

// HDF5 reads a file first in captionlens-h5probe, spawned (a fresh program: nothing of this
// process's locks or allocator comes along), not in a fork of this threaded process.
void TestCourse::h5ProbeIsAProgramOfItsOwn() {
    const std::string probe = cl::io::h5ProbeProgram();
    QVERIFY2(QString::fromStdString(probe).endsWith("/captionlens-h5probe"), probe.c_str());
    cl::io::ChildBudget budget;
    budget.memoryBytes = uint64_t(192) << 20;
    const std::string good = (data() + "/val2014_vgg16_fc7_pca.h5").toStdString();
    QCOMPARE(runBounded({probe, good}, budget), std::string());
    const std::string finding = runBounded({probe, CL_TEST_DATA "/h5_open_finding.h5"}, budget);
    QVERIFY2(finding.rfind("needs more than 192 MiB", 0) == 0, finding.c_str());
    QVERIFY(runBounded({probe}, budget).rfind("fails (exit status 2)", 0) == 0); // no file named
    const QString missing = path("no-such-program");
    QVERIFY(runBounded({missing.toStdString()}, budget).rfind("cannot be started", 0) == 0);
}

CL_TEST_GUILESS_MAIN(TestCourse)
#include "tst_course.moc"
