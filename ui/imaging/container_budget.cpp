#include "ui/imaging/container_budget.h"

#include <QCoreApplication>
#include <QIODevice>

namespace cl {

namespace {

quint32 bigEndian(const QByteArray& b, int at, int bytes) {
    quint32 v = 0;
    for (int k = 0; k < bytes; ++k)
        v = (v << 8) | static_cast<unsigned char>(b[at + k]);
    return v;
}

QString pngProblem(QIODevice& d) {
    d.seek(8);
    qint64 text = 0;
    for (;;) {
        const QByteArray head = d.read(8);
        if (head.size() < 8)
            return {}; // truncated: the decoder says so
        const qint64 length = bigEndian(head, 0, 4);
        const QByteArray type = head.mid(4, 4);
        if (type == "IEND")
            return {};
        if (type == "tEXt" || type == "zTXt" || type == "iTXt")
            text += length;
        if (text > kMaxPngTextBytes)
            return QCoreApplication::translate("cl::ui::imaging",
                                               "its text chunks hold over %1 bytes (at most %2)")
                .arg(text)
                .arg(kMaxPngTextBytes);
        if (!d.seek(d.pos() + length + 4)) // the data and its CRC
            return {};
    }
}

// Counts start-of-scan markers. Segments carry their length; a scan's entropy-coded data runs to
// the next 0xFF that is neither a stuffed 0xFF00, a restart marker nor fill.
QString jpegProblem(QIODevice& d) {
    d.seek(2);
    int scans = 0;
    char c = 0;
    while (d.getChar(&c)) {
        if (static_cast<unsigned char>(c) != 0xff)
            continue; // entropy-coded data
        unsigned char marker = 0xff;
        while (marker == 0xff && d.getChar(&c))
            marker = static_cast<unsigned char>(c);
        if (marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01)
            continue; // stuffed byte, restart marker, TEM: no segment
        if (marker == 0xd9)
            return {}; // end of image
        const QByteArray len = d.read(2);
        if (len.size() < 2)
            return {};
        if (marker == 0xda && ++scans > kMaxJpegScans)
            return QCoreApplication::translate("cl::ui::imaging",
                                               "it has over %1 JPEG scans (at most %1)")
                .arg(kMaxJpegScans);
        if (!d.seek(d.pos() + bigEndian(len, 0, 2) - 2))
            return {};
    }
    return {};
}

} // namespace

QString containerProblem(QIODevice& device) {
    if (!device.isOpen() || device.isSequential())
        return {};
    const QByteArray magic = device.peek(8);
    QString problem;
    if (magic.startsWith("\x89PNG\r\n\x1a\n"))
        problem = pngProblem(device);
    else if (magic.startsWith("\xff\xd8"))
        problem = jpegProblem(device);
    device.seek(0);
    return problem;
}

} // namespace cl
