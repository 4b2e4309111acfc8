#include "ui/window/panel_router.h"

#include <QStringList>

namespace cl::ui {

void PanelRouter::add(const QString& key, QWidget* widget, Panel* panel) {
    m_entries.push_back({key, widget, panel});
    m_stale.insert(panel);
}

void PanelRouter::markStale() {
    for (const auto& e : m_entries)
        m_stale.insert(e.panel);
}

const PanelRouter::Entry* PanelRouter::find(const QString& key) const {
    for (const auto& e : m_entries)
        if (e.key == key)
            return &e;
    return nullptr;
}

bool PanelRouter::refresh(const QString& key, const CaptionView& view) {
    const Entry* e = find(key);
    if (!e || !view.valid() || !m_stale.erase(e->panel))
        return false;
    e->panel->setView(view);
    return true;
}

QWidget* PanelRouter::widget(const QString& key) const {
    const Entry* e = find(key);
    return e ? e->widget : nullptr;
}

QString PanelRouter::key(const QWidget* widget) const {
    for (const auto& e : m_entries)
        if (widget && e.widget == widget)
            return e.key;
    return {};
}

Panel* PanelRouter::panel(const QString& key) const {
    const Entry* e = find(key);
    return e ? e->panel : nullptr;
}

QStringList PanelRouter::keys() const {
    QStringList out;
    for (const auto& e : m_entries)
        out << e.key;
    return out;
}

} // namespace cl::ui
