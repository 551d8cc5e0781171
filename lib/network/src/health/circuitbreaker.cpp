// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>

#include "circuitbreaker_p.h"
#include "logging_p.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QThread>

#include <algorithm>
#include <climits>
#include <cmath>

namespace KeepTrying {

CircuitBreaker::CircuitBreaker(QObject *parent)
    : QObject(parent), d_ptr(new CircuitBreakerPrivate(this))
{
    Q_D(CircuitBreaker);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    d->clock = [timer] { return timer->elapsed(); };
}

CircuitBreaker::~CircuitBreaker() = default;

CircuitBreakerPrivate::Locked::Locked(const CircuitBreakerPrivate *d)
    : d(const_cast<CircuitBreakerPrivate *>(d))
{
    d->mutex.lock();
}

CircuitBreakerPrivate::Locked::~Locked()
{
    const auto states = std::exchange(d->pendingStates, {});
    const auto freed = std::exchange(d->pendingFreed, {});
    CircuitBreaker *q = d->q_ptr;
    d->mutex.unlock();
    for (const auto &[key, state] : states)
        Q_EMIT q->stateChanged(key, state);
    for (const QString &key : freed)
        Q_EMIT q->probeSlotFreed(key);
}

void CircuitBreakerPrivate::armHalfOpenTimer(Origin &o, qint64 ms)
{
    Q_Q(CircuitBreaker);
    const int interval = int(std::clamp<qint64>(ms, 0, INT_MAX));
    if (QThread::currentThread() == q->thread()) {
        o.halfOpenTimer.start(interval);
        return;
    }
    // A QTimer is started in its own thread: the breaker's looks at the origin again there.
    Origin *origin = &o; // origins are never removed while the breaker lives
    QMetaObject::invokeMethod(
        q,
        [this, origin] {
            Locked locked(this);
            if (origin->state == CircuitBreaker::Open)
                origin->halfOpenTimer.start(
                    int(std::clamp<qint64>(origin->openUntil - now(), 0, INT_MAX)));
        },
        Qt::QueuedConnection);
}

CircuitBreaker::Settings CircuitBreaker::settings() const
{
    Q_D(const CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    return d->defaults;
}

void CircuitBreaker::setSettings(const Settings &settings)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    d->defaults = settings;
}

void CircuitBreaker::setSettings(const QUrl &url, const Settings &settings)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    d->perOrigin.insert(Reachability::originOf(url), settings);
}

void CircuitBreaker::setClock(std::function<qint64()> nowMs)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    if (nowMs)
        d->clock = std::move(nowMs);
}

const CircuitBreaker::Settings &CircuitBreakerPrivate::settingsFor(const QString &key) const
{
    const auto it = perOrigin.constFind(key);
    return it != perOrigin.constEnd() ? *it : defaults;
}

CircuitBreakerPrivate::Origin &CircuitBreakerPrivate::origin(const QString &key)
{
    Q_Q(CircuitBreaker);
    if (lastOrigin && lastOrigin->key == key)
        return *lastOrigin; // a request asks for its origin several times in a row
    auto &slot = origins[key];
    if (!slot) {
        slot = std::make_shared<Origin>();
        slot->key = key;
        slot->halfOpenTimer.setSingleShot(true);
        // Made in a manager's thread maybe: the timer belongs to the breaker's.
        if (slot->halfOpenTimer.thread() != q->thread())
            slot->halfOpenTimer.moveToThread(q->thread());
        Origin *o = slot.get();
        QObject::connect(&o->halfOpenTimer, &QTimer::timeout, q, [this, o] {
            Locked locked(this);
            advance(*o);
        });
    }
    lastOrigin = slot.get();
    return *slot;
}

const CircuitBreakerPrivate::Origin *CircuitBreakerPrivate::find(const QString &key) const
{
    const auto it = origins.constFind(key);
    return it != origins.constEnd() ? it->get() : nullptr;
}

CircuitBreaker::State CircuitBreakerPrivate::effectiveState(const Origin &o) const
{
    if (o.state == CircuitBreaker::Open && now() >= o.openUntil)
        return CircuitBreaker::HalfOpen;
    return o.state;
}

void CircuitBreakerPrivate::advance(Origin &o)
{
    if (o.state != CircuitBreaker::Open)
        return;
    if (now() < o.openUntil) {
        // The timer ran ahead of an injected clock: look again when the clock says so.
        if (!o.halfOpenTimer.isActive())
            armHalfOpenTimer(o, o.openUntil - now());
        return;
    }
    o.state = CircuitBreaker::HalfOpen;
    o.probes = 0;
    qCInfo(lcBreaker) << o.key << "half-open: letting a probe through";
    pendingStates.append({ o.key, CircuitBreaker::HalfOpen });
}

void CircuitBreakerPrivate::prune(Origin &o, const CircuitBreaker::Settings &s, qint64 nowMs)
{
    const qint64 oldest = nowMs - std::max<qint64>(0, s.windowMs);
    while (!o.window.empty() && o.window.front().first < oldest) {
        o.failuresInWindow -= o.window.front().second ? 1 : 0;
        o.window.pop_front();
    }
}

void CircuitBreakerPrivate::open(Origin &o)
{
    const CircuitBreaker::Settings &s = settingsFor(o.key);
    ++o.trips;
    const double growth = std::isfinite(s.breakGrowth) ? std::max(1.0, s.breakGrowth) : 1.0;
    const double cap = double(std::max<qint64>(0, s.maxBreakDurationMs));
    double duration = double(std::max<qint64>(0, s.breakDurationMs));
    for (int i = 1; i < o.trips && duration < cap; ++i)
        duration *= growth;
    const qint64 ms = qint64(std::min(duration, cap));
    o.state = CircuitBreaker::Open;
    o.openUntil = now() + ms;
    o.probes = 0;
    o.window.clear();
    o.failuresInWindow = 0;
    o.consecutiveFailures = 0;
    armHalfOpenTimer(o, ms);
    // Ordinary life for a library that expects outages: the app opts in to see it
    // (QT_LOGGING_RULES="keeptrying.breaker.info=true"); stateChanged() tells it in code.
    qCInfo(lcBreaker).nospace() << o.key << " open for " << ms << " ms (trip " << o.trips << ")";
    pendingStates.append({ o.key, CircuitBreaker::Open });
}

void CircuitBreakerPrivate::close(Origin &o)
{
    Q_Q(CircuitBreaker);
    o.state = CircuitBreaker::Closed;
    o.trips = 0;
    o.probes = 0;
    o.window.clear();
    o.failuresInWindow = 0;
    o.consecutiveFailures = 0;
    // Another thread leaves it: when it fires, advance() finds the breaker not Open.
    if (QThread::currentThread() == q->thread())
        o.halfOpenTimer.stop();
    qCInfo(lcBreaker) << o.key << "closed";
    pendingStates.append({ o.key, CircuitBreaker::Closed });
}

CircuitBreaker::State CircuitBreaker::state(const QString &key) const
{
    Q_D(const CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    const auto *o = d->find(key);
    return o ? d->effectiveState(*o) : Closed;
}

CircuitBreaker::State CircuitBreaker::state(const QUrl &url) const
{
    return state(Reachability::originOf(url));
}

CircuitBreaker::OriginStatus CircuitBreaker::status(const QUrl &url) const
{
    Q_D(const CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    OriginStatus status;
    const auto *o = d->find(Reachability::originOf(url));
    if (!o)
        return status;
    status.state = d->effectiveState(*o);
    const qint64 oldest = d->now() - std::max<qint64>(0, d->settingsFor(o->key).windowMs);
    for (const auto &event : o->window) {
        if (event.first >= oldest) {
            ++status.callsInWindow;
            status.failuresInWindow += event.second ? 1 : 0;
        }
    }
    status.consecutiveFailures = o->consecutiveFailures;
    status.trips = o->trips;
    status.openForMs = status.state == Open ? o->openUntil - d->now() : 0;
    status.probesInFlight = o->probes;
    return status;
}

qint64 CircuitBreaker::msUntilProbe(const QUrl &url) const
{
    Q_D(const CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    const auto *o = d->find(Reachability::originOf(url));
    if (!o || d->effectiveState(*o) != Open)
        return 0;
    return std::max<qint64>(0, o->openUntil - d->now());
}

CircuitBreaker::Permission CircuitBreaker::tryAcquire(const QString &key)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    const Settings &s = d->settingsFor(key);
    if (!s.enabled)
        return Allowed;
    auto &o = d->origin(key);
    d->advance(o);
    switch (o.state) {
    case Closed:
        return Allowed;
    case Open:
        return Denied;
    case HalfOpen:
        if (o.probes < std::max(1, s.halfOpenProbes)) {
            ++o.probes;
            return Probe;
        }
        return Denied;
    }
    return Denied;
}

CircuitBreaker::Permission CircuitBreaker::tryAcquire(const QUrl &url)
{
    return tryAcquire(Reachability::originOf(url));
}

void CircuitBreakerPrivate::record(const QString &key, bool wasProbe, bool failed)
{
    const CircuitBreaker::Settings &s = settingsFor(key);
    if (!s.enabled)
        return;
    auto &o = origin(key);
    advance(o);
    if (o.state == CircuitBreaker::HalfOpen) {
        // Only the probe's outcome decides; others were sent before the breaker opened.
        if (wasProbe)
            failed ? open(o) : close(o);
        return;
    }
    if (o.state != CircuitBreaker::Closed)
        return; // an answer to a request sent before the breaker opened
    o.consecutiveFailures = failed ? o.consecutiveFailures + 1 : 0;
    const qint64 at = now(); // one reading for the entry and the window it ends
    o.window.emplace_back(at, failed);
    o.failuresInWindow += failed ? 1 : 0;
    prune(o, s, at);
    if (!failed)
        return;
    const int calls = int(o.window.size());
    const bool ratioReached = calls >= std::max(1, s.minimumCalls) &&
        double(o.failuresInWindow) >= s.failureRatio * double(calls);
    const bool streakReached =
        s.consecutiveFailures > 0 && o.consecutiveFailures >= s.consecutiveFailures;
    if (ratioReached || streakReached)
        open(o);
}

void CircuitBreaker::recordSuccess(const QString &key, bool wasProbe)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    d->record(key, wasProbe, false);
}

void CircuitBreaker::recordSuccess(const QUrl &url, bool wasProbe)
{
    recordSuccess(Reachability::originOf(url), wasProbe);
}

void CircuitBreaker::recordFailure(const QString &key, bool wasProbe)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    d->record(key, wasProbe, true);
}

void CircuitBreaker::recordFailure(const QUrl &url, bool wasProbe)
{
    recordFailure(Reachability::originOf(url), wasProbe);
}

void CircuitBreaker::releaseProbe(const QString &key)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    auto &o = d->origin(key);
    if (o.state == HalfOpen && o.probes > 0) {
        --o.probes;
        d->pendingFreed.append(key);
    }
}

void CircuitBreaker::releaseProbe(const QUrl &url)
{
    releaseProbe(Reachability::originOf(url));
}

void CircuitBreaker::endBreak(const QUrl &url)
{
    Q_D(CircuitBreaker);
    const CircuitBreakerPrivate::Locked locked(d);
    const QString key = Reachability::originOf(url);
    if (!d->find(key))
        return;
    auto &o = d->origin(key);
    if (o.state != Open)
        return;
    o.openUntil = std::min(o.openUntil, d->now());
    d->advance(o);
}

} // namespace KeepTrying
