// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READINGPANE_H
#define KEEPTRYING_READER_READINGPANE_H

#include "article.h"

#include <QtWidgets/QTextBrowser>

class ImageStore;

/*
    Shows one article: its title, site, reading time and tags, then its HTML content.
    Pictures inside the article are fetched through the ImageStore (and so through the
    retrying manager) and appear when they arrive.
*/
class ReadingPane : public QTextBrowser
{
    Q_OBJECT

public:
    explicit ReadingPane(ImageStore *images, QWidget *parent = nullptr);

    /*! Relative links and pictures in articles are resolved against \a server. */
    void setServer(const QUrl &server);
    void showArticle(const Article &article);
    void showPlaceholder(const QString &title, const QString &text);
    int articleId() const { return m_articleId; }

protected:
    QVariant loadResource(int type, const QUrl &name) override;

private:
    void imageArrived(const QUrl &url);

    ImageStore *m_images;
    QUrl m_server;
    QSet<QUrl> m_waitingFor;
    QMultiHash<QUrl, QUrl> m_names; // resolved URL -> name in the document
    int m_articleId = 0;
};

#endif // KEEPTRYING_READER_READINGPANE_H
