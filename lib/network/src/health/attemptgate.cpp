// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "attemptgate_p.h"

#include "logging_p.h"

#include <KeepTrying/waitreason.h>

#include <QtCore/QRandomGenerator>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <climits>
#include <utility>

namespace KeepTrying {

namespace {

// What an answer tells the concurrency window: a server fault (5xx, 429) is an overload.
ConcurrencyLimiter::Outcome windowOutcome(FaultClass fault)
{
    return fault == FaultClass::Server ? ConcurrencyLimiter::Outcome::Overloaded
                                       : ConcurrencyLimiter::Outcome::Answered;
}

// Faults of a connection that was made (closed before an answer, silent until the
// transfer timeout, which Qt reports as a cancel): the origin was there.
bool isConnectionGlitch(QNetworkReply::NetworkError error)
{
    return error == QNetworkReply::RemoteHostClosedError || error == QNetworkReply::TimeoutError ||
        error == QNetworkReply::OperationCanceledError;
}

} // namespace

AttemptGate::AttemptGate(QObject *context, const Monitors &monitors, std::function<void()> opened)
    : m_context(context), m_monitors(monitors), m_opened(std::move(opened))
{
}

AttemptGate::~AttemptGate()
{
    if (m_timer.isActive())
        m_timer.stop();
    stopWaiting();
    giveBack();
}

void AttemptGate::setTarget(const QUrl &url, const RetryPolicy &policy)
{
    m_url = url;
    m_origin = Reachability::originOf(url);
    m_originUrl.clear();
    m_waitForConnectivity = policy.waitForConnectivity;
    m_mayWaitForBreaker = policy.waitForConnectivity || policy.deadlineMs > 0;
    m_staggerMs = std::max<qint64>(0, policy.reconnectStaggerMs);
}

AttemptGate::Result AttemptGate::acquire(bool serverRetry)
{
    Reachability *reachability = m_monitors.reachability;
    CircuitBreaker *breaker = m_monitors.breaker;
    RetryBudget *budget = m_monitors.budget;

    // While the request cannot succeed, it waits: no attempt is made, none is spent.
    if (m_waitForConnectivity && reachability && !reachability->isReachable(m_origin)) {
        releaseSlot(ConcurrencyLimiter::Outcome::Neutral);
        wait(Wait::Connectivity);
        return Result::Waiting;
    }
    // Only so many attempts in flight per origin; the others wait their turn.
    if (!m_holdsSlot && limiter()) {
        if (!limiter()->tryStart(m_origin)) {
            wait(Wait::Limit);
            return Result::Waiting;
        }
        m_holdsSlot = true;
    }
    if (breaker) {
        switch (breaker->tryAcquire(m_origin)) {
        case CircuitBreaker::Allowed:
            break;
        case CircuitBreaker::Probe:
            m_holdsProbe = true;
            break;
        case CircuitBreaker::Denied:
            releaseSlot(ConcurrencyLimiter::Outcome::Neutral);
            // A request that may wait (for connectivity, or until its deadline) waits behind
            // the half-open probe.
            if (!m_mayWaitForBreaker) {
                stopWaiting();
                return Result::Refused;
            }
            wait(Wait::Breaker);
            return Result::Waiting;
        }
    }
    // A retry of a server fault needs the retry budget's consent; refused, it waits (and
    // gives back what it was granted so far).
    if (serverRetry && budget && !budget->tryRetry(m_origin)) {
        releaseProbe();
        releaseSlot(ConcurrencyLimiter::Outcome::Neutral);
        wait(Wait::Budget);
        m_timer.start(int(std::clamp<qint64>(budget->msUntilRetry(m_url), 1, INT_MAX)),
                      Qt::PreciseTimer, m_context);
        return Result::Waiting;
    }
    stopWaiting();
    return Result::Granted;
}

void AttemptGate::wait(Wait wait)
{
    if (m_wait == wait) {
        // Still waiting: the backend may have gone Offline anew meanwhile.
        if (wait == Wait::Connectivity)
            m_monitors.reachability->watch(m_url, manager());
        return;
    }
    stopWaiting();
    m_wait = wait;
    switch (wait) {
    case Wait::None:
        return;
    case Wait::Limit:
        // Queued quietly: this is ordinary pacing.
        if (ConcurrencyLimiter *l = limiter())
            l->wait(m_origin, this);
        return;
    case Wait::Budget:
        return; // the timer started by acquire() ends it
    case Wait::Connectivity:
    case Wait::Breaker:
        break;
    }
    Reachability *reachability = m_monitors.reachability;
    CircuitBreaker *breaker = m_monitors.breaker;
    const auto check = [this] { this->check(); };
    if (reachability) {
        m_connections[0] =
            QObject::connect(reachability, &Reachability::stateChanged, m_context, check);
        m_connections[1] = QObject::connect(reachability, &Reachability::originReachabilityChanged,
                                            m_context, check);
        m_connections[2] = QObject::connect(reachability, &Reachability::simulatedOfflineChanged,
                                            m_context, check);
        // A shared monitor deleted while we wait no longer holds us back.
        m_connections[3] = QObject::connect(reachability, &QObject::destroyed, m_context, check);
    }
    if (breaker) {
        m_connections[4] =
            QObject::connect(breaker, &CircuitBreaker::stateChanged, m_context, check);
        m_connections[5] =
            QObject::connect(breaker, &CircuitBreaker::probeSlotFreed, m_context, check);
        m_connections[6] = QObject::connect(breaker, &QObject::destroyed, m_context, check);
    }
    if (wait == Wait::Connectivity && reachability)
        reachability->watch(m_url, manager());
}

void AttemptGate::stopWaiting()
{
    const Wait was = std::exchange(m_wait, Wait::None);
    if (was == Wait::Limit) {
        if (ConcurrencyLimiter *l = limiter())
            l->cancelWait(m_origin, this);
    } else if (was == Wait::Budget) {
        m_timer.stop();
    } else if (was != Wait::None) {
        m_timer.stop(); // a stagger towards opened()
        for (QMetaObject::Connection &c : m_connections)
            QObject::disconnect(c);
    }
}

bool AttemptGate::mayGo() const
{
    Reachability *reachability = m_monitors.reachability;
    CircuitBreaker *breaker = m_monitors.breaker;
    if (m_waitForConnectivity && reachability && !reachability->isReachable(m_origin))
        return false;
    return !breaker || breaker->state(m_origin) != CircuitBreaker::Open;
}

void AttemptGate::check()
{
    if ((m_wait != Wait::Connectivity && m_wait != Wait::Breaker) || m_timer.isActive())
        return;
    if (!mayGo()) {
        if (m_wait == Wait::Connectivity && m_monitors.reachability)
            m_monitors.reachability->watch(m_url, manager()); // the backend may be Offline anew
        if (m_waitChanged)
            m_waitChanged(); // offline now, or only the origin away: the reason says which
        return;
    }
    // Reachable again: go now. The concurrency window paces what is released (one scout,
    // then slow start); without it, a small random stagger keeps many waiting requests from
    // reaching the server in the same instant.
    const ConcurrencyLimiter *l = limiter();
    const qint64 stagger = l && l->isEnabled() ? 0 : m_staggerMs;
    const int delay =
        int(std::min<qint64>(QRandomGenerator::global()->bounded(stagger + 1), INT_MAX));
    m_timer.start(delay, Qt::PreciseTimer, m_context);
}

void AttemptGate::slotGranted()
{
    m_holdsSlot = true;
    m_wait = Wait::None; // the limiter has taken us off its queue
    m_timer.start(0, m_context); // never start an attempt inside another request's end
}

bool AttemptGate::handleTimer(int timerId)
{
    if (timerId != m_timer.timerId())
        return false;
    m_timer.stop();
    m_opened(); // asks acquire() again, which ends the wait or renews it
    return true;
}

void AttemptGate::attemptStarted(QNetworkReply *attempt)
{
    m_attemptClock.start();
    ConcurrencyLimiter *l = m_holdsSlot ? limiter() : nullptr;
    if (!l || !l->isEnabled() || l->isProven(m_origin))
        return;
    // This attempt is the origin's scout: the others wait until its connection is up. (A
    // body's upload progress shows that as well, long before a large body is sent.)
    const auto alive = [this] {
        if (ConcurrencyLimiter *window = limiter())
            window->connected(m_origin);
    };
    QObject::connect(attempt, &QNetworkReply::requestSent, m_context, alive);
    QObject::connect(attempt, &QNetworkReply::uploadProgress, m_context,
                     [alive](qint64 sent, qint64) {
                         if (sent > 0)
                             alive();
                     });
}

void AttemptGate::answered(FaultClass fault)
{
    releaseSlot(windowOutcome(fault));
}

void AttemptGate::releaseSlot(ConcurrencyLimiter::Outcome outcome)
{
    if (!std::exchange(m_holdsSlot, false))
        return;
    if (ConcurrencyLimiter *l = limiter())
        l->finished(m_origin, outcome, m_attemptClock.isValid() ? m_attemptClock.elapsed() : -1);
}

void AttemptGate::releaseProbe()
{
    if (std::exchange(m_holdsProbe, false) && m_monitors.breaker)
        m_monitors.breaker->releaseProbe(m_origin);
}

void AttemptGate::giveBack()
{
    releaseProbe();
    releaseSlot(ConcurrencyLimiter::Outcome::Neutral);
}

void AttemptGate::release(const Lesson &lesson)
{
    Reachability *reachability = m_monitors.reachability;
    CircuitBreaker *breaker = m_monitors.breaker;
    RetryBudget *budget = m_monitors.budget;
    const FaultClass fault = lesson.fault;

    // A connection lost or silent right after the origin answered is a glitch of that
    // connection, not an unreachable origin: the retry goes when its backoff ends, as
    // retryScheduled() said, and no other request waits for a probe. A second fault with no
    // answer between is taken at its word.
    ConcurrencyLimiter *window = limiter();
    const bool glitch = lesson.httpStatus == 0 && fault == FaultClass::Connectivity &&
        !lesson.neverProcessed && isConnectionGlitch(lesson.error) && window &&
        window->takeAnswerSinceFault(m_origin);
    ConcurrencyLimiter::Outcome seen = ConcurrencyLimiter::Outcome::Neutral;
    if (lesson.httpStatus > 0)
        seen = windowOutcome(fault);
    else if (fault == FaultClass::Connectivity && !glitch)
        seen = ConcurrencyLimiter::Outcome::Unreachable;
    releaseSlot(seen);
    // The server spoke HTTP, even to refuse a stream: it is reachable.
    const bool spoke = lesson.httpStatus > 0 || lesson.neverProcessed;
    if (reachability) {
        if (spoke)
            reachability->reportSuccess(m_origin);
        else if (fault == FaultClass::Connectivity && m_waitForConnectivity && !glitch)
            reachability->reportFailure(m_url, lesson.error, manager());
    }
    // Whether the breaker was closed when this answer came: failures that arrive while it
    // is open or half-open are the breaker's business, not the budget's.
    // (Asked only where it matters: a server fault.)
    const bool breakerClosed = fault != FaultClass::Server || !breaker ||
        breaker->state(m_origin) == CircuitBreaker::Closed;
    if (breaker) {
        const bool probe = std::exchange(m_holdsProbe, false);
        if (lesson.neverProcessed) {
            if (probe)
                breaker->releaseProbe(m_origin); // a refused stream says nothing of health
        } else if (fault == FaultClass::Connectivity || fault == FaultClass::Server) {
            breaker->recordFailure(m_origin, probe);
        } else if (lesson.httpStatus > 0 || fault == FaultClass::None) {
            breaker->recordSuccess(m_origin, probe); // the server answered: 4xx do not count
            // A probe that closed the breaker shows the origin has recovered: the retries its
            // outage cost must not hold back the requests that waited for it.
            if (probe && budget && breaker->state(m_origin) == CircuitBreaker::Closed)
                budget->reset(m_origin);
        } else if (probe) {
            breaker->releaseProbe(m_origin);
        }
    }
    if (budget) {
        if (fault == FaultClass::Server && breakerClosed)
            budget->recordFailure(m_origin);
        else if (lesson.httpStatus > 0 && fault != FaultClass::Server)
            budget->recordSuccess(m_origin);
    }
}

const QNetworkAccessManager *AttemptGate::manager() const
{
    return qobject_cast<const QNetworkAccessManager *>(m_monitors.limiterOwner.data());
}

bool AttemptGate::isBreakerOpen() const
{
    return m_monitors.breaker && m_monitors.breaker->state(m_origin) == CircuitBreaker::Open;
}

bool AttemptGate::isSimulatedOffline() const
{
    return m_monitors.reachability && m_monitors.reachability->isSimulatedOffline();
}

bool AttemptGate::isNetworkOffline() const
{
    return m_monitors.reachability &&
        m_monitors.reachability->state() == ReachabilityBackend::Offline;
}

const QUrl &AttemptGate::originUrl() const
{
    if (m_originUrl.isEmpty())
        m_originUrl = WaitReason::originOf(m_url);
    return m_originUrl;
}

int AttemptGate::queuedAhead() const
{
    const ConcurrencyLimiter *l = limiter();
    return l ? std::max(0, l->queuePosition(m_origin, this)) : 0;
}

qint64 AttemptGate::msUntilBudget() const
{
    return m_monitors.budget ? m_monitors.budget->msUntilRetry(m_url) : 0;
}

qint64 AttemptGate::msUntilProbe() const
{
    return m_monitors.breaker ? m_monitors.breaker->msUntilProbe(m_url) : 0;
}

} // namespace KeepTrying
