// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CIRCUITBREAKER_H
#define KEEPTRYING_CIRCUITBREAKER_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QObject>
#include <QtCore/QUrl>

#include <functional>
#include <memory>

namespace KeepTrying {

class CircuitBreakerPrivate;

/*!
    A circuit breaker per origin (scheme, host, port), so that a failing server is given
    room to recover instead of a storm of retries.

    Closed: requests flow; outcomes are counted over a sliding time window. The breaker
    opens when, with at least minimumCalls outcomes in the window, the share of failures
    reaches failureRatio, or (when consecutiveFailures is set) after that many failures in
    a row. Open: no request is sent for breakDurationMs; that duration doubles
    (breakGrowth) with each trip in a row up to maxBreakDurationMs.

    The defaults (ratio 0.5 over 30 s with at least 10 calls, no streak rule, breaks from
    1 s doubling to 60 s) come from measuring a herd against a server that sheds load: a
    streak rule of 5 tripped on a client's own burst of 503s, and 5 s breaks kept clients
    away long after the server had room again (tests/benchmarks/bench_herd). HalfOpen: up to
   halfOpenProbes requests go through as probes; a success closes the breaker (and resets the
   duration), a failure opens it again.

    Failures are what RetryPolicy classifies as connectivity or server faults; 4xx and
    other permanent outcomes count as successes (the server answered). RetryingNetwork-
    AccessManager consults its breaker before every attempt: requests that may wait,
    wait behind the probe without spending attempts; the others fail at once.

    Thread-safe: managers in other threads (a QML engine's, see KeepTrying::Quick) may share
    one breaker. Its signals are emitted in the thread whose call changed the state (the
    breaker's own when a break ends), never while it holds its lock; a receiver in another
    thread gets them queued, as Qt::AutoConnection does.
*/
class KEEPTRYING_NETWORK_EXPORT CircuitBreaker : public QObject
{
    Q_OBJECT
public:
    enum State { Closed, Open, HalfOpen };
    Q_ENUM(State)

    /*! What tryAcquire() grants. */
    enum Permission {
        Allowed, //!< Closed: go.
        Probe, //!< HalfOpen: go as one of the probes; report the outcome.
        Denied //!< Open, or every probe slot taken: wait or fail.
    };
    Q_ENUM(Permission)

    /*! Thresholds; times in milliseconds. */
    struct Settings
    {
        bool enabled = true; //!< false: always Allowed, nothing counted.
        double failureRatio = 0.5; //!< (0, 1]: share of failures in the window that opens.
        qint64 windowMs = 30000; //!< Sliding window for the ratio.
        int minimumCalls = 10; //!< Outcomes needed in the window before the ratio counts.
        int consecutiveFailures = 0; //!< Failures in a row that open; 0 disables this rule.
        qint64 breakDurationMs = 1000; //!< First time spent open.
        double breakGrowth = 2.0; //!< Factor per further trip in a row (≥ 1).
        qint64 maxBreakDurationMs = 60000; //!< Cap on the time spent open.
        int halfOpenProbes = 1; //!< Requests let through at once while half-open.
    };

    /*! Counters and state of one origin. */
    struct OriginStatus
    {
        State state = Closed;
        int callsInWindow = 0;
        int failuresInWindow = 0;
        int consecutiveFailures = 0;
        int trips = 0; //!< Times opened in a row (reset when it closes).
        qint64 openForMs = 0; //!< Remaining time open, 0 unless Open.
        int probesInFlight = 0;
    };

    explicit CircuitBreaker(QObject *parent = nullptr);
    ~CircuitBreaker() override;

    Settings settings() const;
    /*! Settings for every origin without settings of its own. */
    void setSettings(const Settings &settings);
    /*! Settings for the origin of \a url alone. */
    void setSettings(const QUrl &url, const Settings &settings);

    /*! Replaces the monotonic clock (milliseconds), for tests. */
    void setClock(std::function<qint64()> nowMs);

    /*! The state of the origin of \a url (an Open breaker past its duration reads HalfOpen). */
    State state(const QUrl &url) const;
    /*! The same, by origin key (Reachability::originOf()). */
    State state(const QString &origin) const;
    OriginStatus status(const QUrl &url) const;
    /*! Milliseconds until the origin of \a url lets a probe through, 0 when it does now. */
    qint64 msUntilProbe(const QUrl &url) const;

    /*! Asks to send a request to \a url. A Probe grant must be answered with
        recordSuccess(), recordFailure() or releaseProbe(). */
    Permission tryAcquire(const QUrl &url);
    Permission tryAcquire(const QString &origin);
    /*! An attempt to \a url got an answer that is not a fault. */
    void recordSuccess(const QUrl &url, bool wasProbe);
    void recordSuccess(const QString &origin, bool wasProbe);
    /*! An attempt to \a url ended with a connectivity or server fault. */
    void recordFailure(const QUrl &url, bool wasProbe);
    void recordFailure(const QString &origin, bool wasProbe);
    /*! A probe ended without an outcome (aborted): its slot is free again. */
    void releaseProbe(const QUrl &url);
    void releaseProbe(const QString &origin);
    /*! Other evidence says the origin of \a url answers again (a Reachability probe): an
        Open breaker becomes HalfOpen now instead of at the end of its break. */
    void endBreak(const QUrl &url);

Q_SIGNALS:
    /*! The breaker of \a origin (Reachability::originOf()) changed state. HalfOpen is
        announced when the break duration has passed. */
    void stateChanged(const QString &origin, KeepTrying::CircuitBreaker::State state);
    /*! A probe slot of \a origin became free again. */
    void probeSlotFreed(const QString &origin);

private:
    Q_DECLARE_PRIVATE(CircuitBreaker)
    std::unique_ptr<CircuitBreakerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_CIRCUITBREAKER_H
