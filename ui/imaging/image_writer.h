#pragma once
// Writing what people save (images, PDFs, lessons, CSV) through files::write: regular files are
// replaced atomically, FIFOs, devices and "-" written directly, links write their target.
#include <QByteArray>
#include <QImage>
#include <QString>

namespace cl {

// "" when written, else one line naming the file and the reason.
QString writeBytes(const QByteArray& bytes, const QString& path);

// The image format a file name asks for: png (also for no suffix and "-"), jpg, bmp or ppm;
// empty when the suffix names a format we do not write (x.svg must not silently be a PNG).
QByteArray imageFormatFor(const QString& path);

// `image` encoded as `format` (png, jpg, ...); empty when it cannot be encoded.
QByteArray encodeImage(const QImage& image, const QByteArray& format);

// Encodes `image` as `format` and writes it; "" or one line.
QString writeImage(const QImage& image, const QString& path, const QByteArray& format);

} // namespace cl
