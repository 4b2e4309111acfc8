#include "ui/widgets/selection_in_view.h"

#include <QEvent>
#include <QItemSelectionModel>

namespace cl::ui {

namespace {

void scrollToSelection(QAbstractItemView* view) {
    if (!view->selectionModel())
        return;
    const QModelIndexList rows = view->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        view->scrollTo(rows.first());
}

class SelectionInView : public QObject {
  public:
    explicit SelectionInView(QAbstractItemView* view) : QObject(view), m_view(view) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_view->viewport() && event->type() == QEvent::Resize)
            scrollToSelection(m_view);
        return false;
    }

  private:
    QAbstractItemView* m_view;
};

} // namespace

void keepSelectionInView(QAbstractItemView* view) {
    view->viewport()->installEventFilter(new SelectionInView(view));
    // A QTableWidget keeps its one selection model for its life.
    QObject::connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, view,
                     [view] { scrollToSelection(view); });
}

} // namespace cl::ui
