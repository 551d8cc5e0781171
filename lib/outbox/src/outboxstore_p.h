// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OUTBOXSTORE_P_H
#define KEEPTRYING_OUTBOXSTORE_P_H

#include <KeepTrying/outboxitem.h>

#include <QtCore/QLoggingCategory>
#include <QtCore/QString>
#include <QtCore/QVariantList>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>

namespace KeepTrying {

Q_DECLARE_LOGGING_CATEGORY(lcOutbox)

/*!
    The Outbox's SQLite database (QtSql, QSQLITE), and nothing else: every statement the
    outbox runs, each checked, each write in its own committed transaction. One connection,
    named uniquely, used from the thread that opened it.

    Table \c items, one row per pending item or dead letter (delivered ones are deleted):
    state 0 queued (next_attempt_at says when it may go), 1 being sent, 2 dead letter; seq is
    the queue position (requeue moves an item to the end), id never changes and is never
    reused (AUTOINCREMENT). PRAGMA user_version holds the schema version.
*/
class OutboxStore
{
public:
    enum RowState { Queued = 0, Sending = 1, Dead = 2 };

    struct OpenResult
    {
        bool usable = false;
        QString recoveryReason; //!< why the old file was put aside, or empty
        QString keptAsidePath; //!< where it went
        QString failure; //!< why nothing could be opened (usable false)
    };
    struct InsertResult
    {
        qint64 id = 0;
        OutboxError error = OutboxError::NoError;
        QString errorString;
        QList<qint64> superseded;
        bool existing = false; //!< the same request with the same key was queued already
    };

    OutboxStore();
    ~OutboxStore();

    /*! Pending rows of the file \a path, read-only (Outbox::pendingCountIn()). */
    static int peekPendingCount(const QString &path);
    OutboxStore(const OutboxStore &) = delete;
    OutboxStore &operator=(const OutboxStore &) = delete;

    /*! Opens \a path; a file that is not a usable outbox is renamed aside and a fresh one
        made. */
    OpenResult open(const QString &path, bool fullSync);
    void close();
    bool isOpen() const;
    /*! Whether the commits that acknowledge something to the app (insert, discard,
        requeue) are made with synchronous=FULL. */
    void setSynchronousFull(bool full);
    /*! PRAGMA max_page_count for \a bytes (0: SQLite's default bound). */
    bool setMaxDatabaseBytes(qint64 bytes);

    /*! Commits \a item (id ignored) with the coalescing and cancelling of \a options. */
    InsertResult insert(const OutboxItem &item, bool cancelsEarlierChanges);
    /*! Sending rows back to queued: their drainer is gone. Returns how many, -1 on error. */
    int resetSending();
    /*! The first pending item of each resource, when it is queued and due at \a nowMs. */
    QList<OutboxItem> dueHeads(qint64 nowMs);
    /*! Queued → sending; false when the row is not queued any more (or on error). */
    bool markSending(qint64 id);
    bool remove(qint64 id);
    /*! Back to queued after a failed replay, not before \a nextAttemptAtMs. */
    bool recordFailure(qint64 id, const QString &error, qint64 nextAttemptAtMs, bool conflict);
    /*! Sending → queued, not before \a nextAttemptAtMs, without counting an attempt (a
        resend check asked it to wait). */
    bool defer(qint64 id, qint64 nextAttemptAtMs);
    /*! 409 answers in a row so far. */
    int conflictCount(qint64 id);
    bool recordDeadLetter(qint64 id, int status, const QByteArray &body, const QString &reason,
                          const QString &lastError, bool countAttempt, qint64 nowMs);
    /*! Queued items created before \a cutoffMs become dead letters "expired". */
    QList<qint64> expire(qint64 cutoffMs, qint64 nowMs);

    struct Counts
    {
        int pending = 0;
        int dead = 0;
        qint64 oldestPendingCreatedMs = -1;
        qint64 nextAttemptAtMs = -1; //!< earliest next_attempt_at after now, -1 none
    };
    bool counts(Counts *counts, qint64 nowMs);
    /*! Queued items may go now, whatever their backoff said (flush()). */
    bool clearRetryTimes();

    QList<OutboxItem> items(bool dead);
    OutboxItem item(qint64 id);
    int pendingCount(const QString &resourceKey);
    bool hasDeadLetters(const QString &resourceKey);
    /*! The first pending item of \a resourceKey, id 0 when none. */
    OutboxItem resourceHead(const QString &resourceKey);
    bool discard(qint64 id);
    /*! Removes the queued item \a id if no drainer has marked it as being sent. */
    bool cancel(qint64 id);
    bool requeue(qint64 id);

    /*! The columns of a row of \c items, in the order decodeRow() reads them (the SELECT
        list of every query that reads items). */
    static constexpr int rowColumns = 17;
    /*! The item that \a row (rowColumns values, as QSqlQuery::value() gives them) holds;
        \a nowMs tells a queued item from one waiting to retry. A missing or mistyped value
        reads as Qt converts it (0, empty, null date): a damaged row gives an item, never a
        crash. */
    static OutboxItem decodeRow(const QVariantList &row, qint64 nowMs);

    /*! The last error of a statement, readable; empty after a success. */
    QString lastError() const { return m_lastError; }
    /*! SQLite's primary result code of the last error (13 SQLITE_FULL), 0 when none. */
    int lastErrorCode() const { return m_lastErrorCode; }

private:
    /*! synchronous=FULL for one commit that the app is told about. The drain's own
        bookkeeping (sending markers, deliveries, failures, dead letters) is committed with
        NORMAL, which keeps the database consistent but may lose the last commits on power
        loss: then an item delivered is sent again, which its Idempotency-Key makes
        harmless, and a marker lost is one the next drainer would reset anyway. Each FULL
        commit also makes the NORMAL ones before it durable (one WAL, synced in order). */
    struct Durable
    {
        explicit Durable(OutboxStore &store);
        ~Durable();
        OutboxStore &store;
    };

    bool openConnection(const QString &path, bool fullSync, QString *reason, bool *broken);
    void dropConnection();
    bool exec(const QString &sql);
    bool begin();
    bool commit();
    void rollback();
    bool fail(const QSqlError &error, const QString &what);

    QString m_connectionName;
    QSqlDatabase m_db;
    QString m_lastError;
    int m_lastErrorCode = 0;
    bool m_fullSync = true;
};

} // namespace KeepTrying

#endif // KEEPTRYING_OUTBOXSTORE_P_H
