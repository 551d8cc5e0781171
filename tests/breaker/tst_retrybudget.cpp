// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The retry budget: token arithmetic and the floor with a fake clock, then the share of
// retries a RetryingNetworkAccessManager sends to a server that fails every other request.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "testserver.h"

#include <QtCore/QElapsedTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace KeepTrying;
using Settings = RetryBudget::Settings;

namespace {

QUrl urlA()
{
    return QUrl(QStringLiteral("http://127.0.0.1:8080/a"));
}
QUrl urlB()
{
    return QUrl(QStringLiteral("http://127.0.0.1:8081/a"));
}

Settings makeSettings(double maxTokens, double tokenRatio, double floor)
{
    Settings s;
    s.maxTokens = maxTokens;
    s.tokenRatio = tokenRatio;
    s.minRetriesPerSecond = floor;
    return s;
}

} // namespace

class tst_RetryBudget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();

    void defaults();
    void tokenArithmetic_data();
    void tokenArithmetic();
    void retriesOnlyAboveHalf_data();
    void retriesOnlyAboveHalf();
    void floorRefill_data();
    void floorRefill();
    void grantsAboveHalfSpendNothing();
    void originsAreIndependent();
    void bucketsStayApartAsOriginsComeAndGo();
    void disabled();
    void settingsAreSanitizedAndResetBuckets();
    void retryShareWithHalfFailing_data();
    void retryShareWithHalfFailing();

private:
    void record(const QString &outcomes, const QUrl &url = urlA());

    qint64 m_now = 0;
    std::unique_ptr<RetryBudget> m_budget;
};

void tst_RetryBudget::init()
{
    m_now = 1000000;
    m_budget = std::make_unique<RetryBudget>();
    m_budget->setClock([this] { return m_now; });
}

void tst_RetryBudget::record(const QString &outcomes, const QUrl &url)
{
    for (const QChar c : outcomes) {
        if (c == QLatin1Char('F'))
            m_budget->recordFailure(url);
        else
            m_budget->recordSuccess(url);
    }
}

void tst_RetryBudget::defaults()
{
    const Settings s = m_budget->settings();
    QVERIFY(s.enabled);
    QCOMPARE(s.maxTokens, 10.0);
    QCOMPARE(s.tokenRatio, 0.1);
    QCOMPARE(s.minRetriesPerSecond, 3.0);
    QCOMPARE(m_budget->tokens(urlA()), 10.0); // a new origin starts full
    QVERIFY(m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->msUntilRetry(urlA()), 0);
}

void tst_RetryBudget::tokenArithmetic_data()
{
    QTest::addColumn<double>("maxTokens");
    QTest::addColumn<double>("tokenRatio");
    QTest::addColumn<QString>("outcomes");
    QTest::addColumn<double>("tokens");

    QTest::newRow("a failure takes one") << 10.0 << 0.1 << QStringLiteral("F") << 9.0;
    QTest::newRow("five failures") << 10.0 << 0.1 << QStringLiteral("FFFFF") << 5.0;
    QTest::newRow("a success gives back the ratio")
        << 10.0 << 0.1 << QStringLiteral("FFFFFS") << 5.1;
    QTest::newRow("full stays full") << 10.0 << 0.1 << QStringLiteral("SSS") << 10.0;
    QTest::newRow("capped at max") << 10.0 << 0.1
                                   << QStringLiteral("F"
                                                     "SSSSSSSSSSSSSSS")
                                   << 10.0;
    QTest::newRow("never below zero") << 10.0 << 0.1 << QString(15, QLatin1Char('F')) << 0.0;
    QTest::newRow("from zero, one success")
        << 10.0 << 0.1 << QString(15, QLatin1Char('F')) + QLatin1Char('S') << 0.1;
    QTest::newRow("ratio 0.5") << 4.0 << 0.5 << QStringLiteral("FFFSFS") << 1.0;
    QTest::newRow("ratio 0: only failures count") << 4.0 << 0.0 << QStringLiteral("FSSS") << 3.0;
}

void tst_RetryBudget::tokenArithmetic()
{
    QFETCH(double, maxTokens);
    QFETCH(double, tokenRatio);
    QFETCH(QString, outcomes);
    QFETCH(double, tokens);
    m_budget->setSettings(makeSettings(maxTokens, tokenRatio, 1));
    record(outcomes);
    QVERIFY2(std::abs(m_budget->tokens(urlA()) - tokens) < 1e-9,
             qPrintable(QString::number(m_budget->tokens(urlA()))));
}

void tst_RetryBudget::retriesOnlyAboveHalf_data()
{
    QTest::addColumn<double>("maxTokens");
    QTest::addColumn<QString>("outcomes");
    QTest::addColumn<bool>("allowed");

    QTest::newRow("10: 6 left") << 10.0 << QStringLiteral("FFFF") << true;
    QTest::newRow("10: 5 left is half, not above") << 10.0 << QStringLiteral("FFFFF") << false;
    QTest::newRow("10: 5.1 left") << 10.0 << QStringLiteral("FFFFFS") << true;
    QTest::newRow("3: 2 left") << 3.0 << QStringLiteral("F") << true;
    QTest::newRow("3: 1 left") << 3.0 << QStringLiteral("FF") << false;
}

void tst_RetryBudget::retriesOnlyAboveHalf()
{
    QFETCH(double, maxTokens);
    QFETCH(QString, outcomes);
    QFETCH(bool, allowed);
    m_budget->setSettings(makeSettings(maxTokens, 0.1, 0)); // no floor: the token rule alone
    record(outcomes);
    QCOMPARE(m_budget->tryRetry(urlA()), allowed);
    // Without a floor only successes can reopen the budget: look again in a second.
    QCOMPARE(m_budget->msUntilRetry(urlA()), allowed ? 0 : 1000);
    m_now += 3600000;
    QCOMPARE(m_budget->tryRetry(urlA()), allowed); // time alone changes nothing
}

void tst_RetryBudget::floorRefill_data()
{
    QTest::addColumn<double>("perSecond");
    QTest::addColumn<int>("burst"); // grants after a long quiet time: max(1, perSecond)
    QTest::addColumn<qint64>("refillMs"); // time for one more grant

    QTest::newRow("1 per second") << 1.0 << 1 << qint64(1000);
    QTest::newRow("4 per second") << 4.0 << 4 << qint64(250);
    QTest::newRow("one every 2 s") << 0.5 << 1 << qint64(2000);
}

void tst_RetryBudget::floorRefill()
{
    QFETCH(double, perSecond);
    QFETCH(int, burst);
    QFETCH(qint64, refillMs);
    m_budget->setSettings(makeSettings(10, 0.1, perSecond));
    record(QString(10, QLatin1Char('F'))); // empty: only the floor lets retries through

    // A new bucket starts with a full floor.
    for (int i = 0; i < burst; ++i)
        QVERIFY2(m_budget->tryRetry(urlA()), qPrintable(QString::number(i)));
    QVERIFY(!m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->msUntilRetry(urlA()), refillMs);

    m_now += refillMs * 2 / 5;
    QCOMPARE(m_budget->msUntilRetry(urlA()), refillMs - refillMs * 2 / 5);
    QVERIFY(!m_budget->tryRetry(urlA())); // asking does not reset the refill
    QCOMPARE(m_budget->msUntilRetry(urlA()), refillMs - refillMs * 2 / 5);
    m_now += refillMs - refillMs * 2 / 5;
    QCOMPARE(m_budget->msUntilRetry(urlA()), 0);
    QVERIFY(m_budget->tryRetry(urlA()));
    QVERIFY(!m_budget->tryRetry(urlA()));

    // A long quiet time fills the floor up to its capacity, no further.
    m_now += 3600000;
    for (int i = 0; i < burst; ++i)
        QVERIFY(m_budget->tryRetry(urlA()));
    QVERIFY(!m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->tokens(urlA()), 0.0); // the floor never touches the tokens
}

void tst_RetryBudget::grantsAboveHalfSpendNothing()
{
    // Tokens are taken by failures, not by retries: asking above half is free, and the floor
    // is still full when the bucket first drops to half.
    for (int i = 0; i < 100; ++i)
        QVERIFY(m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->tokens(urlA()), 10.0);
    record(QStringLiteral("FFFFF"));
    for (int i = 0; i < 3; ++i)
        QVERIFY(m_budget->tryRetry(urlA())); // the floor's second's worth: three
    QVERIFY(!m_budget->tryRetry(urlA()));
}

void tst_RetryBudget::originsAreIndependent()
{
    record(QString(10, QLatin1Char('F')), urlA());
    for (int i = 0; i < 3; ++i)
        QVERIFY(m_budget->tryRetry(urlA())); // the floor
    QVERIFY(!m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->tokens(urlB()), 10.0);
    QVERIFY(m_budget->tryRetry(urlB()));
    QCOMPARE(m_budget->msUntilRetry(urlB()), 0);
    // Same origin, other path: the same bucket.
    QVERIFY(!m_budget->tryRetry(QUrl(QStringLiteral("http://127.0.0.1:8080/other"))));
}

void tst_RetryBudget::disabled()
{
    Settings s;
    s.enabled = false;
    m_budget->setSettings(s);
    record(QString(50, QLatin1Char('F')));
    QCOMPARE(m_budget->tokens(urlA()), 10.0); // nothing counted
    for (int i = 0; i < 50; ++i)
        QVERIFY(m_budget->tryRetry(urlA()));
    QCOMPARE(m_budget->msUntilRetry(urlA()), 0);
}

void tst_RetryBudget::bucketsStayApartAsOriginsComeAndGo()
{
    // The budget remembers the bucket it used last: adding origins (the table grows) and
    // resetting one must never leave an origin counting into another's bucket, or a gone one.
    m_budget->setSettings(makeSettings(10, 0.1, 0));
    record(QStringLiteral("FFFFF")); // A: 5
    for (int port = 9000; port < 9064; ++port)
        m_budget->recordFailure(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
    record(QStringLiteral("F")); // A: 4
    QCOMPARE(m_budget->tokens(urlA()), 4.0);
    QCOMPARE(m_budget->tokens(QUrl(QStringLiteral("http://127.0.0.1:9000/"))), 9.0);
    m_budget->reset(urlA());
    record(QStringLiteral("F")); // a new, full bucket: 9
    QCOMPARE(m_budget->tokens(urlA()), 9.0);
    record(QStringLiteral("F"), urlB());
    m_budget->reset(urlB());
    record(QStringLiteral("FF")); // A keeps its own bucket: 7
    QCOMPARE(m_budget->tokens(urlA()), 7.0);
    QCOMPARE(m_budget->tokens(urlB()), 10.0);
    QCOMPARE(m_budget->tokens(QUrl(QStringLiteral("http://127.0.0.1:9063/"))), 9.0);
}

void tst_RetryBudget::settingsAreSanitizedAndResetBuckets()
{
    record(QString(10, QLatin1Char('F')));
    QCOMPARE(m_budget->tokens(urlA()), 0.0);

    m_budget->setSettings(makeSettings(0, -1, std::numeric_limits<double>::quiet_NaN()));
    const Settings s = m_budget->settings();
    QCOMPARE(s.maxTokens, 1.0);
    QCOMPARE(s.tokenRatio, 0.0);
    QCOMPARE(s.minRetriesPerSecond, 0.0);
    QCOMPARE(m_budget->tokens(urlA()), 1.0); // buckets start again, full
    m_budget->setSettings(makeSettings(4, std::numeric_limits<double>::infinity(), -3));
    QCOMPARE(m_budget->settings().tokenRatio, 0.0);
    QCOMPARE(m_budget->settings().minRetriesPerSecond, 0.0);
}

void tst_RetryBudget::retryShareWithHalfFailing_data()
{
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<double>("maxTokens");
    QTest::addColumn<double>("tokenRatio");
    QTest::addColumn<double>("floor");

    const Settings defaults;
    QTest::newRow("defaults") << true << defaults.maxTokens << defaults.tokenRatio
                              << defaults.minRetriesPerSecond;
    QTest::newRow("larger bucket, ratio 0.5") << true << 20.0 << 0.5 << 2.0;
    // The control: the same traffic without a budget retries far more than the defaults'
    // bound, so the rows above do measure the budget.
    QTest::newRow("no budget (control)")
        << false << defaults.maxTokens << defaults.tokenRatio << defaults.minRetriesPerSecond;
}

void tst_RetryBudget::retryShareWithHalfFailing()
{
    QFETCH(bool, enabled);
    QFETCH(double, maxTokens);
    QFETCH(double, tokenRatio);
    QFETCH(double, floor);

    // Every other request the server receives fails with 503 (50 % of responses).
    Test::TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const Test::TestServer::Request &, int index) {
        return Test::TestServer::respond(index % 2 ? 503 : 200, "x");
    });

    QElapsedTimer elapsed;
    elapsed.start(); // before the budget's first bucket: an upper bound on its age
    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    CircuitBreaker::Settings noBreaker; // at 50 % failures it would open: the budget alone here
    noBreaker.enabled = false;
    manager.circuitBreaker()->setSettings(noBreaker);
    Settings s = makeSettings(maxTokens, tokenRatio, floor);
    s.enabled = enabled;
    manager.retryBudget()->setSettings(s);
    RetryPolicy policy;
    policy.maxAttempts = 100; // only the budget limits the retries
    policy.initialDelayMs = 1;
    policy.maxDelayMs = 1;
    policy.jitter = Jitter::None;
    policy.deadlineMs = 50; // a retry the budget holds back gives up here
    manager.setRetryPolicy(policy);

    // One logical request at a time, 100 of them.
    constexpr int logical = 100;
    int succeeded = 0;
    for (int i = 0; i < logical; ++i) {
        std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(reply->isFinished() || finished.wait(10000));
        succeeded += reply->error() == QNetworkReply::NoError ? 1 : 0;
    }
    const double seconds = double(elapsed.elapsed()) / 1000.0;

    const int total = server.requestCount();
    const int retries = total - logical; // each logical request made one first attempt
    const int successes = (total + 1) / 2; // requests 0, 2, 4, ... succeeded
    // An attempt the deadline cut short may not have reached the server: one at most per
    // request that did not succeed.
    QVERIFY(manager.statistics().attempts >= total);
    QVERIFY(manager.statistics().attempts - total <= logical - succeeded);

    // The bound. Requests go one at a time, so a retry the token rule lets through asks
    // right after its own failure left more than maxTokens / 2 tokens. Let
    // g = max(0, tokens - maxTokens / 2); g starts at maxTokens / 2. Such a failure lowers g
    // by exactly 1; any other failure lowers g or leaves it; a success raises it by at most
    // tokenRatio. Since g never goes below 0, those retries number at most
    //     maxTokens / 2 + tokenRatio * successes.
    // The floor adds at most its capacity max(1, floor) at the start plus floor per second:
    //     retries <= maxTokens / 2 + tokenRatio * successes + max(1, floor) + floor * seconds.
    const auto bound = [&](double m, double r, double f) {
        return m / 2 + r * successes + std::max(1.0, f) + f * seconds;
    };
    const QString figures = QStringLiteral("%1 retries in %2 requests (%3 %), %4 of %5 logical "
                                           "requests succeeded, %6 s; bound %7")
                                .arg(retries)
                                .arg(total)
                                .arg(100.0 * retries / total, 0, 'f', 1)
                                .arg(succeeded)
                                .arg(logical)
                                .arg(seconds, 0, 'f', 2)
                                .arg(bound(maxTokens, tokenRatio, floor), 0, 'f', 1);
    qInfo().noquote() << figures;
    if (enabled) {
        QVERIFY2(retries <= bound(maxTokens, tokenRatio, floor), qPrintable(figures));
        QVERIFY2(retries >= int(maxTokens / 2) - 1, qPrintable(figures)); // it did retry
    } else {
        QVERIFY2(retries > 2 * bound(maxTokens, tokenRatio, floor), qPrintable(figures));
        QCOMPARE(succeeded, logical);
    }
}

QTEST_GUILESS_MAIN(tst_RetryBudget)

#include "tst_retrybudget.moc"
