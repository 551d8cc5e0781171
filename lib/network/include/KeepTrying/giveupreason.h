// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_GIVEUPREASON_H
#define KEEPTRYING_GIVEUPREASON_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QMetaType>
#include <QtNetwork/QNetworkReply>

namespace KeepTrying {

/*!
    Why a request stopped retrying a fault worth retrying, as data
    (RetryingReply::giveUpReason(), set before RetryingReply::gaveUp() is emitted).

    kind() is None for a request that did not give up: it succeeded, failed with a fault
    that is never retried (a 4xx, a TLS error; see RetryPolicy::classify()), or was
    aborted. Otherwise the reply's error() and status are those of the last answer (see
    RetryingReply), and this says which limit ended it, with the last failed attempt's
    fault as data. Usable from QML as a gadget.
*/
class KEEPTRYING_NETWORK_EXPORT GiveUpReason
{
    Q_GADGET
    Q_PROPERTY(Kind kind READ kind CONSTANT)
    Q_PROPERTY(int attempts READ attempts CONSTANT)
    Q_PROPERTY(int httpStatus READ httpStatus CONSTANT)
    Q_PROPERTY(QNetworkReply::NetworkError networkError READ networkError CONSTANT)
    Q_PROPERTY(KeepTrying::WaitReason::Kind waitingFor READ waitingFor CONSTANT)

public:
    /*! Which limit ended the retries. New kinds may be added at the end. */
    enum Kind {
        None, //!< The request did not give up.
        AttemptsExhausted, //!< RetryPolicy::maxAttempts (server faults; the first attempt
        //!< included) or maxConnectivityAttempts was reached.
        TimeoutsExhausted, //!< RetryPolicy::maxTimeoutAttempts attempts got nothing for the
        //!< transfer timeout while the network was up: the server accepts and never answers.
        DeadlineExceeded, //!< RetryPolicy::deadlineMs passed, or the next wait (a backoff,
        //!< a Retry-After) would have ended after it. waitingFor() says what it waited for.
        BreakerOpen, //!< The origin's circuit breaker is open and the request may not wait
        //!< (no deadline, RetryPolicy::waitForConnectivity off).
        NotResumable, //!< Bytes of the body were handed over and the server cannot resume
        //!< them (no Accept-Ranges or validator): they are never handed over twice.
        NotReplaySafe //!< The request must not be sent twice (not idempotent, no
        //!< Idempotency-Key; RFC 9110 §9.2.2) and may have reached the server.
    };
    Q_ENUM(Kind)

    GiveUpReason() = default;
    GiveUpReason(Kind kind, int attempts, int httpStatus, QNetworkReply::NetworkError error,
                 WaitReason::Kind waitingFor = WaitReason::None);

    Kind kind() const { return m_kind; }
    /*! Attempts made, the first included. */
    int attempts() const { return m_attempts; }
    /*! The HTTP status of the last failed attempt's response; 0 when none came. */
    int httpStatus() const { return m_httpStatus; }
    /*! Qt's error of the last failed attempt (NoError when a response came without one). */
    QNetworkReply::NetworkError networkError() const { return m_networkError; }
    /*! What the request was waiting for when it gave up (DeadlineExceeded during a wait:
        Offline, BudgetExhausted, …); None when it was not waiting. */
    WaitReason::Kind waitingFor() const { return m_waitingFor; }

    friend bool operator==(const GiveUpReason &a, const GiveUpReason &b)
    {
        return a.m_kind == b.m_kind && a.m_attempts == b.m_attempts &&
            a.m_httpStatus == b.m_httpStatus && a.m_networkError == b.m_networkError &&
            a.m_waitingFor == b.m_waitingFor;
    }
    friend bool operator!=(const GiveUpReason &a, const GiveUpReason &b) { return !(a == b); }

private:
    Kind m_kind = None;
    int m_attempts = 0;
    int m_httpStatus = 0;
    QNetworkReply::NetworkError m_networkError = QNetworkReply::NoError;
    WaitReason::Kind m_waitingFor = WaitReason::None;
};

/*! A developer's line for logs: "DeadlineExceeded after 3 attempts (HTTP 503)". */
KEEPTRYING_NETWORK_EXPORT QDebug operator<<(QDebug debug, const GiveUpReason &reason);

} // namespace KeepTrying

Q_DECLARE_METATYPE(KeepTrying::GiveUpReason)

#endif // KEEPTRYING_GIVEUPREASON_H
