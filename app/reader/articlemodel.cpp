// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "articlemodel.h"

#include "imagestore.h"

ArticleModel::ArticleModel(ImageStore *images, QObject *parent)
    : QAbstractListModel(parent), m_images(images)
{
    connect(m_images, &ImageStore::imageReady, this, &ArticleModel::previewArrived);
}

void ArticleModel::setArticles(const QList<Article> &articles)
{
    beginResetModel();
    m_articles = articles;
    endResetModel();
    for (const Article &article : std::as_const(m_articles))
        m_images->request(article.previewPicture);
}

void ArticleModel::updateArticle(const Article &article)
{
    const int row = rowOfId(article.id);
    if (row < 0)
        return;
    m_articles[row] = article;
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed);
}

Article ArticleModel::article(int row) const
{
    return m_articles.value(row);
}

int ArticleModel::rowOfId(int id) const
{
    for (int row = 0; row < m_articles.size(); ++row) {
        if (m_articles.at(row).id == id)
            return row;
    }
    return -1;
}

int ArticleModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_articles.size());
}

QVariant ArticleModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Article &article = m_articles.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return article.title;
    case IdRole:
        return article.id;
    case DomainRole:
        return article.domain;
    case ReadingTimeRole:
        return article.readingTimeMinutes;
    case PreviewUrlRole:
        return article.previewPicture;
    case StarredRole:
        return article.starred;
    case TagsRole:
        return article.tags;
    case ArticleRole:
        return QVariant::fromValue(article);
    default:
        return {};
    }
}

QHash<int, QByteArray> ArticleModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "articleId");
    names.insert(DomainRole, "domain");
    names.insert(ReadingTimeRole, "readingTime");
    names.insert(PreviewUrlRole, "previewUrl");
    names.insert(StarredRole, "starred");
    names.insert(TagsRole, "tags");
    return names;
}

void ArticleModel::previewArrived(const QUrl &url)
{
    for (int row = 0; row < m_articles.size(); ++row) {
        if (m_articles.at(row).previewPicture == url) {
            const QModelIndex changed = index(row);
            Q_EMIT dataChanged(changed, changed, { Qt::DecorationRole });
        }
    }
}
