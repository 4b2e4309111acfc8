#pragma once
// A QCustomPlot showing one attention matrix: crisp cells, token labels on both axes, an
// optional colour scale, and a hover read-out (query word, key word, weight).
#include <qcustomplot.h>

#include "colormap.h"

namespace cl::ui {

class HeatmapPlot final : public QCustomPlot {
    Q_OBJECT
public:
    enum class Style { Thumbnail, Full };
    explicit HeatmapPlot(Style style, QWidget* parent = nullptr);

    // values: rows x cols row-major; NaN cells are drawn as the empty (masked) colour.
    void setMatrix(const std::vector<float>& values, int rows, int cols, const QStringList& rowLabels,
                   const QStringList& colLabels, ColourRange range);
    void setTitle(const QString& title);
    void setHighlighted(bool on);
    void setHighlightRow(int row);  // the selected step, outlined; -1 none
    // The hover text for cell (row, col), also used by tests.
    QString describeCell(int row, int col) const;
    QCPColorMap* colorMap() const { return m_map; }
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }

signals:
    void clicked();
    void cellHovered(int row, int col);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void setLabels(QCPAxis* axis, const QStringList& labels);
    QCPColorMap* m_map;
    QCPColorScale* m_scale = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPItemRect* m_rowMarker = nullptr;
    std::vector<float> m_values;
    QStringList m_rowLabels, m_colLabels;
    int m_rows = 0, m_cols = 0;
    Style m_style;
};

}  // namespace cl::ui
