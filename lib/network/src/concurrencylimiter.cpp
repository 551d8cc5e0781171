#include "concurrencylimiter_p.h"
#include "retryingreply_p.h"

#include <algorithm>

namespace KeepTrying {

ConcurrencyLimiter::Origin &ConcurrencyLimiter::origin(const QString &key)
{
    auto it = m_origins.find(key);
    if (it == m_origins.end()) {
        Origin o;
        o.limit = std::max(initialLimit, minimumLimit);
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
    if (enabled && (!o.waiters.empty() || o.inFlight >= int(o.limit)))
        return false;
    ++o.inFlight;
    return true;
}

void ConcurrencyLimiter::finished(const QString &key, Outcome outcome)
{
    Origin &o = origin(key);
    const bool wasFull = o.inFlight >= int(o.limit);
    o.inFlight = std::max(0, o.inFlight - 1);
    switch (enabled ? outcome : Outcome::Neutral) {
    case Outcome::Answered:
        // Grow only when the window was what held requests back.
        if (wasFull || !o.waiters.empty())
            o.limit = std::min(double(maximumLimit), o.limit + 1);
        break;
    case Outcome::Overloaded:
        o.limit = std::max(double(minimumLimit), o.limit / 2);
        break;
    case Outcome::Neutral:
        break;
    }
    grantWaiting(o);
}

void ConcurrencyLimiter::grantWaiting(Origin &o)
{
    while (!o.waiters.empty() && (!enabled || o.inFlight < int(o.limit))) {
        RetryingReplyPrivate *next = o.waiters.front();
        o.waiters.pop_front();
        ++o.inFlight; // reserved for it
        next->slotGranted();
    }
}

void ConcurrencyLimiter::wait(const QString &key, RetryingReplyPrivate *waiter)
{
    Origin &o = origin(key);
    if (std::find(o.waiters.begin(), o.waiters.end(), waiter) == o.waiters.end())
        o.waiters.push_back(waiter);
    grantWaiting(o);
}

void ConcurrencyLimiter::cancelWait(const QString &key, RetryingReplyPrivate *waiter)
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
