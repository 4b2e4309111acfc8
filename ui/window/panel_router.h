#pragma once
// The window's panels by name, and which of them still show an older caption: only the panel
// on screen is filled when a caption arrives, the others when they are shown, so a drag in the
// scene editor pays only for what is visible. No widgets needed (tests/tst_session.cpp).
#include "ui/panels/panel.h"

#include <QString>

#include <set>
#include <vector>

class QWidget;

namespace cl::ui {

class PanelRouter {
  public:
    void add(const QString& key, QWidget* widget, Panel* panel);
    void markStale(); // a new caption: every panel is behind
    // Fills the panel with `view` if it is behind; true when it was.
    bool refresh(const QString& key, const CaptionView& view);
    QWidget* widget(const QString& key) const; // nullptr when unknown
    QString key(const QWidget* widget) const;  // empty when unknown
    Panel* panel(const QString& key) const;    // nullptr when unknown
    QStringList keys() const;
    bool stale(const QString& key) const { return m_stale.count(panel(key)) > 0; }

  private:
    struct Entry {
        QString key;
        QWidget* widget;
        Panel* panel;
    };
    const Entry* find(const QString& key) const;
    std::vector<Entry> m_entries;
    std::set<Panel*> m_stale;
};

} // namespace cl::ui
