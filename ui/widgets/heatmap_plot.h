#pragma once
// A QCustomPlot showing one attention matrix: crisp cells, token labels on both axes, an
// optional colour scale, and a hover read-out (query word, key word, weight).
#include <qcustomplot.h>

#include "ui/math/colormap.h"

#include <functional>

namespace cl::ui {

// Viridis for QCustomPlot (2.1.0 has no gpViridis), NaN cells (the causal mask) a light grey.
QCPColorGradient viridisGradient();

class HeatmapPlot final : public QCustomPlot {
    Q_OBJECT
  public:
    enum class Style { Thumbnail, Full };
    explicit HeatmapPlot(Style style, QWidget* parent = nullptr);

    // values: rows x cols row-major; NaN cells are drawn as the empty (masked) colour.
    // Never so small that a cell is under kMinCell logical pixels: the page scrolls instead.
    static constexpr int kMinCell = 6;
    QSize minimumSizeHint() const override;
    // The least size whatever the cells (not setMinimumSize: that would override the cells').
    void setLeastSize(QSize least) {
        m_least = least;
        updateGeometry();
    }
    // The cells' area never under side x side logical px, whatever the axes and title take.
    void setLeastMapSide(int side) {
        m_leastSide = side;
        updateGeometry();
    }
    void setMatrix(const std::vector<float>& values, int rows, int cols,
                   const QStringList& rowLabels, const QStringList& colLabels, ColourRange range);
    void setTitle(const QString& title);
    void setScaleLabel(const QString& label);
    void setAxisLabels(const QString& x, const QString& y); // Full style: query/key by default
    // Replaces the token read-out on hover (for numeric matrices such as the positional table).
    void setCellDescriber(std::function<QString(int row, int col, float value)> describe) {
        m_describe = std::move(describe);
    }
    void setHighlighted(bool on);
    void setHighlightRow(int row);           // the selected step, outlined; -1 none
    void setHighlightCell(int row, int col); // one cell outlined (a chosen pair); -1 none
    // Presenter mode: outline the cell under the pointer so the class sees what is pointed at.
    void setPointerHighlight(bool on);
    bool pointerCellVisible() const;
    // The hover text for cell (row, col), also used by tests.
    QString describeCell(int row, int col) const;
    QCPColorMap* colorMap() const { return m_map; }
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    // Where cell (row, col) is drawn, in widget pixels (tests click there).
    QPoint cellCenter(int row, int col) const;
    // The token labels actually shown on an axis (crowded axes show every k-th one).
    QStringList shownLabels(const QCPAxis* axis) const;
    QString title() const;
    // The outlined cells (a row or one cell) as (col, row, width, height); empty when none.
    QRect highlightedCells() const;

  signals:
    void clicked();
    void cellHovered(int row, int col);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QSize m_reportedMinimum, m_least;
    int m_leastSide = 0;
    void setLabels(QCPAxis* axis, const QStringList& labels);
    void fitTickLabels(); // rotate or thin out labels that would overlap at this size
    void fitTitle();      // break the title into lines that fit its cell
    QCPColorMap* m_map;
    QCPColorScale* m_scale = nullptr;
    QCPTextElement* m_title = nullptr;
    QString m_fullTitle;
    QCPItemRect* m_rowMarker = nullptr;
    QCPItemRect* m_pointerMarker = nullptr;
    bool m_pointerHighlight = false;
    std::vector<float> m_values;
    QStringList m_rowLabels, m_colLabels;
    std::function<QString(int, int, float)> m_describe;
    int m_rows = 0, m_cols = 0;
    Style m_style;
};

} // namespace cl::ui
