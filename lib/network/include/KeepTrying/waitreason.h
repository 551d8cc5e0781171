// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_WAITREASON_H
#define KEEPTRYING_WAITREASON_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QDateTime>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QMetaType>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>

namespace KeepTrying {

/*!
    Why a request is waiting instead of making an attempt, as data: a value a program
    (a banner, a status line, QML) renders in its own words, never text to parse.

    A RetryingReply has one at every moment (RetryingReply::waitReason()); kind() is None
    exactly while the request is not waiting (an attempt is in flight, or it has finished),
    and RetryingReply::waitReasonChanged() says each change. The reason is true: while
    kind() is Backoff or RetryAfter, the next attempt starts no earlier than until() (and,
    unless the request ends or another wait follows, promptly then); while it is Offline,
    the network is down or QA's simulated offline switch is on.

    What each kind carries:

    kind             origin()  until()/deadline()        queuedBehind()  fault
    None             -         -                         -               -
    Offline          yes       -                         -               if an attempt failed
    Unreachable      yes       -                         -               if an attempt failed
    RetryAfter       yes       the server's time         -               yes
    BreakerOpen      yes       the next probe, if known  -               if an attempt failed
    BudgetExhausted  yes       the next retry token      -               yes
    WindowFull       yes       -                         yes             if an attempt failed
    Backoff          yes       when backoff ends         -               yes
    Authenticating   yes       -                         -               the 401, if one came

    The fault is that of the last failed attempt: httpStatus() (0 when no response came)
    and networkError() (NoError when a response came and Qt saw no error). Times are
    given twice: deadline() on the monotonic clock, immune to wall-clock changes, for C++;
    until() as a UTC QDateTime, which QML receives as a JavaScript Date. remainingMs() is
    computed when it is read.

    A small value type: cheap to copy, compared with ==. Usable from QML as a gadget
    (reason.kind, reason.until, …; compare kind with the WaitReason enum values).
*/
class KEEPTRYING_NETWORK_EXPORT WaitReason
{
    Q_GADGET
    Q_PROPERTY(Kind kind READ kind CONSTANT)
    Q_PROPERTY(bool waiting READ isWaiting CONSTANT)
    Q_PROPERTY(QUrl origin READ origin CONSTANT)
    Q_PROPERTY(QDateTime until READ until CONSTANT)
    Q_PROPERTY(qint64 remainingMs READ remainingMs CONSTANT)
    Q_PROPERTY(int queuedBehind READ queuedBehind CONSTANT)
    Q_PROPERTY(int httpStatus READ httpStatus CONSTANT)
    Q_PROPERTY(QNetworkReply::NetworkError networkError READ networkError CONSTANT)
    Q_PROPERTY(bool proxyFault READ isProxyFault CONSTANT)

public:
    /*! What the request waits for. New kinds may be added at the end: treat an unknown
        kind as "waiting". */
    enum Kind {
        None, //!< Not waiting: an attempt is in flight, about to start, or the request ended.
        Offline, //!< The network is down (the platform says so, or simulated offline mode):
        //!< no attempt is made until it is back. The user's side.
        Unreachable, //!< The network is up, but the origin cannot be reached (refused,
        //!< not found, no route); a reachability probe watches it. The attempt goes when
        //!< the probe gets through.
        RetryAfter, //!< The server asked for a pause with Retry-After (RFC 9110 §10.2.3; in
        //!< a 503, 429 or 3xx), honoured up to RetryPolicy::maxRetryAfterMs. The server's side.
        BreakerOpen, //!< The origin's circuit breaker is open after repeated failures: the
        //!< request waits behind the half-open probe (CircuitBreaker). until() is when the
        //!< next probe may go, invalid while a probe is already in flight.
        BudgetExhausted, //!< The origin's retry budget (token bucket, as gRPC retry
        //!< throttling) is spent: the retry waits for a token (until()).
        WindowFull, //!< The origin's adaptive concurrency window is full: the request waits
        //!< its turn, queuedBehind() requests ahead of it.
        Backoff, //!< The last attempt failed with a retryable fault; the next starts when
        //!< the exponential backoff with jitter ends (until()).
        Authenticating //!< The request waits while its Authenticator renews the account's
        //!< credentials (an expired token being refreshed): after a 401 of its own, or
        //!< before its attempt, instead of sending credentials known to be stale.
    };
    Q_ENUM(Kind)

    /*! Not waiting (kind() None). */
    WaitReason() = default;

    // Named constructors, one per kind; \a origin is the request URL's scheme, host and
    // port (other parts are dropped), \a inMs a wait from now in milliseconds (negative:
    // not known).
    static WaitReason offline(const QUrl &origin);
    static WaitReason unreachable(const QUrl &origin);
    static WaitReason retryAfter(const QUrl &origin, qint64 inMs);
    static WaitReason breakerOpen(const QUrl &origin, qint64 inMs);
    static WaitReason budgetExhausted(const QUrl &origin, qint64 inMs);
    static WaitReason windowFull(const QUrl &origin, int queuedBehind);
    static WaitReason backoff(const QUrl &origin, qint64 inMs);
    static WaitReason authenticating(const QUrl &origin);
    /*! A copy that also carries the last failed attempt's fault. */
    WaitReason withFault(int httpStatus, QNetworkReply::NetworkError error) const;

    Kind kind() const { return m_kind; }
    /*! kind() != None. */
    bool isWaiting() const { return m_kind != None; }
    /*! The origin the request goes to: scheme, host and port only (never a user name, a
        password, a path or a query). Empty when kind() is None. */
    QUrl origin() const { return m_origin; }
    /*! When the wait ends, on the monotonic clock; QDeadlineTimer::Forever when that is not
        known (the wait ends on an event: the network back, a probe answered, a slot freed). */
    QDeadlineTimer deadline() const { return m_deadline; }
    /*! When the wait ends, as UTC wall-clock time with millisecond precision (taken when
        the reason was made); invalid when not known. For QML and display. */
    QDateTime until() const { return m_until; }
    /*! Milliseconds until deadline() from the moment of the call, at least 0; -1 when not
        known. */
    qint64 remainingMs() const;
    /*! WindowFull: how many requests to the same origin were queued ahead of this one when
        it began to wait (0: it is next). 0 for other kinds. */
    int queuedBehind() const { return m_queuedBehind; }
    /*! The HTTP status of the last failed attempt's response; 0 when none came. */
    int httpStatus() const { return m_httpStatus; }
    /*! Qt's error of the last failed attempt; NoError when no attempt failed, or when a
        response came without one. */
    QNetworkReply::NetworkError networkError() const { return m_networkError; }
    /*! True when an attempt has failed before this wait: httpStatus() or networkError()
        say how. */
    bool hasFault() const { return m_httpStatus != 0 || m_networkError != QNetworkReply::NoError; }
    /*! True when networkError() is the proxy's (isProxyError()): the proxy the request goes
        through refused, closed, timed out or could not be found, so the proxy or the proxy
        settings are at fault, not the server. */
    bool isProxyFault() const { return isProxyError(m_networkError); }
    /*! True for the errors that say the proxy failed, not the server:
        ProxyConnectionRefusedError, ProxyConnectionClosedError, ProxyNotFoundError,
        ProxyTimeoutError and UnknownProxyError (not ProxyAuthenticationRequiredError: the
        proxy answered). The one list, for every banner and status line. */
    static bool isProxyError(QNetworkReply::NetworkError error);

    /*! Same kind, origin, end (to the millisecond), queue position and fault. */
    friend bool operator==(const WaitReason &a, const WaitReason &b)
    {
        return a.m_kind == b.m_kind && a.m_origin == b.m_origin &&
            a.m_deadline.deadline() == b.m_deadline.deadline() &&
            a.m_queuedBehind == b.m_queuedBehind && a.m_httpStatus == b.m_httpStatus &&
            a.m_networkError == b.m_networkError;
    }
    friend bool operator!=(const WaitReason &a, const WaitReason &b) { return !(a == b); }

    /*! The request URL's origin as origin() keeps it. */
    static QUrl originOf(const QUrl &url);

private:
    WaitReason(Kind kind, const QUrl &origin, qint64 inMs);

    Kind m_kind = None;
    QNetworkReply::NetworkError m_networkError = QNetworkReply::NoError;
    int m_queuedBehind = 0;
    int m_httpStatus = 0;
    QUrl m_origin;
    QDeadlineTimer m_deadline { QDeadlineTimer::Forever };
    QDateTime m_until;
};

/*! A developer's line for logs: "Backoff for 250 ms (HTTP 503) to http://host:8080". */
KEEPTRYING_NETWORK_EXPORT QDebug operator<<(QDebug debug, const WaitReason &reason);

} // namespace KeepTrying

Q_DECLARE_METATYPE(KeepTrying::WaitReason)

#endif // KEEPTRYING_WAITREASON_H
