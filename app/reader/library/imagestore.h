// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_IMAGESTORE_H
#define KEEPTRYING_READER_IMAGESTORE_H

#include <QtCore/QCache>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QUrl>
#include <QtGui/QImage>
#include <QtGui/QPixmap>

QT_BEGIN_NAMESPACE
class QNetworkReply;
QT_END_NAMESPACE

class WallabagClient;

/*
    Downloads images (article previews, pictures inside articles) through the client's
    manager and keeps the decoded ones in memory up to a bound, with a few scaled
    thumbnails; an image evicted from memory is downloaded again (or taken from its offline
    copy) when it is shown again. The manager keeps the offline copies on disk (see Use);
    keepForOffline() fills them for saved articles that were never opened.
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
    /*! Starts downloading \a url unless it is in memory or on its way. While the network is
        slow or gone, the manager's offline copy is shown until the fresh image arrives. */
    void request(const QUrl &url, Use use = Use::Preview);
    /*! The image, or a null image while it is not (or could not be, or no longer is)
        in memory. */
    QImage image(const QUrl &url) const;
    /*! The image scaled and cropped to fill \a size, cached; null while not loaded. */
    QPixmap thumbnail(const QUrl &url, const QSize &size, qreal devicePixelRatio) const;
    /*! Downloads started and not finished yet (not counting keepForOffline()). */
    int pendingCount() const { return int(m_pending.size()); }

    /*! Bytes of decoded images kept in memory at most (default 64 MiB); the least recently
        used go first. Thumbnails have a bound of their own, a quarter of it. */
    void setMemoryLimit(qint64 bytes);
    qint64 memoryLimit() const { return qint64(m_images.maxCost()) * 1024; }
    /*! Decoded images in memory now. */
    int imagesInMemory() const { return int(m_images.count()); }

    /*! Downloads the pictures of a saved article, \a urls, into offline copies without
        decoding them, so the article reads complete offline although it was never opened.
        A few at a time. These copies live within the offline budget (opening the article
        pins them), so a large library cannot fill the disk. */
    void keepForOffline(const QList<QUrl> &urls);
    /*! keepForOffline() downloads queued or under way. */
    int keepingCount() const { return int(m_keepQueue.size()) + m_keepRunning; }
    /*! Forgets every image in memory and stops every download (the person signed out):
        nothing of the account left behind stays on screen or goes on loading. */
    void clear();
    /*! The pictures an article's \a html shows, resolved against \a base; only http(s). */
    static QList<QUrl> picturesOf(const QString &html, const QUrl &base);

Q_SIGNALS:
    void imageReady(const QUrl &url);
    void pendingCountChanged(int count);
    /*! keepForOffline() has nothing left to download. */
    void keptForOffline();

private:
    void store(const QUrl &url, const QImage &image);
    void keepNext();
    void track(QNetworkReply *reply);

    WallabagClient *m_client;
    QCache<QUrl, QImage> m_images;
    QSet<QUrl> m_pending;
    QSet<QUrl> m_failed;
    mutable QCache<QString, QPixmap> m_thumbnails;
    QList<QUrl> m_keepQueue;
    QSet<QUrl> m_kept; // downloaded (or queued) for offline in this run
    QList<QPointer<QNetworkReply>> m_replies; // running, for clear()
    int m_keepRunning = 0;
};

#endif // KEEPTRYING_READER_IMAGESTORE_H
