#include "ui/window/image_fetcher.h"

#include "ui/window/background.h"

#include <QNetworkAccessManager>
#include <QNetworkDiskCache>
#include <QNetworkReply>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>

#include <memory>

namespace cl::ui {

namespace {
constexpr qint64 kMaxImageBytes = qint64(32) << 20; // a COCO JPEG is ~200 KB
// Qt's transfer timeout counts silence only: a server sending a byte a second was never given up
// on. Past one timeout an answer must average this rate, and all of it arrive within
// kDeadlineTimeouts timeouts.
constexpr qint64 kMinBytesPerSecond = 4096;
constexpr int kDeadlineTimeouts = 3;
} // namespace

ImageFetcher::ImageFetcher(QObject* parent, const QString& cacheDir, int timeoutMs)
    : QObject(parent), m_net(new QNetworkAccessManager(this)), m_timeoutMs(timeoutMs) {
    auto* cache = new QNetworkDiskCache(m_net);
    cache->setCacheDirectory(cacheDir.isEmpty()
                                 ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                                       "/course-images"
                                 : cacheDir);
    cache->setMaximumCacheSize(qint64(256) << 20);
    m_net->setCache(cache);
}

void ImageFetcher::fetch(const QString& url) {
    if (m_dead.contains(url))
        return;
    const QUrl u(url);
    if (!u.isValid() || (u.scheme() != "http" && u.scheme() != "https"))
        return giveUp(url, tr("not a web address"));
    QNetworkRequest request(u);
    request.setTransferTimeout(m_timeoutMs);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::PreferCache);
    QNetworkReply* reply = m_net->get(request);
    // The rate counts from the first bytes (a server may think before it answers), and only for
    // an answer still incomplete: a small body that came late is not slow.
    auto clock = std::make_shared<QElapsedTimer>();
    const auto stop = [reply](const QString& why) {
        reply->setProperty("cl_why", why);
        reply->abort();
    };
    const int timeoutMs = m_timeoutMs;
    connect(reply, &QNetworkReply::downloadProgress, reply,
            [clock, stop, timeoutMs](qint64 received, qint64 total) {
                if (!clock->isValid())
                    clock->start();
                const qint64 ms = clock->elapsed();
                if (received > kMaxImageBytes)
                    stop(tr("larger than 32 MB"));
                else if (received != total && ms > timeoutMs &&
                         received * 1000 < kMinBytesPerSecond * ms)
                    stop(tr("answering slower than %1 KB/s").arg(kMinBytesPerSecond / 1024));
            });
    QTimer::singleShot(kDeadlineTimeouts * m_timeoutMs, reply, [stop, timeoutMs] {
        stop(tr("no complete answer within %1 s").arg(kDeadlineTimeouts * timeoutMs / 1000.0, 0,
                                                       'g', 3));
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return giveUp(url, reply->property("cl_why").isValid()
                                   ? reply->property("cl_why").toString()
                                   : tr("no answer within %1 s").arg(m_timeoutMs / 1000.0, 0,
                                                                     'g', 3));
        if (status >= 400)
            return giveUp(url, tr("not found (HTTP %1)").arg(status));
        if (reply->error() != QNetworkReply::NoError)
            return giveUp(url, reply->errorString());
        decode(url, reply->readAll());
    });
}

void ImageFetcher::decode(const QString& url, const QByteArray& bytes) {
    runInBackground<LoadedImage>(
        this, [bytes] { return loadImageData(bytes); },
        [this, url](LoadedImage& image) {
            if (!image.ok())
                return giveUp(url, tr("not an image (%1)").arg(image.error));
            emit fetched(url, image.image);
        });
}

void ImageFetcher::giveUp(const QString& url, const QString& reason) {
    if (m_dead.contains(url))
        return;
    m_dead.insert(url);
    emit failed(url, reason);
}

} // namespace cl::ui
