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

// Lives on the viewport (and dies with it). It never asks the view for its viewport: the
// viewport still gets events from ~QWidget while the view around it is half destroyed (UBSan:
// a member call on an object that is no longer a QAbstractScrollArea).
class SelectionInView : public QObject {
  public:
    SelectionInView(QAbstractItemView* view, QWidget* viewport)
        : QObject(viewport), m_view(view), m_viewport(viewport) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize && watched == m_viewport)
            scrollToSelection(m_view); // a resize: the view is whole
        return false;
    }

  private:
    QAbstractItemView* m_view;
    const QObject* m_viewport;
};

} // namespace

void keepSelectionInView(QAbstractItemView* view) {
    QWidget* viewport = view->viewport();
    viewport->installEventFilter(new SelectionInView(view, viewport));
    // A QTableWidget keeps its one selection model for its life.
    QObject::connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, view,
                     [view] { scrollToSelection(view); });
}

} // namespace cl::ui
