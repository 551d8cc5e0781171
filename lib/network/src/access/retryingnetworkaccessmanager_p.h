// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H
#define KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H

#include <KeepTrying/abstractofflinecopystore.h>
#include <KeepTrying/authenticator.h>
#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QHash>
#include <QtCore/QPointer>

#include <memory>

#include "attemptgate_p.h"
#include "concurrencylimiter_p.h"

namespace KeepTrying {

class RetryingNetworkAccessManagerPrivate
{
public:
    explicit RetryingNetworkAccessManagerPrivate(RetryingNetworkAccessManager *q) : q_ptr(q) { }

    // Creates one attempt's reply with QNetworkAccessManager's own machinery, bypassing our
    // createRequest() override and the manager-level signals of a public get()/post().
    QNetworkReply *createAttempt(QNetworkAccessManager::Operation op,
                                 const QNetworkRequest &request, QIODevice *outgoingData);

    // What a reply reports of its request: the manager keeps the statistics and emits its
    // own signals (each may end in a slot that deletes the reply).
    void attemptStarted(RetryingReply *reply, int attempt);
    void retryScheduled(RetryingReply *reply, int attempt, qint64 delayMs, const QString &reason);
    void waitingForConnectivity(RetryingReply *reply, bool waiting);
    void gaveUp(RetryingReply *reply, const QString &reason);
    void waitReasonChanged(RetryingReply *reply, const WaitReason &reason);
    void ended(bool succeeded, bool gaveUp, qint64 latencyMs);

    // Qt 6.4 keeps an HTTP/2 connection that received GOAWAY in its connection cache and
    // puts new streams on it, where they never go out and never end (plain
    // QNetworkAccessManager hangs the same way). Qt keys that cache on the request's peer
    // verify name too: after a GOAWAY, attempts to the origin carry a name of their own, so
    // they open a fresh connection. Per origin: how many GOAWAYs were seen.
    QHash<QString, int> goAways;
    void useFreshConnection(QNetworkRequest &request, int generation) const;
    void watchForGoAway(QNetworkReply *attempt, const QString &origin, int generation);

    // The monitors a new request's gate watches: kept between requests (a QPointer costs to
    // make, little to copy), made again when one was replaced or deleted.
    const AttemptGate::Monitors &attemptMonitors();
    AttemptGate::Monitors monitors;
    QPointer<RetryingNetworkAccessManager> self; // copied into each request, made once

    RetryingNetworkAccessManager *q_ptr;
    // Shared with the requests made under it; setRetryPolicy() makes a new one.
    std::shared_ptr<const RetryPolicy> policy = std::make_shared<const RetryPolicy>();
    RetryStatistics statistics;
    ConcurrencyLimiter limiter;
    Reachability *ownReachability = nullptr;
    QPointer<Reachability> reachability;
    CircuitBreaker *ownBreaker = nullptr;
    QPointer<CircuitBreaker> breaker;
    RetryBudget *ownBudget = nullptr;
    QPointer<RetryBudget> budget;
    QPointer<Authenticator> authenticator; // not owned
    OfflineCopy::Settings offlineCopySettings;
    QPointer<AbstractOfflineCopyStore> offlineCopies; // owned when its parent is the manager
    // The store, when there is one and it is open.
    AbstractOfflineCopyStore *offlineCopyStore() const
    {
        return offlineCopies && offlineCopies->isOpen() ? offlineCopies.data() : nullptr;
    }
    Q_DECLARE_PUBLIC(RetryingNetworkAccessManager)
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H
