#include "ui/math/natural_order.h"

namespace cl::ui {

namespace {

// The end of the run of digits that starts at `i`.
qsizetype digitsEnd(const QString& s, qsizetype i) {
    while (i < s.size() && s[i].isDigit())
        ++i;
    return i;
}

// Compares the digit runs s[i, end) and t[j, tEnd) by value: no conversion, so any length works.
int compareNumbers(const QString& s, qsizetype i, qsizetype end, const QString& t, qsizetype j,
                   qsizetype tEnd) {
    while (i < end - 1 && s[i] == u'0')
        ++i;
    while (j < tEnd - 1 && t[j] == u'0')
        ++j;
    if (end - i != tEnd - j)
        return end - i < tEnd - j ? -1 : 1;
    for (; i < end; ++i, ++j)
        if (s[i] != t[j])
            return s[i] < t[j] ? -1 : 1;
    return 0;
}

} // namespace

int naturalCompare(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    int tie = 0; // the first difference that does not decide the order: case, leading zeros
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const qsizetype aEnd = digitsEnd(a, i), bEnd = digitsEnd(b, j);
            if (const int c = compareNumbers(a, i, aEnd, b, j, bEnd))
                return c;
            if (tie == 0 && aEnd - i != bEnd - j)
                tie = aEnd - i < bEnd - j ? -1 : 1;
            i = aEnd;
            j = bEnd;
            continue;
        }
        const QChar x = a[i].toCaseFolded(), y = b[j].toCaseFolded();
        if (x != y)
            return x < y ? -1 : 1;
        if (tie == 0 && a[i] != b[j])
            tie = a[i] < b[j] ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size())
        return i < a.size() ? 1 : -1;
    return tie;
}

} // namespace cl::ui
