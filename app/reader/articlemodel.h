// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ARTICLEMODEL_H
#define KEEPTRYING_READER_ARTICLEMODEL_H

#include "article.h"

#include <QtCore/QAbstractListModel>
#include <QtCore/QList>

class ImageStore;

/*
    The saved articles as a list model. Thumbnails come from the ImageStore; the model
    asks for each preview picture when the articles arrive and repaints a row when its
    picture does.
*/
class ArticleModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        IdRole = Qt::UserRole + 1,
        DomainRole,
        ReadingTimeRole, // minutes
        PreviewUrlRole,
        StarredRole,
        TagsRole,
        ArticleRole // the whole Article
    };

    explicit ArticleModel(ImageStore *images, QObject *parent = nullptr);

    void setArticles(const QList<Article> &articles);
    /*! Replaces the article with the same id (e.g. once its content has been fetched). */
    void updateArticle(const Article &article);
    Article article(int row) const;
    int rowOfId(int id) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void previewArrived(const QUrl &url);

    ImageStore *m_images;
    QList<Article> m_articles;
};

#endif // KEEPTRYING_READER_ARTICLEMODEL_H
