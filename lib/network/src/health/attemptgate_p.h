// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_ATTEMPTGATE_P_H
#define KEEPTRYING_ATTEMPTGATE_P_H

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retrypolicy.h>

#include "concurrencylimiter_p.h"

#include <QtCore/QBasicTimer>
#include <QtCore/QElapsedTimer>
#include <QtCore/QPointer>
#include <QtNetwork/QNetworkReply>

#include <functional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace KeepTrying {

/*
    What one request's next attempt must be granted before it goes, in this order:
    1. reachability: the network is not known offline and the origin not known unreachable
       (only when the policy waits for connectivity);
    2. a slot in the origin's concurrency window;
    3. the circuit breaker's permission (a probe slot while it is half-open);
    4. for a retry of a server fault, a retry budget token.
    A refusal makes the request wait: nothing is spent, and the gate calls opened() when it
    may be asked again. release() gives everything back and tells the monitors what the
    attempt learnt about its origin. This is the only code that talks to the four monitors.

    The gate lives inside a reply and uses it as the context of its connections and timer.
*/
class AttemptGate final : private ConcurrencyLimiter::Waiter
{
public:
    enum class Wait { None, Connectivity, Limit, Breaker, Budget };
    enum class Result { Granted, Waiting, Refused };

    struct Monitors
    {
        QPointer<Reachability> reachability;
        QPointer<CircuitBreaker> breaker;
        QPointer<RetryBudget> budget;
        ConcurrencyLimiter *limiter = nullptr; // valid while limiterOwner lives
        QPointer<QObject> limiterOwner;
    };

    // What an attempt taught its origin.
    struct Lesson
    {
        int httpStatus = 0; // 0: no response
        FaultClass fault = FaultClass::None;
        bool neverProcessed = false; // HTTP/2 refused the stream unprocessed
        // Qt's error for the attempt: it tells reachability which probe to use.
        QNetworkReply::NetworkError error = QNetworkReply::UnknownNetworkError;
    };

    AttemptGate(QObject *context, const Monitors &monitors, std::function<void()> opened);
    ~AttemptGate() override;
    AttemptGate(const AttemptGate &) = delete;
    AttemptGate &operator=(const AttemptGate &) = delete;

    // The request the next attempt goes to (again on each redirect) and its policy.
    void setTarget(const QUrl &url, const RetryPolicy &policy);
    const QString &origin() const { return m_origin; }
    // The target's origin as a URL (WaitReason::originOf()), made on first use: only a
    // request that waits needs it.
    const QUrl &originUrl() const;

    // Takes what the next attempt needs, in order. Waiting: opened() follows when the wait
    // may be over. Refused: the breaker is open and the request may not wait for it.
    Result acquire(bool serverRetry);
    Wait waiting() const { return m_wait; }
    // Called while the request keeps waiting but what it waits for may have changed (the
    // network went offline or came back while the origin stays unreachable).
    void setWaitChangedHandler(std::function<void()> changed)
    {
        m_waitChanged = std::move(changed);
    }
    // Wait::Limit: requests queued ahead of this one for the origin's window.
    int queuedAhead() const;
    // Wait::Budget: ms until the retry budget may grant a token.
    qint64 msUntilBudget() const;
    // Stops any wait without a grant (the request ended).
    void stopWaiting();

    // An attempt went out with what acquire() granted.
    void attemptStarted(QNetworkReply *attempt);
    // Its response's headers arrived: the window counts what the server works on, not
    // bodies on their way.
    void answered(FaultClass fault);
    // It ended: give everything back and teach the monitors.
    void release(const Lesson &lesson);
    // It ended without a lesson (cancelled, simulated offline): give everything back.
    void giveBack();

    bool isBreakerOpen() const;
    // QA's simulated offline mode: attempts fail as an unreachable network would.
    bool isSimulatedOffline() const;
    // Reachability says the machine is offline (simulated, or the backend's word).
    bool isNetworkOffline() const;
    qint64 msUntilProbe() const;
    // A timer event of the context: true if it was the gate's.
    bool handleTimer(int timerId);

private:
    void slotGranted() override;
    void wait(Wait wait);
    void check();
    bool mayGo() const;
    void releaseSlot(ConcurrencyLimiter::Outcome outcome);
    void releaseProbe();
    ConcurrencyLimiter *limiter() const
    {
        return m_monitors.limiterOwner ? m_monitors.limiter : nullptr;
    }
    // The manager requests go through (the window's owner): probes take its proxy.
    const QNetworkAccessManager *manager() const;

    QObject *m_context;
    Monitors m_monitors;
    std::function<void()> m_opened;
    std::function<void()> m_waitChanged;
    QUrl m_url;
    QString m_origin;
    mutable QUrl m_originUrl; // empty until originUrl() is asked
    bool m_waitForConnectivity = true;
    bool m_mayWaitForBreaker = true;
    qint64 m_staggerMs = 0;
    Wait m_wait = Wait::None;
    bool m_holdsSlot = false;
    bool m_holdsProbe = false;
    QElapsedTimer m_attemptClock; // since the granted attempt went out
    QBasicTimer m_timer; // a stagger, a granted slot, the budget's wait: then opened()
    QMetaObject::Connection m_connections[7];
};

} // namespace KeepTrying

#endif // KEEPTRYING_ATTEMPTGATE_P_H
