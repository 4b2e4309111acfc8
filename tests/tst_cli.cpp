// captionlens-cli end to end: import a course state_dict, caption feature rows as Python's greedy
// decode does, print JSON with attention, and fail with one readable line on bad input.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(CL_CLI, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
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
    const auto ids = QJsonDocument::fromJson(r.out).object()["token_ids"].toArray();
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
    QTest::newRow("bad row") << QStringList{"caption", "--checkpoint", "CK", "--features",
                                            "NPY",     "--row",        "9"}
                             << "--row 9 is outside the 3 rows";
    QTest::newRow("image to feature model")
        << QStringList{"caption", "--checkpoint", "CK", data("tiny_vocab.json")}
        << "cannot read image";
    QTest::newRow("unknown word") << QStringList{"caption", "--checkpoint",   "CK",   "--features",
                                                 "NPY",     "--force-prefix", "zebra"}
                                  << "'zebra' is not in the vocabulary";
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

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
