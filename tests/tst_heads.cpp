// Which heads matter (issue 18 part 5): every head's cost, computed as one batch, against
// switching that head off alone; where greedy decoding departs without it; eval
// --head-importance (JSON, --store, the table, refusals).
#include "tests/cli_run.h"
#include "tests/scene_image.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;
using cltest::sceneImage;
using Run = cltest::CliRun;
using cltest::runCli;

class TestHeads : public QObject {
    Q_OBJECT
  private slots:
    void headImportanceIsEachAblation();
    void evalHeadImportance();
};

namespace {

const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";

} // namespace

namespace {

double logProbOf(const CaptionTrace& t) {
    double sum = 0;
    for (const auto& s : t.steps)
        sum += std::log(double(s.prob));
    return sum;
}

// The first step where two captions differ (a token, or one ends first); -1 when equal.
int64_t firstDifference(const CaptionTrace& a, const CaptionTrace& b) {
    const size_t n = std::min(a.steps.size(), b.steps.size());
    for (size_t t = 0; t < n; ++t)
        if (a.steps[t].id != b.steps[t].id)
            return int64_t(t);
    return a.steps.size() == b.steps.size() ? -1 : int64_t(n);
}

} // namespace

// Every head's drop, computed as one batch, equals switching that head off alone and scoring
// the caption teacher-forced; changesAt is where greedy decoding without it departs.
void TestHeads::headImportanceIsEachAblation() {
    auto model = Captioner::open(kDefault);
    int changing = 0;
    for (uint64_t seed : {2, 11}) {
        const RgbImage image = sceneImage(seed);
        const CaptionTrace every = model->captionImages({image}, {}).front();
        const size_t n = size_t(every.layers * 2 * every.heads);
        DecodeOptions some; // heads switched off on screen do not change the costs
        some.headsOff.assign(n, 0);
        some.headsOff[0] = 1;
        const HeadImportance hi = model->headImportanceImage(image, some);
        QCOMPARE(hi.drop.size(), n);
        QCOMPARE(hi.tokens.size(), every.steps.size());
        QCOMPARE(hi.tokens.back(), every.steps.back().token);
        QVERIFY(std::abs(hi.logProb - logProbOf(every)) < 1e-3);
        std::vector<int64_t> ids;
        for (const auto& s : every.steps)
            ids.push_back(s.id);
        for (size_t i = 0; i < n; ++i) {
            DecodeOptions off;
            off.headsOff.assign(n, 0);
            off.headsOff[i] = 1;
            const CaptionTrace greedy = model->captionImages({image}, off).front();
            off.forcedPrefix = ids;
            const CaptionTrace forced = model->captionImages({image}, off).front();
            QCOMPARE(forced.steps.size(), ids.size());
            const double drop = hi.logProb - logProbOf(forced);
            QVERIFY2(std::abs(drop - hi.drop[i]) < 1e-3,
                     qPrintable(QString("seed %1 head %2: batch %3, alone %4")
                                    .arg(seed)
                                    .arg(i)
                                    .arg(hi.drop[i])
                                    .arg(drop)));
            QCOMPARE(hi.changesAt[i], firstDifference(greedy, every));
            changing += hi.changesAt[i] >= 0;
        }
        // A forced prefix is kept as it is: no head changes a forced word.
        DecodeOptions prefix;
        prefix.forcedPrefix = ids;
        const HeadImportance all = model->headImportanceImage(image, prefix);
        for (size_t i = 0; i < n; ++i) {
            QCOMPARE(all.changesAt[i], int64_t(-1));
            QVERIFY(std::abs(all.drop[i] - hi.drop[i]) < 1e-6);
        }
    }
    QVERIFY(changing > 0); // some head matters on these scenes: the comparison above is real
}

void TestHeads::evalHeadImportance() {
    QTemporaryDir dir;
    const QString copy = dir.filePath("model.pt");
    QVERIFY(QFile::copy(kDefault, copy));
    QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    const Run r = runCli(
        {"eval", "--checkpoint", copy, "--head-importance", "--scenes", "6", "--json", "--store"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["scenes"].toInt(), 6);
    const auto heads = j["heads_by_name"].toArray();
    QCOMPARE(heads.size(), qsizetype(j["layers"].toInt() * 2 * j["heads"].toInt()));
    QCOMPARE(heads[0].toObject()["name"].toString(), QString("layer 1 self H1"));
    QCOMPARE(heads[heads.size() - 1].toObject()["kind"].toString(), QString("cross"));
    for (const auto& h : heads) {
        const double exact = h.toObject()["exact_without"].toDouble(-1);
        QVERIFY(exact >= 0 && exact <= 1);
        QVERIFY(std::isfinite(h.toObject()["mean_drop"].toDouble()));
    }
    // Stored for the Heads panel: info reads it back.
    const Run info = runCli({"info", copy, "--json"});
    QVERIFY2(info.code == 0, info.err.constData());
    const auto stored = QJsonDocument::fromJson(info.out).object()["metadata"].toObject();
    QCOMPARE(stored["head_importance"].toObject()["heads_by_name"].toArray().size(), heads.size());
    // The table: most important first.
    const Run table =
        runCli({"eval", "--checkpoint", kDefault, "--head-importance", "--scenes", "2"});
    QVERIFY2(table.code == 0, table.err.constData());
    QVERIFY(table.out.contains("head switched off"));
    QCOMPARE(table.out.count("layer "), heads.size());
    const Run both = runCli({"eval", "--checkpoint", kDefault, "--head-importance", "--explain"});
    QVERIFY(both.code != 0);
    QVERIFY(both.err.contains("--head-importance"));
    QCOMPARE(both.err.count('\n'), 1);
}

CL_TEST_GUILESS_MAIN(TestHeads)
#include "tst_heads.moc"
