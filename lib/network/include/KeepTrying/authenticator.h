// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_AUTHENTICATOR_H
#define KEEPTRYING_AUTHENTICATOR_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/requestattributes.h>

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtNetwork/QNetworkRequest>

#include <memory>

namespace KeepTrying {

class AuthenticatorPrivate;

/*!
    Renews credentials that expire (an OAuth access token, a session), one renewal at a
    time per account, for every request of a RetryingNetworkAccessManager. In the spirit of
    OkHttp's Authenticator.

    Subclass it, implement sign() and renew(), and give it to the manager
    (RetryingNetworkAccessManager::setAuthenticator()). Then, for every request whose
    accountKey() is not empty:

    - each attempt is signed with sign() just before it goes, so a retry or a replay
        always carries the current credentials;
    - on an HTTP 401, renew() is called once for the account, however many requests get
        a 401 at the same time; every request of the account that gets a 401 meanwhile is
        parked, and every request about to start waits instead of spending an attempt with
        credentials known to be stale (RetryingReply::waitReason() is
        WaitReason::Authenticating);
    - after Renewed, each parked request is sent again, once, with the new credentials; a
        second 401 is delivered to the caller (no loop). A request signed before the last
        renewal that comes back 401 is sent again at once, without a new renewal;
    - a request that must not be sent twice (a method that is not idempotent without an
        Idempotency-Key, a body that cannot be read again; RFC 9110 §9.2.2) is not sent
        again: its 401 is delivered, and the renewal still runs for the requests that follow.

    renew() ends with finishRenewal() and one of three results:

    <table>
    <tr><th>Result</th><th>The waiting requests</th><th>The credentials</th></tr>
    <tr><td>Renewed</td><td>go again with sign()'s new credentials</td><td>in use</td></tr>
    <tr><td>Rejected</td><td>get their 401 (a request that waited before its first attempt
        goes, and its 401 comes)</td><td>refused: no renewal runs again for the account
        until requestRenewal() is called</td></tr>
    <tr><td>Unavailable</td><td>keep waiting (until their deadline, if any); renew() is
        called again after a backoff (setRenewalRetryDelays(), 1 s doubling to
        60 s)</td><td>kept: nothing says they are wrong (the network is down, the token
        server errs)</td></tr>
    </table>

    The renewal's own requests must not wait for the renewal: mark them with
    excludeRequest() (or return an empty accountKey() for them).

    Why a QObject with virtual functions and not a std::function: a renewal is
    asynchronous and usually sends a request of its own, so it needs an object that lives
    on a thread and that the manager can watch (QPointer); the signals let other parts (an
    outbox, a status line) follow renewals without another hook. Lives in the manager's
    thread; not owned by the manager.
*/
class KEEPTRYING_NETWORK_EXPORT Authenticator : public QObject
{
    Q_OBJECT

public:
    /*! How a renewal ended. */
    enum Result {
        Renewed, //!< New credentials: sign() now gives them.
        Rejected, //!< The server refused the credentials (a refresh token and the
        //!< password grant refused): signed out. The callers get their 401.
        Unavailable //!< No answer, or a server fault: nothing says the credentials are
        //!< wrong. The requests keep waiting; renew() runs again after a backoff.
    };
    Q_ENUM(Result)

    /*! A request attribute (QVariant::fromValue<QObject *>()) that names the Authenticator
        of this request instead of the manager's; a null pointer: no authenticator (the
        request is never signed, parked or renewed for). */
    static constexpr QNetworkRequest::Attribute AuthenticatorAttribute =
        RequestAttributes::Authenticator;

    explicit Authenticator(QObject *parent = nullptr);
    ~Authenticator() override;

    /*! Which account \a request belongs to: requests with the same key share one renewal.
        Empty: not this authenticator's (its 401 reaches the caller as it is). The default
        is the request URL's origin (scheme, host and port) for every http(s) request. */
    virtual QString accountKey(const QNetworkRequest &request) const;
    /*! Puts the current credentials of \a key on \a request (e.g. its Authorization
        header). Called for every attempt, just before it goes, on the attempt's own copy
        of the request; must not block. */
    virtual void sign(const QString &key, QNetworkRequest &request) const = 0;

    /*! Starts a renewal of \a key unless one runs (e.g. to sign in the first time, or after
        the user typed a new password): requests of \a key wait for it. While a renewal
        waits to try again after Unavailable, it tries again now. */
    void requestRenewal(const QString &key);
    /*! True from requestRenewal() (or a 401) to Renewed or Rejected, waits between
        Unavailable tries included. */
    bool isRenewing(const QString &key) const;
    /*! True after Rejected, until the next Renewed. */
    bool isRejected(const QString &key) const;
    /*! Renewals of \a key that ended Renewed since this object was made. */
    quint64 generation(const QString &key) const;

    /*! The wait before renew() is called again after Unavailable: \a initialMs, doubled on
        each further Unavailable up to \a maximumMs (both ≥ 1; defaults 1000 and 60000). */
    void setRenewalRetryDelays(qint64 initialMs, qint64 maximumMs);

    /*! Marks \a request as one no authenticator handles: the renewal's own token request. */
    static void excludeRequest(QNetworkRequest &request);
    /*! Marks \a request as handled by \a authenticator rather than the manager's (several
        accounts on one manager). */
    static void useAuthenticator(QNetworkRequest &request, Authenticator *authenticator);

Q_SIGNALS:
    /*! renew() is about to be called for \a key (also for each retry after Unavailable). */
    void renewalStarted(const QString &key);
    /*! The renewal of \a key ended with \a result (emitted after the waiting requests were
        told; an Unavailable renewal starts again later). */
    void renewalFinished(const QString &key, KeepTrying::Authenticator::Result result);

protected:
    /*! Renews the credentials of \a key, asynchronously, and calls finishRenewal(\a key, …)
        exactly once when done (it may do so before returning). Called once at a time per
        key. */
    virtual void renew(const QString &key) = 0;
    /*! Ends the renewal of \a key (see the table above). Ignored when none runs. */
    void finishRenewal(const QString &key, Result result);

private:
    friend class AuthenticatorPrivate;
    Q_DECLARE_PRIVATE(Authenticator)
    std::unique_ptr<AuthenticatorPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_AUTHENTICATOR_H
