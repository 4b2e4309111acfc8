#pragma once
// The one image decoder of the project (CLI and GUI): any format Qt reads, any size, grayscale,
// alpha (composited over white), 16-bit, paletted; decoded once and handed to model/ as RGB bytes.
#include "model/api/captioner.h"

#include <QImage>
#include <QString>

namespace cl {

struct LoadedImage {
    QImage image;  // RGB888, for display
    RgbImage rgb;  // the same pixels for model/
    QString error; // non-empty when loading failed
    bool ok() const { return error.isEmpty(); }
};

// Decodes a file. Refuses images whose decoded size would exceed Qt's allocation limit (set
// here to 128 MiB), so a decompression bomb is an error, not an out-of-memory; keeps at most
// 4,096 px on the long side (JPEGs decode scaled, so large photos open within that limit).
LoadedImage loadImage(const QString& path);
// The same from bytes in memory (the same limits; fuzzing, embedded images).
LoadedImage loadImageData(const QByteArray& bytes);
// Converts an already decoded image (e.g. a generated scene).
LoadedImage fromQImage(const QImage& image);
// Wraps RGB bytes as a QImage (deep copy).
QImage toQImage(const RgbImage& rgb);

} // namespace cl
