// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "articlelistmodel.h"

#include "library/imagestore.h"

ArticleListModel::ArticleListModel(LocalStore *store, ImageStore *images, QObject *parent)
    : QAbstractListModel(parent), m_store(store), m_images(images)
{
    m_reloadSoon.setSingleShot(true);
    m_reloadSoon.setInterval(0);
    connect(&m_reloadSoon, &QTimer::timeout, this, &ArticleListModel::reload);
    connect(store, &LocalStore::reset, &m_reloadSoon, qOverload<>(&QTimer::start));
    connect(store, &LocalStore::articleChanged, this, &ArticleListModel::articleChanged);
    connect(images, &ImageStore::imageReady, this, &ArticleListModel::previewArrived);
}

void ArticleListModel::setFilter(const LocalStore::Filter &filter)
{
    m_filter = filter;
    reload();
}

void ArticleListModel::reload()
{
    m_reloadSoon.stop();
    const QList<Article> fresh = m_store->articles(m_filter);
    // Same rows in the same order (a refresh that changed a few fields): update in place,
    // so that the selection and the scroll position stay.
    bool sameRows = fresh.size() == m_articles.size();
    for (qsizetype i = 0; sameRows && i < fresh.size(); ++i)
        sameRows = fresh.at(i).id == m_articles.at(i).id;
    if (sameRows) {
        m_articles = fresh;
        if (!m_articles.isEmpty())
            Q_EMIT dataChanged(index(0), index(int(m_articles.size()) - 1));
    } else {
        beginResetModel();
        m_articles = fresh;
        endResetModel();
    }
    Q_EMIT reloaded();
}

void ArticleListModel::articleChanged(qint64 id)
{
    const int row = rowOfId(id);
    const Article fresh = m_store->article(id);
    // Whether the changed article still matches the filter (e.g. archived in Unread).
    bool belongs = false;
    if (fresh.id != 0) {
        const QList<Article> rows = m_store->articles(m_filter);
        for (const Article &a : rows)
            belongs = belongs || a.id == id;
    }
    if (row >= 0 && belongs) {
        Article updated = fresh;
        updated.content.clear(); // the list keeps summaries only
        m_articles[row] = updated;
        Q_EMIT dataChanged(index(row), index(row));
    } else if (row != -1 || belongs) {
        m_reloadSoon.start();
    }
}

Article ArticleListModel::article(int row) const
{
    return m_articles.value(row);
}

int ArticleListModel::rowOfId(qint64 id) const
{
    for (int row = 0; row < m_articles.size(); ++row) {
        if (m_articles.at(row).id == id)
            return row;
    }
    return -1;
}

void ArticleListModel::requestPreview(int row) const
{
    if (row >= 0 && row < m_articles.size())
        m_images->request(m_articles.at(row).previewPicture);
}

int ArticleListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_articles.size());
}

QVariant ArticleListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Article &a = m_articles.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return a.title;
    case IdRole:
        return a.id;
    case DomainRole:
        return a.domain;
    case ReadingTimeRole:
        return a.readingTimeMinutes;
    case PreviewUrlRole:
        return a.previewPicture;
    case StarredRole:
        return a.starred;
    case ArchivedRole:
        return a.archived;
    case TagsRole:
        return a.tags;
    case CreatedRole:
        return a.createdAt;
    case SyncStateRole:
        return int(a.syncState);
    case SyncErrorRole:
        return a.syncError;
    case HasContentRole:
        return a.hasContent;
    case ArticleRole:
        return QVariant::fromValue(a);
    default:
        return {};
    }
}

void ArticleListModel::previewArrived(const QUrl &url)
{
    for (int row = 0; row < m_articles.size(); ++row) {
        if (m_articles.at(row).previewPicture == url)
            Q_EMIT dataChanged(index(row), index(row), { Qt::DecorationRole });
    }
}
