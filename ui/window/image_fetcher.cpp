#include "ui/window/image_fetcher.h"

#include "ui/window/background.h"

#include <QNetworkAccessManager>
#include <QNetworkDiskCache>
#include <QNetworkReply>
#include <QStandardPaths>

namespace cl::ui {

namespace {
constexpr qint64 kMaxImageBytes = qint64(32) << 20; // a COCO JPEG is ~200 KB
}

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
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxImageBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return giveUp(url, tr("no answer within %1 s, or larger than 32 MB")
                                   .arg(m_timeoutMs / 1000.0, 0, 'g', 3));
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
