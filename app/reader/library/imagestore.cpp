// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "imagestore.h"

#include "library/wallabagclient.h"

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingreply.h>

#include <QtGui/QTextBlock>
#include <QtGui/QTextDocument>
#include <QtNetwork/QNetworkReply>

#include <limits>
#include <utility>

namespace {
// Costs are in KiB so that a bound of a few GiB still fits QCache's int.
int costOf(const QImage &image)
{
    return int(qMax<qsizetype>(1, image.sizeInBytes() / 1024));
}
int costOf(const QPixmap &pixmap)
{
    return int(
        qMax<qint64>(1, qint64(pixmap.width()) * pixmap.height() * pixmap.depth() / 8 / 1024));
}
// Enough to keep the pictures coming without crowding out what the person is looking at.
constexpr int MaxKeepingAtOnce = 2;
} // namespace

ImageStore::ImageStore(WallabagClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    setMemoryLimit(64 * 1024 * 1024);
}

void ImageStore::setMemoryLimit(qint64 bytes)
{
    const int kib = int(qBound(qint64(1), bytes / 1024, qint64(std::numeric_limits<int>::max())));
    m_images.setMaxCost(kib);
    m_thumbnails.setMaxCost(qMax(1, kib / 4));
}

void ImageStore::store(const QUrl &url, const QImage &image)
{
    // One image above the whole bound is still shown: the bound grows to hold it alone.
    if (costOf(image) > m_images.maxCost())
        m_images.setMaxCost(costOf(image));
    m_images.insert(url, new QImage(image), costOf(image));
}

void ImageStore::request(const QUrl &url, Use use)
{
    if (!url.isValid() || m_images.contains(url) || m_pending.contains(url) ||
        m_failed.contains(url))
        return;
    m_pending.insert(url);
    Q_EMIT pendingCountChanged(pendingCount());
    QNetworkReply *reply = m_client->getImage(
        url,
        use == Use::Article ? KeepTrying::OfflineCopy::KeepPinned : KeepTrying::OfflineCopy::Keep);
    track(reply);
    if (auto *retrying = qobject_cast<KeepTrying::RetryingReply *>(reply)) {
        // The copy kept from an earlier run, while the fresh one is slow or the network gone.
        connect(retrying, &KeepTrying::RetryingReply::staleCopyOffered, this,
                [this, retrying, url] {
                    const QImage copy = QImage::fromData(retrying->staleCopyBody());
                    if (copy.isNull() || m_images.contains(url))
                        return;
                    store(url, copy);
                    m_pending.remove(url);
                    Q_EMIT imageReady(url);
                    Q_EMIT pendingCountChanged(pendingCount());
                });
    }
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        QImage image;
        if (reply->error() == QNetworkReply::NoError)
            image = QImage::fromData(reply->readAll());
        const bool wasPending = m_pending.remove(url);
        if (image.isNull() && m_images.contains(url)) {
            // The fresh one did not come; the offline copy shown stays.
            if (wasPending)
                Q_EMIT pendingCountChanged(pendingCount());
            return;
        }
        if (image.isNull()) {
            m_failed.insert(url);
        } else {
            store(url, image);
            m_thumbnails.clear(); // a fresh image replaces the offline copy's thumbnails
            Q_EMIT imageReady(url);
        }
        Q_EMIT pendingCountChanged(pendingCount());
    });
}

void ImageStore::track(QNetworkReply *reply)
{
    m_replies.removeAll(nullptr); // those finished and deleted
    m_replies.append(reply);
}

void ImageStore::clear()
{
    const auto replies = std::exchange(m_replies, {});
    for (const QPointer<QNetworkReply> &reply : replies) {
        if (!reply)
            continue;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    m_images.clear();
    m_thumbnails.clear();
    m_pending.clear();
    m_failed.clear();
    m_keepQueue.clear();
    m_kept.clear();
    m_keepRunning = 0;
    Q_EMIT pendingCountChanged(0);
}

QImage ImageStore::image(const QUrl &url) const
{
    const QImage *image = m_images.object(url);
    return image ? *image : QImage();
}

QPixmap ImageStore::thumbnail(const QUrl &url, const QSize &size, qreal devicePixelRatio) const
{
    const QImage source = image(url);
    if (source.isNull() || size.isEmpty())
        return {};
    const QString key = url.toString() + QLatin1Char('@') + QString::number(size.width()) +
        QLatin1Char('x') + QString::number(size.height()) + QLatin1Char('@') +
        QString::number(devicePixelRatio);
    if (const QPixmap *cached = m_thumbnails.object(key))
        return *cached;

    // Fill the box and crop the overflow, centred, like object-fit: cover.
    const QSize target = size * devicePixelRatio;
    const QImage scaled =
        source.scaled(target, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
    const QRect crop((scaled.width() - target.width()) / 2, (scaled.height() - target.height()) / 2,
                     target.width(), target.height());
    QPixmap pixmap = QPixmap::fromImage(scaled.copy(crop));
    pixmap.setDevicePixelRatio(devicePixelRatio);
    m_thumbnails.insert(key, new QPixmap(pixmap), costOf(pixmap));
    return pixmap;
}

QList<QUrl> ImageStore::picturesOf(const QString &html, const QUrl &base)
{
    // Qt's own HTML reader finds the pictures; it loads nothing by itself.
    QTextDocument document;
    document.setHtml(html);
    QList<QUrl> urls;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (!format.isImageFormat())
                continue;
            const QUrl url = base.resolved(QUrl(format.toImageFormat().name()));
            if ((url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) &&
                !urls.contains(url))
                urls.append(url);
        }
    }
    return urls;
}

void ImageStore::keepForOffline(const QList<QUrl> &urls)
{
    for (const QUrl &url : urls) {
        if (!url.isValid() || m_kept.contains(url) || m_images.contains(url) ||
            m_pending.contains(url))
            continue;
        m_kept.insert(url);
        m_keepQueue.append(url);
    }
    keepNext();
}

void ImageStore::keepNext()
{
    while (m_keepRunning < MaxKeepingAtOnce && !m_keepQueue.isEmpty()) {
        const QUrl url = m_keepQueue.takeFirst();
        ++m_keepRunning;
        // Evictable: pictures of every saved article, pinned, could outgrow any disk; the
        // person's budget decides, and opening the article pins its pictures.
        QNetworkReply *reply = m_client->getImage(url, KeepTrying::OfflineCopy::Keep);
        track(reply);
        // The manager stores the body as the offline copy; nothing is decoded here.
        connect(reply, &QNetworkReply::readyRead, reply,
                [reply] { reply->skip(reply->bytesAvailable()); });
        connect(reply, &QNetworkReply::finished, this, [this, reply] {
            reply->deleteLater();
            --m_keepRunning;
            keepNext();
            if (m_keepRunning == 0 && m_keepQueue.isEmpty())
                Q_EMIT keptForOffline();
        });
    }
}
