// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ARTICLELISTMODEL_H
#define KEEPTRYING_READER_ARTICLELISTMODEL_H

#include "library/article.h"
#include "library/localstore.h"

#include <QtCore/QAbstractListModel>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QSet>
#include <QtCore/QTimer>

class ImageStore;

/*
    The articles of one filter of the local store, newest first, as a list model. It reads
    the store only: a change in the store (a refresh, a star) shows here at once. Preview
    pictures are asked for lazily, when a row is painted (PreviewUrlRole through
    requestPreview()), and a row repaints when its picture arrives.

    A changed article (LocalStore::articleChanged) changes its own row: dataChanged, or its
    row removed or inserted in its place when it leaves or joins the filter, so that the
    selection and the scroll position stay. A lone change is taken in at once; the changes
    that follow it in a burst (a sync changes many) once the burst is over: read in one
    query, after the signals, never the whole list for each. A reset() of the store reads
    the list again.
*/
class ArticleListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        IdRole = Qt::UserRole + 1,
        DomainRole,
        ReadingTimeRole, // minutes
        PreviewUrlRole,
        StarredRole,
        ArchivedRole,
        TagsRole,
        CreatedRole, // QDateTime
        SyncStateRole, // int(SyncState)
        SyncErrorRole,
        HasContentRole,
        ArticleRole // the whole Article (without content)
    };

    ArticleListModel(LocalStore *store, ImageStore *images, QObject *parent = nullptr);

    void setFilter(const LocalStore::Filter &filter);
    LocalStore::Filter filter() const { return m_filter; }
    /*! Reads the store again (keeps rows that did not change). */
    void reload();

    Article article(int row) const;
    int rowOfId(qint64 id) const;
    /*! Starts loading the preview of \a row (the delegate calls it when painting). */
    void requestPreview(int row) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /*! The rows were read again from the store, or rows came or went. */
    void reloaded();

private:
    void articleChanged(qint64 id);
    void takeInChanges();
    void previewArrived(const QUrl &url);

    LocalStore *m_store;
    ImageStore *m_images;
    LocalStore::Filter m_filter;
    QList<Article> m_articles;
    mutable QHash<qint64, int> m_rows; // id -> row; built when asked, emptied when rows move
    QSet<qint64> m_changed; // changed in the store, not taken in yet
    bool m_reloadWanted = false; // the store was reset
    QTimer m_soon; // takes the changes in when their burst is over
};

#endif // KEEPTRYING_READER_ARTICLELISTMODEL_H
