#pragma once
// What an image file's container may cost before a decoder sees it (issue 41): a PNG whose text
// chunks hold 200 MB made Qt keep 1 GB; a 433 KB progressive JPEG of 10,000 scans took 30 s to
// decode. Both are walked here in one linear pass over the bytes, without decoding anything.
#include <QString>

class QIODevice;

namespace cl {

constexpr qint64 kMaxPngTextBytes = qint64(1) << 20; // tEXt, zTXt, iTXt together
constexpr int kMaxJpegScans = 64;                    // real progressive JPEGs have about 10

// "" when the device (at its start) is not a PNG or JPEG, or is one within the budgets above;
// else why not, e.g. "it has 10000 JPEG scans (at most 64)". Leaves the device at its start.
QString containerProblem(QIODevice& device);

} // namespace cl
