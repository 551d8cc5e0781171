// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CONCURRENCYLIMITER_P_H
#define KEEPTRYING_CONCURRENCYLIMITER_P_H

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QString>
#include <QtCore/QTimer>

#include <deque>
#include <functional>

namespace KeepTrying {

// How many attempts may be in flight to one origin, adapted like TCP's congestion window:
// - an origin not yet seen alive (never contacted, or unreachable since) gets one attempt at
//   a time, a scout, until a connection to it is up; a server that is down then costs each
//   client one refused connection, not a burst of them;
// - while requests wait for it, answers grow the window: by one each below the slow-start
//   threshold (doubling per round trip), by one per round trip above it. An overloaded server
//   (5xx, 429) halves the window, which becomes the threshold; an unreachable one (refused,
//   reset, timed out) restarts it at the minimum with a threshold of half what was in flight,
//   at least two, as TCP does after a retransmission timeout (RFC 5681 §3.1). When that
//   fault left nothing in flight (the origin is down, not glitching), the next answers come
//   one at a time for a while: requests released after an outage are thus paced by the
//   server's own answers;
// - a slot freed by an overload answer stays taken for one smoothed round-trip time (RFC 6298's
//   estimator over the origin's answers): a server that sheds load answers at once, and
//   without this pause a client would ask it again at once, many times per round trip.
// An attempt holds its slot until its response's headers arrive (or it fails): the window
// counts what the server is working on, not bodies on their way. Requests beyond the window
// wait in order, without attempts; each freed slot goes to the next.
// The window limits new load on a struggling origin; it never starves requests behind ones
// the server holds on purpose (a long poll that answers when something happens). While
// requests wait and no attempt to the origin has ended for twice its smoothed round trip
// (at least 100 ms, at most maximumHoldMs; maximumHoldMs while none is known), one attempt in
// flight stops counting, as TCP stops counting a segment in flight after its retransmission
// timeout (RFC 6298), and the next request goes. An attempt that ends after so long counts
// for it again. So a slow origin gets at most one more attempt per such interval, and a
// request waits behind long-lived ones for one interval, not until they end.
class ConcurrencyLimiter
{
public:
    enum class Outcome { Answered, Overloaded, Unreachable, Neutral };

    // Told when a slot it waited for is its own (from inside another attempt's end: it must
    // not start its attempt on that stack).
    class Waiter
    {
    public:
        virtual ~Waiter() = default;
        virtual void slotGranted() = 0;
    };

    int initialLimit = 6; // Qt runs at most six HTTP/1.1 connections per host anyway
    int minimumLimit = 1;
    int maximumLimit = 256;
    qint64 maximumHoldMs = 1000;
    int recoveryAnswers = 8;
    ConcurrencyLimiter();
    bool isEnabled() const { return enabled; }
    void setEnabled(bool on);

    bool tryStart(const QString &origin);
    // An attempt ended after \a durationMs (-1: unknown).
    void finished(const QString &origin, Outcome outcome, qint64 durationMs = -1);
    // An attempt's connection is up (its request went out): the origin is alive.
    void connected(const QString &origin);
    // Whether the origin has been seen alive since it was last unreachable.
    bool isProven(const QString &origin) const;
    // Whether the origin answered since its last unreachable fault; forgets it, so that of
    // several connection faults in a row only the first can count as a glitch.
    bool takeAnswerSinceFault(const QString &origin);
    void wait(const QString &origin, Waiter *waiter);
    void cancelWait(const QString &origin, Waiter *waiter);
    // Waiters queued ahead of \a waiter for \a origin; -1 when it is not queued.
    int queuePosition(const QString &origin, const Waiter *waiter) const;
    double limit(const QString &origin) const;
    // The time source for round trips and held slots, in milliseconds (tests); the default is
    // a monotonic clock. The hold timer still runs on real time.
    void setClock(std::function<qint64()> nowMs);

private:
    struct Origin
    {
        double limit = 0;
        double threshold = 0; // slow start below it, one more per round trip above (RFC 5681)
        int inFlight = 0;
        int exempt = 0; // attempts in flight that no longer count (long unanswered)
        int ended = 0; // attempts ended so far (wraps harmlessly)
        int endedAtLook = 0; // as the last look for stuck slots found it
        int probation = 0; // answers still to come one at a time after an outage
        bool proven = false;
        bool answeredSinceFault = false;
        double srttMs = -1; // smoothed duration of answered attempts; -1: none yet
        std::deque<qint64> holds; // when slots held after overload answers come free
        std::deque<Waiter *> waiters;
        int window() const { return proven && probation == 0 ? int(limit) : 1; }
        int counted() const { return inFlight - exempt; }
    };
    Origin &origin(const QString &key);
    void grantWaiting(Origin &o);
    void releaseHolds();
    void lookForStuckSlots();
    qint64 stuckAfterMs(const Origin &o) const;

    qint64 now() const { return m_now ? m_now() : m_clock.elapsed(); }
    QElapsedTimer m_clock;
    std::function<qint64()> m_now;
    QTimer m_holdTimer;
    QTimer m_stuckTimer; // runs while requests wait
    QHash<QString, Origin> m_origins;
    // The origin origin() found last: a request asks for the same one several times in a row,
    // and comparing the key costs less than hashing it. Origins are only ever added, there.
    Origin *m_last = nullptr;
    QString m_lastKey;
    bool enabled = true;
};

} // namespace KeepTrying

#endif
