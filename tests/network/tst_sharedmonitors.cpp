// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Managers in other threads (a QML engine's) share the app's Reachability, CircuitBreaker
// and RetryBudget: many threads calling them at once must leave them consistent (run under
// AddressSanitizer: a torn QHash shows there), and what one thread reports, every thread sees.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>

#include <QtCore/QThread>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <atomic>
#include <memory>
#include <vector>

using namespace KeepTrying;

namespace {
constexpr int Threads = 4;
constexpr int Rounds = 3000;
constexpr int Origins = 40;

QString originKey(int i)
{
    return QStringLiteral("http://127.0.0.1:%1").arg(1 + i); // never contacted: no probes here
}

// Starts \a work on Threads threads at once and waits for them.
template<typename Work>
void onThreads(Work work)
{
    std::atomic<bool> go { false };
    std::vector<std::unique_ptr<QThread>> threads;
    for (int t = 0; t < Threads; ++t) {
        threads.emplace_back(QThread::create([&go, work, t] {
            while (!go.load())
                QThread::yieldCurrentThread();
            work(t);
        }));
        threads.back()->start();
    }
    go = true;
    for (auto &thread : threads)
        QVERIFY(thread->wait(60000));
}
} // namespace

class tst_SharedMonitors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("thread"))); }
    void budgetFromManyThreads();
    void breakerFromManyThreads();
    void reachabilityFromManyThreads();
};

void tst_SharedMonitors::budgetFromManyThreads()
{
    RetryBudget budget;
    onThreads([&budget](int t) {
        for (int i = 0; i < Rounds; ++i) {
            const QString key = originKey((i + t) % Origins);
            (i % 3 == 0) ? budget.recordFailure(key) : budget.recordSuccess(key);
            budget.tryRetry(key);
            if (i % 97 == 0)
                budget.reset(key);
        }
    });
    for (int i = 0; i < Origins; ++i) {
        const double tokens = budget.tokens(QUrl(originKey(i)));
        QVERIFY(tokens >= 0 && tokens <= budget.settings().maxTokens);
    }
}

// Every origin trips from a loader thread; the breaker's own thread then ends the breaks
// (its timers) and announces HalfOpen there.
void tst_SharedMonitors::breakerFromManyThreads()
{
    CircuitBreaker breaker;
    CircuitBreaker::Settings settings;
    settings.minimumCalls = 4;
    settings.breakDurationMs = 50;
    breaker.setSettings(settings);
    // Emitted in the threads that change the state: counted there (a QSignalSpy is not
    // thread-safe).
    std::atomic<int> changes { 0 };
    connect(
        &breaker, &CircuitBreaker::stateChanged, this, [&changes] { ++changes; },
        Qt::DirectConnection);
    onThreads([&breaker](int t) {
        for (int i = 0; i < Rounds; ++i) {
            const QString key = originKey((i + t) % Origins);
            const auto permission = breaker.tryAcquire(key);
            if (permission == CircuitBreaker::Denied)
                continue;
            breaker.recordFailure(key, permission == CircuitBreaker::Probe);
        }
    });
    for (int i = 0; i < Origins; ++i)
        QVERIFY(breaker.status(QUrl(originKey(i))).trips > 0);
    // Open breakers become HalfOpen by the breaker's timers, in this thread.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int i = 0; i < Origins; ++i) {
                if (breaker.state(originKey(i)) == CircuitBreaker::Open)
                    return false;
            }
            return true;
        }(),
        5000);
    QVERIFY(changes.load() > 0);
    disconnect(&breaker, nullptr, this, nullptr);
}

// A failure reported from another thread is seen by every thread at once; its probing and
// the signal happen in the Reachability's thread.
void tst_SharedMonitors::reachabilityFromManyThreads()
{
    Reachability reachability;
    reachability.setBackend(nullptr);
    reachability.setProbeSchedule(600000, 600000); // no probe during the test
    reachability.setConnectProbeSchedule(600000);
    QSignalSpy changes(&reachability, &Reachability::originReachabilityChanged);
    std::atomic<int> seenUnreachable { 0 };
    onThreads([&](int t) {
        for (int i = 0; i < Rounds / 10; ++i) {
            const QUrl url(originKey((i + t) % Origins));
            reachability.reportFailure(url);
            if (!reachability.isReachable(url))
                ++seenUnreachable;
            if (t == 0 && i % 7 == 0)
                reachability.setSimulatedOffline(i % 14 == 0);
            reachability.state();
        }
    });
    QCOMPARE(seenUnreachable.load(), Threads * (Rounds / 10));
    reachability.setSimulatedOffline(false);
    for (int i = 0; i < Origins; ++i)
        QVERIFY(!reachability.isReachable(QUrl(originKey(i))));
    // The probing starts here, in this thread's event loop, with one signal per origin.
    QTRY_COMPARE_WITH_TIMEOUT(changes.count(), Origins, 5000);
    for (const auto &change : std::as_const(changes))
        QCOMPARE(change.at(1).toBool(), false);
    reachability.reportSuccess(QUrl(originKey(0)));
    QVERIFY(reachability.isReachable(QUrl(originKey(0))));
}

QTEST_GUILESS_MAIN(tst_SharedMonitors)
#include "tst_sharedmonitors.moc"
