// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The adaptive concurrency window on its own (a private class, compiled into this test):
// the scout, slow start, halving on overload, the restart after an outage, the held slot of
// a shed answer, and waiters served in order. The end-to-end window tests are in
// tst_concurrencywindow.

#include "concurrencylimiter_p.h"

#include <QtTest/QTest>

#include <vector>

using KeepTrying::ConcurrencyLimiter;
using Outcome = ConcurrencyLimiter::Outcome;

namespace {

const QString origin = QStringLiteral("http://127.0.0.1:1");

struct Waiter : ConcurrencyLimiter::Waiter
{
    explicit Waiter(std::vector<int> *log, int id) : log(log), id(id) { }
    void slotGranted() override { log->push_back(id); }
    std::vector<int> *log;
    int id;
};

// Starts attempts until the window says no; returns how many went.
int fill(ConcurrencyLimiter &limiter)
{
    int started = 0;
    while (started < 1000 && limiter.tryStart(origin))
        ++started;
    return started;
}

// An origin seen alive, its window at the initial six.
void prove(ConcurrencyLimiter &limiter)
{
    QVERIFY(limiter.tryStart(origin));
    limiter.connected(origin);
    limiter.finished(origin, Outcome::Answered, 10);
}

} // namespace

class tst_ConcurrencyLimiter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scoutGoesAloneUntilConnected();
    void overloadHalvesTheWindow();
    void answersGrowAFullWindow();
    void outageRestartsAtOneWithProbation();
    void shedAnswerHoldsItsSlotForTheSmoothedRoundTrip();
    void waitersAreServedInOrder();
    void switchedOffLetsEverythingGo();
};

void tst_ConcurrencyLimiter::scoutGoesAloneUntilConnected()
{
    ConcurrencyLimiter limiter;
    QVERIFY(!limiter.isProven(origin));
    QCOMPARE(fill(limiter), 1); // the scout
    limiter.connected(origin);
    QVERIFY(limiter.isProven(origin));
    QCOMPARE(fill(limiter), 5); // six in flight: Qt's own connections per host
    QCOMPARE(limiter.limit(origin), 6.0);
}

void tst_ConcurrencyLimiter::overloadHalvesTheWindow()
{
    ConcurrencyLimiter limiter;
    prove(limiter);
    QCOMPARE(fill(limiter), 6);
    limiter.finished(origin, Outcome::Overloaded, 10);
    QCOMPARE(limiter.limit(origin), 3.0);
    limiter.finished(origin, Outcome::Overloaded, -1);
    QCOMPARE(limiter.limit(origin), 1.5);
    limiter.finished(origin, Outcome::Overloaded, -1);
    QCOMPARE(limiter.limit(origin), 1.0); // never below the minimum
}

void tst_ConcurrencyLimiter::answersGrowAFullWindow()
{
    ConcurrencyLimiter limiter;
    prove(limiter);
    QCOMPARE(fill(limiter), 6);
    // Slow start below the threshold: one more per answer while the window is full.
    limiter.finished(origin, Outcome::Answered, 10);
    QCOMPARE(limiter.limit(origin), 7.0);
    QCOMPARE(fill(limiter), 2); // 7 in flight again
    // A window that held nobody back does not grow.
    ConcurrencyLimiter idle;
    prove(idle);
    QVERIFY(idle.tryStart(origin));
    idle.finished(origin, Outcome::Answered, 10);
    QCOMPARE(idle.limit(origin), 6.0);
}

void tst_ConcurrencyLimiter::outageRestartsAtOneWithProbation()
{
    ConcurrencyLimiter limiter;
    prove(limiter);
    QVERIFY(limiter.tryStart(origin));
    limiter.finished(origin, Outcome::Unreachable, 5); // nothing else in flight: down
    QVERIFY(!limiter.isProven(origin));
    QCOMPARE(fill(limiter), 1); // a scout again
    limiter.connected(origin);
    // The first answers after an outage come one at a time (recoveryAnswers, 8).
    for (int i = 0; i < limiter.recoveryAnswers; ++i) {
        QCOMPARE(fill(limiter), 0);
        limiter.finished(origin, Outcome::Answered, 10);
        QCOMPARE(fill(limiter), 1);
    }
    limiter.finished(origin, Outcome::Answered, 10);
    QVERIFY(fill(limiter) >= 1); // then the window opens beyond one
}

void tst_ConcurrencyLimiter::shedAnswerHoldsItsSlotForTheSmoothedRoundTrip()
{
    ConcurrencyLimiter limiter;
    qint64 now = 1000;
    limiter.setClock([&now] { return now; });
    prove(limiter); // a round trip of 10 ms
    QCOMPARE(fill(limiter), 6);
    limiter.finished(origin, Outcome::Overloaded, 40);
    for (int i = 0; i < 3; ++i)
        limiter.finished(origin, Outcome::Neutral);
    // The shed answer's slot stays taken for one smoothed round trip (10 ms): the window
    // (now 3) is full with 2 in flight and 1 held.
    QCOMPARE(limiter.limit(origin), 3.0);
    QCOMPARE(fill(limiter), 0);
    now += 10; // the clock says the round trip is over; the hold timer comes due
    bool started = false; // tryStart() takes the slot: ask until once, not again after
    QTRY_VERIFY_WITH_TIMEOUT(started || (started = limiter.tryStart(origin)), 2000);
}

void tst_ConcurrencyLimiter::waitersAreServedInOrder()
{
    ConcurrencyLimiter limiter;
    prove(limiter);
    QCOMPARE(fill(limiter), 6);
    std::vector<int> granted;
    Waiter first(&granted, 1);
    Waiter second(&granted, 2);
    Waiter third(&granted, 3);
    limiter.wait(origin, &first);
    limiter.wait(origin, &second);
    limiter.wait(origin, &third);
    limiter.cancelWait(origin, &second); // gone (aborted) while waiting
    QVERIFY(!limiter.tryStart(origin)); // a newcomer does not overtake them
    limiter.finished(origin, Outcome::Neutral);
    QCOMPARE(granted, std::vector<int>({ 1 }));
    limiter.finished(origin, Outcome::Neutral);
    QCOMPARE(granted, std::vector<int>({ 1, 3 }));
}

void tst_ConcurrencyLimiter::switchedOffLetsEverythingGo()
{
    ConcurrencyLimiter limiter;
    std::vector<int> granted;
    Waiter waiter(&granted, 1);
    QCOMPARE(fill(limiter), 1);
    limiter.wait(origin, &waiter);
    limiter.setEnabled(false);
    QCOMPARE(granted, std::vector<int>({ 1 }));
    QCOMPARE(fill(limiter), 1000);
}

QTEST_GUILESS_MAIN(tst_ConcurrencyLimiter)
#include "tst_concurrencylimiter.moc"
