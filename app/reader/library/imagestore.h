// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_IMAGESTORE_H
#define KEEPTRYING_READER_IMAGESTORE_H

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QUrl>
#include <QtGui/QImage>
#include <QtGui/QPixmap>

class WallabagClient;

/*
    Downloads images (article previews, pictures inside articles) once, through the
    client's manager, and keeps them in memory with a few scaled thumbnails. The manager
    keeps their offline copies on disk (see Use).
*/
class ImageStore : public QObject
{
    Q_OBJECT
    Q_PROPERTY(int pendingCount READ pendingCount NOTIFY pendingCountChanged)

public:
    explicit ImageStore(WallabagClient *client, QObject *parent = nullptr);

    /*! What an image is for: a preview in the list (its offline copy may be evicted), or a
        picture inside a saved article (pinned, readable offline). */
    enum class Use { Preview, Article };
    /*! Starts downloading \a url unless it is known or on its way. While the network is
        slow or gone, the manager's offline copy is shown until the fresh image arrives. */
    void request(const QUrl &url, Use use = Use::Preview);
    /*! The image, or a null image while it is not (or could not be) loaded. */
    QImage image(const QUrl &url) const;
    /*! The image scaled and cropped to fill \a size, cached; null while not loaded. */
    QPixmap thumbnail(const QUrl &url, const QSize &size, qreal devicePixelRatio) const;
    /*! Downloads started and not finished yet. */
    int pendingCount() const { return int(m_pending.size()); }

Q_SIGNALS:
    void imageReady(const QUrl &url);
    void pendingCountChanged(int count);

private:
    WallabagClient *m_client;
    QHash<QUrl, QImage> m_images;
    QSet<QUrl> m_pending;
    QSet<QUrl> m_failed;
    mutable QHash<QString, QPixmap> m_thumbnails;
};

#endif // KEEPTRYING_READER_IMAGESTORE_H
