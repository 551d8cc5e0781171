// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_OUTBOXCHANGEQUEUE_H
#define KEEPTRYING_READER_OUTBOXCHANGEQUEUE_H

#include "changequeue.h"

#include <KeepTrying/outbox.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QSet>

#include <memory>

class WallabagClient;

namespace KeepTrying {
class RetryingNetworkAccessManager;
} // namespace KeepTrying

/*
    The user's changes in the library's durable Outbox (one SQLite file per account): a star
    made on a train is on disk before the star shows, and reaches the server once, with one
    Idempotency-Key for every replay, across quits and crashes.

    What goes in: one item per request, with the resource key "entry/<id>" (the writes to an
    article go one at a time, in order) and a coalescing key per article and field
    ("entry/<id>/starred", "entry/<id>/archive", "entry/<id>/tags"), so that two star
    toggles made offline leave one PATCH with the last value. A DELETE cancels the changes
    of that article still queued. A tag edit is a POST to the entry's tags naming every
    wanted tag (it adds them and keeps the others: wallabag's PATCH with tags would replace
    them all, dropping a tag another client or a tagging rule added meanwhile) and a DELETE
    per tag to remove; the POST, coalesced, moves behind a removal of an earlier edit, so
    the last edit wins.

    wallabag ignores Idempotency-Key and deduplicates an add by URL only, checked before its
    page fetch (up to 10 s): an add sent again while the first is still fetching makes a
    second entry. So an add is sent without a key and, when an earlier attempt may have
    reached the server, not again before asking exists.json whether the URL is saved; if it
    is, that entry is the answer; if not, it is asked again once the settle time since that
    attempt has passed, and only then sent (Outbox::setResendCheck()).

    Items say what they are: the method, the URL and the body are decoded back into a
    Change after a restart, so nothing else needs to be stored to report an outcome.

    The Outbox is opened once the client has an access token: its signer adds the current
    token to every replay, and a replay without one would be refused. Changes made before
    that are held in memory; the store marks them pending, so none is lost if the reader
    quits first (the engine enqueues the store's pending fields the queue does not hold,
    once opened()). A 401 to a replay (the token expired meanwhile) is no refusal: the
    item keeps its place in the outbox (the article's later writes wait behind it), the
    client renews the sign-in (once for all of them) and the item goes again with the new
    token. Other refusals are reported (refused()) and stay as dead letters until the user
    undoes or discards them.
*/
class OutboxChangeQueue : public ChangeQueue
{
    Q_OBJECT

public:
    /*! Opens the outbox at \a databasePath (created when missing) as soon as \a client is
        signed in. Neither \a client nor \a manager is owned; both must outlive the queue. */
    OutboxChangeQueue(WallabagClient *client, KeepTrying::RetryingNetworkAccessManager *manager,
                      const QString &databasePath, QObject *parent = nullptr);
    ~OutboxChangeQueue() override;

    void enqueue(const Change &change) override;
    /*! The outbox's pendingCount, plus the changes held until it opens or in their grace
        time. Before the outbox opens (offline at start: no sign-in yet) the count of what
        its file holds, read without sending anything (Outbox::pendingCountIn()). */
    int waitingCount() const override;
    bool holds(qint64 articleId, Change::Kind kind) const override;
    QList<Change> waiting() const override;
    void discard(qint64 articleId) override;
    /*! Takes back a change still held (the delete's grace time, or before the outbox
        opened) or still queued in the outbox (Outbox::cancel()). */
    bool withdraw(qint64 articleId, Change::Kind kind) override;

    /*! How long a delete stays here before it goes to the outbox, so that the user's Undo
        of it within that time never races its sending. Its article is marked deleted in the
        store meanwhile: a quit within the grace time loses nothing (SyncEngine::start()
        queues it again). Default 0: at once. */
    void setDeleteGraceMs(int milliseconds) { m_deleteGraceMs = milliseconds; }
    int deleteGraceMs() const { return m_deleteGraceMs; }

    /*! Closes the outbox and takes the one at \a databasePath (another account's), opened
        as the constructor's is: at once when the client is signed in, else at its next
        sign-in. What the closed one holds stays in its file, for whoever opens it next;
        changes held in memory before it opened are dropped here, as at a quit: the store
        of their account still marks them pending (SyncEngine::start() queues them again). */
    void setDatabasePath(const QString &databasePath);
    QString databasePath() const { return m_path; }
    /*! Writes what is held in memory (changes made before the outbox opened, deletes in
        their grace time) into the outbox file now, without sending it: a sign-out that
        keeps the changes closes the outbox next (setDatabasePath()), before the event loop
        lets anything go, and the library that marked them pending is removed. */
    void keepForLater();

    /*! How long after an add's attempt that may have reached the server the add is believed
        absent (Outbox::Settings::resendSettleMs): longer than wallabag's page fetch (up to
        10 s). Default 15 s; applies to the outbox opened next and to the open one. */
    void setAddSettleMs(qint64 milliseconds);

    /*! True once the outbox is open (the first sign-in). */
    bool isOpen() const override;

    /*! The outbox, or null before the first sign-in. */
    KeepTrying::Outbox *outbox() const { return m_outbox.get(); }

    /*! The ids of the tags of \a articleId whose removal is queued, not yet sent. */
    QSet<int> tagRemovalsQueued(qint64 articleId) const;
    /*! What an outbox item stands for; a Change with articleId 0 when it is none of ours. */
    static Change changeOf(const KeepTrying::OutboxItem &item);

private:
    struct Entry
    {
        Change change;
        bool dead = false;
    };
    void open();
    void send(const Change &change);
    bool put(const QByteArray &method, const QUrl &url, const QByteArray &body,
             const QString &coalescingKey, bool cancelsEarlier, const Change &change);
    void checkAdd(const KeepTrying::OutboxItem &item, KeepTrying::Outbox::ResendCheckDone done);
    void delivered(qint64 id, const QByteArray &body);
    void deadLettered(qint64 id, int status, const QString &reason);
    void countChanged();
    void pass(const Change &change);
    void peek();

    WallabagClient *m_client;
    KeepTrying::RetryingNetworkAccessManager *m_manager;
    QString m_path;
    std::unique_ptr<KeepTrying::Outbox> m_outbox;
    QList<Change> m_held; // before the outbox opens
    QHash<qint64, quint64> m_graced; // deletes in their grace time: article -> generation
    quint64 m_graceGeneration = 0;
    int m_deleteGraceMs = 0;
    int m_peeked = 0; // what the outbox file holds, read before it opens
    QHash<qint64, Entry> m_items; // outbox item id -> what it is, pending and dead
    int m_lastCount = -1;
    qint64 m_addSettleMs = 15000;
};

#endif // KEEPTRYING_READER_OUTBOXCHANGEQUEUE_H
