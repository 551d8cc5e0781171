// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYPOLICY_H
#define KEEPTRYING_RETRYPOLICY_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QSet>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <functional>

QT_BEGIN_NAMESPACE
class QRandomGenerator;
QT_END_NAMESPACE

namespace KeepTrying {

/*!
    How a failed attempt is classified. The class decides whether the attempt is
    retried and which limit applies (see RetryPolicy).
*/
enum class FaultClass {
    None, //!< The attempt succeeded: nothing to retry.
    Connectivity, //!< The network or host could not be reached (DNS, refused, reset, timeout,
    //!< offline). Retried until the deadline or maxConnectivityAttempts; a timeout also
    //!< counts towards maxTimeoutAttempts.
    Server, //!< The server answered with a retryable status (408, 425, 429, 5xx but
    //!< 501/505). Retried up to maxAttempts.
    Permanent //!< Anything else: other 4xx, TLS errors, user abort, protocol errors. Never
    //!< retried.
};

/*!
    The jitter applied to the exponential backoff, as defined in the AWS Architecture Blog
    article "Exponential Backoff And Jitter" (2015). With base = min(maxDelay,
    initialDelay * multiplier^(retry - 1)):
*/
enum class Jitter {
    None, //!< delay = base. Every client retries in lock-step: only for tests.
    Full, //!< delay = random in [0, base]. The default; fewest calls under contention.
    Equal, //!< delay = base / 2 + random in [0, base / 2].
    Decorrelated //!< delay = min(maxDelay, random in [initialDelay, previousDelay * 3]).
};

/*!
    What a custom shouldRetry() or delay() function is told about the attempt that just
    failed. Times are in milliseconds.
*/
struct RetryContext
{
    int attempt = 0; //!< 1-based number of the failed attempt.
    QNetworkReply::NetworkError error = QNetworkReply::NoError; //!< Qt's error for it.
    int httpStatus = 0; //!< HTTP status, 0 when none arrived.
    QList<QNetworkReply::RawHeaderPair> headers; //!< Response headers, empty when none.
    FaultClass fault = FaultClass::None; //!< The built-in classification.
    QByteArray method; //!< "GET", "POST", … of the request.
    QUrl url; //!< The URL of the request.
    qint64 elapsedMs = 0; //!< Time since the logical request started.
    qint64 previousDelayMs = 0; //!< The delay before the failed attempt (0 for the first).
    qint64 retryAfterMs = -1; //!< Parsed and capped Retry-After, or -1 when absent/invalid.
    qint64 backoffMs = 0; //!< The delay the policy's backoff and jitter computed.
};

/*!
    RetryPolicy says when and how often a request is tried again, and how long to wait
    between attempts. It is a plain value type: copy it, change the members you need, and
    give it to RetryingNetworkAccessManager::setRetryPolicy() or to one request through
    RetryingNetworkAccessManager::RetryPolicyAttribute.

    Out-of-range values never make a delay negative, infinite or NaN: negative times count
    as 0, a multiplier below 1 counts as 1, and every delay is capped at maxDelayMs.
*/
class KEEPTRYING_NETWORK_EXPORT RetryPolicy
{
public:
    /*! The default policy: 5 attempts for server faults, 3 for attempts that time out,
        other connectivity faults retried until the deadline (none), 200 ms doubling to
        30 s, full jitter. */
    RetryPolicy();

    /*! A policy that makes exactly one attempt and never retries (nor waits for
        connectivity). */
    static RetryPolicy never();

    /*! The status codes retried by default: 408, 425, 429, 500, 502, 503, 504
        (RFC 9110 §15; 501 and 505 are never retried). */
    static QSet<int> defaultRetryableStatusCodes();

    /*! Total attempts, the first included, for server faults (retryable statuses). 1 means
        no retry; values below 1 count as 1. See maxRetries() for the count of retries. */
    int maxAttempts = 5;
    /*! Retries after the first attempt for server faults: maxAttempts - 1 (never below 0). */
    int maxRetries() const { return maxAttempts > 1 ? maxAttempts - 1 : 0; }
    /*! Sets maxAttempts to \a retries + 1 (values below 0 count as 0: no retry). */
    void setMaxRetries(int retries) { maxAttempts = (retries > 0 ? retries : 0) + 1; }
    /*! Total attempts for connectivity faults; 0 (the default) means no limit: keep trying
        until the deadline or abort(). Waiting for connectivity (waitForConnectivity) makes
        no attempts: pair a limit with a deadline, or switch waiting off. */
    int maxConnectivityAttempts = 0;
    /*! Total attempts, the first included, when attempts time out: the server accepted the
        connection and sent nothing for the transfer timeout (QNetworkRequest::
        setTransferTimeout(), QNetworkAccessManager::setTransferTimeout() or
        attemptTimeoutMs). The network is up and the server does not answer: unlike an
        unreachable network, waiting does not help, so a call site that ends under plain
        Qt ends here too, after at most this many attempts, their timeouts and the backoff
        between them (with the defaults and a 1.5 s timeout: under 6 s). It then ends as
        plain Qt does, with QNetworkReply::OperationCanceledError (TimeoutError when
        attemptTimeoutMs set the timeout). A timeout while Reachability says the machine is
        offline is not counted. 0 means no limit (keep trying until the deadline or
        abort()); values below 0 count as 0. */
    int maxTimeoutAttempts = 3;
    /*! Base delay before the first retry, in milliseconds (≥ 0). */
    qint64 initialDelayMs = 200;
    /*! Growth of the base delay per retry (≥ 1). */
    double multiplier = 2.0;
    /*! Largest delay between two attempts, in milliseconds (≥ 0). */
    qint64 maxDelayMs = 30000;
    /*! Jitter mode; see Jitter. */
    Jitter jitter = Jitter::Full;
    /*! Per-attempt inactivity timeout in milliseconds (QNetworkRequest::setTransferTimeout):
        an attempt that receives nothing for this long fails as a connectivity fault and is
        retried up to maxTimeoutAttempts. 0 keeps the request's or manager's own transfer timeout.
     */
    qint64 attemptTimeoutMs = 0;
    /*! Time budget for the whole logical request, all attempts and waits included, in
        milliseconds. 0 means none. When it runs out the reply ends with
        QNetworkReply::TimeoutError (or the last HTTP error response, if there was one). */
    qint64 deadlineMs = 0;
    /*! Cap on a server's Retry-After, in milliseconds (RFC 9110 §10.2.3). Larger values
        are shortened to this. */
    qint64 maxRetryAfterMs = 120000;
    /*! HTTP statuses that count as server faults. Remove a code to exempt it. */
    QSet<int> retryableStatusCodes = defaultRetryableStatusCodes();
    /*! Give POST, PATCH and custom methods an Idempotency-Key header (a UUID, once per
        logical request, the same on every attempt) so that they may be retried
        (draft-ietf-httpapi-idempotency-key-header). A key set by the caller is kept. */
    bool addIdempotencyKey = false;
    /*! Wait for connectivity instead of retrying on a schedule: while the network is
        offline or the request's origin is known to be unreachable (see Reachability), no
        attempt is made and none is spent; when it can be reached again the request goes at
        once. A connectivity fault still waits its backoff first. Off: connectivity faults
        are retried on the backoff schedule alone. */
    bool waitForConnectivity = true;
    /*! When many waiting requests may go at once and the manager's adaptive concurrency
        window is off, each waits a random 0..this many milliseconds first, so they do not
        all reach the server in the same instant. (With the window on, the default, it paces
        them instead: see RetryingNetworkAccessManager::setAdaptiveConcurrencyEnabled().) */
    qint64 reconnectStaggerMs = 100;
    /*! Largest request body kept in memory for replay, in bytes. A larger body that cannot
        be re-read by seeking is sent once and never retried after it started. */
    qint64 maxBufferedBodyBytes = 16 * 1024 * 1024;
    /*! Largest part of an error response's body kept, in bytes, while the response is held
        aside because it will probably be retried (a 503 before the next attempt, say); the
        rest is read and dropped as it arrives. The response a request ends with is
        delivered whole, streamed, unless it was held first and then became the answer
        (the deadline passed, or the circuit breaker stopped the retries): then it carries
        at most this many bytes of its body. */
    qint64 maxHeldBodyBytes = 64 * 1024;

    /*! Optional: replaces the built-in decision whether a failed attempt is retried. It is
        not asked for user aborts, nor for a TLS handshake Qt refused
        (QNetworkReply::SslHandshakeFailedError, such as a certificate error the caller did
        not ignore: never retried), nor once a limit or the deadline is reached. */
    std::function<bool(const RetryContext &)> shouldRetry;
    /*! Optional: returns the delay before the next attempt in milliseconds. By default the
        delay is context.retryAfterMs when present, else context.backoffMs. A negative
        return value means "use the default"; larger values are capped at maxDelayMs, or at
        maxRetryAfterMs when a Retry-After was present. */
    std::function<qint64(const RetryContext &)> delay;

    /*! Classifies a finished attempt by Qt's \a error and the HTTP \a status (0 if none). */
    FaultClass classify(QNetworkReply::NetworkError error, int httpStatus) const;

    /*! The backoff before retry number \a retry (1 for the first retry), in milliseconds,
        given the previous delay (for decorrelated jitter) and a random source (the global
        generator when null). Always within [0, maxDelayMs]. */
    qint64 backoffDelay(int retry, qint64 previousDelayMs,
                        QRandomGenerator *random = nullptr) const;

    /*! True for methods that RFC 9110 §9.2.2 defines as idempotent: GET, HEAD, OPTIONS,
        TRACE, PUT and DELETE. */
    static bool isIdempotentMethod(const QByteArray &method);
};

} // namespace KeepTrying

Q_DECLARE_METATYPE(KeepTrying::RetryPolicy)

#endif // KEEPTRYING_RETRYPOLICY_H
