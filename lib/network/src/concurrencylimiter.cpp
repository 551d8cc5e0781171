// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "concurrencylimiter_p.h"

#include <algorithm>
#include <utility>

namespace KeepTrying {

ConcurrencyLimiter::ConcurrencyLimiter()
{
    m_clock.start();
    m_holdTimer.setSingleShot(true);
    m_holdTimer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_holdTimer, &QTimer::timeout, [this] { releaseHolds(); });
}

ConcurrencyLimiter::Origin &ConcurrencyLimiter::origin(const QString &key)
{
    auto it = m_origins.find(key);
    if (it == m_origins.end()) {
        Origin o;
        o.limit = std::max(initialLimit, minimumLimit);
        o.threshold = maximumLimit;
        it = m_origins.insert(key, o);
    }
    return *it;
}

void ConcurrencyLimiter::setEnabled(bool on)
{
    enabled = on;
    if (!on) {
        for (Origin &o : m_origins)
            grantWaiting(o); // switched off: nobody waits any more
    }
}

bool ConcurrencyLimiter::tryStart(const QString &key)
{
    Origin &o = origin(key);
    // First come, first served: a newcomer does not overtake the requests already waiting.
    // Counted even when switched off, so that switching on again starts from the truth.
    if (enabled && (!o.waiters.empty() || o.inFlight >= o.window()))
        return false;
    ++o.inFlight;
    return true;
}

void ConcurrencyLimiter::finished(const QString &key, Outcome outcome, qint64 durationMs)
{
    Origin &o = origin(key);
    const bool wasFull = o.inFlight >= o.window();
    qint64 holdMs = 0;
    switch (outcome) {
    case Outcome::Answered:
        o.proven = true;
        o.answeredSinceFault = true;
        if (durationMs >= 0) // RFC 6298 §2: SRTT <- 7/8 SRTT + 1/8 R
            o.srttMs = o.srttMs < 0 ? double(durationMs) : 0.875 * o.srttMs + 0.125 * durationMs;
        if (o.probation > 0) {
            --o.probation;
            break;
        }
        // Grow only when the window was what held requests back.
        if (enabled && (wasFull || !o.waiters.empty()))
            o.limit =
                std::min(double(maximumLimit), o.limit + (o.limit < o.threshold ? 1 : 1 / o.limit));
        break;
    case Outcome::Overloaded:
        o.proven = true; // it answered, if only to refuse
        o.answeredSinceFault = true;
        if (enabled) {
            o.limit = std::max(double(minimumLimit), o.limit / 2);
            o.threshold = o.limit;
            holdMs = std::min(maximumHoldMs,
                              qint64(o.srttMs >= 0 ? o.srttMs : std::max<qint64>(0, durationMs)));
        }
        break;
    case Outcome::Unreachable:
        o.proven = false;
        o.answeredSinceFault = false;
        if (enabled) {
            o.threshold = std::max(2.0, o.inFlight / 2.0); // in flight when it failed
            o.limit = minimumLimit;
            // One at a time only when nothing else was in flight: a dead origin, met by its
            // last attempt or its scout. One lost connection among live ones is a glitch.
            if (o.inFlight <= 1)
                o.probation = recoveryAnswers;
        }
        break;
    case Outcome::Neutral:
        break;
    }
    if (holdMs > 0) {
        // The slot stays counted in flight until then.
        const qint64 until = now() + holdMs;
        o.holds.push_back(until);
        if (!m_holdTimer.isActive() || m_holdTimer.remainingTime() > holdMs)
            m_holdTimer.start(int(holdMs));
        return;
    }
    o.inFlight = std::max(0, o.inFlight - 1);
    grantWaiting(o);
}

void ConcurrencyLimiter::releaseHolds()
{
    const qint64 nowMs = now();
    qint64 next = -1;
    for (Origin &o : m_origins) {
        bool freed = false;
        while (!o.holds.empty() && o.holds.front() <= nowMs) {
            o.holds.pop_front();
            o.inFlight = std::max(0, o.inFlight - 1);
            freed = true;
        }
        if (!o.holds.empty() && (next < 0 || o.holds.front() < next))
            next = o.holds.front();
        if (freed)
            grantWaiting(o);
    }
    if (next >= 0)
        m_holdTimer.start(int(std::max<qint64>(1, next - nowMs)));
}

void ConcurrencyLimiter::grantWaiting(Origin &o)
{
    while (!o.waiters.empty() && (!enabled || o.inFlight < o.window())) {
        Waiter *next = o.waiters.front();
        o.waiters.pop_front();
        ++o.inFlight; // reserved for it
        next->slotGranted();
    }
}

void ConcurrencyLimiter::connected(const QString &key)
{
    Origin &o = origin(key);
    if (o.proven)
        return;
    o.proven = true;
    grantWaiting(o);
}

bool ConcurrencyLimiter::isProven(const QString &key) const
{
    const auto it = m_origins.constFind(key);
    return it != m_origins.constEnd() && it->proven;
}

bool ConcurrencyLimiter::takeAnswerSinceFault(const QString &key)
{
    const auto it = m_origins.find(key);
    return it != m_origins.end() && std::exchange(it->answeredSinceFault, false);
}

void ConcurrencyLimiter::setClock(std::function<qint64()> nowMs)
{
    m_now = std::move(nowMs);
}

void ConcurrencyLimiter::wait(const QString &key, Waiter *waiter)
{
    Origin &o = origin(key);
    if (std::find(o.waiters.begin(), o.waiters.end(), waiter) == o.waiters.end())
        o.waiters.push_back(waiter);
    grantWaiting(o);
}

void ConcurrencyLimiter::cancelWait(const QString &key, Waiter *waiter)
{
    const auto it = m_origins.find(key);
    if (it == m_origins.end())
        return;
    auto &waiters = it->waiters;
    waiters.erase(std::remove(waiters.begin(), waiters.end(), waiter), waiters.end());
}

double ConcurrencyLimiter::limit(const QString &key) const
{
    const auto it = m_origins.constFind(key);
    return it == m_origins.constEnd() ? initialLimit : it->limit;
}

} // namespace KeepTrying
