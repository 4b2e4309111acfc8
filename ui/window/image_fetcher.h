#pragma once
// Images of the course's data by URL: fetched by Qt Network (asynchronous, a transfer timeout),
// kept in an on-disk cache under the standard cache location, decoded off the GUI thread with the
// same limits as any image file. A URL that failed once is not asked for again.
#include "ui/imaging/image_loader.h"

#include <QObject>
#include <QSet>
#include <QString>

class QNetworkAccessManager;

namespace cl::ui {

class ImageFetcher final : public QObject {
    Q_OBJECT
  public:
    // `cacheDir` empty: QStandardPaths' cache location + "/course-images".
    explicit ImageFetcher(QObject* parent = nullptr, const QString& cacheDir = {},
                          int timeoutMs = 10000);
    void fetch(const QString& url);
    bool knownDead(const QString& url) const { return m_dead.contains(url); }

  signals:
    void fetched(const QString& url, const QImage& image);
    // Once per URL: "not found (HTTP 404)", "no answer within 10 s", "not an image", ...
    void failed(const QString& url, const QString& reason);

  private:
    void decode(const QString& url, const QByteArray& bytes);
    void giveUp(const QString& url, const QString& reason);
    QNetworkAccessManager* m_net;
    QSet<QString> m_dead;
    int m_timeoutMs;
};

} // namespace cl::ui
