#include "ui/window/tab_fit.h"

#include <QEvent>
#include <QTabBar>

namespace cl::ui {

namespace {

// The row of every tab at its natural width.
int titlesWidth(const QTabBar* bar) { return bar->sizeHint().width(); }

// The window's font on the tab bar, shrunk in small steps while the titles overflow.
void fitTabs(QTabWidget* tabs) {
    QTabBar* bar = tabs->tabBar();
    const QFont inherited = tabs->font();
    QFont font = inherited;
    bar->setFont(font);
    const int room = tabs->width() - 4;
    while (titlesWidth(bar) > room && font.pointSizeF() > inherited.pointSizeF() * 0.7) {
        font.setPointSizeF(font.pointSizeF() * 0.95);
        bar->setFont(font);
    }
}

class TabFit : public QObject {
  public:
    explicit TabFit(QTabWidget* tabs) : QObject(tabs), m_tabs(tabs) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_tabs && !m_fitting &&
            (event->type() == QEvent::Resize || event->type() == QEvent::FontChange)) {
            m_fitting = true;
            fitTabs(m_tabs);
            m_fitting = false;
        }
        return false;
    }

  private:
    QTabWidget* m_tabs;
    bool m_fitting = false;
};

} // namespace

void keepTabTitlesInView(QTabWidget* tabs) {
    // Presenter mode scales fonts set on a widget from their own base size: this one follows
    // the window's instead (it is recomputed from it on every change).
    tabs->tabBar()->setProperty("cl_followsParent", true);
    tabs->installEventFilter(new TabFit(tabs));
}

} // namespace cl::ui
