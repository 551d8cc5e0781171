// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_H
#define KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingreply.h>
#include <KeepTrying/retrypolicy.h>
#include <KeepTrying/waitreason.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkRequest>

#include <memory>

namespace KeepTrying {

class AbstractOfflineCopyStore;
class Authenticator;
class CircuitBreaker;
class Reachability;
class RetryBudget;
class RetryingNetworkAccessManagerPrivate;

/*!
    Counters of one manager since it was made. Times are in milliseconds.
*/
struct RetryStatistics
{
    qint64 requests = 0; //!< Logical requests started (one per outer reply).
    qint64 attempts = 0; //!< Attempts started, first attempts included.
    qint64 retries = 0; //!< Retries scheduled.
    qint64 succeeded = 0; //!< Logical requests that ended without error.
    qint64 failed = 0; //!< Logical requests that ended with an error (give-ups included).
    qint64 gaveUp = 0; //!< Requests that ended because a limit or the deadline stopped
    //!< the retries of a retryable fault.
    qint64 totalLatencyMs = 0; //!< Sum of the time from start to finish, retries included.
};

/*!
    A drop-in QNetworkAccessManager that keeps trying.

    Use it wherever a QNetworkAccessManager is used: get(), post(), put(), head(),
    deleteResource() and sendCustomRequest() return a reply at once, as before, but a
    connectivity fault or a retryable server status does not end it: the manager tries
    again after an exponential backoff with jitter, honours Retry-After, replays the same
    request body and emits finished() once, when the request has succeeded or the
    RetryPolicy says to stop. The returned reply is a RetryingReply.

    Everything else stays the manager's: cookie jar, cache, proxy, redirect policy, HSTS and
    authentication apply to every attempt. A retry goes to the hop of a redirect that failed.
    Qt follows the redirects of a GET or HEAD without a body, credentials or a transfer
    timeout under the default policy (no RedirectPolicyAttribute, the manager's
    NoLessSafeRedirectPolicy), within one attempt, as plain QNetworkAccessManager does; the
    reply follows those of every other request itself, with the same policy and limit, one
    attempt per hop, and credentials set by the caller do not follow a redirect to another
    origin (see KeepCredentialsOnRedirectAttribute).

    \note A request whose method is not idempotent (POST, PATCH, custom verbs; RFC 9110
    §9.2.2) and that carries no Idempotency-Key reaches the server at most once. Its body
    goes to Qt as a device that cannot be rewound, with a Content-Length, because Qt would
    otherwise send it again by itself when the connection closes before a response. A
    sequential body of unknown length (no Content-Length header) keeps Qt's own behaviour.

    Per request, set RetryPolicyAttribute to a RetryPolicy (RetryPolicy::never() for no
    retries). The environment variable KEEPTRYING_SIMULATE_OFFLINE=1 starts every manager in
    simulated offline mode.
*/
class KEEPTRYING_NETWORK_EXPORT RetryingNetworkAccessManager : public QNetworkAccessManager
{
    Q_OBJECT
    Q_PROPERTY(bool simulatedOffline READ isSimulatedOffline WRITE setSimulatedOffline NOTIFY
                   simulatedOfflineChanged)

public:
    /*! Request attributes read by the manager (QNetworkRequest::setAttribute). */
    enum RequestAttribute {
        /*! A RetryPolicy (QVariant::fromValue) that replaces the manager's for this
            request. */
        RetryPolicyAttribute = RequestAttributes::RetryPolicy,
        /*! A bool that replaces RetryPolicy::waitForConnectivity for this request. */
        WaitForConnectivityAttribute = RequestAttributes::WaitForConnectivity,
        /*! A bool, false by default: when true, the request's Authorization,
            Proxy-Authorization and Cookie headers follow a redirect to another origin
            (scheme, host or port). By default they are removed there, so that a token is
            never sent to whoever the first server names (urllib3's rule; RFC 9110 §15.4
            leaves it to the client, and Qt 6.4 forwards them). */
        KeepCredentialsOnRedirectAttribute = RequestAttributes::KeepCredentialsOnRedirect,
        /*! A qint64 in milliseconds (≥ 0; 0: none) that replaces RetryPolicy::deadlineMs
            for this request: its attempts and waits end within it, with
            QNetworkReply::TimeoutError (or the last HTTP error response). */
        DeadlineAttribute = RequestAttributes::Deadline
    };
    Q_ENUM(RequestAttribute)

    explicit RetryingNetworkAccessManager(QObject *parent = nullptr);
    ~RetryingNetworkAccessManager() override;

    /*! As get(), typed: the reply of an http: or https: request is always a
        RetryingReply, so its retry signals and offline-copy accessors need no cast. Other
        schemes (file:, qrc:, data:) are not retried and return nullptr here; use get()
        for them. */
    RetryingReply *retryingGet(const QNetworkRequest &request);
    /*! As post(), typed (see retryingGet()). */
    RetryingReply *retryingPost(const QNetworkRequest &request, const QByteArray &data);
    /*! As put(), typed (see retryingGet()). */
    RetryingReply *retryingPut(const QNetworkRequest &request, const QByteArray &data);
    /*! As deleteResource(), typed (see retryingGet()). */
    RetryingReply *retryingDelete(const QNetworkRequest &request);
    /*! As sendCustomRequest(), typed (see retryingGet()). */
    RetryingReply *retryingSend(const QNetworkRequest &request, const QByteArray &verb,
                                const QByteArray &data = QByteArray());

    /*! The policy used by requests that carry none of their own. */
    RetryPolicy retryPolicy() const;
    /*! Sets the default policy; requests already started keep the policy they had. */
    void setRetryPolicy(const RetryPolicy &policy);

    /*! The reachability monitor requests consult; the manager makes its own. Never null. */
    Reachability *reachability() const;
    /*! Shares \a reachability with other managers (not owned; nullptr restores the
        manager's own). Requests already waiting keep the one they started with. */
    void setReachability(Reachability *reachability);

    /*! The per-origin circuit breaker attempts consult; the manager makes its own (switch
        it off with CircuitBreaker::Settings::enabled). Never null. */
    CircuitBreaker *circuitBreaker() const;
    /*! Shares \a breaker with other managers (not owned; nullptr restores the own one). */
    void setCircuitBreaker(CircuitBreaker *breaker);
    /*! The retry budget retries of server faults consult; the manager makes its own. */
    RetryBudget *retryBudget() const;
    /*! Shares \a budget with other managers (not owned; nullptr restores the own one). */
    void setRetryBudget(RetryBudget *budget);

    /*! The authenticator that renews expiring credentials for requests (see
        KeepTrying::Authenticator: every attempt signed, one renewal per account on a 401,
        the requests that got a 401 meanwhile sent again once); nullptr (the default):
        none, a 401 is the caller's answer. Not owned. A request may name another one
        (Authenticator::AuthenticatorAttribute). Requests already started keep theirs. */
    Authenticator *authenticator() const;
    void setAuthenticator(Authenticator *authenticator);

    /*! Whether attempts per origin go through an adaptive concurrency window (default on),
        modelled on TCP's congestion window (RFC 5681):

        - an origin not seen alive yet, or unreachable since, gets one attempt (a scout)
            until that attempt's connection is up; then the window applies;
        - the window starts at six (Qt's own connections per host) and grows with answers
            while it is what holds requests back (by one per answer up to the slow-start
            threshold, by one per round trip above it);
        - an answer 5xx or 429 halves it, and that attempt's slot stays taken for one
            smoothed round trip (RFC 6298), so a server that sheds load at once is not
            asked again at once;
        - a connectivity fault (refused, reset, timed out) restarts it at one; when it
            left nothing else in flight (the origin is down, not glitching), the first eight
            answers after it come one at a time: requests released after an outage are
            paced by the server's answers, and a server back from a restart gets the
            backlogs of all its waiting clients in steps;
        - an attempt counts until its response's headers arrive: a long download or an
            event stream holds no slot while its body comes;
        - requests beyond it wait their turn, in order, without attempts.

        Off: every request goes at once, and requests released after a wait are spread by
        RetryPolicy::reconnectStaggerMs instead. */
    bool isAdaptiveConcurrencyEnabled() const;
    void setAdaptiveConcurrencyEnabled(bool enabled);
    /*! The current window for the origin of \a url: attempts that may be in flight. */
    int concurrencyLimit(const QUrl &url) const;

    /*! True while the manager pretends to be offline (reachability()->isSimulatedOffline()):
        requests wait for connectivity without touching the network, or, when they may not
        wait, fail at once as a connectivity fault (TemporaryNetworkFailureError). Switching
        it on is pulling the cable: attempts in flight are cancelled and their requests wait
        (or fail as above), pooled connections are dropped (clearConnectionCache()); a
        request that must not be sent twice (no Idempotency-Key) and may already have
        reached the server is left to finish. Managers that share one Reachability
        (setReachability()) switch together. For QA. */
    bool isSimulatedOffline() const;
    void setSimulatedOffline(bool offline);

    /*! Counters since the manager was made. */
    RetryStatistics statistics() const;

    /*! Offline copies (see KeepTrying::OfflineCopy): where GETs that opt in keep their last
        2xx answer, as QNetworkAccessManager::setCache() sets where its cache lives. Null
        (the default): no copies are kept nor offered. KeepTrying::OfflineCopyStore
        (library KeepTrying::OfflineCopies) keeps them in SQLite.

        Ownership as with setCache(): a store without a parent becomes the manager's child
        and is deleted with it. Unlike setCache(), a store that has another parent is never
        deleted by the manager, so that one the app owns may be set, replaced and set again;
        replacing a store the manager owns deletes it. The store must live in the manager's
        thread; the manager calls it only there. */
    void setOfflineCopyStore(KeepTrying::AbstractOfflineCopyStore *store);
    KeepTrying::AbstractOfflineCopyStore *offlineCopyStore() const;
    /*! Under which account copies are kept and looked up, and how long a slow request runs
        before its copy is offered (OfflineCopy::Settings). Changing the account takes
        effect for requests started after it: a request that started under another account
        neither stores its answer nor removes a copy. */
    void setOfflineCopySettings(const OfflineCopy::Settings &settings);
    OfflineCopy::Settings offlineCopySettings() const;
    /*! True while offline copies are kept: there is a store and it is open. The functions
        below work on the current account's copies in that store. */
    bool isOfflineCopyStoreOpen() const;
    /*! Pins (or unpins) the current account's copy of \a url: the budget never evicts a
        pinned copy. False when there is none. */
    bool setOfflineCopyPinned(const QUrl &url, bool pinned);
    /*! True when the current account has a copy of \a url. */
    bool hasOfflineCopy(const QUrl &url) const;
    /*! Removes the current account's copy of \a url; false when there was none. */
    bool removeOfflineCopy(const QUrl &url);
    /*! Removes every copy of the current account (e.g. when the user signs out). */
    void clearOfflineCopies();
    /*! Bytes the store keeps (all accounts), of which pinned; -1 without an open store. */
    qint64 offlineCopiesSize() const;
    qint64 pinnedOfflineCopiesSize() const;

Q_SIGNALS:
    /*! An attempt of \a reply has started; \a attempt counts from 1. */
    void attemptStarted(QNetworkReply *reply, int attempt);
    /*! Attempt \a attempt of \a reply failed with a retryable fault; attempt + 1 starts
        in \a delayMs milliseconds. \a reason is short and readable ("HTTP 503",
        "connection refused"): the log form, kept for existing code; its words may change.
        Programs read the typed reason, RetryingReply::waitReason(), announced by
        waitReasonChanged() just before. The one exception is said by a signal too: when the delay
        ends while the origin is unreachable (a connection fault with no answer from it
        since the last one; a lost connection right after an answer is not enough),
        waitingForConnectivity(reply, true) follows at that moment and the attempt waits for
        a reachability probe. */
    void retryScheduled(QNetworkReply *reply, int attempt, qint64 delayMs, const QString &reason);
    /*! \a reply stopped retrying a retryable fault because a limit or the deadline was
        reached; finished() follows. \a reason is the log form; the typed one is
        RetryingReply::giveUpReason() of \a reply, set when this is emitted. */
    void gaveUp(QNetworkReply *reply, const QString &reason);
    /*! \a reply started (\a waiting true) or stopped waiting for connectivity: no attempt is
        made while it waits. */
    void waitingForConnectivity(QNetworkReply *reply, bool waiting);
    /*! RetryingReply::waitReasonChanged() of \a reply: why it waits now (kind() None: it
        does not). The typed form of retryScheduled() and waitingForConnectivity(): render
        this, never parse their text. */
    void waitReasonChanged(QNetworkReply *reply, const KeepTrying::WaitReason &reason);
    void simulatedOfflineChanged(bool offline);

protected:
    QNetworkReply *createRequest(Operation op, const QNetworkRequest &request,
                                 QIODevice *outgoingData) override;

private:
    Q_DECLARE_PRIVATE(RetryingNetworkAccessManager)
    std::unique_ptr<RetryingNetworkAccessManagerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGNETWORKACCESSMANAGER_H
