// retranslateTree (language.h): what is on screen, put into the new language where it stands.
#include "ui/window/language.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMetaProperty>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextEdit>
#include <QTreeWidget>
#include <QWidget>

#include <qcustomplot.h>

namespace cl::ui {

namespace {

// Texts a widget or action shows (a user's typing is not among them: see typed()).
const char* const kTextProperties[] = {
    "text",        "title",           "toolTip", "statusTip", "whatsThis",
    "windowTitle", "placeholderText", "prefix",  "suffix",    "specialValueText",
    "iconText",    "format"};

// The classes around `o`, nearest first: the contexts its texts most likely came from.
QStringList contextsOf(const QObject* o) {
    QStringList out;
    for (; o; o = o->parent())
        for (const QMetaObject* m = o->metaObject(); m; m = m->superClass())
            if (QByteArray(m->className()).startsWith("cl::"))
                out << QString::fromLatin1(m->className());
    out.removeDuplicates();
    return out;
}

// What a text was before we translated it, kept on its object: back in the first language the
// text is what it was (two messages may share one translation), not a guess.
constexpr char kWasPrefix[] = "cl_was_";

struct Retranslator {
    QString from, to;
    int changed = 0;
    QStringList contexts;

    QString operator()(const QString& text) {
        const QString t = translateShown(text, from, to, contexts);
        changed += t != text;
        return t;
    }

    QString remembered(QObject* o, const char* name, const QString& shown) {
        const QByteArray key = QByteArray(kWasPrefix) + name;
        const QStringList was = o->property(key.constData()).toStringList();
        QString t;
        if (was.size() == 3 && was[0] == to && was[2] == shown) {
            t = was[1]; // we made `shown` from it, in the language we go back to
            changed += t != shown;
        } else {
            t = (*this)(shown);
        }
        o->setProperty(key.constData(),
                       t == shown ? QVariant() : QVariant(QStringList{from, shown, t}));
        return t;
    }

    void properties(QObject* o) {
        const bool typed = qobject_cast<QLineEdit*>(o) || qobject_cast<QTextEdit*>(o) ||
                           qobject_cast<QPlainTextEdit*>(o) || qobject_cast<QAbstractSpinBox*>(o);
        const QMetaObject* meta = o->metaObject();
        for (const char* name : kTextProperties) {
            if (typed && qstrcmp(name, "text") == 0)
                continue;
            const int i = meta->indexOfProperty(name);
            if (i < 0)
                continue;
            const QMetaProperty p = meta->property(i);
            if (!p.isWritable() || p.metaType().id() != QMetaType::QString)
                continue;
            const QString v = p.read(o).toString();
            if (v.isEmpty())
                continue;
            const QString t = remembered(o, name, v);
            if (t != v)
                p.write(o, t);
        }
    }

    void combo(QComboBox* c) {
        for (int i = 0; i < c->count(); ++i) {
            c->setItemText(i, (*this)(c->itemText(i)));
            const QString tip = c->itemData(i, Qt::ToolTipRole).toString();
            if (!tip.isEmpty())
                c->setItemData(i, (*this)(tip), Qt::ToolTipRole);
        }
    }

    void tabs(QTabWidget* t) {
        for (int i = 0; i < t->count(); ++i) {
            t->setTabText(i, (*this)(t->tabText(i)));
            t->setTabToolTip(i, (*this)(t->tabToolTip(i)));
        }
    }

    template <typename Item> void item(Item* it, int columns) {
        for (int c = 0; c < columns; ++c) {
            it->setText(c, (*this)(it->text(c)));
            it->setToolTip(c, (*this)(it->toolTip(c)));
        }
    }

    void tableItem(QTableWidgetItem* it) {
        if (!it)
            return;
        it->setText((*this)(it->text()));
        it->setToolTip((*this)(it->toolTip()));
    }

    void table(QTableWidget* t) {
        for (int c = 0; c < t->columnCount(); ++c)
            tableItem(t->horizontalHeaderItem(c));
        for (int r = 0; r < t->rowCount(); ++r) {
            tableItem(t->verticalHeaderItem(r));
            for (int c = 0; c < t->columnCount(); ++c)
                tableItem(t->item(r, c));
        }
    }

    void tree(QTreeWidget* t) {
        item(t->headerItem(), t->columnCount());
        for (QTreeWidgetItemIterator it(t); *it; ++it)
            item(*it, t->columnCount());
    }

    void list(QListWidget* l) {
        for (int i = 0; i < l->count(); ++i) {
            l->item(i)->setText((*this)(l->item(i)->text()));
            l->item(i)->setToolTip((*this)(l->item(i)->toolTip()));
        }
    }

    // Tick labels are the model's words or figures: the panels make them again.
    void axis(QCPAxis* a) { a->setLabel((*this)(a->label())); }

    void plot(QCustomPlot* p) {
        for (QCPAxisRect* r : p->axisRects())
            for (QCPAxis* a : r->axes())
                axis(a);
        for (QCPLayoutElement* e : p->plotLayout()->elements(true)) {
            if (auto* t = qobject_cast<QCPTextElement*>(e))
                t->setText((*this)(t->text()));
            else if (auto* s = qobject_cast<QCPColorScale*>(e))
                axis(s->axis());
        }
        for (int i = 0; i < p->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(p->item(i)))
                t->setText((*this)(t->text()));
        for (int i = 0; i < p->plottableCount(); ++i)
            p->plottable(i)->setName((*this)(p->plottable(i)->name()));
        p->replot(QCustomPlot::rpQueuedReplot);
    }

    void widget(QWidget* w) {
        properties(w);
        if (auto* c = qobject_cast<QComboBox*>(w))
            combo(c);
        else if (auto* t = qobject_cast<QTabWidget*>(w))
            tabs(t);
        else if (auto* t = qobject_cast<QTableWidget*>(w))
            table(t);
        else if (auto* t = qobject_cast<QTreeWidget*>(w))
            tree(t);
        else if (auto* l = qobject_cast<QListWidget*>(w))
            list(l);
        else if (auto* p = qobject_cast<QCustomPlot*>(w))
            plot(p);
    }
};

} // namespace

bool showsModelWords(const QWidget* w) {
    for (; w; w = w->parentWidget())
        if (w->property(kModelWords).toBool())
            return true;
    return false;
}

int retranslateTree(QWidget* root, const QString& from, const QString& to) {
    if (!root || from == to)
        return 0;
    Retranslator r{from, to, 0, {}};
    r.contexts = contextsOf(root);
    r.widget(root);
    for (QWidget* w : root->findChildren<QWidget*>())
        if (!showsModelWords(w)) {
            r.contexts = contextsOf(w);
            r.widget(w);
        }
    for (QAction* a : root->findChildren<QAction*>()) {
        r.contexts = contextsOf(a);
        r.properties(a);
    }
    return r.changed;
}

} // namespace cl::ui
