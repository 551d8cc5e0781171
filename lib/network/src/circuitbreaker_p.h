// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CIRCUITBREAKER_P_H
#define KEEPTRYING_CIRCUITBREAKER_P_H

#include <KeepTrying/circuitbreaker.h>

#include <QtCore/QHash>
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

    qint64 now() const { return clock(); }
    const CircuitBreaker::Settings &settingsFor(const QString &key) const;
    Origin &origin(const QString &key);
    const Origin *find(const QString &key) const;
    CircuitBreaker::State effectiveState(const Origin &o) const;
    void advance(Origin &o); // Open past its time becomes HalfOpen (and says so)
    void prune(Origin &o, const CircuitBreaker::Settings &s);
    void open(Origin &o);
    void close(Origin &o);
    // The outcome of an attempt: counted while closed, decisive for a half-open probe.
    void record(const QString &key, bool wasProbe, bool failed);

    CircuitBreaker *q_ptr;
    std::function<qint64()> clock;
    CircuitBreaker::Settings defaults;
    QHash<QString, CircuitBreaker::Settings> perOrigin;
    QHash<QString, std::shared_ptr<Origin>> origins;

    Q_DECLARE_PUBLIC(CircuitBreaker)
};

} // namespace KeepTrying

#endif
