// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYINGREPLY_P_H
#define KEEPTRYING_RETRYINGREPLY_P_H

#include <KeepTrying/authenticator.h>
#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QBasicTimer>
#include <QtCore/QElapsedTimer>
#include <QtCore/QMetaMethod>
#include <QtCore/QPointer>

#include <optional>

#include "attemptgate_p.h"
#include "attemptoutcome_p.h"
#include "offlinecopyoffer_p.h"
#include "requesthop_p.h"
#include "responseforwarder_p.h"
#include "retryingnetworkaccessmanager_p.h"

#if QT_CONFIG(ssl)
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslError>
#endif

namespace KeepTrying {

// Marks the slots of an attempt's signals (of any reply on this thread): Qt goes on using an
// attempt after such a slot returns, so an attempt is deleted at once only outside them.
struct AttemptSignalScope
{
    AttemptSignalScope() { ++depth; }
    ~AttemptSignalScope() { --depth; }
    AttemptSignalScope(const AttemptSignalScope &) = delete;
    AttemptSignalScope &operator=(const AttemptSignalScope &) = delete;
    static inline thread_local int depth = 0;
};

class RetryingReplyPrivate
{
public:
    using Mode = ResponseForwarder::Mode;

    RetryingReplyPrivate(RetryingReply *q, std::shared_ptr<const RetryPolicy> sharedPolicy)
        : q_ptr(q), sharedPolicy(std::move(sharedPolicy)), policy(*this->sharedPolicy),
          forwarder(*this)
    {
    }

    /*
        The request's life. Each row: what the state means, and what leaves it.

        state           meaning                               leaves on
        Idle            about to ask the gate                 startAttempt()
        WaitingForGate  the gate said wait (gate->waiting()   the gate's opened() -> Idle;
                        says for what); no attempt in flight  deadline, abort -> Finished
        Attempting      an attempt in flight (the response    its end: success -> Finished;
                        is undecided, held, forwarded or      retry -> BackingOff; redirect ->
                        redirected: see Mode)                 Idle (hopTimer); limit -> Finished
        BackingOff      retryTimer runs before the next       retryTimer -> Idle;
                        attempt                               deadline, abort -> Finished
        Authenticating  the authenticator renews credentials  its end: Idle, or Finished
                        (a 401 may be held)                   with the 401; deadline, abort
                                                              -> Finished
        Finished        finished() was emitted, or is being   never
    */
    enum class State { Idle, WaitingForGate, Attempting, BackingOff, Authenticating, Finished };

    void startAttempt();
    // Emits waitingForConnectivityChanged/waitingToRetryChanged for what the state and the
    // gate now say; false when a slot deleted the reply.
    bool syncWaitSignals();
    // Why the request waits now, from the state and the gate (retryingreplywaitreason.cpp).
    WaitReason currentWaitReason() const;
    // Records why the request gives up, just before finish(…, true, …).
    void giveUp(GiveUpReason::Kind kind);
    // Which limit stopped a retry that mayRetry() or the timeout limit refused.
    GiveUpReason::Kind limitReached(FaultClass limitClass, bool timeoutsExhausted) const;
    // \a signalled: from the attempt's metaDataChanged() (else from its readyRead() or
    // finished(), the response still undecided).
    void onMetaDataChanged(bool signalled = true);
    // A redirect's response, shown before it is followed, as plain Qt shows each hop's:
    // its status and headers, and metaDataChanged() (a slot may delete the reply: return).
    void showRedirect();
    void onReadyRead();
    void onFinished();
    void onDeadline();
    void onSimulatedOfflineAttempt();
    // While the request waits behind other attempts to its origin (the window, the breaker's
    // probe), its transfer timeout runs, as Qt's runs while a request waits for one of its
    // connections: each one that runs out there counts as a timed-out attempt, never sent
    // (retryingreplywaitreason.cpp).
    void syncQueueClock();
    void onQueueTimeout();
    // Simulated offline was switched on: a running attempt that may be sent again is cut
    // off as an unreachable network would, and the request waits for connectivity. A write
    // that must not be sent twice is left to finish: its attempt is returned (else null).
    QNetworkReply *goneOffline();
    static RetryingReplyPrivate *get(RetryingReply *reply) { return reply->d_func(); }

    // Offline copies (a GET that opted in): offered once it cannot be answered fresh soon,
    // the answer after a 304 to our validators, stored after a fresh 2xx.
    void offerStaleCopySoon();
    void offerStaleCopy();
    bool answerWithCopy(); // false: no copy to answer with
    void keepOfflineCopy(bool succeeded);
    AbstractOfflineCopyStore *offlineCopyStore() const
    {
        return owner() ? owner()->offlineCopyStore() : nullptr;
    }
    QString offlineCopyAccount() const
    {
        return owner() ? owner()->offlineCopySettings.accountKey : QString();
    }

    using Outcome = AttemptOutcome;
    // Credentials that expire (retryingreplyauth.cpp): each attempt signed by the
    // authenticator; a 401 held and sent again once after one renewal per account.
    void bindAuthenticator(const QNetworkRequest &request);
    bool waitForCredentials(); // before an attempt: true when it waits for a renewal
    void signAttempt(QNetworkRequest &request);
    bool mayRenewCredentials(int status) const; // a 401 to hold, not forward
    bool credentialsRefused(const Outcome &outcome); // true: it waits, or goes again
    void credentialsRenewed(Authenticator::Result result);
    QPointer<Authenticator> authenticator; // null: none handles this request
    QString authKey;
    quint64 signedGeneration = 0; // the credentials the last attempt carried
    bool authReplayed = false; // sent again once after a renewal: a 401 now is the answer
    void attemptEnded(const Outcome &outcome);
    void teachMonitors(const Outcome &outcome, FaultClass fault);
    void followRedirect();
    void goToRedirect();
    bool mayRetry(FaultClass fault, QNetworkReply::NetworkError error,
                  bool neverProcessed = false) const;
    void scheduleRetry(const RetryContext &context);
    void finish(const Outcome &outcome, bool gaveUp, const QString &reason);
    // What \a outcome says of the caller's bytes: once bytes of a 2xx were handed over, the
    // answer of a resume that did not continue them is not the reply's.
    Outcome streamOutcome(const Outcome &outcome) const;
    // The end, once the caller has the answer's metadata and body: errorOccurred(), then
    // finished(). abort() from a slot of any signal on the way ends it at once, canceled.
    void announceEnd(const Outcome &outcome, bool gaveUp, const QString &reason);
    void finishWithLastAnswer(Outcome outcome, const QString &reason);

    // Lets go of \a attempt (cancelled if running): nothing of it reaches the reply again.
    void releaseAttempt(QNetworkReply *&attempt);
    void dispose(QNetworkReply *attempt);
    // The answer of the failed attempt \a context describes.
    Outcome lastAnswer(const RetryContext &context) const
    {
        Outcome outcome;
        outcome.error = context.error;
        outcome.httpStatus = context.httpStatus;
        outcome.errorString = lastErrorString;
        return outcome;
    }

    RetryingReply *q_ptr;
    QPointer<RetryingNetworkAccessManager> manager;
    RetryingNetworkAccessManagerPrivate *managerPrivate = nullptr;
    // The manager's side of this request (statistics, its signals, new attempts), while the
    // manager lives.
    RetryingNetworkAccessManagerPrivate *owner() const
    {
        return manager ? managerPrivate : nullptr;
    }
    std::optional<RequestHop> hop; // what the next attempt sends, and where
    // The manager's policy when the request was made (shared: most requests do not change
    // it), or the request's own.
    std::shared_ptr<const RetryPolicy> sharedPolicy;
    const RetryPolicy &policy;
    bool awaitingRedirectApproval = false; // UserVerifiedRedirectPolicy: redirectAllowed()
    QUrl redirectTarget;
    int redirectStatus = 0;

    int attempt = 0;
    int serverFaultAttempts = 0;
    int connectivityFaultAttempts = 0;
    int timeoutAttempts = 0; // failed attempts that timed out while the network was up
    qint64 previousDelayMs = 0;
    QElapsedTimer elapsed;
    QBasicTimer retryTimer;
    QBasicTimer deadlineTimer;
    QBasicTimer offlineTimer; // a simulated offline attempt fails from the event loop
    QBasicTimer hopTimer; // the next hop of a redirect starts from the event loop
    QBasicTimer offerTimer; // when the offline copy is offered
    QBasicTimer queueTimer; // the transfer timeout of a request that waits behind others
    // Stops each of the timers above that runs (most never do: no call for those).
    void stopTimers()
    {
        for (QBasicTimer *timer :
             { &retryTimer, &deadlineTimer, &offlineTimer, &hopTimer, &offerTimer, &queueTimer }) {
            if (timer->isActive())
                timer->stop();
        }
    }
    // When the GET opted in (allocated then: most requests never do).
    std::unique_ptr<OfflineCopyOffer> offline;
    std::unique_ptr<AttemptGate>
        gate; // apart: the private object stays small enough for malloc's fast path
    State state = State::Idle;
    QElapsedTimer attemptClock; // since the current attempt started
    bool pendingServerRetry = false; // the next attempt retries a server fault
    bool deadlineReached = false;
    bool done = false;
    bool errorAnnounced = false; // errorOccurred() was emitted
    bool endCounted = false; // the manager's statistics have this request's end
    QString lastErrorString; // of the last failed attempt, ours where Qt's misleads
    bool waitingToRetry = false; // as last announced
    bool waitingForConnectivity = false; // as last announced
    WaitReason waitReason; // what the state and the gate say now
    WaitReason announcedWaitReason; // as last announced by waitReasonChanged()
    WaitReason backoffReason; // while BackingOff: made as the retry timer started
    GiveUpReason giveUpReason;
    int lastFaultStatus = 0; // of the last failed attempt
    QNetworkReply::NetworkError lastFaultError = QNetworkReply::NoError;

    QNetworkReply *current = nullptr; // the running attempt, child of q
    QNetworkReply *held = nullptr; // a failed attempt kept while waiting to retry
    QNetworkReply *lastAttempt = nullptr; // kept after finish: its data, sslConfiguration()
    bool abortingCurrent = false;
    bool qtRedirected = false; // Qt followed a redirect within the current attempt

    ResponseForwarder forwarder; // what the caller sees of the responses
    qint64 readBufferSize = 0;

    // The reply's protected setters, for the forwarder.
    void setReplyHeader(const QByteArray &name, const QByteArray &value)
    {
        q_func()->setRawHeader(name, value);
    }
    void setReplyAttribute(QNetworkRequest::Attribute code, const QVariant &value)
    {
        q_func()->setAttribute(code, value);
    }
    void setReplyUrl(const QUrl &url) { q_func()->setUrl(url); }
    bool isSignalConnected(const QMetaMethod &signal) const
    {
        return q_func()->isSignalConnected(signal);
    }
    bool isReadyReadConnected() const
    {
        static const QMetaMethod readyRead = QMetaMethod::fromSignal(&QIODevice::readyRead);
        return q_func()->isSignalConnected(readyRead);
    }

#if QT_CONFIG(ssl)
    bool ignoreAllSslErrors = false;
    QList<QSslError> ignoredSslErrors;
#endif

    Q_DECLARE_PUBLIC(RetryingReply)
};

// Every RetryingReply is made by RetryingNetworkAccessManager, through this.
class RetryingReplyImpl final : public RetryingReply
{
public:
    RetryingReplyImpl(RetryingNetworkAccessManagerPrivate *owner,
                      QNetworkAccessManager::Operation op, const QNetworkRequest &request,
                      QIODevice *outgoingData, std::shared_ptr<const RetryPolicy> policy)
        : RetryingReply(owner, op, request, outgoingData, std::move(policy))
    {
    }
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGREPLY_P_H
