#pragma once
// A table whose selected row stays in view: when it is selected and whenever the table is
// resized (a splitter, presenter mode, a page laid out again), it scrolls to that row. The
// Timeline's last snapshot and Compare's word sat below short tables in presenter mode.
#include <QAbstractItemView>

namespace cl::ui {

void keepSelectionInView(QAbstractItemView* view);

} // namespace cl::ui
