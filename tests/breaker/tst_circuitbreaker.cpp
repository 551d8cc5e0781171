// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The circuit breaker's transitions, driven by a fake clock: each edge of the rules in
// circuitbreaker.h, one at a time.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "testserver.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QRandomGenerator>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using Settings = CircuitBreaker::Settings;

namespace {

// Origins are only keys here: nothing is sent to them.
QUrl urlA()
{
    return QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries.json"));
}
QUrl urlB()
{
    return QUrl(QStringLiteral("http://127.0.0.1:8081/api/entries.json"));
}
const QString originA = QStringLiteral("http://127.0.0.1:8080");

CircuitBreaker::State stateAt(const QSignalSpy &spy, int index)
{
    return spy.at(index).at(1).value<CircuitBreaker::State>();
}

} // namespace

class tst_CircuitBreaker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void defaults();
    void ratioThreshold_data();
    void ratioThreshold();
    void minimumThroughputNotReached();
    void windowSlides();
    void consecutiveFailures_data();
    void consecutiveFailures();
    void halfOpenSuccessCloses();
    void halfOpenFailureReopens();
    void breakDurationGrowsAndIsCapped_data();
    void breakDurationGrowsAndIsCapped();
    void halfOpenProbeLimit_data();
    void halfOpenProbeLimit();
    void halfOpenNeverMoreProbesThanAllowed();
    void clientErrorsDoNotCount();
    void clientErrorsDoNotCountThroughManager();
    void originsAreIndependent();
    void perOriginSettings();
    void disabled();
    void stateChangedSignals();
    void halfOpenAnnouncedByItself();
    void endBreak();

private:
    // Records \a outcomes ('S' success, 'F' failure) for \a url, advancing the clock 1 ms per
    // call; returns the 1-based call after which the breaker was open, or 0.
    int replay(const QString &outcomes, const QUrl &url = urlA());
    // Opens the breaker of \a url with failures in a row (the defaults' streak rule).
    void trip(const QUrl &url = urlA());

    qint64 m_now = 0;
    std::unique_ptr<CircuitBreaker> m_breaker;
};

void tst_CircuitBreaker::initTestCase()
{
    // Every trip is logged as a warning; hundreds of them would bury the test's own output.
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.breaker.warning=false"));
}

void tst_CircuitBreaker::init()
{
    m_now = 1000000;
    m_breaker = std::make_unique<CircuitBreaker>();
    m_breaker->setClock([this] { return m_now; });
    // The tests use the numbers issue 4 names: a streak of 5 also opens, breaks of 5 s.
    Settings issue4;
    issue4.consecutiveFailures = 5;
    issue4.breakDurationMs = 5000;
    m_breaker->setSettings(issue4);
}

int tst_CircuitBreaker::replay(const QString &outcomes, const QUrl &url)
{
    for (int i = 0; i < outcomes.size(); ++i) {
        ++m_now;
        if (m_breaker->tryAcquire(url) != CircuitBreaker::Allowed)
            return i; // opened before this call
        if (outcomes.at(i) == QLatin1Char('F'))
            m_breaker->recordFailure(url, false);
        else
            m_breaker->recordSuccess(url, false);
        if (m_breaker->state(url) == CircuitBreaker::Open)
            return i + 1;
    }
    return 0;
}

void tst_CircuitBreaker::trip(const QUrl &url)
{
    // The streak rule when it is on, else the ratio rule: minimumCalls failures.
    const Settings settings = m_breaker->settings();
    const int streak =
        settings.consecutiveFailures > 0 ? settings.consecutiveFailures : settings.minimumCalls;
    for (int i = 0; i < streak; ++i)
        m_breaker->recordFailure(url, false);
    QCOMPARE(m_breaker->state(url), CircuitBreaker::Open);
}

void tst_CircuitBreaker::defaults()
{
    // The values the header documents. The streak rule is off and breaks start at 1 s: with
    // the concurrency window, a client's own overload 503s would otherwise trip it after a
    // burst and hold it shut long after the server has room again (bench_herd).
    const Settings s = CircuitBreaker().settings();
    QVERIFY(s.enabled);
    QCOMPARE(s.failureRatio, 0.5);
    QCOMPARE(s.windowMs, 30000);
    QCOMPARE(s.minimumCalls, 10);
    QCOMPARE(s.consecutiveFailures, 0);
    QCOMPARE(s.breakDurationMs, 1000);
    QCOMPARE(s.breakGrowth, 2.0);
    QCOMPARE(s.maxBreakDurationMs, 60000);
    QCOMPARE(s.halfOpenProbes, 1);
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::Closed);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 0);
}

void tst_CircuitBreaker::ratioThreshold_data()
{
    QTest::addColumn<QString>("outcomes");
    QTest::addColumn<int>("opensAfter"); // 1-based call, 0: stays closed

    QTest::newRow("5 of 10 opens") << QStringLiteral("SSSSSFFFFF") << 10;
    QTest::newRow("5 of 10 interleaved opens") << QStringLiteral("SFSFSFSFSF") << 10;
    QTest::newRow("4 of 10 does not") << QStringLiteral("SSSSSSFFFF") << 0;
    QTest::newRow("5 of 11 does not") << QStringLiteral("SSSSSSFFFFF") << 0;
    QTest::newRow("6 of 12 opens") << QStringLiteral("SSSSSSFFFFFF") << 12;
    QTest::newRow("10 of 10 opens at the tenth") << QStringLiteral("FFFFFFFFFF") << 10;
}

void tst_CircuitBreaker::ratioThreshold()
{
    QFETCH(QString, outcomes);
    QFETCH(int, opensAfter);
    Settings s;
    s.consecutiveFailures = 0; // the ratio rule alone
    m_breaker->setSettings(s);

    QCOMPARE(replay(outcomes), opensAfter);
    if (opensAfter == 0) {
        const CircuitBreaker::OriginStatus status = m_breaker->status(urlA());
        QCOMPARE(status.state, CircuitBreaker::Closed);
        QCOMPARE(status.callsInWindow, int(outcomes.size()));
        QCOMPARE(status.failuresInWindow, int(outcomes.count(QLatin1Char('F'))));
    } else {
        QCOMPARE(m_breaker->status(urlA()).trips, 1);
    }
}

void tst_CircuitBreaker::minimumThroughputNotReached()
{
    Settings s;
    s.consecutiveFailures = 0;
    m_breaker->setSettings(s);

    QCOMPARE(replay(QStringLiteral("FFFFFFFFF")), 0); // 9 of 9: every call failed, too few
    CircuitBreaker::OriginStatus status = m_breaker->status(urlA());
    QCOMPARE(status.state, CircuitBreaker::Closed);
    QCOMPARE(status.callsInWindow, 9);
    QCOMPARE(status.failuresInWindow, 9);
    QCOMPARE(status.consecutiveFailures, 9);
    QCOMPARE(replay(QStringLiteral("F")), 1); // the tenth call reaches the minimum
}

void tst_CircuitBreaker::windowSlides()
{
    Settings s;
    s.consecutiveFailures = 0;
    m_breaker->setSettings(s);

    QCOMPARE(replay(QStringLiteral("FFFFFFFFF")), 0);
    m_now += s.windowMs; // the nine are now older than the window
    QCOMPARE(replay(QStringLiteral("F")), 0);
    QCOMPARE(m_breaker->status(urlA()).callsInWindow, 1);
    QCOMPARE(replay(QStringLiteral("FFFFFFFF")), 0);
    QCOMPARE(replay(QStringLiteral("F")), 1);
}

void tst_CircuitBreaker::consecutiveFailures_data()
{
    QTest::addColumn<int>("streak");
    QTest::newRow("default 5") << 5;
    QTest::newRow("3") << 3;
    QTest::newRow("1") << 1;
}

void tst_CircuitBreaker::consecutiveFailures()
{
    QFETCH(int, streak);
    Settings s;
    s.consecutiveFailures = streak;
    s.minimumCalls = 1000; // the streak rule alone
    m_breaker->setSettings(s);

    const QString almost(streak - 1, QLatin1Char('F'));
    // A success in between starts the count again.
    QCOMPARE(replay(almost + QLatin1Char('S') + almost), 0);
    QCOMPARE(m_breaker->status(urlA()).consecutiveFailures, streak - 1);
    QCOMPARE(replay(QStringLiteral("F")), 1);
    QCOMPARE(m_breaker->status(urlA()).consecutiveFailures, 0); // reset on opening
}

void tst_CircuitBreaker::halfOpenSuccessCloses()
{
    trip();
    CircuitBreaker::OriginStatus status = m_breaker->status(urlA());
    QCOMPARE(status.state, CircuitBreaker::Open);
    QCOMPARE(status.openForMs, 5000);
    QCOMPARE(status.trips, 1);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 5000);

    m_now += 4999;
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Denied);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 1);
    m_now += 1;
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::HalfOpen);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 0);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Denied);
    QCOMPARE(m_breaker->status(urlA()).probesInFlight, 1);

    // A late answer to a request sent before the breaker opened is no probe: no change.
    m_breaker->recordSuccess(urlA(), false);
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::HalfOpen);

    m_breaker->recordSuccess(urlA(), true);
    status = m_breaker->status(urlA());
    QCOMPARE(status.state, CircuitBreaker::Closed);
    QCOMPARE(status.trips, 0);
    QCOMPARE(status.probesInFlight, 0);
    QCOMPARE(status.callsInWindow, 0);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Allowed);

    // Closing resets the break duration.
    trip();
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 5000);
}

void tst_CircuitBreaker::halfOpenFailureReopens()
{
    trip();
    m_now += 5000;
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);

    // A late failure of a request sent before the breaker opened is no probe: no change.
    m_breaker->recordFailure(urlA(), false);
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::HalfOpen);

    m_breaker->recordFailure(urlA(), true);
    const CircuitBreaker::OriginStatus status = m_breaker->status(urlA());
    QCOMPARE(status.state, CircuitBreaker::Open);
    QCOMPARE(status.trips, 2);
    QCOMPARE(status.probesInFlight, 0);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 10000);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Denied);
}

void tst_CircuitBreaker::breakDurationGrowsAndIsCapped_data()
{
    QTest::addColumn<qint64>("base");
    QTest::addColumn<double>("growth");
    QTest::addColumn<qint64>("cap");
    QTest::addColumn<QList<qint64>>("expected");

    QTest::newRow("defaults") << qint64(5000) << 2.0 << qint64(60000)
                              << QList<qint64> { 5000, 10000, 20000, 40000, 60000, 60000 };
    QTest::newRow("growth 3") << qint64(1000) << 3.0 << qint64(100000)
                              << QList<qint64> { 1000, 3000, 9000, 27000, 81000, 100000, 100000 };
    QTest::newRow("no growth") << qint64(2000) << 1.0 << qint64(60000)
                               << QList<qint64> { 2000, 2000, 2000 };
    QTest::newRow("growth below 1 counts as 1")
        << qint64(2000) << 0.5 << qint64(60000) << QList<qint64> { 2000, 2000 };
    QTest::newRow("cap below base")
        << qint64(5000) << 2.0 << qint64(3000) << QList<qint64> { 3000, 3000 };
}

void tst_CircuitBreaker::breakDurationGrowsAndIsCapped()
{
    QFETCH(qint64, base);
    QFETCH(double, growth);
    QFETCH(qint64, cap);
    QFETCH(QList<qint64>, expected);
    Settings s;
    s.breakDurationMs = base;
    s.breakGrowth = growth;
    s.maxBreakDurationMs = cap;
    m_breaker->setSettings(s);

    trip();
    for (int i = 0; i < expected.size(); ++i) {
        QCOMPARE(m_breaker->status(urlA()).trips, i + 1);
        QCOMPARE(m_breaker->msUntilProbe(urlA()), expected.at(i));
        m_now += expected.at(i) - 1;
        QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Denied);
        m_now += 1;
        QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
        m_breaker->recordFailure(urlA(), true); // the probe failed: open again, longer
    }
}

void tst_CircuitBreaker::halfOpenProbeLimit_data()
{
    QTest::addColumn<int>("configured");
    QTest::addColumn<int>("allowed");
    QTest::newRow("default 1") << 1 << 1;
    QTest::newRow("3") << 3 << 3;
    QTest::newRow("0 counts as 1") << 0 << 1;
}

void tst_CircuitBreaker::halfOpenProbeLimit()
{
    QFETCH(int, configured);
    QFETCH(int, allowed);
    Settings s;
    s.halfOpenProbes = configured;
    m_breaker->setSettings(s);
    QSignalSpy freed(m_breaker.get(), &CircuitBreaker::probeSlotFreed);

    m_breaker->releaseProbe(urlA()); // nothing to free while closed
    QCOMPARE(freed.size(), 0);
    trip();
    m_now += s.breakDurationMs;

    int probes = 0;
    for (int i = 0; i < 10; ++i)
        probes += m_breaker->tryAcquire(urlA()) == CircuitBreaker::Probe ? 1 : 0;
    QCOMPARE(probes, allowed);
    QCOMPARE(m_breaker->status(urlA()).probesInFlight, allowed);

    // An aborted probe gives its slot back, and says so.
    m_breaker->releaseProbe(urlA());
    QCOMPARE(freed.size(), 1);
    QCOMPARE(freed.at(0).at(0).toString(), originA);
    QCOMPARE(m_breaker->status(urlA()).probesInFlight, allowed - 1);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Denied);

    for (int i = 0; i < allowed; ++i)
        m_breaker->releaseProbe(urlA());
    QCOMPARE(freed.size(), 1 + allowed);
    QCOMPARE(m_breaker->status(urlA()).probesInFlight, 0);
    m_breaker->releaseProbe(urlA()); // no probe left to free: no signal
    QCOMPARE(freed.size(), 1 + allowed);
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::HalfOpen);
}

void tst_CircuitBreaker::halfOpenNeverMoreProbesThanAllowed()
{
    // Many requests competing for the probe slots, in a random but repeatable order: at no
    // time are more probes out than halfOpenProbes, whatever mix of grants, aborts and
    // outcomes happens, and late answers of non-probes change nothing.
    Settings s;
    s.halfOpenProbes = 2;
    s.breakDurationMs = 100;
    s.maxBreakDurationMs = 100;
    m_breaker->setSettings(s);
    QRandomGenerator random(4);
    int outstanding = 0;
    int granted = 0;
    trip();
    for (int step = 0; step < 5000; ++step) {
        m_now += random.bounded(20);
        switch (random.bounded(6)) {
        case 0:
        case 1:
        case 2:
            if (m_breaker->tryAcquire(urlA()) == CircuitBreaker::Probe) {
                ++outstanding;
                ++granted;
            }
            break;
        case 3:
            if (outstanding > 0) {
                --outstanding;
                m_breaker->releaseProbe(urlA());
            }
            break;
        case 4:
            if (outstanding > 0) {
                // A failed probe reopens: the other probes' slots are gone with the break.
                m_breaker->recordFailure(urlA(), true);
                outstanding = 0;
            }
            break;
        default:
            m_breaker->recordFailure(urlA(), false);
            break;
        }
        QVERIFY2(m_breaker->status(urlA()).probesInFlight <= s.halfOpenProbes,
                 qPrintable(QString::number(step)));
        QVERIFY(outstanding <= s.halfOpenProbes);
        QVERIFY(m_breaker->state(urlA()) != CircuitBreaker::Closed);
    }
    QVERIFY(granted > 100); // the walk did go through half-open many times
}

void tst_CircuitBreaker::clientErrorsDoNotCount()
{
    // RetryingNetworkAccessManager reports a 4xx answer as recordSuccess(): the server
    // answered. Such answers break a streak and dilute the ratio.
    QCOMPARE(replay(QStringLiteral("FFFFSFFFF")), 0);
    QCOMPARE(m_breaker->status(urlA()).failuresInWindow, 8);
    QCOMPARE(replay(QStringLiteral("SSSSSSSSS")), 0);

    // A probe answered with a 4xx closes the breaker.
    trip(urlB());
    m_now += 5000;
    QCOMPARE(m_breaker->tryAcquire(urlB()), CircuitBreaker::Probe);
    m_breaker->recordSuccess(urlB(), true);
    QCOMPARE(m_breaker->state(urlB()), CircuitBreaker::Closed);
}

void tst_CircuitBreaker::clientErrorsDoNotCountThroughManager()
{
    Test::TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const Test::TestServer::Request &request, int) {
        const int status = request.target.startsWith("/fail") ? 503 : 404;
        return Test::TestServer::respond(status, "x");
    });
    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    manager.setRetryPolicy(RetryPolicy::never()); // one attempt, one outcome per request
    manager.circuitBreaker()->setClock([this] { return m_now; });
    manager.circuitBreaker()->setSettings(m_breaker->settings()); // issue 4's numbers

    const auto fetch = [&](const QString &path) {
        std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url(path))));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!reply->isFinished() && !finished.wait(10000))
            return -1;
        return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    };
    for (int i = 0; i < 12; ++i)
        QCOMPARE(fetch(QStringLiteral("/missing")), 404);
    CircuitBreaker::OriginStatus status = manager.circuitBreaker()->status(server.url());
    QCOMPARE(status.state, CircuitBreaker::Closed);
    QCOMPARE(status.callsInWindow, 12);
    QCOMPARE(status.failuresInWindow, 0);

    // Four 503s, a 404, four 503s: no streak of five, and 8 of 21 is below the ratio.
    for (int i = 0; i < 4; ++i)
        QCOMPARE(fetch(QStringLiteral("/fail")), 503);
    QCOMPARE(fetch(QStringLiteral("/missing")), 404);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(fetch(QStringLiteral("/fail")), 503);
    status = manager.circuitBreaker()->status(server.url());
    QCOMPARE(status.state, CircuitBreaker::Closed);
    QCOMPARE(status.failuresInWindow, 8);
    QCOMPARE(status.consecutiveFailures, 4);
    QCOMPARE(fetch(QStringLiteral("/fail")), 503); // the fifth in a row opens it
    QCOMPARE(manager.circuitBreaker()->state(server.url()), CircuitBreaker::Open);
    QCOMPARE(server.requestCount(), 22);
}

void tst_CircuitBreaker::originsAreIndependent()
{
    trip(urlA());
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::Open);
    // Same scheme, host and port: the same breaker, whatever the path and query.
    QCOMPARE(m_breaker->state(QUrl(QStringLiteral("http://127.0.0.1:8080/other?x=1"))),
             CircuitBreaker::Open);
    // Another port, scheme or host name: another breaker.
    for (const QString &other :
         { QStringLiteral("http://127.0.0.1:8081/"), QStringLiteral("https://127.0.0.1:8080/"),
           QStringLiteral("http://localhost:8080/") }) {
        QCOMPARE(m_breaker->state(QUrl(other)), CircuitBreaker::Closed);
        QCOMPARE(m_breaker->tryAcquire(QUrl(other)), CircuitBreaker::Allowed);
    }
    // The default port is filled in: http://h/ and http://h:80/ are one origin.
    const QUrl implicitPort(QStringLiteral("http://127.0.0.1/a"));
    trip(implicitPort);
    QCOMPARE(m_breaker->state(QUrl(QStringLiteral("http://127.0.0.1:80/b"))), CircuitBreaker::Open);

    // Failures of one origin do not count for another.
    m_breaker->recordFailure(urlB(), false);
    QCOMPARE(m_breaker->status(urlB()).consecutiveFailures, 1);
    QCOMPARE(m_breaker->status(urlB()).state, CircuitBreaker::Closed);
}

void tst_CircuitBreaker::perOriginSettings()
{
    Settings quick;
    quick.consecutiveFailures = 2;
    quick.breakDurationMs = 700;
    m_breaker->setSettings(urlA(), quick);
    Settings off;
    off.enabled = false;
    m_breaker->setSettings(urlB(), off);
    const QUrl urlC(QStringLiteral("http://127.0.0.1:8082/"));

    QCOMPARE(m_breaker->settings().consecutiveFailures, 5); // defaults unchanged
    QCOMPARE(replay(QStringLiteral("FF"), urlA()), 2);
    QCOMPARE(m_breaker->msUntilProbe(urlA()), 700);
    QCOMPARE(replay(QString(20, QLatin1Char('F')), urlB()), 0);
    QCOMPARE(m_breaker->tryAcquire(urlB()), CircuitBreaker::Allowed);
    QCOMPARE(replay(QStringLiteral("FFFFF"), urlC), 5);
    QCOMPARE(m_breaker->msUntilProbe(urlC), 5000);
}

void tst_CircuitBreaker::disabled()
{
    Settings off;
    off.enabled = false;
    m_breaker->setSettings(off);
    QSignalSpy changed(m_breaker.get(), &CircuitBreaker::stateChanged);

    QCOMPARE(replay(QString(100, QLatin1Char('F'))), 0);
    const CircuitBreaker::OriginStatus status = m_breaker->status(urlA());
    QCOMPARE(status.state, CircuitBreaker::Closed);
    QCOMPARE(status.callsInWindow, 0); // nothing counted
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Allowed);
    QCOMPARE(changed.size(), 0);
}

void tst_CircuitBreaker::stateChangedSignals()
{
    QSignalSpy changed(m_breaker.get(), &CircuitBreaker::stateChanged);
    trip();
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toString(), originA);
    QCOMPARE(stateAt(changed, 0), CircuitBreaker::Open);

    // Half-open is announced when the breaker is next consulted after its break (or by
    // its own timer, see halfOpenAnnouncedByItself()).
    m_now += 5000;
    QCOMPARE(changed.size(), 1);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
    QCOMPARE(changed.size(), 2);
    QCOMPARE(stateAt(changed, 1), CircuitBreaker::HalfOpen);

    m_breaker->recordFailure(urlA(), true);
    QCOMPARE(changed.size(), 3);
    QCOMPARE(stateAt(changed, 2), CircuitBreaker::Open);

    m_now += 10000;
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
    m_breaker->recordSuccess(urlA(), true);
    QCOMPARE(changed.size(), 5);
    QCOMPARE(stateAt(changed, 3), CircuitBreaker::HalfOpen);
    QCOMPARE(stateAt(changed, 4), CircuitBreaker::Closed);
    for (const QList<QVariant> &arguments : std::as_const(changed))
        QCOMPARE(arguments.at(0).toString(), originA);

    // Other origins' changes carry their own name.
    trip(urlB());
    QCOMPARE(changed.size(), 6);
    QCOMPARE(changed.at(5).at(0).toString(), QStringLiteral("http://127.0.0.1:8081"));
}

void tst_CircuitBreaker::halfOpenAnnouncedByItself()
{
    // With the real clock: the breaker's own timer says HalfOpen when the break is over, so
    // that requests waiting behind it can go without anybody asking.
    CircuitBreaker breaker;
    Settings s;
    s.consecutiveFailures = 5;
    s.breakDurationMs = 50;
    breaker.setSettings(s);
    QSignalSpy changed(&breaker, &CircuitBreaker::stateChanged);
    for (int i = 0; i < s.consecutiveFailures; ++i)
        breaker.recordFailure(urlA(), false);
    QCOMPARE(changed.size(), 1);
    QVERIFY(changed.wait(5000));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(stateAt(changed, 1), CircuitBreaker::HalfOpen);
    QCOMPARE(breaker.state(urlA()), CircuitBreaker::HalfOpen);
}

void tst_CircuitBreaker::endBreak()
{
    QSignalSpy changed(m_breaker.get(), &CircuitBreaker::stateChanged);
    m_breaker->endBreak(urlA()); // unknown origin: nothing happens
    QCOMPARE(changed.size(), 0);
    trip();
    m_breaker->endBreak(urlA());
    QCOMPARE(m_breaker->state(urlA()), CircuitBreaker::HalfOpen);
    QCOMPARE(changed.size(), 2);
    QCOMPARE(stateAt(changed, 1), CircuitBreaker::HalfOpen);
    QCOMPARE(m_breaker->tryAcquire(urlA()), CircuitBreaker::Probe);
    m_breaker->endBreak(urlA()); // not open: nothing happens
    QCOMPARE(changed.size(), 2);
}

QTEST_GUILESS_MAIN(tst_CircuitBreaker)

#include "tst_circuitbreaker.moc"
