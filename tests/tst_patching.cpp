// Activation patching (issue 39) on counterfactual pairs of the shapes world: one object's colour
// changed. Patching every image cell restores exactly 1 and nothing 0; a site after the measured
// position restores exactly 0 and the residual stream there after the last layer exactly 1 (and
// attribution patching's estimate of it too: the metric is linear there); the
// image cells that restore most lie on the changed object; captionlens-cli patch writes the
// fields scripts read and refuses a pair with one caption in one line.
// LibTorch's headers before Qt's (Qt's `slots` macro breaks them).
#include "model/api/captioner.h"
#include "model/shapes/scene.h"
#include "tests/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include "tests/test_main.h"

using namespace cl;

namespace {

const char* kDefault = CL_SOURCE_DIR "/resources/models/default.pt";

// A classic two-object scene and the same scene with the second mentioned object recoloured.
struct Pair {
    SceneSpec clean, corrupt;
    RgbImage cleanImage, corruptImage;
    size_t changed = 0;
};

RgbImage image(const SceneSpec& spec) {
    const Scene s = renderScene(spec);
    return {spec.width(), spec.height(), s.rgb};
}

Pair recoloured(uint64_t seed) {
    Pair p;
    for (;; ++seed) {
        p.clean = randomSpec(seed, 128, 2);
        if (p.clean.objects.size() == 2)
            break;
    }
    p.corrupt = p.clean;
    auto& o = p.corrupt.objects[1];
    o.colour = static_cast<Colour>((static_cast<int>(o.colour) + 2) % kColourCount);
    o.rgb = namedColour(o.colour);
    p.changed = 1;
    p.cleanImage = image(p.clean);
    p.corruptImage = image(p.corrupt);
    return p;
}

void writePpm(const QString& path, const RgbImage& rgb) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << "P6\n" << rgb.width << " " << rgb.height << "\n255\n";
    f.write(reinterpret_cast<const char*>(rgb.pixels.data()), std::streamsize(rgb.pixels.size()));
}

std::vector<PatchSite> everyCell(int64_t cells) {
    std::vector<PatchSite> out;
    for (int64_t c = 0; c < cells; ++c)
        out.push_back({PatchKind::ImageCell, -1, -1, false, -1, c, 0});
    return out;
}

} // namespace

class TestPatching : public QObject {
    Q_OBJECT
  private slots:
    void wholeImageRestoresOneNothingZero();
    void sitesAfterThePositionRestoreNothing();
    void restoredCellsLieOnTheChangedObject();
    void cliWritesEverySite();
    void circuitsScoredOnGroundTruth();
};

void TestPatching::wholeImageRestoresOneNothingZero() {
    auto model = Captioner::open(kDefault);
    const Pair p = recoloured(4);
    const int64_t grid = model->info().config.encoder.grid, cells = grid * grid;
    for (bool noising : {false, true}) {
        PatchOptions o;
        o.noising = noising;
        const double all = model->patchImagesTogether(p.cleanImage, p.corruptImage, {}, o,
                                                      everyCell(cells));
        const double none = model->patchImagesTogether(p.cleanImage, p.corruptImage, {}, o, {});
        // Denoising with every cell is the clean run (1), noising the corrupted run (0).
        QVERIFY2(std::abs(all - (noising ? 0.0 : 1.0)) < 1e-5, qPrintable(QString::number(all)));
        QVERIFY2(std::abs(none - (noising ? 1.0 : 0.0)) < 1e-5, qPrintable(QString::number(none)));
    }
}

void TestPatching::sitesAfterThePositionRestoreNothing() {
    auto model = Captioner::open(kDefault);
    const Pair p = recoloured(4);
    const PatchReport r = model->patchImages(p.cleanImage, p.corruptImage, {}, {});
    QVERIFY(r.cleanLogitDiff > 0 && r.corruptLogitDiff < 0);
    QVERIFY(r.cleanWord != r.corruptWord);
    int later = 0;
    for (const PatchSite& s : r.sites) {
        if (s.kind != PatchKind::ImageCell && s.position > r.position) {
            // The causal mask: later words cannot change this one (to rounding: the patched
            // runs are one batch, the reference runs one row each).
            QVERIFY2(std::abs(s.restored) < 1e-5, qPrintable(QString::number(s.restored)));
            ++later;
        }
        if (s.kind == PatchKind::Resid && s.layer == 2 && s.position == r.position) {
            QVERIFY(std::abs(s.restored - 1.0) < 1e-5); // the whole stream read by the output
            // The metric is linear in it (the output layer): attribution patching is exact.
            QVERIFY2(std::abs(s.estimated - 1.0) < 1e-4, qPrintable(QString::number(s.estimated)));
        }
        if (s.kind != PatchKind::ImageCell && s.position > r.position)
            QVERIFY(std::abs(s.estimated) < 1e-6); // no gradient through the causal mask
    }
    QVERIFY(later > 0);
    QVERIFY2(r.estimateCorrelation > 0.5 && r.estimateCorrelation <= 1.0,
             qPrintable(QString::number(r.estimateCorrelation)));
    // g x g cells, 3 x T streams, 2 x 2 x 4 x T heads, 2 x T FFNs.
    const int64_t t = int64_t(QString::fromStdString(r.cleanCaption).split(' ').size()) + 1;
    QCOMPARE(int64_t(r.sites.size()), r.gridSide * r.gridSide + 3 * t + 16 * t + 2 * t);
}

// The cell that restores most is on the recoloured object (its box, widened by one cell).
void TestPatching::restoredCellsLieOnTheChangedObject() {
    auto model = Captioner::open(kDefault);
    int hits = 0, pairs = 0;
    for (uint64_t seed : {4u, 21u, 33u, 58u, 71u}) {
        const Pair p = recoloured(seed);
        PatchReport r;
        try {
            r = model->patchImages(p.cleanImage, p.corruptImage, {}, {});
        } catch (const std::invalid_argument&) {
            continue; // the recolour did not change the caption
        }
        const PatchSite* best = nullptr;
        for (const PatchSite& s : r.sites)
            if (s.kind == PatchKind::ImageCell && (!best || s.restored > best->restored))
                best = &s;
        QVERIFY(best && r.gridSide >= 8);
        const int64_t g = r.gridSide;
        const double cell = 128.0 / double(g); // the 128-pixel scene on the grid
        const double cx = (best->cell % g + 0.5) * cell, cy = (best->cell / g + 0.5) * cell;
        const Box box = p.corrupt.objects[p.changed].box();
        ++pairs;
        hits += box.contains(cx, cy, 16.0);
    }
    QVERIFY(pairs >= 3);
    QVERIFY2(hits == pairs, qPrintable(QStringLiteral("%1 of %2").arg(hits).arg(pairs)));
}

void TestPatching::cliWritesEverySite() {
    QTemporaryDir dir;
    const Pair p = recoloured(4);
    const QString clean = dir.filePath("clean.ppm"), corrupt = dir.filePath("corrupt.ppm");
    writePpm(clean, p.cleanImage);
    writePpm(corrupt, p.corruptImage);
    const auto run = cltest::runCli(
        {"patch", "--checkpoint", kDefault, "--clean", clean, "--corrupt", corrupt, "--json"});
    QCOMPARE(run.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(run.out).object();
    for (const char* key : {"clean_caption", "corrupt_caption", "position", "clean_word",
                            "corrupt_word", "clean_logit_diff", "corrupt_logit_diff", "sites",
                            "attribution_correlation"})
        QVERIFY2(j.contains(key), key);
    QSet<QString> kinds;
    for (const auto& entry : j["sites"].toArray()) {
        const QJsonObject s = entry.toObject();
        kinds << s["kind"].toString();
        for (const char* key :
             {"layer", "head", "sublayer", "position", "cell", "restored", "attribution"})
            QVERIFY2(s.contains(key), key);
        if (s["kind"] == "image_cell")
            QCOMPARE(s["cell"].toArray().size(), 2);
        else
            QVERIFY(s["cell"].isNull());
        if (s["kind"] == "head")
            QVERIFY(s["sublayer"] == "self" || s["sublayer"] == "cross");
    }
    QCOMPARE(kinds, (QSet<QString>{"image_cell", "resid", "head", "ffn"}));
    const auto same = cltest::runCli(
        {"patch", "--checkpoint", kDefault, "--clean", clean, "--corrupt", clean, "--json"});
    QCOMPARE(same.code, 1);
    QVERIFY(same.err.contains("same caption"));
    QCOMPARE(same.err.trimmed().count('\n'), 0);
}

// eval --circuits on two pairs of each kind: every kind reported, and a recoloured object's cells
// carry most of the image cells' restoration.
void TestPatching::circuitsScoredOnGroundTruth() {
    const auto run = cltest::runCli(
        {"eval", "--checkpoint", kDefault, "--circuits", "--scenes", "2", "--json"});
    QCOMPARE(run.code, 0);
    const QJsonObject kinds = QJsonDocument::fromJson(run.out).object()["circuits"].toObject();
    for (const char* kind : {"colour", "shape", "size", "position", "remove"}) {
        const QJsonObject k = kinds[kind].toObject();
        QVERIFY2(k["pairs"].toInt() >= 1 && k["pairs"].toInt() <= 2, kind);
        QCOMPARE(k["heads"].toArray().size(), 2 * 2 * 4);
        for (const char* key : {"restoration_on_object", "attention_on_object",
                                "attribution_correlation", "unchanged", "skipped"})
            QVERIFY2(k.contains(key), key);
    }
    QVERIFY(kinds["colour"].toObject()["restoration_on_object"].toDouble() > 0.5);
    // --store keeps them in the checkpoint; info --json shows them under metadata.
    QTemporaryDir dir;
    const QString copy = dir.filePath("copy.pt");
    QVERIFY(QFile::copy(kDefault, copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(cltest::runCli({"eval", "--checkpoint", copy, "--circuits", "--scenes", "1",
                             "--store", "--json"})
                 .code,
             0);
    const auto info = cltest::runCli({"info", copy, "--json"});
    const QJsonObject stored = QJsonDocument::fromJson(info.out)
                                   .object()["metadata"]
                                   .toObject()["circuits"]
                                   .toObject()["circuits"]
                                   .toObject();
    QCOMPARE(stored.keys().size(), 5);
}

CL_TEST_GUILESS_MAIN(TestPatching)
#include "tst_patching.moc"
