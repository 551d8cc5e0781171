// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYBUDGET_H
#define KEEPTRYING_RETRYBUDGET_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QObject>
#include <QtCore/QUrl>

#include <functional>
#include <memory>

namespace KeepTrying {

class RetryBudgetPrivate;

/*!
    Bounds the share of retries in the traffic to each origin, as gRPC's retry throttling
    does (gRFC A6): a token bucket per origin holds up to maxTokens; every server fault
    takes one token, every answer that is not a fault gives back tokenRatio; a retry may go
    only while the bucket holds more than half of maxTokens. Below that, a floor of
    minRetriesPerSecond still lets a few retries through, so that a single client is never
    stuck waiting for successes that only its own retries could bring.

    Only server faults (retryable statuses) count: connectivity faults are already kept off
    the network by Reachability, which waits instead of retrying.

    With the defaults (10 tokens, ratio 0.1, floor 3 per second) a server that fails every
    request sees at most 5 retries before throttling, then about three retries per second
    from this client; at 50 % failures the bucket drains (one token per failure against 0.1
    per success) and retries settle near 10 % of successes plus the floor. A retry that the
    budget refuses waits; it does not fail.

    Why a floor of three: gRPC has none, Finagle's RetryBudget allows 10 per second. One
    per second left a client whose server shed a burst of its requests (503 for capacity)
    trickling its retries out for seconds after the server had room again; three drains such
    a burst about as fast as plain backoff would, while the adaptive concurrency window and
    the circuit breaker keep an overloaded server from seeing more.

    Thread-safe: managers in other threads (a QML engine's, see KeepTrying::Quick) may share
    one budget.
*/
class KEEPTRYING_NETWORK_EXPORT RetryBudget : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        bool enabled = true;
        double maxTokens = 10; //!< Bucket size (> 0).
        double tokenRatio = 0.1; //!< Tokens returned per answer that is not a fault.
        double minRetriesPerSecond = 3; //!< Floor, per origin (0: none).
    };

    explicit RetryBudget(QObject *parent = nullptr);
    ~RetryBudget() override;

    Settings settings() const;
    void setSettings(const Settings &settings);
    /*! Replaces the monotonic clock (milliseconds), for tests. */
    void setClock(std::function<qint64()> nowMs);

    /*! An answer from the origin of \a url that is not a server fault. */
    void recordSuccess(const QUrl &url);
    void recordSuccess(const QString &origin); //!< By origin key (Reachability::originOf()).
    /*! A server fault from the origin of \a url. */
    void recordFailure(const QUrl &url);
    void recordFailure(const QString &origin);
    /*! May a retry go to the origin of \a url now? A true answer may spend the floor. */
    bool tryRetry(const QUrl &url);
    bool tryRetry(const QString &origin);
    /*! Milliseconds until tryRetry() may say yes through the floor (0: it may now). */
    qint64 msUntilRetry(const QUrl &url) const;
    /*! Fills the bucket of the origin of \a url again, e.g. when its circuit breaker has
        closed after a successful probe. */
    void reset(const QUrl &url);
    void reset(const QString &origin);
    /*! Tokens in the bucket of the origin of \a url. */
    double tokens(const QUrl &url) const;

private:
    Q_DECLARE_PRIVATE(RetryBudget)
    std::unique_ptr<RetryBudgetPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBUDGET_H
