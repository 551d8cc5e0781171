// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <algorithm>

#include "attemptoutcome_p.h"
#include "logging_p.h"
#include "retryingnetworkaccessmanager_p.h"
#include "retryingreply_p.h"

#include <memory>
#include <optional>

namespace KeepTrying {

QNetworkReply *RetryingNetworkAccessManagerPrivate::createAttempt(
    QNetworkAccessManager::Operation op, const QNetworkRequest &request, QIODevice *outgoingData)
{
    Q_Q(RetryingNetworkAccessManager);
    // HTTP/2 over TLS (on by default), with prior knowledge, or by upgrade.
    // (Allowed is looked up last: it is on by default, and matters only where HTTP/2 may go.)
    // (QUrl keeps schemes in lowercase: an exact comparison is enough, and cheaper.)
    // (An absent attribute is an invalid QVariant: asking it toBool() costs a conversion.)
    const auto isSet = [&request](QNetworkRequest::Attribute attribute) {
        const QVariant value = request.attribute(attribute);
        return value.isValid() && value.toBool();
    };
    const bool tls = request.url().scheme() == QLatin1String("https");
    const bool http2 = isSet(QNetworkRequest::Http2DirectAttribute) ||
        ((tls || isSet(QNetworkRequest::Http2CleartextAllowedAttribute)) &&
         request.attribute(QNetworkRequest::Http2AllowedAttribute, true).toBool());
    if (!http2)
        return q->QNetworkAccessManager::createRequest(op, request, outgoingData);
    const QString origin = Reachability::originOf(request.url());
    const int generation = goAways.value(origin);
    QNetworkRequest attempt = request;
    if (generation > 0)
        useFreshConnection(attempt, generation);
    QNetworkReply *reply = q->QNetworkAccessManager::createRequest(op, attempt, outgoingData);
    watchForGoAway(reply, origin, generation);
    return reply;
}

const AttemptGate::Monitors &RetryingNetworkAccessManagerPrivate::attemptMonitors()
{
    Q_Q(RetryingNetworkAccessManager);
    Reachability *const currentReachability = q->reachability();
    CircuitBreaker *const currentBreaker = q->circuitBreaker();
    RetryBudget *const currentBudget = q->retryBudget();
    if (monitors.reachability != currentReachability || monitors.breaker != currentBreaker ||
        monitors.budget != currentBudget || !monitors.limiterOwner) {
        monitors.reachability = currentReachability;
        monitors.breaker = currentBreaker;
        monitors.budget = currentBudget;
        monitors.limiter = &limiter;
        monitors.limiterOwner = q;
        self = q;
    }
    return monitors;
}

void RetryingNetworkAccessManagerPrivate::useFreshConnection(QNetworkRequest &request,
                                                             int generation) const
{
    if (!request.peerVerifyName().isEmpty())
        return; // the caller's own name: it is what the certificate must match
    if (request.url().scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0) {
        // TLS checks the certificate against this name: only the host itself, which Qt
        // checks by default, keeps the check as it was. One fresh connection, no more.
        request.setPeerVerifyName(request.url().host());
        return;
    }
    // Cleartext (h2c): the name is not used but to tell connections apart.
    request.setPeerVerifyName(QStringLiteral("keeptrying-connection-%1").arg(generation));
}

void RetryingNetworkAccessManagerPrivate::watchForGoAway(QNetworkReply *attempt,
                                                         const QString &origin, int generation)
{
    Q_Q(RetryingNetworkAccessManager);
    // Before the reply's own slots: its retry goes out on the fresh connection. Every
    // stream the same GOAWAY refused counts once.
    QObject::connect(attempt, &QNetworkReply::finished, q, [this, attempt, origin, generation] {
        if (goAways.value(origin) == generation &&
            AttemptOutcome::isGoAway(attempt->error(), attempt->errorString()))
            goAways.insert(origin, generation + 1);
    });
}

void RetryingNetworkAccessManagerPrivate::attemptStarted(RetryingReply *reply, int attempt)
{
    Q_Q(RetryingNetworkAccessManager);
    ++statistics.attempts;
    Q_EMIT q->attemptStarted(reply, attempt);
}

void RetryingNetworkAccessManagerPrivate::retryScheduled(RetryingReply *reply, int attempt,
                                                         qint64 delayMs, const QString &reason)
{
    Q_Q(RetryingNetworkAccessManager);
    ++statistics.retries;
    Q_EMIT q->retryScheduled(reply, attempt, delayMs, reason);
}

void RetryingNetworkAccessManagerPrivate::waitingForConnectivity(RetryingReply *reply, bool waiting)
{
    Q_Q(RetryingNetworkAccessManager);
    Q_EMIT q->waitingForConnectivity(reply, waiting);
}

void RetryingNetworkAccessManagerPrivate::waitReasonChanged(RetryingReply *reply,
                                                            const WaitReason &reason)
{
    Q_Q(RetryingNetworkAccessManager);
    Q_EMIT q->waitReasonChanged(reply, reason);
}

void RetryingNetworkAccessManagerPrivate::gaveUp(RetryingReply *reply, const QString &reason)
{
    Q_Q(RetryingNetworkAccessManager);
    Q_EMIT q->gaveUp(reply, reason);
}

void RetryingNetworkAccessManagerPrivate::ended(bool succeeded, bool gaveUp, qint64 latencyMs)
{
    succeeded ? ++statistics.succeeded : ++statistics.failed;
    if (gaveUp)
        ++statistics.gaveUp;
    statistics.totalLatencyMs += latencyMs;
}

RetryingNetworkAccessManager::RetryingNetworkAccessManager(QObject *parent)
    : QNetworkAccessManager(parent), d_ptr(new RetryingNetworkAccessManagerPrivate(this))
{
    Q_D(RetryingNetworkAccessManager);
    d->ownReachability = new Reachability(this);
    d->ownBreaker = new CircuitBreaker(this);
    d->ownBudget = new RetryBudget(this);
    d->breaker = d->ownBreaker;
    d->budget = d->ownBudget;
    setReachability(nullptr);
}

CircuitBreaker *RetryingNetworkAccessManager::circuitBreaker() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->breaker ? d->breaker.data() : d->ownBreaker;
}

void RetryingNetworkAccessManager::setCircuitBreaker(CircuitBreaker *breaker)
{
    Q_D(RetryingNetworkAccessManager);
    d->breaker = breaker ? breaker : d->ownBreaker;
}

RetryBudget *RetryingNetworkAccessManager::retryBudget() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->budget ? d->budget.data() : d->ownBudget;
}

void RetryingNetworkAccessManager::setRetryBudget(RetryBudget *budget)
{
    Q_D(RetryingNetworkAccessManager);
    d->budget = budget ? budget : d->ownBudget;
}

RetryingNetworkAccessManager::~RetryingNetworkAccessManager()
{
    // QNetworkAccessManager's destructor deletes every QNetworkReply below it, grandchildren
    // included; an outer reply deletes its own attempts, so it must go first, alone.
    const auto replies = findChildren<RetryingReply *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(replies);
    // Then the attempts they let go of (handed back to the manager until their deferred
    // delete) and Qt's own replies, as Qt's destructor would: while this is still a
    // RetryingNetworkAccessManager, for the slots their destroyed() reaches. Deleted from a
    // slot of an attempt's signal, that attempt is on the stack and Qt goes on using it:
    // then they are let go of, and their deferred deletes follow.
    const auto left = findChildren<QNetworkReply *>(Qt::FindDirectChildrenOnly);
    if (AttemptSignalScope::depth > 0) {
        for (QNetworkReply *reply : left)
            reply->setParent(nullptr);
    } else {
        qDeleteAll(left);
    }
}

RetryPolicy RetryingNetworkAccessManager::retryPolicy() const
{
    Q_D(const RetryingNetworkAccessManager);
    return *d->policy;
}

void RetryingNetworkAccessManager::setRetryPolicy(const RetryPolicy &policy)
{
    Q_D(RetryingNetworkAccessManager);
    d->policy = std::make_shared<const RetryPolicy>(policy);
}

Reachability *RetryingNetworkAccessManager::reachability() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->reachability ? d->reachability.data() : d->ownReachability;
}

void RetryingNetworkAccessManager::setReachability(Reachability *reachability)
{
    Q_D(RetryingNetworkAccessManager);
    if (d->reachability)
        disconnect(d->reachability, nullptr, this, nullptr);
    const bool wasOffline = d->reachability && d->reachability->isSimulatedOffline();
    d->reachability = reachability ? reachability : d->ownReachability;
    connect(d->reachability, &Reachability::simulatedOfflineChanged, this, [this](bool offline) {
        if (offline) {
            // As if the cable were pulled: what is on its way stops now, and no
            // pooled connection outlives the switch.
            const auto replies = findChildren<RetryingReply *>(Qt::FindDirectChildrenOnly);
            QList<QNetworkReply *> leftToFinish;
            for (const QPointer<RetryingReply> &reply :
                 QList<QPointer<RetryingReply>>(replies.cbegin(), replies.cend())) {
                if (!reply)
                    continue;
                if (QNetworkReply *attempt = RetryingReplyPrivate::get(reply)->goneOffline())
                    leftToFinish.append(attempt);
            }
            // clearConnectionCache() stops Qt's HTTP thread: an attempt still running then
            // never finishes. Writes left to finish keep their connection; the pool goes
            // when the last of them is gone (if the manager is still offline then).
            if (leftToFinish.isEmpty()) {
                clearConnectionCache();
            } else {
                auto remaining = std::make_shared<int>(int(leftToFinish.size()));
                for (QNetworkReply *attempt : std::as_const(leftToFinish)) {
                    connect(attempt, &QObject::destroyed, this, [this, remaining] {
                        if (--*remaining == 0 && isSimulatedOffline())
                            clearConnectionCache();
                    });
                }
            }
        }
        Q_EMIT simulatedOfflineChanged(offline);
    });
    // A probe that got through is as good as the breaker's own: end the break now.
    connect(d->reachability, &Reachability::originReachabilityChanged, this,
            [d](const QString &origin, bool reachable) {
                if (reachable && d->breaker)
                    d->breaker->endBreak(QUrl(origin));
            });
    if (wasOffline != d->reachability->isSimulatedOffline())
        Q_EMIT simulatedOfflineChanged(d->reachability->isSimulatedOffline());
}

Authenticator *RetryingNetworkAccessManager::authenticator() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->authenticator;
}

void RetryingNetworkAccessManager::setAuthenticator(Authenticator *authenticator)
{
    Q_D(RetryingNetworkAccessManager);
    d->authenticator = authenticator;
}

bool RetryingNetworkAccessManager::isAdaptiveConcurrencyEnabled() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->limiter.isEnabled();
}

void RetryingNetworkAccessManager::setAdaptiveConcurrencyEnabled(bool enabled)
{
    Q_D(RetryingNetworkAccessManager);
    d->limiter.setEnabled(enabled);
}

int RetryingNetworkAccessManager::concurrencyLimit(const QUrl &url) const
{
    Q_D(const RetryingNetworkAccessManager);
    return int(d->limiter.limit(Reachability::originOf(url)));
}

bool RetryingNetworkAccessManager::isSimulatedOffline() const
{
    return reachability()->isSimulatedOffline();
}

void RetryingNetworkAccessManager::setSimulatedOffline(bool offline)
{
    reachability()->setSimulatedOffline(offline);
}

RetryStatistics RetryingNetworkAccessManager::statistics() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->statistics;
}

void RetryingNetworkAccessManager::setOfflineCopyStore(AbstractOfflineCopyStore *store)
{
    Q_D(RetryingNetworkAccessManager);
    if (d->offlineCopies == store)
        return;
    // As QNetworkAccessManager::setCache(), except that a store someone else owns (its
    // parent is not this manager) is left to its owner rather than deleted.
    if (d->offlineCopies && d->offlineCopies->parent() == this)
        delete d->offlineCopies.data();
    d->offlineCopies = store;
    if (store && !store->parent())
        store->setParent(this);
}

AbstractOfflineCopyStore *RetryingNetworkAccessManager::offlineCopyStore() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->offlineCopies.data();
}

void RetryingNetworkAccessManager::setOfflineCopySettings(const OfflineCopy::Settings &settings)
{
    Q_D(RetryingNetworkAccessManager);
    d->offlineCopySettings = settings;
}

OfflineCopy::Settings RetryingNetworkAccessManager::offlineCopySettings() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->offlineCopySettings;
}

bool RetryingNetworkAccessManager::isOfflineCopyStoreOpen() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->offlineCopyStore() != nullptr;
}

bool RetryingNetworkAccessManager::setOfflineCopyPinned(const QUrl &url, bool pinned)
{
    Q_D(RetryingNetworkAccessManager);
    AbstractOfflineCopyStore *store = d->offlineCopyStore();
    return store && store->setPinned(d->offlineCopySettings.accountKey, url, pinned);
}

bool RetryingNetworkAccessManager::hasOfflineCopy(const QUrl &url) const
{
    Q_D(const RetryingNetworkAccessManager);
    const AbstractOfflineCopyStore *store = d->offlineCopyStore();
    return store && store->contains(d->offlineCopySettings.accountKey, url);
}

bool RetryingNetworkAccessManager::removeOfflineCopy(const QUrl &url)
{
    Q_D(RetryingNetworkAccessManager);
    AbstractOfflineCopyStore *store = d->offlineCopyStore();
    return store && store->remove(d->offlineCopySettings.accountKey, url);
}

void RetryingNetworkAccessManager::clearOfflineCopies()
{
    Q_D(RetryingNetworkAccessManager);
    if (AbstractOfflineCopyStore *store = d->offlineCopyStore())
        store->clear(d->offlineCopySettings.accountKey);
}

qint64 RetryingNetworkAccessManager::offlineCopiesSize() const
{
    Q_D(const RetryingNetworkAccessManager);
    const AbstractOfflineCopyStore *store = d->offlineCopyStore();
    return store ? store->size() : -1;
}

qint64 RetryingNetworkAccessManager::pinnedOfflineCopiesSize() const
{
    Q_D(const RetryingNetworkAccessManager);
    const AbstractOfflineCopyStore *store = d->offlineCopyStore();
    return store ? store->pinnedSize() : -1;
}

QNetworkReply *RetryingNetworkAccessManager::createRequest(Operation op,
                                                           const QNetworkRequest &request,
                                                           QIODevice *outgoingData)
{
    Q_D(RetryingNetworkAccessManager);
    // file:, qrc:, data: and preconnect requests have no network fault worth retrying.
    // (QUrl keeps schemes in lowercase: an exact comparison is enough, and cheaper.)
    const QString scheme = request.url().scheme();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return QNetworkAccessManager::createRequest(op, request, outgoingData);

    // The manager's policy, unless the request changes it (then a copy of its own).
    std::shared_ptr<RetryPolicy> own;
    const QVariant custom = request.attribute(QNetworkRequest::Attribute(RetryPolicyAttribute));
    if (custom.isValid() && custom.canConvert<RetryPolicy>())
        own = std::make_shared<RetryPolicy>(custom.value<RetryPolicy>());
    const QVariant wait =
        request.attribute(QNetworkRequest::Attribute(WaitForConnectivityAttribute));
    if (wait.isValid()) {
        if (!own)
            own = std::make_shared<RetryPolicy>(*d->policy);
        own->waitForConnectivity = wait.toBool();
    }
    const QVariant deadline = request.attribute(QNetworkRequest::Attribute(DeadlineAttribute));
    if (deadline.isValid()) {
        if (!own)
            own = std::make_shared<RetryPolicy>(*d->policy);
        own->deadlineMs = std::max<qint64>(0, deadline.toLongLong());
    }
    std::shared_ptr<const RetryPolicy> policy = own ? std::move(own) : d->policy;
    ++d->statistics.requests;
    // Qt's own createRequest() turns autoDeleteReplies() into this attribute, and get()
    // and friends read it from the reply we return: do the same for the outer reply.
    QNetworkRequest outer = request;
    if (autoDeleteReplies() &&
        !outer.attribute(QNetworkRequest::AutoDeleteReplyOnFinishAttribute).isValid())
        outer.setAttribute(QNetworkRequest::AutoDeleteReplyOnFinishAttribute, true);
    return new RetryingReplyImpl(d, op, outer, outgoingData, std::move(policy));
}

RetryingReply *RetryingNetworkAccessManager::retryingGet(const QNetworkRequest &request)
{
    return qobject_cast<RetryingReply *>(get(request));
}

RetryingReply *RetryingNetworkAccessManager::retryingPost(const QNetworkRequest &request,
                                                          const QByteArray &data)
{
    return qobject_cast<RetryingReply *>(post(request, data));
}

RetryingReply *RetryingNetworkAccessManager::retryingPut(const QNetworkRequest &request,
                                                         const QByteArray &data)
{
    return qobject_cast<RetryingReply *>(put(request, data));
}

RetryingReply *RetryingNetworkAccessManager::retryingDelete(const QNetworkRequest &request)
{
    return qobject_cast<RetryingReply *>(deleteResource(request));
}

RetryingReply *RetryingNetworkAccessManager::retryingSend(const QNetworkRequest &request,
                                                          const QByteArray &verb,
                                                          const QByteArray &data)
{
    return qobject_cast<RetryingReply *>(sendCustomRequest(request, verb, data));
}

} // namespace KeepTrying
