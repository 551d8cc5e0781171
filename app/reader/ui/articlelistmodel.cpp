// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "articlelistmodel.h"

#include "library/imagestore.h"

#include <algorithm>
#include <functional>

ArticleListModel::ArticleListModel(LocalStore *store, ImageStore *images, QObject *parent)
    : QAbstractListModel(parent), m_store(store), m_images(images)
{
    m_soon.setSingleShot(true);
    m_soon.setInterval(0);
    connect(&m_soon, &QTimer::timeout, this, &ArticleListModel::takeInChanges);
    connect(store, &LocalStore::reset, this, [this] {
        m_reloadWanted = true;
        m_soon.start();
    });
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
    m_soon.stop();
    m_reloadWanted = false;
    m_changed.clear();
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
        m_rows.clear();
        endResetModel();
    }
    Q_EMIT reloaded();
}

void ArticleListModel::articleChanged(qint64 id)
{
    m_changed.insert(id);
    if (m_soon.isActive())
        return; // a burst (a sync): taken in once it is over
    // A lone change (a person's star) shows at once; the ones after it in the same turn of
    // the event loop wait for the timer.
    m_soon.start();
    if (!m_reloadWanted)
        takeInChanges();
}

void ArticleListModel::takeInChanges()
{
    if (m_reloadWanted) {
        reload();
        return;
    }
    const QList<qint64> ids(m_changed.cbegin(), m_changed.cend());
    m_changed.clear();
    if (ids.isEmpty())
        return;
    // The changed articles that are (still) in the filter, in one query.
    const QList<Article> fresh = m_store->articles(m_filter, ids);
    QSet<qint64> belonging;
    for (const Article &a : fresh)
        belonging.insert(a.id);

    QList<int> leaving;
    QList<Article> arriving; // in the list's order, as the store gave them
    for (qint64 id : ids) {
        const int row = belonging.contains(id) ? -1 : rowOfId(id);
        if (row >= 0)
            leaving << row;
    }
    for (const Article &a : fresh) {
        const int row = rowOfId(a.id);
        if (row < 0) {
            arriving << a;
        } else if (a.createdAt != m_articles.at(row).createdAt) {
            // Its place in the order changed: out, and in again where it belongs now.
            leaving << row;
            arriving << a;
        } else {
            m_articles[row] = a;
            Q_EMIT dataChanged(index(row), index(row));
        }
    }
    if (leaving.isEmpty() && arriving.isEmpty())
        return;
    // From the bottom up, so that the rows found above stay right.
    std::sort(leaving.begin(), leaving.end(), std::greater<int>());
    m_rows.clear();
    for (int row : std::as_const(leaving)) {
        beginRemoveRows({}, row, row);
        m_articles.removeAt(row);
        endRemoveRows();
    }
    for (const Article &a : std::as_const(arriving)) {
        const auto at =
            std::lower_bound(m_articles.cbegin(), m_articles.cend(), a, &LocalStore::listsBefore);
        const int row = int(at - m_articles.cbegin());
        beginInsertRows({}, row, row);
        m_articles.insert(row, a);
        endInsertRows();
    }
    Q_EMIT reloaded();
}

Article ArticleListModel::article(int row) const
{
    return m_articles.value(row);
}

int ArticleListModel::rowOfId(qint64 id) const
{
    if (m_rows.isEmpty() && !m_articles.isEmpty()) {
        m_rows.reserve(m_articles.size());
        for (int row = 0; row < m_articles.size(); ++row)
            m_rows.insert(m_articles.at(row).id, row);
    }
    return m_rows.value(id, -1);
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
