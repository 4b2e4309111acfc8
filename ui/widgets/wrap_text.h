#pragma once
// Breaks text into lines that fit `room` pixels, at spaces (given line breaks are kept): plot
// titles, whose layout cell would not grow for the element's own word wrap.
#include <QFontMetrics>
#include <QString>
#include <QStringList>

namespace cl::ui {

inline QString wrapToWidth(const QString& text, const QFontMetrics& fm, int room) {
    QStringList lines;
    for (const QString& given : text.split('\n')) {
        QString line;
        for (const QString& word : given.split(' ')) {
            const QString longer = line.isEmpty() ? word : line + ' ' + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > room) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join('\n');
}

} // namespace cl::ui
