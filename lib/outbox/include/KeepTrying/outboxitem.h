// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OUTBOXITEM_H
#define KEEPTRYING_OUTBOXITEM_H

#include <KeepTrying/keeptrying_outbox_export.h>

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrl>

namespace KeepTrying {

/*!
    One write kept by an Outbox, as stored in its database: everything needed to send it
    again after a restart, and what happened to it so far. A value: a copy does not follow
    later changes (ask Outbox::item() again, or watch Outbox::itemStateChanged()).
*/
struct KEEPTRYING_OUTBOX_EXPORT OutboxItem
{
    Q_GADGET
public:
    /*! Where an item is in its life. Delivered items are removed, so there is no such
        state: Outbox::itemDelivered() is the last word about one. */
    enum class State {
        Queued, //!< Waiting its turn (or for its origin to be reachable).
        Sending, //!< A replay is in flight through the manager.
        WaitingToRetry, //!< The last replay failed with a fault worth retrying; the next
        //!< one starts at nextAttemptAt (backoff, or the server's Retry-After).
        DeadLetter //!< The server refused it (or it expired): kept with the answer until the
        //!< app discards or requeues it. Never sent again by itself.
    };
    Q_ENUM(State)

    qint64 id = 0; //!< Positive, never reused in one database; 0 for "no item".
    QByteArray method; //!< "POST", "PATCH", "PUT", "DELETE", …
    QUrl url;
    /*! The request's headers as given to Outbox::enqueue(), without the credentials
        (isCredentialName(): Authorization, Cookie, X-Api-Key, …) and without the
        Idempotency-Key. */
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    /*! Sent as the Idempotency-Key header with every replay
        (draft-ietf-httpapi-idempotency-key-header); made at enqueue (a UUID) unless the
        request carried one, and never changed afterwards, requeue included. */
    QByteArray idempotencyKey;
    /*! Items with the same resource key are sent one at a time, in the order they were
        queued; by default the URL's origin (Reachability::originOf()). */
    QString resourceKey;
    /*! Empty, or the key under which a newer item replaces this one while it is queued
        (see OutboxEnqueueOptions::coalescingKey). */
    QString coalescingKey;
    QDateTime createdAt; //!< When it was enqueued or requeued (UTC, millisecond precision).
    int attempts = 0; //!< Replays that ended (with an answer or a fault), all runs included.
    QString lastError; //!< Short and readable ("HTTP 503", "Connection refused"), or empty.
    State state = State::Queued;
    QDateTime nextAttemptAt; //!< WaitingToRetry: when the next replay may start (UTC).

    // Dead letters only.
    int responseStatus = 0; //!< The HTTP status that refused it, 0 when none (expired).
    QByteArray responseBody; //!< The start of that response's body (at most 64 KiB).
    QString deadLetterReason; //!< "HTTP 400", "expired", "Idempotency-Key reused with …", …
    QDateTime deadLetteredAt; //!< UTC.
};

/*!
    Why Outbox::enqueue() refused a write. Nothing was stored in every case: the caller
    still holds the only copy and must tell the user or keep it another way.
*/
enum class OutboxError {
    NoError, //!< Stored and committed.
    BodyTooLarge, //!< The body is larger than Outbox::Settings::maxBodyBytes.
    InvalidRequest, //!< No method, or a URL that is not a valid absolute http(s) URL.
    KeyInUse, //!< The request's own Idempotency-Key belongs to a queued item with another
    //!< method, URL or body (the same request again is not an error: its id is returned).
    DiskFull, //!< The disk, or the database's bound (Settings::maxDatabaseBytes), is full
    //!< (SQLITE_FULL). Everything stored before is still there.
    DatabaseUnusable, //!< The database could not be opened even afresh (see
    //!< Outbox::isUsable()); nothing can be stored.
    StorageError //!< Any other error of the database; errorString says which.
};

/*!
    What Outbox::enqueue() returns: the new item's id once it is committed, or why not.
    Marked [[nodiscard]]: a write that was refused must not be taken for a stored one.
*/
struct [[nodiscard]] OutboxEnqueueResult
{
    qint64 id = 0; //!< The item's id (> 0) when ok().
    OutboxError error = OutboxError::NoError;
    QString errorString; //!< Readable detail for a log or a message box; empty when ok().
    /*! The items this one replaced or cancelled (coalescing, cancelsEarlierChanges). */
    QList<qint64> superseded;

    bool ok() const { return error == OutboxError::NoError && id > 0; }
    explicit operator bool() const { return ok(); }
};

/*!
    How a write relates to the others queued: its order, and which earlier writes it makes
    pointless.
*/
struct OutboxEnqueueOptions
{
    /*! The resource the write changes (e.g. "entry/42"): writes to one resource are sent
        one at a time, in order. Empty: the URL's origin, so all writes to one server keep
        their order. */
    QString resourceKey;
    /*! When not empty, a queued item (not yet being sent) with the same coalescing key is
        replaced by this one, which goes to the end of the queue: two star toggles become
        one PATCH with the final state. Use it only for writes whose effect the newer one
        overwrites completely. */
    QString coalescingKey;
    /*! When true, queued items (not yet being sent) of the same resource key are cancelled:
        a DELETE makes earlier changes to the resource pointless. */
    bool cancelsEarlierChanges = false;
};

} // namespace KeepTrying

Q_DECLARE_METATYPE(KeepTrying::OutboxItem)

#endif // KEEPTRYING_OUTBOXITEM_H
