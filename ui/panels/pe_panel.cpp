#include "ui/panels/pe_panel.h"

#include "ui/math/attention_math.h"
#include "ui/math/pe_math.h"
#include "ui/widgets/attention_tile.h"
#include "ui/widgets/heatmap_plot.h"
#include "ui/widgets/opacity_slider.h"

#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace cl::ui {

PePanel::PePanel(QWidget* parent) : QWidget(parent) {
    m_positions = new QSpinBox(this);
    m_positions->setRange(2, 512);
    m_positions->setValue(20);
    m_width = new QSpinBox(this);
    m_width->setRange(2, 1024);
    m_width->setSingleStep(2);
    m_width->setValue(128);
    m_metric = new QComboBox(this);
    m_metric->addItems({tr("cosine"), tr("dot product")});
    m_dims = new QLineEdit(QStringLiteral("0, 1, 8, 32"), this);
    m_dims->setToolTip(tr("Dimensions to plot against position, comma separated"));
    m_ablate = new QPushButton(tr("Caption without positional encoding"), this);
    m_ablation = new QLabel(this);
    m_ablation->setWordWrap(true);
    m_formula = new QLabel(this); // a label wraps where a plot title would be cut
    m_formula->setWordWrap(true);
    m_formula->setTextFormat(Qt::RichText);
    m_table = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_table->xAxis->setLabel(tr("dimension"));
    m_table->yAxis->setLabel(tr("position"));
    m_table->setScaleLabel(tr("value"));
    m_table->setCellDescriber([](int r, int c, float v) {
        return tr("position %1, dimension %2 (%3): %4")
            .arg(r)
            .arg(c)
            .arg(c % 2 ? "cos" : "sin")
            .arg(double(v), 0, 'f', 4);
    });
    m_similarity = new HeatmapPlot(HeatmapPlot::Style::Full, this);
    m_similarity->xAxis->setLabel(tr("position"));
    m_similarity->yAxis->setLabel(tr("position"));
    m_similarity->setScaleLabel(tr("similarity"));
    m_similarity->setCellDescriber([](int r, int c, float v) {
        return tr("positions %1 and %2: %3").arg(r).arg(c).arg(double(v), 0, 'f', 4);
    });
    m_lines = new QCustomPlot(this);
    m_lines->xAxis->setLabel(tr("position"));
    m_lines->yAxis->setLabel(tr("value"));
    m_lines->legend->setVisible(true);
    m_lines->setMinimumHeight(200);
    m_grid = new AttentionTile(this);
    m_grid->setMinimumSize(200, 200);
    m_opacity = new OpacitySlider(this, 0.8);
    connect(m_opacity, &OpacitySlider::changed, this, [this] { redrawGrid(); });

    auto* controls = new QHBoxLayout;
    for (auto [label, w] :
         std::initializer_list<std::pair<QString, QWidget*>>{{tr("Positions"), m_positions},
                                                             {tr("Width"), m_width},
                                                             {tr("Similarity"), m_metric},
                                                             {tr("Plot dimensions"), m_dims}}) {
        controls->addWidget(new QLabel(label, this));
        controls->addWidget(w);
    }
    controls->addStretch();
    controls->addWidget(m_ablate);
    auto* gridBox = new QGroupBox(tr("Image grid 2D code: click a cell"), this);
    auto* gridColumn = new QVBoxLayout(gridBox);
    gridColumn->addWidget(m_grid, 1);
    gridColumn->addWidget(m_opacity);
    auto* layout = new QGridLayout(this);
    layout->addLayout(controls, 0, 0, 1, 3);
    layout->addWidget(m_ablation, 1, 0, 1, 3);
    layout->addWidget(m_formula, 4, 0, 1, 3);
    layout->addWidget(m_table, 2, 0);
    layout->addWidget(m_similarity, 2, 1, 1, 2);
    layout->addWidget(m_lines, 3, 0, 1, 2);
    layout->addWidget(gridBox, 3, 2);
    layout->setColumnStretch(0, 3); // the table half the width, like the similarity
    layout->setColumnStretch(1, 1);
    layout->setColumnStretch(2, 2);
    layout->setRowStretch(2, 3);
    layout->setRowStretch(3, 2);
    setMinimumSize(560, 400); // its tab page scrolls below this (a 1024 x 600 screen fits)

    for (auto* spin : {m_positions, m_width})
        connect(spin, &QSpinBox::valueChanged, this, &PePanel::redraw);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &PePanel::redraw);
    connect(m_dims, &QLineEdit::editingFinished, this, &PePanel::redraw);
    connect(m_ablate, &QPushButton::clicked, this, [this] {
        m_ablation->setText(tr("Captioning without positional encoding…"));
        emit ablationRequested();
    });
    connect(m_grid, &AttentionTile::clickedAt, this, [this](double fx, double fy) {
        const int cell = cellAt(unitGridMap(m_view.trace, m_view.image), fx, fy);
        if (cell >= 0)
            selectCell(cell);
    });
    redraw();
}

void PePanel::setView(const CaptionView& view) {
    const bool newModel = view.model.path != m_view.model.path;
    m_view = view;
    m_ablation->clear();
    if (newModel)
        setSize(int(view.model.config.maxLength), int(view.model.config.wordvecDim));
    redrawGrid();
}

void PePanel::setSize(int positions, int width) {
    const QSignalBlocker a(m_positions), b(m_width);
    m_positions->setValue(positions);
    m_width->setValue(width - width % 2);
    redraw();
}

void PePanel::setAblation(const CaptionTrace& withoutPe) {
    m_ablation->setText(tr("<b>With</b> positional encoding: %1<br><b>Without</b>: %2")
                            .arg(QString::fromStdString(m_view.trace.text()),
                                 QString::fromStdString(withoutPe.text())));
}

QString PePanel::ablationText() const {
    return m_ablation->text();
}

std::vector<int> PePanel::chosenDims() const {
    std::vector<int> dims;
    for (const auto& part : m_dims->text().split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int d = part.trimmed().toInt(&ok);
        if (ok && d >= 0 && d < m_width->value() && dims.size() < 8)
            dims.push_back(d);
    }
    return dims;
}

void PePanel::redraw() {
    const int n = m_positions->value(), w = m_width->value() - m_width->value() % 2;
    const auto pe = positionalTable(n, w);
    m_table->setMatrix(pe, n, w, {}, {}, {-1, 1});
    m_table->setTitle(tr("The table, W = %1").arg(w));
    m_formula->setText(tr("<b>PE</b>[pos, 2i] = sin(pos · 10000<sup>−2i/W</sup>), "
                          "<b>PE</b>[pos, 2i+1] = cos(pos · 10000<sup>−2i/W</sup>), W = %1")
                           .arg(w));
    const bool cosine = m_metric->currentIndex() == 0;
    const auto sim = positionSimilarity(pe, n, w, cosine);
    m_similarity->setMatrix(sim, n, n, {}, {}, colourRange(sim, !cosine));
    m_similarity->setTitle(cosine ? tr("Cosine similarity") : tr("Dot product"));
    m_lines->clearGraphs();
    const auto dims = chosenDims();
    for (size_t k = 0; k < dims.size(); ++k) {
        auto* g = m_lines->addGraph();
        QVector<double> x, y;
        for (int p = 0; p < n; ++p) {
            x << p;
            y << pe[size_t(p) * w + dims[k]];
        }
        g->setData(x, y);
        g->setPen(QPen(viridis(dims.size() > 1 ? double(k) / (dims.size() - 1) * 0.85 : 0.3), 2));
        g->setName(tr("dim %1 (%2)").arg(dims[k]).arg(dims[k] % 2 ? "cos" : "sin"));
    }
    m_lines->xAxis->setRange(0, n - 1);
    m_lines->yAxis->setRange(-1.1, 1.1);
    m_lines->replot(QCustomPlot::rpQueuedReplot);
}

void PePanel::selectCell(int cell) {
    m_cell = cell;
    redrawGrid();
}

void PePanel::redrawGrid() {
    const int g = int(m_view.trace.gridSide);
    if (g <= 0 || m_view.image.isNull()) {
        m_grid->setContent(QImage(), {}, {}, 0, {}, QString());
        m_grid->setToolTip(tr("This model has no image grid (one feature token)."));
        return;
    }
    const int width = int(m_view.model.config.inputDim);
    m_cell = std::clamp(m_cell, 0, g * g - 1);
    const auto sim = cellSimilarity(gridCode(g, width), g * g, width, m_cell);
    m_grid->setContent(m_view.image, sim, unitGridMap(m_view.trace, m_view.image), m_opacity->value(),
                       colourRange(sim, true),
                       tr("cell (%1, %2) vs every cell, cosine").arg(m_cell / g).arg(m_cell % g));
}

} // namespace cl::ui
