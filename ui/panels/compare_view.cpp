// ComparePanel: filling the views from a comparison result.
#include "ui/math/attention_math.h"
#include "ui/panels/compare_panel.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"

#include <QComboBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QScrollBar>
#include <QSlider>
#include <QStackedWidget>
#include <QTableWidget>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {

// A course model's stored val figures (eval --data --store), so two checkpoints over training
// compare on the figures students know.
QString courseFigures(const Metadata& meta) {
    const QJsonObject e =
        QJsonDocument::fromJson(QByteArray::fromStdString(meta.evalJson)).object();
    if (!e.value("bleu1").isDouble() || !e.value("loss").isDouble())
        return {};
    return QObject::tr(" · val BLEU-1 %1, BLEU-4 %2, exact %3 %, loss %4")
        .arg(e.value("bleu1").toDouble(), 0, 'f', 3)
        .arg(e.value("bleu4").toDouble(), 0, 'f', 3)
        .arg(100 * e.value("exact").toDouble(), 0, 'f', 1)
        .arg(e.value("loss").toDouble(), 0, 'f', 3);
}

QString modelName(const CompareResult& r, int i) {
    const auto& meta = r.models[size_t(i)].meta;
    QString name = QFileInfo(r.paths[i]).fileName();
    if (meta.steps > 0)
        name += QObject::tr(" (%1 steps)").arg(meta.steps);
    return name + courseFigures(meta);
}

QString letter(int i) {
    return QString(QChar('A' + i % 26));
}

std::vector<std::string> wordsOf(const CaptionTrace& t) {
    return t.words();
}

QTableWidgetItem* probItem(const CaptionTrace& trace, size_t t, bool known) {
    if (t >= trace.steps.size())
        return new QTableWidgetItem;
    if (!known)
        return new QTableWidgetItem(QObject::tr("— not in vocabulary"));
    const float p = trace.steps[t].prob;
    auto* item = new QTableWidgetItem(QString::number(p, 'f', 3));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // Low probabilities tinted: where a model would not have said the other's word.
    const int shade = int(std::lround(255 - 90 * (1.0 - p)));
    item->setBackground(QColor(255, shade, shade));
    return item;
}

QStringList headLabels(const CaptionTrace& t) {
    QStringList out;
    for (int l = 0; l < t.layers; ++l)
        for (int h = 0; h < t.heads; ++h)
            out << headName(l, h);
    return out;
}

} // namespace

void ComparePanel::fillHeads() {
    m_headBoxA->clear();
    m_headBoxB->clear();
    if (!pairReady()) { // keep the choice (a lesson sets it before its comparison arrives)
        m_stepSlider->setRange(0, 0);
        m_stepLabel->clear();
        return;
    }
    const QStringList a = headLabels(traceA()), b = headLabels(traceB());
    m_headBoxA->addItems(a);
    m_headBoxB->addItems(b);
    m_headA = std::clamp(m_headA, 0, std::max(0, int(a.size()) - 1));
    m_headB = std::clamp(m_headB, 0, std::max(0, int(b.size()) - 1));
    m_headBoxA->setCurrentIndex(m_headA);
    m_headBoxB->setCurrentIndex(m_headB);
    const int steps = int(traceA().steps.size());
    m_step = std::clamp(m_step, 0, steps - 1);
    m_stepSlider->setRange(0, steps - 1);
    m_stepSlider->setValue(m_step);
    m_stepLabel->setText(QString::fromStdString(traceA().steps[size_t(m_step)].token));
}

void ComparePanel::fillCaptions() {
    QStringList lines;
    const int n = int(m_result.paths.size());
    const bool haveA = m_a < n && m_result.ok(m_a);
    for (int i = 0; i < n; ++i) {
        QString line = QStringLiteral("<b>%1</b> %2: ").arg(letter(i), modelName(m_result, i));
        if (!m_result.ok(i)) {
            lines << line + QStringLiteral("<i style='color:#b2182b'>%1</i>")
                                .arg(m_result.error(i).toHtmlEscaped());
            continue;
        }
        const auto words = wordsOf(m_result.runs[size_t(i)].own);
        // Words differing from A are marked (A itself against B).
        const int other = i == m_a ? m_b : m_a;
        std::vector<bool> marks(words.size(), false);
        if (haveA && other < n && other != i && m_result.ok(other))
            marks = diffWords(words, wordsOf(m_result.runs[size_t(other)].own)).first;
        QStringList html;
        for (size_t w = 0; w < words.size(); ++w) {
            const QString word = QString::fromStdString(words[w]).toHtmlEscaped();
            html << (marks[w] ? QStringLiteral("<span style='background:#fdd49e;"
                                               "color:#7f2704'><u>%1</u></span>")
                                    .arg(word)
                              : word);
        }
        lines << line + (html.isEmpty() ? tr("<i>(empty caption)</i>") : html.join(' '));
    }
    if (n == 0)
        lines << tr("Add two or more checkpoints (the first one may be the open model) to "
                    "caption the image with each and compare them.");
    m_captions->setText(lines.join(QStringLiteral("<br>")));
}

void ComparePanel::fillTable() {
    m_table->clear();
    if (!pairReady()) {
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        return;
    }
    const auto& runA = m_result.runs[size_t(m_a)];
    const auto& runB = m_result.runs[size_t(m_b)];
    const QString a = letter(m_a), b = letter(m_b);
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels({tr("%1's words").arg(a), tr("P %1").arg(a),
                                        tr("P %1").arg(b), tr("%1's words").arg(b),
                                        tr("P %1").arg(a), tr("P %1").arg(b)});
    const size_t rows = std::max(runA.own.steps.size(), runB.own.steps.size());
    m_table->setRowCount(int(rows));
    const auto [marksA, marksB] = diffWords(wordsOf(runA.own), wordsOf(runB.own));
    auto word = [](const CaptionTrace& t, size_t i, const std::vector<bool>& marks) {
        auto* item = new QTableWidgetItem(
            i < t.steps.size() ? QString::fromStdString(t.steps[i].token) : QString());
        if (i < marks.size() && marks[i]) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
            item->setBackground(QColor(0xfd, 0xd4, 0x9e));
        }
        return item;
    };
    auto known = [](const ModelRun& run, int j, size_t t) {
        const auto& k = run.known[size_t(j)];
        return t < k.size() && k[t];
    };
    for (size_t t = 0; t < rows; ++t) {
        m_table->setItem(int(t), 0, word(runA.own, t, marksA));
        m_table->setItem(int(t), 1, probItem(runA.own, t, true));
        m_table->setItem(int(t), 2, probItem(runB.forced[size_t(m_a)], t, known(runB, m_a, t)));
        m_table->setItem(int(t), 3, word(runB.own, t, marksB));
        m_table->setItem(int(t), 4, probItem(runA.forced[size_t(m_b)], t, known(runA, m_b, t)));
        m_table->setItem(int(t), 5, probItem(runB.own, t, true));
    }
    m_table->resizeColumnsToContents();
    // Every column shown: the splitter gives the maps less room rather than cut the table.
    int width = 2 * m_table->frameWidth();
    for (int c = 0; c < m_table->columnCount(); ++c)
        width += m_table->columnWidth(c);
    m_table->setMinimumWidth(width + m_table->verticalScrollBar()->sizeHint().width());
    foldTable();
    m_table->selectRow(m_step);
}

// The selected pair's rows at the selected step; cross-attention over grids of different sides
// on their common refinement (where the divergence is measured). `common`: that side, or 0.
std::pair<std::vector<float>, std::vector<float>> ComparePanel::pairRows(int64_t* common) const {
    const auto& ta = traceA();
    const auto& tb = traceB();
    auto p = attentionRow(ta, m_kind, m_headA / ta.heads, m_headA % ta.heads, m_step);
    auto q = attentionRow(tb, m_kind, m_headB / tb.heads, m_headB % tb.heads, m_step);
    const int64_t side = m_kind == AttentionKind::Cross && ta.gridSide > 0 && tb.gridSide > 0
                             ? commonGridSide(ta.memoryTokens, tb.memoryTokens)
                             : 0;
    if (side > 0) {
        p = refinedRow(p, ta.gridSide, side);
        q = refinedRow(q, tb.gridSide, side);
    }
    if (common)
        *common = side;
    return {p, q};
}

double ComparePanel::pairDivergence() const {
    if (!pairReady() || size_t(m_step) >= traceB().steps.size())
        return 0.0;
    const auto [p, q] = pairRows();
    return !p.empty() && p.size() == q.size() ? jensenShannon(p.data(), q.data(), p.size()) : 0.0;
}

void ComparePanel::fillAttention() {
    m_divergence = pairReady() ? headDivergence(traceA(), traceB(), m_kind) : HeadDivergence{};
    const QString a = letter(m_a), b = letter(m_b);
    if (!m_divergence.values.empty()) {
        std::vector<float> values(m_divergence.values.begin(), m_divergence.values.end());
        const float top = *std::max_element(values.begin(), values.end());
        m_jsd->setMatrix(values, int(m_divergence.rows), int(m_divergence.cols),
                         headLabels(traceA()), headLabels(traceB()),
                         ColourRange{0.0, std::max(0.05, double(top))});
        m_jsd->setTitle(tr("JSD of head pairs\n(click a cell)")); // Jensen-Shannon, in bits
        m_jsd->setCellDescriber(
            [a, b, la = headLabels(traceA()), lb = headLabels(traceB())](int r, int c, float v) {
                return QObject::tr("%1 %2 vs %3 %4: %5 bits")
                    .arg(a, la.value(r), b, lb.value(c))
                    .arg(v, 0, 'f', 3);
            });
        m_jsd->setHighlightCell(m_headA, m_headB);
    } else {
        m_jsd->setMatrix({}, 0, 0, {}, {}, ColourRange{});
        m_jsd->setTitle(QString::fromStdString(m_divergence.reason));
    }
    if (!pairReady() || size_t(m_step) >= traceB().steps.size())
        return clearMaps(); // nothing to compare: no maps of an earlier pair stay on screen
    const auto& ta = traceA();
    const auto& tb = traceB();
    int64_t common = 0; // grids of different sides are drawn on their common refinement
    const auto [p, q] = pairRows(&common);
    if (p.empty() || q.size() != p.size())
        return clearMaps(); // a step either trace holds no row for
    const QString js = tr("JSD %1").arg(pairDivergence(), 0, 'f', 2);
    const QString nameA = a + " " + headName(m_headA / ta.heads, m_headA % ta.heads);
    const QString nameB = b + " " + headName(m_headB / tb.heads, m_headB % tb.heads);
    const bool spatial = common > 0 && !m_image.isNull();
    if (spatial) {
        GridMap side = unitGridMap(ta, m_image); // A's square, cut into the common cells
        side.cellW *= double(side.grid) / double(common);
        side.cellH *= double(side.grid) / double(common);
        side.grid = common;
        std::vector<float> diff(p.size());
        float worst = 0.f;
        for (size_t i = 0; i < p.size(); ++i) {
            diff[i] = p[i] - q[i];
            worst = std::max(worst, std::abs(diff[i]));
        }
        // One scale for both, up to the larger peak: A and B compare, and neither is a faint glow.
        const float peak =
            std::max(*std::max_element(p.begin(), p.end()), *std::max_element(q.begin(), q.end()));
        const ColourRange both{0.0, std::max(1e-6, double(peak))};
        m_tileA->setContent(m_image, p, side, m_opacity->value(), both, nameA);
        m_tileB->setContent(m_image, q, side, m_opacity->value(), both, nameB);
        m_tileDiff->setContent(differenceOverlay(m_image, diff, side, std::max(0.05f, worst)), {},
                               {}, 0, {}, tr("%1 − %2 · %3").arg(a, b, js));
        m_maps->setCurrentIndex(0);
        return;
    }
    std::vector<float> rows(p.begin(), p.end());
    rows.insert(rows.end(), q.begin(), q.end());
    QStringList keys = m_kind == AttentionKind::Self ? inputTokens(ta).mid(0, int(p.size()))
                                                     : QStringList{tr("memory")};
    m_selfPlot->setMatrix(rows, 2, int(p.size()), {nameA, nameB}, keys, ColourRange{0, 1});
    m_selfPlot->setTitle(tr("Word %1 \"%2\": %3")
                             .arg(m_step + 1)
                             .arg(QString::fromStdString(ta.steps[size_t(m_step)].token), js));
    m_maps->setCurrentIndex(1);
}

void ComparePanel::clearMaps() {
    for (AttentionTile* tile : {m_tileA, m_tileB, m_tileDiff})
        tile->setContent(m_image, {}, {}, 0, {}, QString());
    m_selfPlot->setMatrix({}, 0, 0, {}, {}, ColourRange{});
    m_selfPlot->setTitle(QString());
}

bool ComparePanel::showsMaps() const {
    return !m_tileA->title().isEmpty() || !m_tileB->title().isEmpty() ||
           !m_tileDiff->title().isEmpty() || m_selfPlot->rows() > 0;
}

void ComparePanel::fillNote() {
    QStringList notes;
    const int n = int(m_result.paths.size());
    if (n == 1)
        notes << tr("Add a second checkpoint to compare.");
    if (pairReady()) {
        const auto& ca = m_result.models[size_t(m_a)].config;
        const auto& cb = m_result.models[size_t(m_b)].config;
        if (ca.numLayers != cb.numLayers || ca.numHeads != cb.numHeads)
            notes << tr("A has %1 layers × %2 heads, B %3 × %4: heads have no one-to-one match, "
                        "so every pair is compared.")
                         .arg(ca.numLayers)
                         .arg(ca.numHeads)
                         .arg(cb.numLayers)
                         .arg(cb.numHeads);
        if (!m_divergence.reason.empty())
            notes << tr("Attention: %1.").arg(QString::fromStdString(m_divergence.reason));
        const auto& known = m_result.runs[size_t(m_b)].known[size_t(m_a)];
        const int missing = int(std::count(known.begin(), known.end(), false));
        if (missing > 0)
            notes << tr("%1 of A's words are not in B's vocabulary: B reads them as <UNK>, "
                        "their probabilities are not shown.")
                         .arg(missing);
        if (m_result.runs[size_t(m_b)].forced[size_t(m_a)].steps.size() < traceA().steps.size())
            notes << tr("B scores only the first %1 words of A's caption (its maximum length).")
                         .arg(traceB().steps.size());
    }
    m_note->setText(notes.join("\n\n"));
}

QString ComparePanel::captionsText() const {
    return m_captions->text();
}

QString ComparePanel::noteText() const {
    return m_note->text();
}

} // namespace cl::ui
