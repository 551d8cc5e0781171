// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CIRCUITBREAKER_P_H
#define KEEPTRYING_CIRCUITBREAKER_P_H

#include <KeepTrying/circuitbreaker.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QMutex>
#include <QtCore/QTimer>

#include <deque>
#include <memory>

namespace KeepTrying {

class CircuitBreakerPrivate
{
public:
    explicit CircuitBreakerPrivate(CircuitBreaker *q) : q_ptr(q) { }

    struct Origin
    {
        QString key;
        CircuitBreaker::State state = CircuitBreaker::Closed;
        std::deque<std::pair<qint64, bool>> window; // (time, failed), oldest first
        int failuresInWindow = 0;
        int consecutiveFailures = 0;
        int trips = 0;
        qint64 openUntil = 0;
        int probes = 0;
        QTimer halfOpenTimer; // announces HalfOpen when the break is over
    };

    // Managers in other threads may share the breaker (a QML engine's loader threads). Every
    // public function holds the lock while it reads or changes the origins; the signals it
    // has to emit are queued meanwhile and emitted once the lock is released, so that a slot
    // may call the breaker again, or another monitor, without a deadlock. Timers belong to
    // the breaker's thread: another thread asks that thread to start them.
    class Locked
    {
    public:
        explicit Locked(const CircuitBreakerPrivate *d);
        ~Locked(); // unlocks, then emits what was queued
        Locked(const Locked &) = delete;
        Locked &operator=(const Locked &) = delete;

    private:
        CircuitBreakerPrivate *d;
    };

    qint64 now() const { return clock(); }
    // Starts o's half-open timer to fire in ms, in the breaker's thread.
    void armHalfOpenTimer(Origin &o, qint64 ms);
    const CircuitBreaker::Settings &settingsFor(const QString &key) const;
    Origin &origin(const QString &key);
    const Origin *find(const QString &key) const;
    CircuitBreaker::State effectiveState(const Origin &o) const;
    void advance(Origin &o); // Open past its time becomes HalfOpen (and says so)
    void prune(Origin &o, const CircuitBreaker::Settings &s, qint64 nowMs);
    void open(Origin &o);
    void close(Origin &o);
    // The outcome of an attempt: counted while closed, decisive for a half-open probe.
    void record(const QString &key, bool wasProbe, bool failed);

    CircuitBreaker *q_ptr;
    mutable QMutex mutex;
    // Signals to emit once the lock is released (see Locked).
    QList<std::pair<QString, CircuitBreaker::State>> pendingStates;
    QList<QString> pendingFreed;
    std::function<qint64()> clock;
    CircuitBreaker::Settings defaults;
    QHash<QString, CircuitBreaker::Settings> perOrigin;
    QHash<QString, std::shared_ptr<Origin>> origins;
    // The origin origin() found last: comparing its key costs less than hashing it. (Origins
    // are never removed while the breaker lives.)
    Origin *lastOrigin = nullptr;

    Q_DECLARE_PUBLIC(CircuitBreaker)
};

} // namespace KeepTrying

#endif
