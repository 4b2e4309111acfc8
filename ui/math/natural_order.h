#pragma once
// File names in the order people expect ("step25" before "step120"), whatever the locale: QCollator's
// numeric mode does nothing in the C locale (a fresh Debian machine's C.UTF-8), where it compares
// code points.
#include <QString>

namespace cl::ui {

// Negative, zero or positive as `a` sorts before, with or after `b`: runs of digits compare by
// value (then the shorter run, fewer leading zeros, first), other characters case-insensitively,
// ties by code point.
int naturalCompare(const QString& a, const QString& b);

} // namespace cl::ui
