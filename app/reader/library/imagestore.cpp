// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "imagestore.h"

#include "library/wallabagclient.h"

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingreply.h>

#include <QtNetwork/QNetworkReply>

ImageStore::ImageStore(WallabagClient *client, QObject *parent) : QObject(parent), m_client(client)
{
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
    if (auto *retrying = qobject_cast<KeepTrying::RetryingReply *>(reply)) {
        // The copy kept from an earlier run, while the fresh one is slow or the network gone.
        connect(retrying, &KeepTrying::RetryingReply::staleCopyOffered, this,
                [this, retrying, url] {
                    const QImage copy = QImage::fromData(retrying->staleCopyBody());
                    if (copy.isNull() || m_images.contains(url))
                        return;
                    m_images.insert(url, copy);
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
            m_images.insert(url, image);
            m_thumbnails.clear(); // a fresh image replaces the offline copy's thumbnails
            Q_EMIT imageReady(url);
        }
        Q_EMIT pendingCountChanged(pendingCount());
    });
}

QImage ImageStore::image(const QUrl &url) const
{
    return m_images.value(url);
}

QPixmap ImageStore::thumbnail(const QUrl &url, const QSize &size, qreal devicePixelRatio) const
{
    const QImage source = m_images.value(url);
    if (source.isNull() || size.isEmpty())
        return {};
    const QString key = url.toString() + QLatin1Char('@') + QString::number(size.width()) +
        QLatin1Char('x') + QString::number(size.height()) + QLatin1Char('@') +
        QString::number(devicePixelRatio);
    auto it = m_thumbnails.constFind(key);
    if (it != m_thumbnails.constEnd())
        return *it;

    // Fill the box and crop the overflow, centred, like object-fit: cover.
    const QSize target = size * devicePixelRatio;
    const QImage scaled =
        source.scaled(target, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
    const QRect crop((scaled.width() - target.width()) / 2, (scaled.height() - target.height()) / 2,
                     target.width(), target.height());
    QPixmap pixmap = QPixmap::fromImage(scaled.copy(crop));
    pixmap.setDevicePixelRatio(devicePixelRatio);
    m_thumbnails.insert(key, pixmap);
    return pixmap;
}
