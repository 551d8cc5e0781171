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
    m_stuckTimer.setSingleShot(true);
    QObject::connect(&m_stuckTimer, &QTimer::timeout, [this] { lookForStuckSlots(); });
}

ConcurrencyLimiter::Origin &ConcurrencyLimiter::origin(const QString &key)
{
    if (m_last && m_lastKey == key)
        return *m_last;
    auto it = m_origins.find(key);
    if (it == m_origins.end()) {
        Origin o;
        o.limit = std::max(initialLimit, minimumLimit);
        o.threshold = maximumLimit;
        it = m_origins.insert(key, o); // may move every origin: m_last is set again below
    }
    m_last = &*it;
    m_lastKey = key;
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
    if (enabled && (!o.waiters.empty() || o.counted() >= o.window()))
        return false;
    ++o.inFlight;
    return true;
}

void ConcurrencyLimiter::finished(const QString &key, Outcome outcome, qint64 durationMs)
{
    Origin &o = origin(key);
    const bool wasFull = o.counted() >= o.window();
    ++o.ended;
    // A long-lived attempt ended: it was probably the one that stopped counting.
    if (o.exempt > 0 && durationMs >= stuckAfterMs(o))
        --o.exempt;
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
    o.exempt = std::min(o.exempt, o.inFlight);
    grantWaiting(o);
}

qint64 ConcurrencyLimiter::stuckAfterMs(const Origin &o) const
{
    if (o.srttMs < 0)
        return maximumHoldMs;
    return std::clamp(qint64(2 * o.srttMs), std::min<qint64>(100, maximumHoldMs), maximumHoldMs);
}

void ConcurrencyLimiter::lookForStuckSlots()
{
    qint64 next = -1;
    for (Origin &o : m_origins) {
        if (o.waiters.empty())
            continue;
        // Nothing ended for a whole interval while requests waited: the attempts in flight
        // are held by the server, not worked through. One stops counting (held slots after
        // an overload answer are pacing, not stuck). Not during an outage's scout phase.
        const int holdingBack = o.counted() - int(o.holds.size());
        if (enabled && o.ended == o.endedAtLook && holdingBack > 0 && o.proven &&
            o.probation == 0) {
            ++o.exempt;
            grantWaiting(o);
        }
        o.endedAtLook = o.ended;
        if (!o.waiters.empty()) {
            const qint64 after = stuckAfterMs(o);
            next = next < 0 ? after : std::min(next, after);
        }
    }
    if (next >= 0)
        m_stuckTimer.start(int(next));
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
    while (!o.waiters.empty() && (!enabled || o.counted() < o.window())) {
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
    if (m_last && m_lastKey == key)
        return m_last->proven;
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
    if (!o.waiters.empty() && !m_stuckTimer.isActive()) {
        o.endedAtLook = o.ended;
        m_stuckTimer.start(int(stuckAfterMs(o)));
    }
}

int ConcurrencyLimiter::queuePosition(const QString &key, const Waiter *waiter) const
{
    const auto it = m_origins.constFind(key);
    if (it == m_origins.cend())
        return -1;
    const auto found = std::find(it->waiters.cbegin(), it->waiters.cend(), waiter);
    return found == it->waiters.cend() ? -1 : int(found - it->waiters.cbegin());
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
