// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H
#define KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QPointer>

#include "concurrencylimiter_p.h"
#include "offlinecopystore_p.h"

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
    void ended(bool succeeded, bool gaveUp, qint64 latencyMs);

    RetryingNetworkAccessManager *q_ptr;
    RetryPolicy policy;
    RetryStatistics statistics;
    ConcurrencyLimiter limiter;
    Reachability *ownReachability = nullptr;
    QPointer<Reachability> reachability;
    CircuitBreaker *ownBreaker = nullptr;
    QPointer<CircuitBreaker> breaker;
    RetryBudget *ownBudget = nullptr;
    QPointer<RetryBudget> budget;
    OfflineCopy::Settings offlineCopySettings;
    OfflineCopyStore offlineCopies;
    // The store, when open.
    OfflineCopyStore *offlineCopyStore()
    {
        return offlineCopies.isOpen() ? &offlineCopies : nullptr;
    }
    Q_DECLARE_PUBLIC(RetryingNetworkAccessManager)
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_P_H
