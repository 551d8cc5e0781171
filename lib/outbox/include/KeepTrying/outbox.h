// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OUTBOX_H
#define KEEPTRYING_OUTBOX_H

#include <KeepTrying/keeptrying_outbox_export.h>
#include <KeepTrying/outboxitem.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QObject>
#include <QtNetwork/QNetworkRequest>

#include <functional>
#include <memory>

namespace KeepTrying {

class OutboxPrivate;
class RetryingNetworkAccessManager;

/*!
    A durable queue of writes that must not be lost and must not take effect twice: a star,
    an archive, a delete made on a train. enqueue() returns once the write is committed to a
    SQLite database (QtSql's QSQLITE driver); the outbox then sends it through a
    RetryingNetworkAccessManager (so retries, reachability, the circuit breaker, the retry
    budget and the concurrency window apply) until the server has answered it, across
    crashes, kill -9 and restarts.

    ### Guarantees

    - At-least-once delivery, exactly-once effect: an item stays in the database until a
        success is recorded (2xx, or what setSuccessPredicate() calls one) or it becomes a
        dead letter. Every replay carries the item's Idempotency-Key
        (draft-ietf-httpapi-idempotency-key-header), so a server that honours it applies the
        write once however often it arrives (for a server that ignores keys, see
        setResendCheck()). A kill at any moment leaves every item enqueue() acknowledged
        either delivered-and-recorded or still queued.
    - Durable commits: WAL journal with `synchronous=FULL` for every commit the app is
        told about (enqueue(), discard(), requeue()), so that it is on the disk (the WAL is
        fsync'ed) before the call returns, and survives a power cut, not only a crash of the
        app. `NORMAL` would fsync only at checkpoints: safe against a crash, but the last
        writes may vanish on power loss, which is exactly when a laptop on a train loses
        them (bench_outbox measures both). The drain's own bookkeeping (being sent,
        delivered, failed, dead letter) is committed with NORMAL: should power loss undo
        it, an item is sent once more, which its Idempotency-Key makes harmless; that
        saves two fsyncs per replay.
    - Order: items with one resource key (OutboxEnqueueOptions::resourceKey, default the
        origin) are sent one at a time in the order they were queued; different resources
        go in parallel (at most Settings::maxConcurrentReplays). A dead letter does not
        block the items queued after it.
    - No double send: one drainer per database file at a time, across threads and
        processes (see below); overlapping triggers (start-up, reachability back, the retry
        timer, flush(), enqueue()) never send an item twice at once.
    - Nothing is dropped silently: a refused write becomes a dead letter with the server's
        status and body (itemDeadLettered(), deadLetters()); an item older than
        Settings::maxAgeMs (off by default) becomes one with the reason "expired".
    - No secrets on disk: headers that isCredentialName() names (Authorization,
        Proxy-Authorization, Cookie, X-Api-Key, …) are removed at enqueue, and a URL with a
        password is refused; the signer set with setSigner() adds the credentials to each
        replay, so a token refreshed meanwhile is used. Credentials in the URL's query are
        stored as they are: pass them through the signer instead.


    ### Outcomes of a replay

    - 2xx, or a status the success predicate accepts: delivered, removed, itemDelivered().
    - 401 to a request an Authenticator handles (the manager's, or the one the signer
        names with Authenticator::useAuthenticator()): an expired token, not a refusal. The
        manager sent it again after the renewal when it could; when it could not (no
        Idempotency-Key), the item keeps its place and goes again at once, held by the
        manager until the renewal ends, signed anew; when no renewal runs (it was refused,
        or the new credentials were refused too), after the backoff, and at once when a
        renewal succeeds after a refusal (the user signed in again). Never a dead letter.
    - A status the retry-later predicate accepts (setRetryLaterPredicate()): kept in its
        place, retried after the backoff or at the next flush().
    - 408, 429, 5xx (those RetryPolicy retries) and connectivity faults, once the manager
        has given up: kept, retried after a backoff (Settings::initialRetryDelayMs doubling
        to Settings::maxRetryDelayMs, or the server's Retry-After, RFC 9110 §10.2.3).
    - 409 (the Idempotency-Key is in use by a request still being processed, as the draft
        says): retried later like a 503, up to Settings::maxConflictRetries times in a row,
        then a dead letter.
    - 422 (the key was used for another payload) and every other 4xx, and other statuses
        that are not successes (3xx the manager did not follow): dead letter.
    - No HTTP answer at all (TLS error, protocol error, timeout): kept and retried; a
        captive portal or a clock that is wrong must not cost the user their change.


    ### Servers that ignore Idempotency-Key
    A server without Idempotency-Key support (wallabag, most APIs) applies a write twice
    when it arrives twice. For the items setResendCheck() names ("checked items"):
    <table>
    <tr><th>When</th><th>What happens</th></tr>
    <tr><td>Every replay</td><td>Sent without an Idempotency-Key, and the manager adds none
        (RetryPolicy::addIdempotencyKey is off for it): the manager then sends it again
        within the replay only when no byte of it can have reached the server (connection
        refused, host not found), never after a timeout or a reset.
    <tr><td>A replay ends without success, and it may have reached the server</td><td>
        "Unsettled" from that moment: no HTTP answer other than a refused connection or an
        unknown host, or an answer that is not a 4xx (a 502 of a proxy whose server still
        works, say). A 4xx, or a connection refused, leaves the item as it was.
    <tr><td>At setResendCheck(), for items left by an earlier run</td><td>Unsettled from
        now when they were attempted before (attempts > 0, or left being sent): when that
        attempt was is not stored.
    <tr><td>Before an unsettled item is sent again</td><td>The check runs instead (the item
        shows as Sending; cancel() refuses it). ResendFinding::Done: delivered, with the
        body the check gives (itemDelivered() with status 200). NotDone, and
        Settings::resendSettleMs have passed since the last attempt that may have reached
        the server: sent (no longer unsettled). NotDone sooner: WaitingToRetry until then,
        and checked again. Unknown: retried after the backoff, like a failed replay.
    </table>
    Other items are not affected: PATCH and DELETE that set a state are naturally
    idempotent and keep their keys and the manager's retries.

    ### Drain lock
    Only one Outbox drains a database file at a time: a QLockFile next to it
    (`<databasePath>.lock`), taken while there is something to send and released when
    idle. QLockFile holds the holder's PID, host and application name: a holder killed by
    kill -9 does not keep it, because the next tryLock() finds that PID gone (or reused by
    another program) and takes the lock over; its stale time is off, so a live drainer on a
    long replay is never robbed. An SQLite transaction could not serve: it would have to
    stay open across network round trips and block every enqueue(). Outboxes that do not
    hold the lock still enqueue (SQLite serialises the writers; busy timeout 5 s) and try
    the lock again every Settings::lockRetryMs while they have items. "Sending" markers
    left by a drainer that died are reset whenever the lock is taken (start-up included).

    ### Faults of the database
    A file that cannot be opened as an outbox (not a database, corrupt, an unknown schema
    version) is renamed to `<databasePath>.broken-<UTC time>` (with its -wal and -shm),
    the reason is logged in `keeptrying.outbox`, a fresh outbox is used, and
    databaseRecovered() tells the app (queued, so connect right after construction). When
    even a fresh one cannot be made (an unwritable directory, no QSQLITE driver), the app
    still runs: isUsable() is false, enqueue() returns OutboxError::DatabaseUnusable and
    openFailed() says why. A full disk makes enqueue() fail with OutboxError::DiskFull,
    keeping everything stored before.

    Lives in one thread (the manager's): its database connection is that thread's.
*/
class KEEPTRYING_OUTBOX_EXPORT Outbox : public QObject
{
    Q_OBJECT
    Q_PROPERTY(int pendingCount READ pendingCount NOTIFY pendingCountChanged)
    Q_PROPERTY(int deadLetterCount READ deadLetterCount NOTIFY deadLetterCountChanged)
    Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
    Q_PROPERTY(bool usable READ isUsable CONSTANT)

public:
    /*! Limits and schedules; times in milliseconds, sizes in bytes. */
    struct Settings
    {
        /*! Largest body enqueue() accepts (default 1 MiB); larger ones are refused with
            OutboxError::BodyTooLarge. */
        qint64 maxBodyBytes = 1024 * 1024;
        /*! Largest size of the database file; 0 (the default) means no bound beyond the
            disk's. Past it enqueue() fails with OutboxError::DiskFull (SQLite's
            max_page_count). */
        qint64 maxDatabaseBytes = 0;
        /*! Items older than this become dead letters with the reason "expired"; 0 (the
            default) means never. Unlike Workbox's silent 7 days, an expired item stays
            visible in deadLetters() until the app discards it. */
        qint64 maxAgeMs = 0;
        /*! Backoff of the outbox's own retries, after the manager gave up on a replay. */
        qint64 initialRetryDelayMs = 1000;
        qint64 maxRetryDelayMs = 300000;
        /*! 409 answers in a row after which an item becomes a dead letter. */
        int maxConflictRetries = 10;
        /*! Replays in flight at once (each of another resource). */
        int maxConcurrentReplays = 4;
        /*! The longest one replay may take, retries and waits for connectivity included,
            before it counts as a connectivity fault and the item waits for the next
            trigger (RetryPolicy::deadlineMs; the shorter of this and the manager's own
            deadline). Keeps a replay from hanging while offline. */
        qint64 replayDeadlineMs = 60000;
        /*! How often an outbox that has items but not the drain lock tries to take it. */
        qint64 lockRetryMs = 500;
        /*! How long after the last attempt of a checked item that may have reached the
            server (see setResendCheck()) a "not done" check is believed: longer than the
            server may take to act on a request it had received (wallabag fetches the page
            of an add for up to 10 s before it stores the entry). */
        qint64 resendSettleMs = 15000;
        /*! false: enqueue() commits with `synchronous=NORMAL` instead of FULL (faster,
            not safe against power loss; see the class comment). For benchmarks and
            throwaway data. */
        bool fullSync = true;
    };

    /*!
        Opens (or creates) the outbox in the SQLite file \a databasePath and starts draining
        it through \a manager (not owned; it must outlive the outbox). Never fails: see
        "Faults of the database" above for what happens to a file it cannot use. Items
        marked as being sent by a run that died are queued again; draining starts from the
        event loop.
    */
    Outbox(const QString &databasePath, RetryingNetworkAccessManager *manager,
           QObject *parent = nullptr);
    ~Outbox() override;

    QString databasePath() const;
    /*! False when no database could be opened at all; enqueue() then always fails. */
    bool isUsable() const;
    /*! Why the previous file was put aside at start-up, or empty (see databaseRecovered()). */
    QString recoveryReason() const;

    Settings settings() const;
    /*! Applies at once (maxDatabaseBytes too) and to items queued already. */
    void setSettings(const Settings &settings);

    /*! Called with each replay's request just before it is sent, to add credentials
        (e.g. `Authorization: Bearer <current token>`). Runs in the outbox's thread. */
    void setSigner(std::function<void(QNetworkRequest &)> signer);
    /*! Decides whether a non-2xx answer \a httpStatus to \a item counts as delivered, e.g.
        404 or 410 to a DELETE (deleteGoneIsSuccess()). Not asked for 2xx, nor without an
        HTTP answer. */
    void setSuccessPredicate(std::function<bool(const OutboxItem &item, int httpStatus)> predicate);
    /*! A success predicate: 404 and 410 to a DELETE mean the resource is gone, as wanted. */
    static bool deleteGoneIsSuccess(const OutboxItem &item, int httpStatus);
    /*!
        Decides whether a refusal \a httpStatus to \a item means "not yet" rather than
        "never": typically a 401 because the access token expired while the app renews it
        (with an Authenticator, the outbox does this by itself: see "Outcomes of a replay").
        Such an item is not a dead letter: it keeps its place (the items of its resource
        queued after it still wait behind it) and goes again after the backoff, or at once
        at the next flush() (call it when the new token is there). \a sent is the request
        as it was sent, signed: its Authorization tells which token was refused. Asked for
        every non-2xx answer the success predicate did not accept, before the rules of
        "Outcomes of a replay" below; runs in the outbox's thread.
    */
    void setRetryLaterPredicate(
        std::function<bool(const OutboxItem &item, int httpStatus, const QNetworkRequest &sent)>
            predicate);

    /*! What a resend check found out about an item's earlier attempts (setResendCheck()). */
    enum class ResendFinding {
        Done, //!< The server has it: the item counts as delivered, with the body given.
        NotDone, //!< The server has no trace of it (yet).
        Unknown //!< The check itself failed: the item waits for the backoff and is checked again.
    };
    /*! Called once by a resend check with its finding and, for Done, the body that
        itemDelivered() carries (the resource the first attempt created, say). */
    using ResendCheckDone = std::function<void(ResendFinding finding, const QByteArray &body)>;
    /*!
        For a server that ignores Idempotency-Key: \a appliesTo names the items that must
        not take effect twice when sent twice (an add that the server deduplicates only
        once it is stored); \a check finds out, without sending the item, whether an
        earlier attempt of it took effect (e.g. asks whether the URL is saved), and calls
        its ResendCheckDone once, at any time, from the outbox's thread. See "Servers that
        ignore Idempotency-Key" above for when it runs. Call it right after construction,
        before the event loop runs: items an earlier run left are judged then.
    */
    void setResendCheck(std::function<bool(const OutboxItem &item)> appliesTo,
                        std::function<void(const OutboxItem &item, ResendCheckDone done)> check);

    /*!
        Stores the write \a method \a request \a body and returns once it is committed, with
        its id; or refuses it, storing nothing (see OutboxError). Only the method, URL,
        headers and body are kept (not the request's attributes). An Idempotency-Key header
        on \a request becomes the item's key; enqueueing the same request with the same key
        while it is still queued returns the queued item's id instead of a second item.
        The item is sent at once when its turn has come and its origin is reachable.
    */
    OutboxEnqueueResult enqueue(const QByteArray &method, const QNetworkRequest &request,
                                const QByteArray &body = QByteArray(),
                                const OutboxEnqueueOptions &options = OutboxEnqueueOptions());

    /*! Sends now every item whose turn it is, without waiting for a retry timer (a "sync
        now" button). Items already being sent are not sent again. */
    void flush();

    /*! Items not delivered and not dead letters (queued, sending, waiting to retry). */
    int pendingCount() const;
    /*! The pendingCount() of the outbox file \a databasePath, read without opening it as an
        Outbox: nothing is sent, locked, recovered or created (an app that opens its outbox
        only once it can sign the replays still tells the user what waits). 0 when the file
        does not exist, -1 when it cannot be read as an outbox. */
    static int pendingCountIn(const QString &databasePath);
    int deadLetterCount() const;
    /*! Age of the oldest pending item in milliseconds, -1 when there is none. */
    qint64 oldestPendingAgeMs() const;
    /*! The last error of a replay or of the database, or empty. */
    QString lastError() const;

    /*! Pending items, in the order they will be sent (per resource). */
    QList<OutboxItem> items() const;
    /*! Dead letters, oldest first. */
    QList<OutboxItem> deadLetters() const;
    /*! The item \a id, pending or dead; one with id 0 when there is none. */
    OutboxItem item(qint64 id) const;
    /*! The state of what the app did to \a resourceKey: pending items (Queued, Sending or
        WaitingToRetry, the first one's) before dead letters; Queued with no item means
        nothing is waiting. Use hasPending() and hasDeadLetters() to tell. */
    OutboxItem::State resourceState(const QString &resourceKey) const;
    /*!
        Why the pending item \a id waits now, as data (see WaitReason):

        - Sending: its replay's own reason (RetryingReply::waitReason(): Backoff,
            RetryAfter, Offline, BreakerOpen, …), None while an attempt is in flight;
        - WaitingToRetry: Backoff until OutboxItem::nextAttemptAt;
        - Queued: Offline while the network is down, Unreachable while its origin cannot
            be reached; None when it only waits for its turn behind earlier items of its
            resource, or goes now.

        None for a dead letter or an unknown id. itemWaitReasonChanged() says each change of
        a replay's reason; after itemStateChanged(), read it again.
    */
    WaitReason waitReason(qint64 id) const;
    /*! Pending items of \a resourceKey. */
    int pendingCount(const QString &resourceKey) const;
    bool hasDeadLetters(const QString &resourceKey) const;

    /*! Removes the dead letter \a id for good. False when \a id is not a dead letter. */
    bool discard(qint64 id);
    /*! Queues the dead letter \a id again, with its Idempotency-Key, after the items queued
        now; its attempts start again from 0 and its age (createdAt, for maxAgeMs) from now.
        False when \a id is not a dead letter.
        A server that stored its answer to that key will give the same answer again. */
    bool requeue(qint64 id);
    /*!
        Takes the pending item \a id out of the outbox before it is sent, for good (the user
        undid what it carries: deleted an article whose creation is still queued, say).
        False, changing nothing, when it is being sent (by this process or another one; its
        answer will come as usual), is a dead letter (see discard()) or is unknown.
    */
    bool cancel(qint64 id);

Q_SIGNALS:
    /*! The item \a id was committed by enqueue() in this process. */
    void itemAdded(qint64 id);
    /*! The item \a id was answered with success (\a httpStatus) and removed; \a body is
        the answer's body (a created resource, say). */
    void itemDelivered(qint64 id, int httpStatus, const QByteArray &body);
    /*! The pending item \a id was taken out by cancel() and will not be sent. */
    void itemCancelled(qint64 id);
    /*! The item \a id became a dead letter: \a httpStatus (0 if none) and \a reason. */
    void itemDeadLettered(qint64 id, int httpStatus, const QString &reason);
    /*! The queued item \a id was replaced (coalescing) or cancelled (a DELETE) by \a byId,
        and removed without being sent. */
    void itemSuperseded(qint64 id, qint64 byId);
    /*! The item \a id changed state (see OutboxItem::State). */
    void itemStateChanged(qint64 id, KeepTrying::OutboxItem::State state);
    /*! The replay of item \a id (Sending) waits for another \a reason, or stopped waiting
        (kind() None); see waitReason(). */
    void itemWaitReasonChanged(qint64 id, const KeepTrying::WaitReason &reason);
    void pendingCountChanged(int count);
    void deadLetterCountChanged(int count);
    void lastErrorChanged(const QString &error);
    /*! The database file could not be used and was renamed to \a keptAsidePath; a fresh
        outbox is in use. Emitted from the event loop after construction. */
    void databaseRecovered(const QString &reason, const QString &keptAsidePath);
    /*! No database could be opened at all (isUsable() is false). Emitted from the event
        loop after construction. */
    void openFailed(const QString &reason);

private:
    Q_DECLARE_PRIVATE(Outbox)
    std::unique_ptr<OutboxPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_OUTBOX_H
