// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OUTBOX_P_H
#define KEEPTRYING_OUTBOX_P_H

#include "outboxstore_p.h"

#include <KeepTrying/authenticator.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QHash>
#include <QtCore/QLockFile>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkReply>

#include <optional>

namespace KeepTrying {

/*!
    The Outbox's drain loop. drain() is the one place that sends: it takes the drain lock,
    resets markers a dead drainer left, expires, then sends the first due item of each
    resource that is reachable (marked Sending in the database first), and releases the
    lock when nothing is in flight. Every trigger only schedules drain(); replyFinished()
    records the outcome and calls it again.
*/
class OutboxPrivate
{
    Q_DECLARE_PUBLIC(Outbox)

public:
    OutboxPrivate(Outbox *q, const QString &path, RetryingNetworkAccessManager *manager);

    void scheduleDrain();
    void drain();
    void send(const OutboxItem &item);
    void replyFinished(qint64 id, QNetworkReply *reply);
    static bool mayHaveReachedServer(QNetworkReply *reply, int status);
    bool isChecked(const OutboxItem &item) const;
    void startCheck(const OutboxItem &item);
    void checkFinished(qint64 id, Outbox::ResendFinding finding, const QByteArray &body);
    void retryLater(const OutboxItem &item, const QString &error, qint64 retryAfterMs,
                    bool conflict);
    // A 401 to a request an Authenticator handles (outboxauth.cpp): the Retry-After the
    // item goes again with, in its place: 0 (at once, behind the running renewal), or -1
    // (the backoff: no renewal runs). Nothing when no authenticator handles it.
    std::optional<qint64> credentialsRetry(const QNetworkReply *reply);
    void deadLetter(const OutboxItem &item, int status, const QByteArray &body,
                    const QString &reason, bool countAttempt);
    bool isExpired(const OutboxItem &item, qint64 now) const;
    void expire(qint64 now);
    void armWakeTimer(qint64 now, bool waitingForReachability);
    void refreshCounts(qint64 now = -1);
    void setLastError(const QString &error);
    bool tryLock();
    void releaseLock();

    Outbox *q_ptr;
    QString path;
    QPointer<RetryingNetworkAccessManager> manager;
    OutboxStore store;
    Outbox::Settings settings;
    std::function<void(QNetworkRequest &)> signer;
    std::function<bool(const OutboxItem &, int)> successPredicate;
    std::function<bool(const OutboxItem &, int, const QNetworkRequest &)> retryLaterPredicate;
    std::function<bool(const OutboxItem &)> resendAppliesTo;
    std::function<void(const OutboxItem &, Outbox::ResendCheckDone)> resendCheck;
    // Checked items whose last attempt may have reached the server: id -> when (ms).
    QHash<qint64, qint64> unsettledSince;
    QLockFile lock;
    bool usable = false;
    QString recoveryReason;
    QString keptAsidePath;
    QString openFailure;

    struct Flight
    {
        OutboxItem item;
        QPointer<QNetworkReply> reply;
        bool checking = false; // a resend check, not a replay, is under way
    };
    QHash<qint64, Flight> inFlight;
    QList<QPointer<Authenticator>> watchedAuthenticators;
    QSet<QString> refusedAccounts; // a renewal that ends them flushes the outbox
    QTimer wakeTimer;
    bool drainScheduled = false;
    bool draining = false; // drain() is on the stack: a nested call only asks for another pass
    bool drainAgain = false;

    OutboxStore::Counts counts;
    QString lastError;
};

} // namespace KeepTrying

#endif // KEEPTRYING_OUTBOX_P_H
