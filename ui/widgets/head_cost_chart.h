#pragma once
// What switching each head off alone costs (issue 18 part 5; model/api/head_importance.h), one
// column per head: the drop in the caption's log-probability on the input on screen (blue;
// orange when the greedy caption changes without the head) and, when the checkpoint stores them,
// the mean over held-out scenes (grey). Columns follow the model's order or, sorted, the input's
// drop. A click anywhere in a head's column asks to switch that head (headClicked). Columns
// share the panel's width, so the chart takes whatever height the page has.
#include <QStringList>
#include <qcustomplot.h>

#include <vector>

namespace cl::ui {

struct HeadCosts {
    QStringList names;           // per head, in DecodeOptions::headsOff order
    std::vector<double> drop;    // nats, on this input
    std::vector<bool> changes;   // the caption changes without the head
    std::vector<double> heldOut; // mean over held-out scenes; empty when unknown
    int heldOutScenes = 0;
};

class HeadCostChart final : public QCustomPlot {
    Q_OBJECT
  public:
    explicit HeadCostChart(QWidget* parent = nullptr);
    void setCosts(const HeadCosts& costs);
    void setSorted(bool sorted);
    bool sorted() const { return m_sorted; }
    // The head drawn in column `slot` from the left, and the column of a head; -1 when none.
    int headAtSlot(int slot) const;
    int slotOf(int head) const;
    int headAt(const QPoint& pos) const;
    QPoint slotCentre(int head) const; // where a person clicks to switch the head
    const HeadCosts& costs() const { return m_costs; }
    QSize minimumSizeHint() const override;
    static constexpr int kLeastBars = 100; // the bars' own height at least, in logical px

  signals:
    void headClicked(int head);

  protected:
    void changeEvent(QEvent* event) override; // a new language: the title again

  private:
    void redraw();
    // Before each replot: the title wrapped to the width, and every k-th name on the axis when
    // the columns are narrower than a line.
    void fitText();

    HeadCosts m_costs;
    std::vector<int> m_order; // column -> head
    bool m_sorted = false;
    QCPBars* m_image;
    QCPBars* m_changing;
    QCPBars* m_heldOut;
    QCPTextElement* m_title;
    QString m_fullTitle;
    QSize m_reportedMinimum;
    static constexpr int kLeastHeight = 170; // the whole chart, before it was laid out
};

} // namespace cl::ui
