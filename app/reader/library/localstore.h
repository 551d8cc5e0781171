// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_LOCALSTORE_H
#define KEEPTRYING_READER_LOCALSTORE_H

#include "article.h"

#include <QtCore/QDateTime>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QString>

/*
    The reader's own database (SQLite through QtSql): the articles the user has, their tags,
    their content for offline reading, and for each the sync state of the changes made here.
    It is the screen's source of truth: the models read it, the sync engine writes what the
    server says into it, and a user action changes it at once (then goes to the ChangeQueue).

    Each article keeps two versions of what the user can change (starred, archived, tags):
    the one shown, and the server's last confirmed one. A field changed here is "pending"
    until the server confirms it; a refresh from the server never overwrites a pending
    field, so a change waiting to be sent stays on screen. Undo puts the server's version
    back.

    Why a database of the reader's own rather than the manager's offline copies of the API
    responses: filters, counts per tag, search over content and a per-article sync state are
    queries over articles, not over responses; a response cache holds pages as the server
    cut them, and would have to be parsed whole for every count.
*/
class LocalStore : public QObject
{
    Q_OBJECT

public:
    enum class View { Unread, Starred, Archive, All };
    struct Filter
    {
        View view = View::Unread;
        QString tag; // only articles with this tag; empty: any
        QString search; // words in the title, domain or (when offline) content
    };
    struct Counts
    {
        int unread = 0;
        int starred = 0;
        int archive = 0;
        int all = 0;
        QList<QPair<QString, int>> tags; // by label, case-insensitively sorted
    };
    // A field of an article changed here and not confirmed by the server yet.
    enum class Field { Starred, Archived, Tags, Deleted, Added };
    struct Pending
    {
        qint64 id = 0;
        Field field = Field::Starred;
    };

    explicit LocalStore(QObject *parent = nullptr);

    /*! Where the reader keeps the file \a kind ("library", "outbox") of \a account: the
        application's data directory (created when missing), one file per account. */
    static QString defaultPath(const QString &account,
                               const QString &kind = QStringLiteral("library"));
    ~LocalStore() override;

    /*! Opens (creating when needed) the database at \a path; ":memory:" for none on disk.
        Returns false with \a errorMessage set when it cannot be opened or read. Called on a
        store already open (another account), it closes that database first and emits
        reset() once the new one is open. */
    bool open(const QString &path, QString *errorMessage = nullptr);
    bool isOpen() const;
    /*! The server the articles come from: pictures on it are kept relative to it, so that
        they still load when it moves (the built-in server takes a new port every run). */
    void setServer(const QUrl &server) { m_server = server; }
    QUrl server() const { return m_server; }
    QString path() const { return m_path; }

    // --- reading (for the models) ---
    /*! The articles of \a filter, newest first, without their content. */
    QList<Article> articles(const Filter &filter) const;
    /*! Those of \a ids that are in \a filter, newest first, without their content: what a
        list shows of a few changed articles, without reading the whole list again. */
    QList<Article> articles(const Filter &filter, const QList<qint64> &ids) const;
    /*! True when \a a comes before \a b in articles(): newer first, then the higher id. */
    static bool listsBefore(const Article &a, const Article &b);
    /*! One article with its content; id 0 when there is none. */
    Article article(qint64 id) const;
    Counts counts() const;
    /*! Articles not deleted here. */
    int articleCount() const;
    /*! Bytes of article content kept for offline reading. */
    qint64 contentBytes() const;
    /*! The changes waiting for the server (pending fields), oldest article first. */
    QList<Pending> pendingChanges() const;
    /*! Articles whose last change the server refused. */
    QList<Article> failedArticles() const;
    /*! The fields of \a id not saved on the server (refused or waiting). */
    QList<Field> unsavedFields(qint64 id) const;

    // --- what the server says (for the sync engine) ---
    /*! Stores what the server has, in one transaction: new articles are added, known ones
        updated except for their pending fields. Content is replaced only when the entry had
        it (hasContent, a string: a metadata list's null is not content), and an empty text
        never replaces one kept for offline reading. */
    void mergeFromServer(const QList<Article> &articles);
    /*! Removes the articles the server no longer has: every article with a server id not in
        \a serverIds, unless a change of it is pending. Returns how many went. */
    int sweep(const QSet<qint64> &serverIds);
    void setContent(qint64 id, const QString &html);
    /*! Stores the texts of many articles in one transaction (a page of the list with its
        contents); an empty text never replaces a kept one. Emits reset() once. */
    void setContents(const QHash<qint64, QString> &htmlById);

    // --- what the user does (shown at once, then sent) ---
    void setStarred(qint64 id, bool starred);
    void setArchived(qint64 id, bool archived);
    void setTags(qint64 id, const QStringList &tags);
    void markDeleted(qint64 id);
    /*! True when the user deleted \a id and the server has not confirmed it yet. */
    bool isMarkedDeleted(qint64 id) const;
    /*! The user undid their delete of \a id before it was sent: the article shows again,
        with its other pending fields as they were. */
    void unmarkDeleted(qint64 id);
    /*! Adds an article for \a url that the server has not saved yet; returns its local
        (negative) id. */
    qint64 addLocal(const QUrl &url);

    // --- the outcome of a change (from the ChangeQueue) ---
    /*! The server confirmed \a field of \a id; \a entry is its answer (may be empty). For
        an added article, \a entry becomes the article under its server id. \a stillPending:
        a later change of the same field waits, so the field stays pending. */
    void confirm(qint64 id, Field field, const QJsonObject &entry, const QUrl &server,
                 bool stillPending = false);
    /*! The server now has \a value for \a field (Starred or Archived) of \a id: what Undo
        goes back to. For confirmations that come without the server's entry. */
    void setServerFlag(qint64 id, Field field, bool value);
    /*! The server refused \a field of \a id for \a reason: the article shows Failed. */
    void fail(qint64 id, Field field, const QString &reason);
    /*! Undo: the article shows the server's version again, nothing pending. */
    void revert(qint64 id);
    /*! Discard: stop sending the refused change, keeping what is shown. */
    void discardPending(qint64 id);

    // --- small things ---
    QString value(const QString &key) const;
    void setValue(const QString &key, const QString &value);
    int scrollPosition(qint64 id) const;
    void setScrollPosition(qint64 id, int position);

    static QString fieldName(Field field);

Q_SIGNALS:
    /*! One article changed (shown fields or sync state). */
    void articleChanged(qint64 id);
    /*! Many articles changed (a refresh, a sweep): read again. */
    void reset();
    /*! The text of \a id, \a html, was stored for offline reading (setContent(), or
        setContents() after its reset()). */
    void contentStored(qint64 id, const QString &html);

private:
    QList<Article> readArticles(const Filter &filter, const QList<qint64> *ids) const;
    bool exec(const QString &sql, const QVariantList &values = {}) const;
    bool exists(qint64 id) const;
    void addPending(qint64 id, Field field);
    QStringList pendingOf(qint64 id) const;
    void setPendingOf(qint64 id, const QStringList &pending, SyncState state,
                      const QString &error = QString());
    void writeTags(qint64 id, const QStringList &tags, const QHash<QString, int> &ids);

    QString m_connection;
    QUrl m_server;
    QString m_path;
    bool m_foldedSearch = false; // kt_contains() is there (SearchFold::install)
};

#endif // KEEPTRYING_READER_LOCALSTORE_H
