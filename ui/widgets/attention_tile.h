#pragma once
// An image with an attention map drawn over it and a caption line under it. Scales to its size
// keeping the aspect ratio; click to select.
#include "ui/math/colormap.h"

#include <QWidget>

namespace cl::ui {

class AttentionTile final : public QWidget {
    Q_OBJECT
  public:
    explicit AttentionTile(QWidget* parent = nullptr);

    // grid: side x side weights (empty: the plain image).
    void setContent(const QImage& image, const std::vector<float>& grid, const GridMap& cells,
                    double opacity, ColourRange range, const QString& title);
    void setHighlighted(bool on);
    void setTitleFont(const QFont& font);
    const QImage& composed() const { return m_composed; }
    QString title() const { return m_title; }
    bool titleFits() const; // the title is drawn whole, not elided
    QSize sizeHint() const override { return {160, 180}; }
    // The image never drawn smaller than side x side logical px (a map on a projector): the
    // tile's minimum keeps room for that and a two-line title, in the tile's current font.
    void setLeastMapSide(int side);
    QRect mapRect() const { return imageRect(); } // where the image is drawn; empty when none

  signals:
    void clicked();
    void clickedAt(double fx, double fy); // position in the image, as fractions of its size

  protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent*) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QRect imageRect() const;
    QRect titleBounds() const;
    int titleHeight() const;
    QImage m_composed;
    QImage m_scaled; // the source at display size (cached by the source's cacheKey)
    qint64 m_sourceKey = 0;
    int m_scaledLimit = 0;
    QString m_title;
    bool m_highlighted = false;
    int m_leastSide = 0;
};

} // namespace cl::ui
