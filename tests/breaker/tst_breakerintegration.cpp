// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The circuit breaker in RetryingNetworkAccessManager against the demo server: a failing
// origin sees the probes and little else, and the waiting requests complete when it heals.

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "demotoken.h"

#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>
#include <QtCore/QRegularExpression>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using namespace KeepTrying;
using KeepTrying::Demo::DemoServer;

class tst_BreakerIntegration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void herdSeesOnlyFirstAttemptsAndProbes_data();
    void herdSeesOnlyFirstAttemptsAndProbes();
    void failsAtOnceWhenItMayNotWait_data();
    void failsAtOnceWhenItMayNotWait();

private:
    QNetworkRequest apiRequest() const;
    qint64 serverTotal() const
    {
        return m_server->stats().value(QLatin1String("total_requests")).toInteger();
    }

    std::unique_ptr<DemoServer> m_server;
    QByteArray m_bearer;
};

void tst_BreakerIntegration::initTestCase()
{
    // The breaker and the manager log every trip and waiting request.
    QLoggingCategory::setFilterRules(
        QStringLiteral("keeptrying.breaker.warning=false\nkeeptrying.network.warning=false"));
}

void tst_BreakerIntegration::init()
{
    m_server = std::make_unique<DemoServer>();
    QVERIFY(m_server->listen() != 0);

    // A token, so that the requests succeed once the fault is gone.
    m_bearer = "Bearer " + KeepTrying::Test::demoToken(*m_server);
    QVERIFY(m_bearer.size() > 7);
    m_server->resetStats();
}

void tst_BreakerIntegration::cleanup()
{
    m_server.reset();
}

QNetworkRequest tst_BreakerIntegration::apiRequest() const
{
    QNetworkRequest request(QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/version")));
    request.setRawHeader("Authorization", m_bearer);
    return request;
}

void tst_BreakerIntegration::herdSeesOnlyFirstAttemptsAndProbes_data()
{
    QTest::addColumn<bool>("budget");
    QTest::addColumn<int>("trips"); // how many times the breaker opens before the fault goes

    // The breaker on its own: about 3 s of outage.
    QTest::newRow("breaker") << false << 3;
    // The manager's defaults, budget included; a shorter outage (about 1 s) for time.
    QTest::newRow("breaker and budget") << true << 2;
}

void tst_BreakerIntegration::herdSeesOnlyFirstAttemptsAndProbes()
{
    QFETCH(bool, budget);
    QFETCH(int, trips);
    QVERIFY(m_server->addFault(QStringLiteral("status=503")));

    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    CircuitBreaker *breaker = manager.circuitBreaker();
    CircuitBreaker::Settings settings; // the defaults with issue 4's streak rule
    settings.consecutiveFailures = 5;
    settings.breakDurationMs = 1000;
    settings.maxBreakDurationMs = 2000;
    breaker->setSettings(settings);
    RetryBudget::Settings budgetSettings;
    budgetSettings.enabled = budget;
    manager.retryBudget()->setSettings(budgetSettings);
    RetryPolicy policy;
    policy.initialDelayMs = 50;
    policy.maxDelayMs = 500;
    policy.maxAttempts = 1000; // without the breaker: a retry every 50..500 ms for seconds
    manager.setRetryPolicy(policy);
    QSignalSpy changed(breaker, &CircuitBreaker::stateChanged);

    constexpr int herd = 200;
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    QHash<QNetworkReply *, int> finishedCount;
    for (int i = 0; i < herd; ++i) {
        replies.emplace_back(manager.get(apiRequest()));
        QNetworkReply *reply = replies.back().get();
        connect(reply, &QNetworkReply::finished, this,
                [&finishedCount, reply] { ++finishedCount[reply]; });
    }

    // The bound the issue sets: no more than the probes plus the minimum calls. The
    // concurrency limiter lets six first attempts go (its initial window) and halves the
    // window with every 503, so the rest wait their turn; the breaker opens at the
    // min(consecutiveFailures, minimumCalls) = 5th failure, and from then on only probes go:
    // the breaks last 1000 ms, 2000 ms, 2000 ms (capped), and each failed probe opens it
    // again. When it has opened `trips` times (about 1 s or 3 s in), exactly trips - 1 probes
    // have been sent, and the next one is 2 s away.
    const auto opened = [&] {
        return std::count_if(changed.cbegin(), changed.cend(), [](const QList<QVariant> &args) {
            return args.at(1).value<CircuitBreaker::State>() == CircuitBreaker::Open;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(opened() == trips, 10000);
    const int closedRule = std::min(settings.consecutiveFailures, settings.minimumCalls);
    const qint64 probes = trips - 1;
    const qint64 received = serverTotal();
    const QString figures =
        QStringLiteral("%1 requests received for %2 logical requests").arg(received).arg(herd);
    qInfo().noquote() << figures;
    QVERIFY2(received <= settings.minimumCalls + probes, qPrintable(figures));
    QVERIFY2(received >= closedRule + probes, qPrintable(figures));
    QCOMPARE(breaker->status(m_server->baseUrl()).trips, trips);
    QVERIFY(finishedCount.isEmpty()); // nobody gave up or failed: they wait

    // Healed: the next probe succeeds, closes the breaker, and every request completes once.
    m_server->clearFaults();
    QTRY_COMPARE_WITH_TIMEOUT(breaker->state(m_server->baseUrl()), CircuitBreaker::Closed, 5000);
    // With the budget on too: the probe that closed the breaker refilled the budget, so the
    // retries the outage cost do not hold the herd back.
    QTRY_COMPARE_WITH_TIMEOUT(finishedCount.size(), herd, 10000);
    QTest::qWait(50); // a second finished() would come from a queued call
    for (const auto &reply : replies) {
        QCOMPARE(finishedCount.value(reply.get()), 1);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    }
    qInfo().noquote() << serverTotal() << "requests received in all";
}

void tst_BreakerIntegration::failsAtOnceWhenItMayNotWait_data()
{
    QTest::addColumn<bool>("byPolicy"); // RetryPolicyAttribute, else WaitForConnectivityAttribute
    QTest::newRow("policy") << true;
    QTest::newRow("attribute") << false;
}

void tst_BreakerIntegration::failsAtOnceWhenItMayNotWait()
{
    QFETCH(bool, byPolicy);
    QVERIFY(m_server->addFault(QStringLiteral("status=503")));
    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    CircuitBreaker::Settings streak;
    streak.consecutiveFailures = 5;
    manager.circuitBreaker()->setSettings(streak);
    RetryPolicy once = RetryPolicy::never();
    for (int i = 0; i < 5; ++i) { // five failures in a row open the breaker
        QNetworkRequest request = apiRequest();
        request.setAttribute(
            QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
            QVariant::fromValue(once));
        std::unique_ptr<QNetworkReply> reply(manager.get(request));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(10000));
    }
    QCOMPARE(manager.circuitBreaker()->state(m_server->baseUrl()), CircuitBreaker::Open);
    const qint64 before = serverTotal();
    QCOMPARE(before, 5);

    QNetworkRequest request = apiRequest();
    if (byPolicy) {
        RetryPolicy noWaiting;
        noWaiting.waitForConnectivity = false;
        request.setAttribute(
            QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
            QVariant::fromValue(noWaiting));
    } else {
        request.setAttribute(
            QNetworkRequest::Attribute(RetryingNetworkAccessManager::WaitForConnectivityAttribute),
            false);
    }
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(1000)); // at once: no attempt, no backoff
    QCOMPARE(finished.size(), 1);
    QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
    const QString origin = Reachability::originOf(m_server->baseUrl());
    QVERIFY2(reply->errorString().contains(origin), qPrintable(reply->errorString()));
    // ... and says when the origin will be tried again.
    static const QRegularExpression when(QStringLiteral("in [0-9]+ ms"));
    QVERIFY2(when.match(reply->errorString()).hasMatch(), qPrintable(reply->errorString()));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 0);
    QCOMPARE(serverTotal(), before); // nothing was sent
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 0);
}

QTEST_GUILESS_MAIN(tst_BreakerIntegration)

#include "tst_breakerintegration.moc"
