#include "ui/panels/qk_dialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace cl::ui {

namespace {

// A vector as a tooltip: its numbers, eight to a line.
QString vectorText(const QString& name, const std::vector<float>& v) {
    QString out = name + QStringLiteral(" (%1 numbers):").arg(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        out += (i % 8 == 0 ? QStringLiteral("\n") : QStringLiteral("  ")) +
               QString::number(v[i], 'f', 3);
    return out;
}

QTableWidgetItem* cell(const QString& text, const QString& tip, bool faded) {
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(tip);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (faded)
        item->setForeground(QColor(150, 150, 150));
    return item;
}

} // namespace

QkDialog::QkDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Q \u00b7 K walkthrough"));
    // A window takes the application's font unless told to follow its parent's: presenter
    // mode's larger font (and its return to normal) reaches the dialog this way.
    setAttribute(Qt::WA_WindowPropagation);
    m_kind = new QComboBox(this);
    m_kind->addItems({tr("Self-attention over the words"), tr("Cross-attention over the image")});
    m_heading = new QLabel(this);
    m_heading->setWordWrap(true);
    m_formula = new QLabel(this);
    m_formula->setWordWrap(true);
    m_table = new QTableWidget(0, 4, this);
    m_table->setHorizontalHeaderLabels(
        {tr("Key"), tr("q \u00b7 k"), tr("\u00f7 \u221a(W/H)"), tr("Weight")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // The key's name whole ("row 1, column 2" was cut in presenter mode), rows as high as
    // their text at any font.
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Attention"), this));
    top->addWidget(m_kind, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_heading);
    layout->addWidget(m_formula);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    resize(560, 560);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_options.cross = i == 1;
        request();
    });
}

WalkthroughOptions QkDialog::options() const {
    return m_options;
}

QString QkDialog::summary() const {
    return m_summary->text();
}

void QkDialog::setQuery(int64_t step, const QString& token, int64_t layer, int64_t head) {
    m_options.step = step;
    m_options.layer = layer;
    m_options.head = head;
    m_token = token;
    request();
}

void QkDialog::request() {
    m_heading->setText(tr("Layer %1, head %2: the query of word %3, \u201c%4\u201d\u2026")
                           .arg(m_options.layer + 1)
                           .arg(m_options.head + 1)
                           .arg(m_options.step + 1)
                           .arg(m_token));
    emit walkthroughRequested(m_options);
}

void QkDialog::setResult(const AttentionWalkthrough& w) {
    const auto& o = w.options;
    if (o.step != m_options.step || o.layer != m_options.layer || o.head != m_options.head ||
        o.cross != m_options.cross)
        return; // an answer about another query
    m_heading->setText(tr("Layer %1, head %2: the query of word %3, \u201c%4\u201d (hover a row "
                          "for its key and value vectors, the heading for the query's).")
                           .arg(o.layer + 1)
                           .arg(o.head + 1)
                           .arg(o.step + 1)
                           .arg(m_token));
    m_heading->setToolTip(vectorText(tr("query q"), w.query));
    m_formula->setText(tr("score = q \u00b7 k \u00f7 \u221a(W/H) = q \u00b7 k \u00f7 %1; "
                          "weight = softmax of the scores%2.")
                           .arg(w.scale, 0, 'f', 3)
                           .arg(o.cross ? QString() : tr(" over the words so far (later words "
                                                         "are masked)")));
    m_table->setRowCount(int(w.dots.size()));
    for (size_t k = 0; k < w.dots.size(); ++k) {
        const bool masked = w.masked[k];
        const QString tip = vectorText(tr("key k"), w.keys[k]) + "\n\n" +
                            vectorText(tr("value v"), w.values[k]);
        auto* key = cell(QString::fromStdString(w.keyLabels[k]), tip, masked);
        key->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        m_table->setItem(int(k), 0, key);
        m_table->setItem(int(k), 1, cell(QString::number(w.dots[k], 'f', 3), tip, masked));
        m_table->setItem(int(k), 2,
                         cell(masked ? tr("masked") : QString::number(w.scaled[k], 'f', 3), tip,
                              masked));
        m_table->setItem(int(k), 3,
                         cell(masked ? QStringLiteral("0") : QString::number(w.weights[k], 'f', 4),
                              tip, masked));
    }
    const double share = w.blockNorm > 0 ? 100 * w.contributionNorm / w.blockNorm : 0;
    m_summary->setText(
        w.headOff ? tr("This head is switched off (Heads tab): it adds nothing.")
                  : tr("\u03a3 weight \u00d7 v is a vector of %1 numbers; through the output "
                       "projection the head adds a vector of length %2 to the block's output "
                       "of length %3 (%4 %). Computed in %5 ms.")
                        .arg(w.output.size())
                        .arg(w.contributionNorm, 0, 'f', 3)
                        .arg(w.blockNorm, 0, 'f', 3)
                        .arg(share, 0, 'f', 0)
                        .arg(w.milliseconds, 0, 'f', 1));
    m_summary->setToolTip(vectorText(tr("\u03a3 weight \u00d7 v"), w.output));
}

void QkDialog::setFailed(const QString& message) {
    m_summary->setText(tr("Could not walk through: %1").arg(message));
}

} // namespace cl::ui
