#include "ui/imaging/image_writer.h"

#include "model/core/files.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>

#include <exception>

namespace cl {

QString writeBytes(const QByteArray& bytes, const QString& path) {
    try {
        files::write(path.toStdString(), bytes.toStdString());
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QByteArray imageFormatFor(const QString& path) {
    const QString suffix = path == QLatin1String("-") ? QString() : QFileInfo(path).suffix();
    const QString s = suffix.toLower();
    if (s.isEmpty() || s == QLatin1String("png"))
        return "png";
    if (s == QLatin1String("jpg") || s == QLatin1String("jpeg"))
        return "jpg";
    if (s == QLatin1String("bmp") || s == QLatin1String("ppm"))
        return s.toLatin1();
    return {};
}

QByteArray encodeImage(const QImage& image, const QByteArray& format) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, format.constData()))
        return {};
    return bytes;
}

QString writeImage(const QImage& image, const QString& path, const QByteArray& format) {
    const QByteArray bytes = encodeImage(image, format);
    if (bytes.isEmpty())
        return QCoreApplication::translate("cl::ui::imaging",
                                           "cannot write %1: could not encode the image as %2")
            .arg(path, QString::fromLatin1(format).toUpper());
    return writeBytes(bytes, path);
}

} // namespace cl
