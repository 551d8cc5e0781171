// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYINGREPLY_H
#define KEEPTRYING_RETRYINGREPLY_H

#include <KeepTrying/giveupreason.h>
#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/retrypolicy.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QDateTime>
#include <QtNetwork/QNetworkReply>

#include <memory>

namespace KeepTrying {

class RetryingNetworkAccessManager;
class RetryingNetworkAccessManagerPrivate;
class RetryingReplyPrivate;

/*!
    The reply RetryingNetworkAccessManager returns: one logical request, however many
    attempts it takes. It behaves as a plain QNetworkReply: headers, attributes, error()
    and the body are those of the attempt that ended the request, finished() is emitted
    exactly once, and no byte of the body is handed over twice (a retry after a partial
    body resumes with Range/If-Range, RFC 9110 §14, or fails).

    abort(), close() or deleting the reply at any time stops everything: the current
    attempt is cancelled and no further attempt is made. Deleting it with plain delete from
    a slot of any of its own signals is safe. As with a plain reply, abort() before the
    reply has finished emits errorOccurred(OperationCanceledError) and finished() before it
    returns, from a slot of the reply's own signals too (metaDataChanged(), readyRead() of
    the final answer, gaveUp(), …), and nothing is emitted after it. Called from a slot of
    errorOccurred(), it emits finished() only: the reply keeps the error it announced.

    Bytes announced with readyRead() to a connected slot count as handed over, read or not:
    a later attempt resumes after them or the reply fails, keeping them. The bytes a caller
    receives are always a prefix of exactly one response's body, and status, headers and
    error describe those bytes: the status and headers are those of the response whose body
    the caller reads (none when no response ended the request). Once bytes of a 2xx were
    handed over they stay that 2xx's, whatever a resume is answered: a resume's own answer
    (a 404, a 410, a last 503, one a deadline or an open circuit breaker stopped at) is
    never appended to the stream; it is available through lastResumeStatus(),
    lastResumeHeaders() and lastResumeBody(), and the reply ends with
    RemoteHostClosedError (below). downloadProgress() then ends at the bytes handed over.
    Upload progress never goes backwards either: a retry's upload is reported only once it
    passes what the caller saw, and the (0, 0) Qt emits when a reply ends comes once, from
    the attempt that ends the request.

    TLS: encrypted() and sslErrors() are emitted for every handshake of every attempt, as a
    plain reply emits them for each connection Qt makes (its own re-sends included), and
    QNetworkAccessManager::encrypted()/sslErrors() name this reply. ignoreSslErrors(), in
    either form, before the request starts or from a slot of sslErrors(), holds for this
    attempt and every later one. A handshake Qt refuses (SslHandshakeFailedError: a
    certificate error not ignored, and its errorString names the first) ends the request
    after that one attempt, never retried, whatever the policy. A connection closed or reset
    during the handshake, or after it before any response, is a connectivity fault, retried.

    Errors the reply produces itself, beyond Qt's own for the attempt that ended it:
    - RemoteHostClosedError, "The connection closed after N of M bytes of the body": the
      body was shorter than its Content-Length or Content-Range, and could not be resumed
      (or the limits stopped the retries).
    - RemoteHostClosedError, "The connection closed after N of M bytes; resuming got 410
      Gone": bytes of a 2xx were handed over and the last resume was answered with another
      status, final or the last one the limits, the deadline or the breaker allowed. The
      status and headers stay the 2xx's; lastResumeStatus() and the others have the answer.
    - RemoteHostClosedError, "… the server could not resume the download …": bytes were
      handed over, and the server's answer to the Range request did not continue the same
      body (a 200, another range, another length or ETag).
    - RemoteHostClosedError, "… was not sent again because the server may have acted on
      it …": a request without an Idempotency-Key that must not be sent twice lost its
      connection before any response.
    - TimeoutError: an attempt received nothing for RetryPolicy::attemptTimeoutMs, or the
      deadline passed with no HTTP answer to end with (with one, the reply ends with it).
    - ServiceUnavailableError without a status: the circuit breaker refused the first
      attempt of a request that may not wait (no deadline, waitForConnectivity off).
    - TemporaryNetworkFailureError: simulated offline mode, for a request that does not
      wait for connectivity.
    - ProtocolFailure, "The server sent only an informational response …" or "The
      response's Content-Length is not valid …": framing Qt 6.4 takes for a success (a lone
      103, a Content-Length that is not one number, RFC 9112 §6.3); never retried.
    - The last real answer (its status, headers, error and body, at most
      RetryPolicy::maxHeldBodyBytes of a held one) when the deadline passes or an open
      circuit breaker stops the retries, unless bytes of a 2xx were handed over (then the
      RemoteHostClosedError above); gaveUp() says "deadline" or "circuit breaker open".
    - TooManyRedirectsError, InsecureRedirectError, ProtocolUnknownError: a redirect
      beyond QNetworkRequest::maximumRedirectsAllowed(), against the redirect policy, or
      to a scheme other than http/https; the reply carries the redirect's status.
*/
class KEEPTRYING_NETWORK_EXPORT RetryingReply : public QNetworkReply
{
    Q_OBJECT
    Q_PROPERTY(int attemptCount READ attemptCount NOTIFY attemptStarted)
    Q_PROPERTY(bool waitingToRetry READ isWaitingToRetry NOTIFY waitingToRetryChanged)
    Q_PROPERTY(bool waitingForConnectivity READ isWaitingForConnectivity NOTIFY
                   waitingForConnectivityChanged)
    Q_PROPERTY(KeepTrying::WaitReason waitReason READ waitReason NOTIFY waitReasonChanged)
    Q_PROPERTY(KeepTrying::GiveUpReason giveUpReason READ giveUpReason NOTIFY gaveUp)

public:
    ~RetryingReply() override;

    /*! Attempts started so far, the first included (0 before the first starts). Each hop of
        a redirect the reply follows is an attempt; the hops Qt follows within one attempt
        (see RetryingNetworkAccessManager) are not. */
    int attemptCount() const;
    /*! True while the reply waits for the backoff before its next attempt. */
    bool isWaitingToRetry() const;
    /*! True while the reply waits for the network or its origin to become reachable. */
    bool isWaitingForConnectivity() const;
    /*! Why the request waits now instead of making an attempt; kind() None while it does
        not wait (an attempt is in flight, or it has finished). Always up to date, also
        inside slots of waitingToRetryChanged() and waitingForConnectivityChanged(). See
        WaitReason for what each kind carries and promises. */
    WaitReason waitReason() const;
    /*! Why the request gave up (set before gaveUp() is emitted); kind() None when it did
        not (yet). */
    GiveUpReason giveUpReason() const;
    /*! The policy this request follows. */
    RetryPolicy retryPolicy() const;
    /*! The Idempotency-Key sent with every attempt, or empty when none is sent. */
    QByteArray idempotencyKey() const;
    /*! Bytes of the request body that every attempt sends: 0 without a body, -1 when it
        streams from a sequential device of unknown length. Known before the first attempt. */
    qint64 requestBodySize() const;

    /*! True once the reply has offered its offline copy (staleCopyOffered()). */
    bool hasStaleCopy() const;
    /*! The offered copy: its body (whole, decoded), status, headers and when it was stored
        (UTC; when a 304 last confirmed it). Empty, 0 and invalid before the offer. The
        reply's own headers, attributes and body stay those of the fresh response. */
    QByteArray staleCopyBody() const;
    int staleCopyStatus() const;
    QList<RawHeaderPair> staleCopyHeaders() const;
    QDateTime staleCopyStoredAt() const;

    /*! The answer to the last resume (a Range request after bytes of a 2xx were handed
        over) that did not continue the body: its status, headers and body (at most the
        first 64 KiB). 0, empty and empty when no resume was answered so. The caller's
        stream never carries it. */
    int lastResumeStatus() const;
    QList<RawHeaderPair> lastResumeHeaders() const;
    QByteArray lastResumeBody() const;

    void abort() override;
    void close() override;
    qint64 bytesAvailable() const override;
    bool canReadLine() const override;
    void setReadBufferSize(qint64 size) override;
    void ignoreSslErrors() override;

Q_SIGNALS:
    /*! Attempt \a attempt (from 1) has started. */
    void attemptStarted(int attempt);
    /*! Attempt \a attempt failed with a retryable fault; the next starts in \a delayMs ms,
        or, if the origin is unreachable by then, waitingForConnectivityChanged(true) says
        so at that moment (see RetryingNetworkAccessManager::retryScheduled()).
        \a reason is the human-readable log form ("HTTP 503", "connection refused"), kept
        for existing code: its words may change. Programs read waitReason() (Backoff or
        RetryAfter, with the fault as data), announced by waitReasonChanged() just before. */
    void retryScheduled(int attempt, qint64 delayMs, const QString &reason);
    /*! A limit or the deadline stopped the retries; finished() follows. \a reason is the
        human-readable log form ("deadline", "circuit breaker open", "HTTP 503"); programs
        read giveUpReason(), set when this is emitted. */
    void gaveUp(const QString &reason);
    /*! waitReason() changed: the request began to wait, waits for something else (or until
        another time), or stopped waiting (kind() None). Emitted once per change, before
        retryScheduled() for a backoff, and after waitingToRetryChanged() and
        waitingForConnectivityChanged() of the same change. */
    void waitReasonChanged(const KeepTrying::WaitReason &reason);
    void waitingToRetryChanged(bool waiting);
    void waitingForConnectivityChanged(bool waiting);
    /*! The GET opted in to an offline copy (OfflineCopy::ModeAttribute) and cannot be
        answered fresh soon: offline, waiting for connectivity or behind an open circuit
        breaker (at once), or still without an answer after
        OfflineCopy::Settings::offerAfterMs. Its stored copy, \a ageSeconds old (RFC 9111
        §4.2.3), is offered: staleCopyBody() holds it, and OfflineCopy::IsStaleAttribute,
        StoredAtAttribute and AgeAttribute are set on the reply. The reply keeps trying:
        the fresh response follows as usual (IsStaleAttribute turns false when the headers
        of a fresh answer below 400 arrive); if the request fails in the end (an error
        status, or no answer), the attributes stay. Emitted at most once,
        never from inside get(), and not once the fresh response has begun to arrive; not
        for a copy marked must-revalidate unless the request overrides it. */
    void staleCopyOffered(qint64 ageSeconds);

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    void timerEvent(QTimerEvent *event) override;
    void connectNotify(const QMetaMethod &signal) override;
#if QT_CONFIG(ssl)
    void ignoreSslErrorsImplementation(const QList<QSslError> &errors) override;
    void setSslConfigurationImplementation(const QSslConfiguration &configuration) override;
    void sslConfigurationImplementation(QSslConfiguration &configuration) const override;
#endif

    /*! Only RetryingNetworkAccessManager makes RetryingReply objects. */
    RetryingReply(RetryingNetworkAccessManagerPrivate *owner, QNetworkAccessManager::Operation op,
                  const QNetworkRequest &request, QIODevice *outgoingData,
                  std::shared_ptr<const RetryPolicy> policy);

private:
    Q_DECLARE_PRIVATE(RetryingReply)
    std::unique_ptr<RetryingReplyPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGREPLY_H
