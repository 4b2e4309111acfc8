#include "ui/panels/beam_panel.h"
#include "ui/widgets/world_notice.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cl::ui {

namespace {

// What a set of results belongs to: the input, the model and the heads switched off.
QString keyOf(const CaptionView& v) {
    return v.imageName + '\n' + QString::fromStdString(v.model.path) + '\n' +
           QString::number(v.headsOff);
}

QString logProbText(double lp) {
    return QString::number(lp, 'f', 3).replace('-', QChar(0x2212));
}

} // namespace

BeamPanel::BeamPanel(QWidget* parent) : QWidget(parent) {
    auto* controls = new QHBoxLayout;
    m_width = new QSpinBox(this);
    m_width->setRange(1, 10);
    m_width->setValue(3);
    m_width->setToolTip(tr("Hypotheses kept each step (1 is greedy decoding)"));
    m_penalty = new QDoubleSpinBox(this);
    m_penalty->setRange(0.0, 2.0);
    m_penalty->setSingleStep(0.1);
    m_penalty->setToolTip(tr("Length penalty alpha: score = log P / ((5 + length) / 6)^alpha"));
    m_search = new QPushButton(tr("&Search"), this);
    m_greedy = new QPushButton(tr("Back to &greedy"), this);
    m_greedy->setEnabled(false);
    controls->addWidget(new QLabel(tr("Beam width K"), this));
    controls->addWidget(m_width);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Length penalty"), this));
    controls->addWidget(m_penalty);
    controls->addSpacing(12);
    controls->addWidget(m_search);
    controls->addWidget(m_greedy);
    controls->addStretch(1);

    m_status = new QLabel(tr("Open an image, then search."), this);
    m_status->setWordWrap(true);
    m_list = new QListWidget(this);
    m_list->setToolTip(tr("Click a hypothesis to show it, with its attention, in every panel"));
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Token"), tr("log P (cumulative)")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("Every candidate the beam weighed: kept (normal), finished (bold), "
                          "pruned (faded)"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(m_tree);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    m_world = new WorldNotice(this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_world);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_search, &QPushButton::clicked, this, &BeamPanel::search);
    connect(m_greedy, &QPushButton::clicked, this, [this] { emit hypothesisChosen({}); });
    connect(m_list, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { choose(m_list->row(item)); });
}

BeamOptions BeamPanel::options() const {
    return BeamOptions{m_width->value(), m_penalty->value()};
}

QString BeamPanel::greedyText() const {
    return m_greedyText;
}

QString BeamPanel::worldNotice() const {
    return m_world->notice();
}

void BeamPanel::setView(const CaptionView& view) {
    m_valid = view.valid();
    m_world->showFor(view.trace); // the image's, whichever hypothesis is on screen
    const QString key = keyOf(view);
    const bool forced = std::any_of(view.trace.steps.begin(), view.trace.steps.end(),
                                    [](const DecodeStep& s) { return s.forced; });
    if (key == m_viewKey)
        return; // a hypothesis of this input shown, or the same caption again
    m_viewKey = key;
    m_greedyText = forced ? QString() : QString::fromStdString(view.trace.text());
    m_greedy->setEnabled(false);
    if (m_resultKey != key) {
        m_hypotheses.clear();
        m_list->clear();
        m_tree->clear();
        m_status->setText(m_valid ? tr("Greedy: %1").arg(m_greedyText)
                                  : tr("Open an image, then search."));
        if (m_valid && isVisible())
            search();
    }
}

void BeamPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_valid && m_resultKey != m_viewKey)
        search();
}

void BeamPanel::search() {
    if (!m_valid)
        return;
    m_resultKey = m_viewKey;
    m_status->setText(tr("Searching with K = %1…").arg(m_width->value()));
    emit searchRequested(options());
}

void BeamPanel::setResult(const BeamCaption& result) {
    m_hypotheses = result.beam.hypotheses;
    fillList();
    fillTree(result.beam);
    const bool differs =
        !m_hypotheses.empty() && QString::fromStdString(m_hypotheses.front().text()) != m_greedyText;
    m_status->setText(tr("Greedy: %1\nBeam (K = %2): %3%4")
                          .arg(m_greedyText, QString::number(m_width->value()),
                               m_hypotheses.empty()
                                   ? QString()
                                   : QString::fromStdString(m_hypotheses.front().text()),
                               differs ? tr("  (differs from greedy)") : QString()));
}

void BeamPanel::fillList() {
    m_list->clear();
    for (size_t i = 0; i < m_hypotheses.size(); ++i) {
        const auto& h = m_hypotheses[i];
        auto* item = new QListWidgetItem(
            tr("%1.  %2    log P %3, score %4%5")
                .arg(i + 1)
                .arg(QString::fromStdString(h.text()), logProbText(h.logProb),
                     logProbText(h.score),
                     h.finished ? QString() : tr(" (cut at the length limit)")),
            m_list);
        item->setToolTip(tr("Show this hypothesis in every panel"));
    }
}

void BeamPanel::fillTree(const BeamResult& beam) {
    m_tree->clear();
    auto* root = new QTreeWidgetItem(m_tree, {QStringLiteral("<START>"), logProbText(0)});
    std::vector<QTreeWidgetItem*> previous{root};
    for (const auto& step : beam.tree) {
        std::vector<QTreeWidgetItem*> kept;
        for (const auto& n : step) {
            auto* parent = previous[size_t(std::clamp<int64_t>(n.parent, 0,
                                                               int64_t(previous.size()) - 1))];
            auto* item = new QTreeWidgetItem(
                parent, {QString::fromStdString(n.token), logProbText(n.logProb)});
            if (n.finished) {
                QFont bold = item->font(0);
                bold.setBold(true);
                item->setFont(0, bold);
                item->setFont(1, bold);
            } else if (!n.kept) {
                for (int c = 0; c < 2; ++c)
                    item->setForeground(c, palette().color(QPalette::Disabled, QPalette::Text));
            }
            if (n.kept)
                kept.push_back(item);
        }
        if (kept.empty())
            break;
        previous = kept;
    }
    m_tree->expandAll();
}

void BeamPanel::choose(int row) {
    if (row < 0 || row >= int(m_hypotheses.size()))
        return;
    m_greedy->setEnabled(true);
    emit hypothesisChosen(m_hypotheses[size_t(row)].ids);
}

} // namespace cl::ui
