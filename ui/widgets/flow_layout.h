#pragma once
// A layout that places items left to right and wraps to new lines (after Qt's Flow Layout
// example), so a long caption's word chips never force the window wider.
#include <QLayout>

namespace cl::ui {

class FlowLayout final : public QLayout {
  public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override { m_items.append(item); }
    int count() const override { return m_items.size(); }
    QLayoutItem* itemAt(int i) const override { return m_items.value(i); }
    QLayoutItem* takeAt(int i) override {
        return i >= 0 && i < m_items.size() ? m_items.takeAt(i) : nullptr;
    }
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return place(QRect(0, 0, width, 0), false); }
    void setGeometry(const QRect& rect) override;
    QSize sizeHint() const override { return minimumSize(); }
    QSize minimumSize() const override;

  private:
    int place(const QRect& rect, bool apply) const;
    QList<QLayoutItem*> m_items;
    int m_spacing;
};

} // namespace cl::ui
