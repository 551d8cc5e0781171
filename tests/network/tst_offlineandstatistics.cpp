// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Simulated offline mode (requests wait without touching the network), the counters in
// statistics() and what the log may hold.

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "scriptedfaultserver.h"
#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QPointer>
#include <QtCore/QStringList>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {
QStringList capturedLog;
void captureMessage(QtMsgType, const QMessageLogContext &, const QString &message)
{
    capturedLog.append(message);
}
} // namespace

class tst_OfflineAndStatistics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void logsHoldNoCredentials();
    void simulatedOffline_data();
    void simulatedOffline();
    void simulatedOfflineFromEnvironment();
    void goingOfflineCutsWhatIsInFlight_data();
    void goingOfflineCutsWhatIsInFlight();
    void writeLeftToFinishGetsItsAnswer_data();
    void writeLeftToFinishGetsItsAnswer();
    void cutWriteDeletedInRetryScheduledGoesNoFurther();
    void statistics();
};

void tst_OfflineAndStatistics::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

// Debug logging on, every attempt logged: neither a header value nor a query token nor the
// URL's password ever reaches the log.
void tst_OfflineAndStatistics::logsHoldNoCredentials()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200);
    });
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*=true"));
    capturedLog.clear();
    const QtMessageHandler previous = qInstallMessageHandler(captureMessage);
    {
        RetryingNetworkAccessManager manager;
        manager.setRetryPolicy(fastPolicy());
        QUrl url = server.url(QStringLiteral("/private"));
        url.setUserName(QStringLiteral("alice"));
        url.setPassword(QStringLiteral("pw-secret-1"));
        url.setQuery(QStringLiteral("access_token=tok-secret-2"));
        QNetworkRequest request(url);
        request.setRawHeader("Authorization", "Bearer hdr-secret-3");
        std::unique_ptr<QNetworkReply> reply(manager.get(request));
        waitForBody(reply.get());
    }
    qInstallMessageHandler(previous);
    QLoggingCategory::setFilterRules(QString());
    const QString all = capturedLog.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QLatin1String("/private")), qPrintable(all)); // it did log
    QVERIFY(!all.contains(QLatin1String("secret")));
}

void tst_OfflineAndStatistics::simulatedOffline_data()
{
    QTest::addColumn<bool>("waitForConnectivity");
    QTest::newRow("waiting for connectivity") << true;
    QTest::newRow("on the backoff schedule") << false;
}

void tst_OfflineAndStatistics::simulatedOffline()
{
    QFETCH(bool, waitForConnectivity);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "back"); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.waitForConnectivity = waitForConnectivity;
    manager.setRetryPolicy(policy);
    QSignalSpy changed(&manager, &RetryingNetworkAccessManager::simulatedOfflineChanged);
    manager.setSimulatedOffline(true);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(manager.reachability()->state(), ReachabilityBackend::Offline);
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> reply(
        manager.post(QNetworkRequest(server.url()), QByteArray("x")));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    if (waitForConnectivity) {
        // Parked: nothing is attempted, no timer spins.
        QVERIFY(retrying->isWaitingForConnectivity());
        QTest::qWait(100);
        QCOMPARE(retrying->attemptCount(), 0);
        QCOMPARE(scheduled.size(), 0);
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(scheduled.size() >= 3, 5000);
        QCOMPARE(scheduled.at(0).at(3).toString(), QStringLiteral("offline (simulated)"));
    }
    QCOMPARE(server.connectionCount(), 0);
    QVERIFY(!reply->isFinished());

    manager.setSimulatedOffline(false);
    QCOMPARE(waitForBody(reply.get()), QByteArray("back"));
    QCOMPARE(server.requestCount(), 1);
    QVERIFY(!retrying->isWaitingForConnectivity());
}

void tst_OfflineAndStatistics::simulatedOfflineFromEnvironment()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "1");
    RetryingNetworkAccessManager manager;
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
    QVERIFY(manager.isSimulatedOffline());
    RetryPolicy policy = fastPolicy();
    policy.deadlineMs = 200;
    manager.setRetryPolicy(policy);
    TestServer server;
    QVERIFY(server.listen());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
    QCOMPARE(server.connectionCount(), 0);
    QVERIFY(!RetryingNetworkAccessManager().isSimulatedOffline());
}

void tst_OfflineAndStatistics::statistics()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return request.target == "/fail" ? TestServer::respond(503) : TestServer::respond(200);
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 2;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> ok(manager.get(QNetworkRequest(server.url())));
    std::unique_ptr<QNetworkReply> bad(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/fail")))));
    waitForBody(ok.get());
    waitForBody(bad.get());
    const RetryStatistics stats = manager.statistics();
    QCOMPARE(stats.requests, 2);
    QCOMPARE(stats.attempts, 3);
    QCOMPARE(stats.retries, 1);
    QCOMPARE(stats.succeeded, 1);
    QCOMPARE(stats.failed, 1);
    QCOMPARE(stats.gaveUp, 1);
}

// Switching simulated offline on is pulling the cable: a request in flight stops at once
// and waits for connectivity (the same reply, not finished), then completes when back. A
// write without a key that may have reached the server is left to finish instead.
void tst_OfflineAndStatistics::goingOfflineCutsWhatIsInFlight_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("cut");

    QTest::newRow("GET") << QByteArray("GET") << QByteArray() << true;
    QTest::newRow("POST with Idempotency-Key") << QByteArray("POST") << QByteArray("k-1") << true;
    QTest::newRow("POST without a key") << QByteArray("POST") << QByteArray() << false;
}

void tst_OfflineAndStatistics::goingOfflineCutsWhatIsInFlight()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, key);
    QFETCH(bool, cut);

    TestServer server;
    QVERIFY(server.listen());
    // The first request stalls (the server is slow); later ones are answered.
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::stall() : TestServer::respond(200, "answer");
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url(QStringLiteral("/slow")));
    if (!key.isEmpty())
        request.setRawHeader("Idempotency-Key", key);
    std::unique_ptr<QNetworkReply> reply(
        method == "GET" ? manager.get(request) : manager.post(request, QByteArray("body")));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 1, 5000);

    manager.setSimulatedOffline(true);
    if (cut) {
        QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 2000);
        QCOMPARE(finished.count(), 0);
        manager.setSimulatedOffline(false);
        QCOMPARE(waitForBody(reply.get()), QByteArray("answer"));
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(server.requestCount(), 2);
        if (!key.isEmpty())
            QCOMPARE(server.requests().at(1).header("Idempotency-Key"), key);
    } else {
        QTest::qWait(200);
        QVERIFY(!retrying->isWaitingForConnectivity());
        QCOMPARE(finished.count(), 0); // still waiting for its own answer
        QCOMPARE(server.requestCount(), 1);
        reply->abort();
        manager.setSimulatedOffline(false);
    }
    QCOMPARE(finished.count(), 1);
}

// Found by the chaos suite (tests/chaos): a keyless POST left to finish when simulated
// offline switches on must still end. Dropping the pooled connections at the switch
// (clearConnectionCache(), which stops Qt's HTTP thread) while it was in flight left it
// without an answer and without finished(), forever.
void tst_OfflineAndStatistics::writeLeftToFinishGetsItsAnswer_data()
{
    QTest::addColumn<bool>("reachedServer");
    QTest::newRow("offline while the server is answering") << true;
    QTest::newRow("offline before the request is out") << false;
}

void tst_OfflineAndStatistics::writeLeftToFinishGetsItsAnswer()
{
    QFETCH(bool, reachedServer);
    ScriptedFaultServer server;
    ScriptedFaultServer::Behaviour slow;
    slow.latencyMs = 150;
    server.setScript({ slow });
    server.setResource("the answer", "\"v1\"");
    QVERIFY(server.listen());
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("text/plain"));
    std::unique_ptr<QNetworkReply> reply(manager.post(request, QByteArray("body")));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (reachedServer)
        QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 1, 5000);
    manager.setSimulatedOffline(true);
    QVERIFY(finished.wait(3000));
    if (reachedServer) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->readAll(), QByteArray("the answer"));
    }
    QVERIFY(server.requestCount() <= 1);
    manager.setSimulatedOffline(false);
}

// From the chaos suite (seed 1289048913): a keyed POST that simulated offline cut while it
// was on its way, deleted by the caller in retryScheduled(). Its request can still reach the
// server once: the cut is an abort queued to Qt's HTTP thread, which may be writing it at
// that moment, as bytes on the wire still arrive when the cable is pulled (that race is not
// reproducible on purpose). What the cut does promise: nothing more after it, neither an
// attempt of ours nor a re-send of Qt's, not even once connectivity is back.
void tst_OfflineAndStatistics::cutWriteDeletedInRetryScheduledGoesNoFurther()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url(QStringLiteral("/orders")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("text/plain"));
    request.setRawHeader("Idempotency-Key", "k-7");
    QPointer<QNetworkReply> reply = manager.post(request, QByteArray("order=7"));
    QSignalSpy attempts(&manager, &RetryingNetworkAccessManager::attemptStarted);
    bool deleted = false;
    connect(&manager, &RetryingNetworkAccessManager::retryScheduled, this, [&](QNetworkReply *r) {
        if (r == reply && !deleted) {
            deleted = true;
            delete reply.data();
        }
    });
    QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 1, 5000);

    manager.setSimulatedOffline(true);
    QVERIFY(deleted);
    QVERIFY(reply.isNull());
    QTest::qWait(100);
    manager.setSimulatedOffline(false);
    QTest::qWait(200);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.connectionCount(), 1);
    QCOMPARE(attempts.count(), 0); // the first one started inside post(), before the spy
}

QTEST_GUILESS_MAIN(tst_OfflineAndStatistics)
#include "tst_offlineandstatistics.moc"
