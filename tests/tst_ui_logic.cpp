// The panels' pure functions: colour maps, ranges, overlays, attention matrices, entropy.
#include "ui/math/attention_math.h"
#include "ui/math/colormap.h"
#include "ui/math/natural_order.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/selection.h"

#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QTextDocument>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;
using namespace cl::ui;

namespace {
// Two steps, one layer, two heads, a 2x2 grid memory.
CaptionTrace tinyTrace() {
    CaptionTrace t;
    t.layers = 1;
    t.heads = 2;
    t.memoryTokens = 4;
    t.gridSide = 2;
    DecodeStep a;
    a.token = "red";
    a.selfAttn = {1.f, 1.f}; // [head][1]
    a.crossAttn = {1, 0, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f};
    DecodeStep b;
    b.token = "<END>";
    b.selfAttn = {0.5f, 0.5f, 0.f, 1.f}; // head 0: [0.5 0.5], head 1: [0 1]
    b.crossAttn = {0, 0, 0, 1, 0, 1, 0, 0};
    t.steps = {a, b};
    return t;
}
} // namespace

class TestUiLogic : public QObject {
    Q_OBJECT
  private slots:
    void headsPanelShowsUnk();
    void malformedTracesReadNothingOutside();
    void panelsKeepGoingOnMalformedTraces();
    void decodingChartOffersOnlyWords();
    void opacitySliderShowsTheDrawnOpacity();
    void viridisEnds();
    void colourRanges();
    void overlayFollowsAttention();
    void overlayLeavesPaperWhiteWhereNothingLooks();
    void letterboxedCellsMapBackToTheImage();
    void selfMatrixMasksTheFuture();
    void headAverage();
    void entropy();
    void labelsAndFocus();
    void selectionClamps();
    void naturalOrderIsLocaleFree();
};

void TestUiLogic::viridisEnds() {
    QCOMPARE(viridis(0.0), QColor(68, 1, 84));
    QCOMPARE(viridis(1.0), QColor(253, 231, 37));
    QCOMPARE(viridis(7.0), viridis(1.0)); // clamped
    QVERIFY(viridis(0.5).green() > viridis(0.25).green());
}

void TestUiLogic::colourRanges() {
    const std::vector<float> v{0.1f, 0.4f, NAN};
    QCOMPARE(colourRange(v, false).upper, 1.0);
    const auto r = colourRange(v, true);
    QVERIFY(std::abs(r.lower - 0.1) < 1e-6 && std::abs(r.upper - 0.4) < 1e-6);
}

void TestUiLogic::overlayFollowsAttention() {
    QImage grey(64, 64, QImage::Format_RGB32);
    grey.fill(QColor(128, 128, 128));
    // All weight on the top-left cell: that corner turns yellow, the opposite one barely changes.
    const GridMap two{2, 0, 0, 0.5, 0.5}; // a squashed 2 x 2 grid over the whole image
    const auto out = attentionOverlay(grey, {1, 0, 0, 0}, two, 1.0, {0, 1});
    QCOMPARE(out.size(), grey.size());
    QVERIFY(qRed(out.pixel(2, 2)) > 200 && qBlue(out.pixel(2, 2)) < 80);
    QCOMPARE(out.pixel(61, 61), grey.pixel(61, 61)); // no attention there: the image as it is
    QVERIFY(attentionOverlay(grey, {0, 0, 0, 1}, two, 1.0, {0, 1}) != out);
    QCOMPARE(attentionOverlay(grey, {1, 0, 0, 0}, two, 0.0, {0, 1}).pixel(2, 2), grey.pixel(2, 2));
}

// The colour map's low end fades to transparent: a white page stays white where the word does
// not look (before: every pixel got 30 % of dark purple, tinting white and paper backgrounds).
void TestUiLogic::overlayLeavesPaperWhiteWhereNothingLooks() {
    QImage paper(40, 40, QImage::Format_RGB32);
    paper.fill(Qt::white);
    const GridMap two{2, 0, 0, 0.5, 0.5};
    const auto out = attentionOverlay(paper, {0.9f, 0, 0, 0}, two, 0.75, {0, 0.9});
    QCOMPARE(out.pixel(35, 35), qRgb(255, 255, 255)); // the cell nothing attends to
    QCOMPARE(out.pixel(30, 5), qRgb(255, 255, 255));
    QVERIFY(out.pixel(3, 3) != qRgb(255, 255, 255)); // the attended one is coloured
}

void TestUiLogic::letterboxedCellsMapBackToTheImage() {
    // A 2:1 image letterboxed into a 64 px input: it fills input rows 16..47, so with an 8 x 8
    // grid its top quarter is grid row 2 and its bottom quarter grid row 5; rows 0-1 and 6-7
    // are padding above and below it.
    CaptionTrace tr;
    tr.gridSide = 8;
    tr.inputSide = 64;
    tr.letterboxed = true;
    QImage wide(200, 100, QImage::Format_RGB32);
    wide.fill(QColor(128, 128, 128));
    const GridMap cells = unitGridMap(tr, wide);
    QCOMPARE(cells.grid, int64_t(8));
    QVERIFY(std::abs(cells.y0 + 0.5) < 1e-9 && std::abs(cells.cellH - 0.25) < 1e-9);
    QVERIFY(std::abs(cells.x0) < 1e-9 && std::abs(cells.cellW - 0.125) < 1e-9);
    QCOMPARE(cellAt(cells, 0.01, 0.01), 2 * 8 + 0);
    QCOMPARE(cellAt(cells, 0.99, 0.99), 5 * 8 + 7);
    // In image pixels: cell (0, 2) is the image's top-left 25 x 25 pixels.
    const GridMap px = gridMap(200, 100, 8, 64, true);
    QVERIFY(std::abs(px.centreX(16) - 12.5) < 1e-9 && std::abs(px.centreY(16) - 12.5) < 1e-9);
    // The overlay puts cell 16's weight on the image's top-left corner, not cell 0's: full
    // strength at the cell's centre (image pixel 12, 12).
    std::vector<float> row(64, 0.f);
    row[16] = 1.f;
    const QImage out = attentionOverlay(wide, row, cells, 1.0, {0, 1});
    QVERIFY(qRed(out.pixel(12, 12)) > 200 && qBlue(out.pixel(12, 12)) < 80);
    QVERIFY(qRed(out.pixel(195, 95)) <= 128); // nothing bright: the grey as it was
    std::vector<float> padding(64, 0.f);
    padding[0] = 1.f; // all weight on padding above the image: nothing bright on it
    const QImage none = attentionOverlay(wide, padding, cells, 1.0, {0, 1});
    QVERIFY(qRed(none.pixel(5, 5)) <= 128);
    // The encoder saw only the right half (content crop, api/trace.h): a square, so it filled
    // the input, and cell 0 is the top-left corner of that half.
    tr.seen = {100, 0, 100, 100};
    QCOMPARE(cellAt(unitGridMap(tr, wide), 0.51, 0.01), 0);
    QCOMPARE(cellAt(unitGridMap(tr, wide), 0.99, 0.99), 63);
    tr.seen = {};
    // Squashed models (no letterbox) keep the old mapping: cell 0 is the top-left corner.
    tr.letterboxed = false;
    QCOMPARE(cellAt(unitGridMap(tr, wide), 0.01, 0.01), 0);
}

void TestUiLogic::selfMatrixMasksTheFuture() {
    const auto m = selfMatrix(tinyTrace(), 0, 1);
    QCOMPARE(m.size(), size_t(4));
    QCOMPARE(m[0], 1.f);
    QVERIFY(std::isnan(m[1])); // query 0 cannot see key 1
    QCOMPARE(m[2], 0.f);
    QCOMPARE(m[3], 1.f);
}

void TestUiLogic::headAverage() {
    const auto avg = selfMatrix(tinyTrace(), 0, -1);
    QCOMPARE(avg[2], 0.25f);
    QCOMPARE(avg[3], 0.75f);
    const auto cross = crossRow(tinyTrace(), 0, -1, 0);
    QCOMPARE(cross, (std::vector<float>{0.625f, 0.125f, 0.125f, 0.125f}));
}

void TestUiLogic::entropy() {
    // Uniform over 4 = 2 bits; one-hot = 0 bits; NaN cells ignored.
    QCOMPARE(meanEntropyBits({0.25f, 0.25f, 0.25f, 0.25f}, 1, 4), 2.0);
    QCOMPARE(meanEntropyBits({1.f, NAN}, 1, 2), 0.0);
    QCOMPARE(crossEntropyBits(tinyTrace(), 0, 1), 1.0); // rows: uniform (2 bits), one-hot (0)
}

void TestUiLogic::labelsAndFocus() {
    const auto tr = tinyTrace();
    QCOMPARE(inputTokens(tr), (QStringList{"<START>", "red"}));
    QCOMPARE(outputTokens(tr), (QStringList{"red", "<END>"}));
    QCOMPARE(headName(0, -1), QString("L1 avg"));
    QCOMPARE(headName(1, 2), QString("L2 H3"));
    QCOMPARE(mostFocused(tr).step, 0); // step 0's average peaks at 0.625
}

void TestUiLogic::selectionClamps() {
    Selection s;
    QSignalSpy spy(&s, &Selection::changed);
    s.setLayerHead(3, 5);
    s.setStep(9);
    QCOMPARE(spy.count(), 2);
    s.clamp(4, 2, 4);
    QCOMPARE(s.step(), 3);
    QCOMPARE(s.layer(), 1);
    QCOMPARE(s.head(), -1);
    s.setOpacity(2.0);
    QCOMPARE(s.opacity(), 1.0);
}

void TestUiLogic::naturalOrderIsLocaleFree() {
    // Whatever the locale (a fresh Debian machine's is C.UTF-8, where QCollator's numeric mode
    // compares code points): digit runs by value, letters without case.
    QLocale::setDefault(QLocale::c());
    QStringList names{"step120.pt", "step25.pt", "Step300.pt", "step60.pt", "step060.pt",
                      "step9999999999999999999999.pt", "step.pt", "a10b2", "a10b10", "a9b99"};
    std::sort(names.begin(), names.end(),
              [](const QString& a, const QString& b) { return ui::naturalCompare(a, b) < 0; });
    QCOMPARE(names, QStringList({"a9b99", "a10b2", "a10b10", "step.pt", "step25.pt", "step60.pt",
                                 "step060.pt", "step120.pt", "Step300.pt",
                                 "step9999999999999999999999.pt"}));
    QCOMPARE(ui::naturalCompare("x", "x"), 0);
    QVERIFY(ui::naturalCompare("X1", "x1") < 0); // a tie in all else goes by code point
    QVERIFY(ui::naturalCompare("x1", "x1a") < 0);
    QLocale::setDefault(QLocale::system());
}

// Issue 42: the Heads panel's caption must show "<UNK>" as the Caption panel does (a word of the
// vocabulary in a rich-text label is escaped, never read as a tag).
void TestUiLogic::headsPanelShowsUnk() {
    HeadsPanel panel;
    CaptionView view;
    view.trace = tinyTrace();
    view.trace.steps[0].token = "<UNK>";
    view.model.path = "model.pt";
    panel.setView(view);
    QVERIFY2(panel.captionsText().contains("&lt;UNK&gt;"), qPrintable(panel.captionsText()));
    QTextDocument shown;
    shown.setHtml(panel.captionsText());
    QVERIFY2(shown.toPlainText().contains("<UNK>"), qPrintable(shown.toPlainText()));
}

// A trace is read only inside itself: a layer, head or step it lacks, or rows shorter than its
// shape says, give nothing (before: .at() threw out of a slot, or an iterator ran past the row).
void TestUiLogic::malformedTracesReadNothingOutside() {
    CaptionTrace t = tinyTrace();
    QVERIFY(t.crossRow(1, 0, 0).empty()); // layer 1 of 1
    QVERIFY(t.crossRow(0, 2, 0).empty()); // head 2 of 2
    QVERIFY(t.crossRow(0, 0, 2).empty()); // step 2 of 2
    QCOMPARE(t.selfWeight(0, 3, 1, 0), 0.f);
    QCOMPARE(t.selfWeight(0, 0, 5, 1), 0.f);
    t.steps[1].crossAttn.resize(5); // head 1's row cut short
    QVERIFY(t.crossRow(0, 1, 1).empty());
    QCOMPARE(t.crossRow(0, 0, 1).size(), size_t(4));
    t.steps[1].selfAttn.resize(1);
    QCOMPARE(t.selfWeight(0, 1, 1, 1), 0.f);
}

void TestUiLogic::panelsKeepGoingOnMalformedTraces() {
    Selection selection;
    CaptionPanel caption(&selection);
    AttentionPanel attention(&selection);
    DecodePanel decode(&selection);
    CaptionView view;
    view.trace = tinyTrace();
    view.trace.steps[1].crossAttn.resize(3);
    view.trace.steps[1].selfAttn.resize(1);
    view.image = QImage(32, 32, QImage::Format_RGB32);
    view.image.fill(Qt::gray);
    selection.setLayerHead(0, 1);
    selection.setStep(1);
    caption.setView(view);
    attention.setView(view);
    decode.setView(view);
    decode.setBranch(CaptionTrace{}); // a branch that came back empty
    QVERIFY(decode.candidates().empty());
}

// The Decoding chart never offers <START> or <NULL> as the next word (nothing is trained to
// predict them), and names every candidate, in the top-k or not, by its word.
void TestUiLogic::decodingChartOffersOnlyWords() {
    Selection selection;
    DecodePanel decode(&selection);
    CaptionView view;
    view.trace = tinyTrace();
    view.model.vocab = {"<NULL>", "<START>", "<END>", "<UNK>", "red", "blue"};
    view.trace.steps[0].id = 4;
    view.trace.steps[0].logits = {9, 8, 1, 0.5f, 3, 2}; // the special tokens score highest
    view.trace.steps[1].id = 2;
    view.trace.steps[1].logits = {0, 0, 5, 0, 1, 1};
    decode.setView(view);
    selection.setStep(0);
    const auto c = decode.candidates();
    QVERIFY(!c.empty());
    QCOMPARE(c.front().first, QString("red"));
    QStringList words;
    for (const auto& [w, p] : c)
        words << w;
    QVERIFY2(!words.contains("<NULL>") && !words.contains("<START>") && !words.contains("0") &&
                 !words.contains("1"),
             qPrintable(words.join(' ')));
    QVERIFY2(words.contains("blue") && words.contains("<UNK>"), qPrintable(words.join(' ')));
}

// A lesson sets the map's opacity through the selection: the Caption panel's slider shows that
// value (before: it stayed at 0.75 while the map was drawn at the lesson's 0.29).
void TestUiLogic::opacitySliderShowsTheDrawnOpacity() {
    Selection selection;
    CaptionPanel caption(&selection);
    auto* slider = caption.findChild<QSlider*>();
    QVERIFY(slider);
    QCOMPARE(slider->value(), 75);
    selection.setOpacity(0.29);
    QCOMPARE(slider->value(), 29);
    slider->setValue(50); // and the slider still drives it
    QCOMPARE(selection.opacity(), 0.5);
}

CL_TEST_MAIN(TestUiLogic)
#include "tst_ui_logic.moc"
