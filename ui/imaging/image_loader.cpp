#include "ui/imaging/image_loader.h"

#include "model/core/files.h"
#include "ui/imaging/container_budget.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QPainter>

#include <algorithm>

namespace cl {

namespace {
constexpr int kAllocationLimitMiB = 128; // decoded; huge JPEGs decode scaled below it
constexpr qint64 kMaxImageFileBytes = qint64(256) << 20;
constexpr int kMaxSide = 4096; // pixels on the long side kept after decoding

// Decodes at most kMaxSide pixels on the long side (JPEG decodes scaled; others are scaled right
// after decoding): the model sees 64 px and a screen a few thousand, while a 65,281 x 1,024 GIF,
// within Qt's allocation limit, peaked at 900 MB through the RGB copies made after decoding.
QImage readBounded(QImageReader& reader) {
    reader.setAutoTransform(true);
    const QSize full = reader.size();
    if (full.isValid() && std::max(full.width(), full.height()) > kMaxSide)
        reader.setScaledSize(
            full.scaled(kMaxSide, kMaxSide, Qt::KeepAspectRatio).expandedTo(QSize(1, 1)));
    QImage image = reader.read();
    if (!image.isNull() && std::max(image.width(), image.height()) > kMaxSide)
        image = image.scaled(kMaxSide, kMaxSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return image;
}
} // namespace

LoadedImage fromQImage(const QImage& source) {
    LoadedImage out;
    if (source.isNull() || source.width() <= 0 || source.height() <= 0) {
        out.error = QCoreApplication::translate("cl::ui::imaging", "the image has no pixels");
        return out;
    }
    QImage rgb;
    if (source.hasAlphaChannel()) {
        rgb = QImage(source.size(), QImage::Format_RGB888);
        rgb.fill(Qt::white); // transparent pixels show as white, as in any viewer
        QPainter p(&rgb);
        p.drawImage(0, 0, source.convertToFormat(QImage::Format_ARGB32_Premultiplied));
    } else {
        rgb = source.convertToFormat(QImage::Format_RGB888); // one copy, no compositing
    }
    out.image = rgb;
    out.rgb.width = rgb.width();
    out.rgb.height = rgb.height();
    out.rgb.pixels.resize(static_cast<size_t>(rgb.width()) * rgb.height() * 3);
    for (int y = 0; y < rgb.height(); ++y)
        std::copy_n(rgb.constScanLine(y), rgb.width() * 3,
                    out.rgb.pixels.begin() + static_cast<long>(y) * rgb.width() * 3);
    return out;
}

LoadedImage loadImage(const QString& path) {
    QImageReader::setAllocationLimit(kAllocationLimitMiB);
    LoadedImage out;
    const std::string why = files::notRegularReason(path.toStdString());
    if (!why.empty()) {
        out.error =
            QCoreApplication::translate("cl::ui::imaging", "cannot open image %1: %2")
                .arg(path, QString::fromStdString(why.compare(0, 2, "a ") ? why : "it is " + why));
        return out;
    }
    if (QFileInfo(path).size() > kMaxImageFileBytes) {
        out.error = QCoreApplication::translate("cl::ui::imaging",
                                                "cannot open image %1: it is over %2 MiB")
                        .arg(path)
                        .arg(kMaxImageFileBytes >> 20);
        return out;
    }
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QString problem = containerProblem(file);
        if (!problem.isEmpty()) {
            out.error = QCoreApplication::translate("cl::ui::imaging", "cannot read image %1: %2")
                            .arg(path, problem);
            return out;
        }
    }
    QImageReader reader(path);
    const QImage image = readBounded(reader);
    if (image.isNull()) {
        out.error = QCoreApplication::translate("cl::ui::imaging", "cannot read image %1: %2")
                        .arg(path, reader.errorString());
        return out;
    }
    out = fromQImage(image);
    if (!out.ok())
        out.error = path + QStringLiteral(": ") + out.error;
    return out;
}

LoadedImage loadImageData(const QByteArray& bytes) {
    QImageReader::setAllocationLimit(kAllocationLimitMiB);
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    if (const QString problem = containerProblem(buffer); !problem.isEmpty()) {
        LoadedImage out;
        out.error =
            QCoreApplication::translate("cl::ui::imaging", "cannot read image: %1").arg(problem);
        return out;
    }
    QImageReader reader(&buffer);
    const QImage image = readBounded(reader);
    if (image.isNull()) {
        LoadedImage out;
        out.error = QCoreApplication::translate("cl::ui::imaging", "cannot read image: %1")
                        .arg(reader.errorString());
        return out;
    }
    return fromQImage(image);
}

QImage toQImage(const RgbImage& rgb) {
    QImage img(static_cast<int>(rgb.width), static_cast<int>(rgb.height), QImage::Format_RGB888);
    for (int y = 0; y < img.height(); ++y)
        std::copy_n(rgb.pixels.begin() + static_cast<long>(y) * img.width() * 3, img.width() * 3,
                    img.scanLine(y));
    return img;
}

} // namespace cl
