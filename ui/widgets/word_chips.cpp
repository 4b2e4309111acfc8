#include "ui/widgets/word_chips.h"

#include "ui/widgets/flow_layout.h"
#include "ui/widgets/keep_translated.h"

#include <QEvent>
#include <QPushButton>

namespace cl::ui {

WordChips::WordChips(QWidget* parent) : QWidget(parent), m_layout(new FlowLayout(this)) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    setProperty(kModelWords, true); // the model's words stay as they are in any language
}

void WordChips::setWords(const QStringList& words, const std::vector<float>& probs) {
    for (auto* c : m_chips)
        c->deleteLater();
    m_chips.clear();
    for (int i = 0; i < words.size(); ++i) {
        auto* chip = new QPushButton(words[i], this);
        chip->setCheckable(true);
        chip->setCursor(Qt::PointingHandCursor);
        chip->setToolTip(tr("step %1: “%2”, p = %3")
                             .arg(i + 1)
                             .arg(words[i])
                             .arg(i < int(probs.size()) ? probs[i] : 0.f, 0, 'f', 3));
        chip->setStyleSheet(chipStyle());
        chip->installEventFilter(this);
        connect(chip, &QPushButton::clicked, this, [this, i] { emit wordClicked(i); });
        m_layout->addWidget(chip);
        m_chips.push_back(chip);
    }
}

// A style sheet pins a widget's font: the chips' size follows this widget's font through it.
QString WordChips::chipStyle() const {
    const double pt = font().pointSizeF() > 0 ? font().pointSizeF() : 10.0;
    return QStringLiteral(
               "QPushButton { border: 1px solid #8a8fa8; border-radius: %2px; padding: %3px %4px; "
               "background: #eef0f7; color: #1d2033; font-size: %1pt; }"
               "QPushButton:checked { background: #3b4cca; color: white; border-color: #3b4cca; }"
               "QPushButton:hover { border-color: #3b4cca; }")
        .arg(pt, 0, 'f', 1)
        .arg(int(pt * 1.2))
        .arg(int(pt * 0.4))
        .arg(int(pt * 1.2));
}

void WordChips::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange)
        return;
    const QString style = chipStyle();
    for (auto* chip : m_chips)
        chip->setStyleSheet(style);
    m_layout->invalidate();
}

void WordChips::setSelected(int index) {
    for (int i = 0; i < count(); ++i)
        m_chips[i]->setChecked(i == index);
}

QPushButton* WordChips::chip(int index) const {
    return index >= 0 && index < count() ? m_chips[index] : nullptr;
}

bool WordChips::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Enter || event->type() == QEvent::Leave) {
        for (int i = 0; i < count(); ++i)
            if (m_chips[i] == watched)
                emit wordHovered(event->type() == QEvent::Enter ? i : -1);
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace cl::ui
