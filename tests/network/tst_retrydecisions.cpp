// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What is retried, how often and after how long: status classes, Retry-After, timeouts,
// refused connections, deadlines, per-request and custom policies.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "demotoken.h"
#include "testhelpers.h"
#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_RetryDecisions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void serverFaultsThenSuccess();
    void serverFaultLimit();
    void nonRetryableStatus_data();
    void nonRetryableStatus();
    void tlsErrorIsNotRetried();
    void retryAfter_data();
    void retryAfter();
    void demoServerSuccessAfterFaults();
    void attemptTimeoutThenSuccess();
    void connectionRefusedIsRetried();
    void postIsRetriedWhenNeverSent();
    void deadlineEndsWaiting_data();
    void deadlineEndsWaiting();
    void perRequestPolicy();
    void customStrategies();
    void neverMakesExactlyOneAttempt();
    void deadlineWhileBudgetHoldsKeepsLastAnswer();
};

void tst_RetryDecisions::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

void tst_RetryDecisions::serverFaultsThenSuccess()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 3 ? TestServer::respond(503, "busy") : TestServer::respond(200, "hello");
    });

    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QNetworkReply *reply = manager.get(QNetworkRequest(server.url(QStringLiteral("/a"))));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QSignalSpy metaData(reply, &QNetworkReply::metaDataChanged);

    QCOMPARE(waitForBody(reply), QByteArray("hello"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(metaData.size(), 1); // the 503s were never shown to the caller
    QCOMPARE(server.requestCount(), 4);
    QCOMPARE(qobject_cast<RetryingReply *>(reply)->attemptCount(), 4);
    QCOMPARE(scheduled.size(), 3);
    QCOMPARE(scheduled.at(0).at(1).toInt(), 1);
    QCOMPARE(scheduled.at(0).at(2).toLongLong(), 10);
    QCOMPARE(scheduled.at(1).at(2).toLongLong(), 20);
    QCOMPARE(scheduled.at(2).at(2).toLongLong(), 40);
    QCOMPARE(scheduled.at(0).at(3).toString(), QStringLiteral("HTTP 503"));
    QTest::qWait(20);
    QCOMPARE(finished.size(), 1);
    delete reply;
}

void tst_RetryDecisions::serverFaultLimit()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) {
        return TestServer::respond(503, "still busy", { { "X-Try", "yes" } });
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 3;
    manager.setRetryPolicy(policy);
    QSignalSpy gaveUp(&manager, &RetryingNetworkAccessManager::gaveUp);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));

    // The last attempt's response is the answer: status, headers and body.
    QCOMPARE(waitForBody(reply.get()), QByteArray("still busy"));
    QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
    QCOMPARE(reply->rawHeader("X-Try"), QByteArray("yes"));
    QCOMPARE(server.requestCount(), 3);
    QCOMPARE(gaveUp.size(), 1);
    QCOMPARE(gaveUp.at(0).at(1).toString(), QStringLiteral("HTTP 503"));
}

void tst_RetryDecisions::nonRetryableStatus_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("error");
    QTest::newRow("400") << 400 << int(QNetworkReply::ProtocolInvalidOperationError);
    QTest::newRow("401") << 401 << int(QNetworkReply::AuthenticationRequiredError);
    QTest::newRow("404") << 404 << int(QNetworkReply::ContentNotFoundError);
    QTest::newRow("501") << 501 << int(QNetworkReply::OperationNotImplementedError);
}

void tst_RetryDecisions::nonRetryableStatus()
{
    QFETCH(int, status);
    QFETCH(int, error);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [status](const TestServer::Request &, int) { return TestServer::respond(status, "nope"); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QCOMPARE(waitForBody(reply.get()), QByteArray("nope"));
    QCOMPARE(int(reply->error()), error);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), status);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(scheduled.size(), 0);
}

void tst_RetryDecisions::tlsErrorIsNotRetried()
{
    if (!QSslSocket::supportsSsl())
        QSKIP("no TLS backend");
    // A peer that answers a TLS ClientHello with plain HTTP: the handshake fails.
    QTcpServer peer;
    QVERIFY(peer.listen(QHostAddress::LocalHost));
    int connections = 0;
    connect(&peer, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket *s = peer.nextPendingConnection()) {
            ++connections;
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            s->disconnectFromHost();
        }
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QUrl url(QStringLiteral("https://127.0.0.1/"));
    url.setPort(peer.serverPort());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    waitForBody(reply.get());
    QVERIFY2(reply->error() == QNetworkReply::SslHandshakeFailedError ||
                 reply->error() == QNetworkReply::UnknownNetworkError,
             qPrintable(reply->errorString()));
    if (reply->error() == QNetworkReply::SslHandshakeFailedError)
        QCOMPARE(connections, 1);
}

void tst_RetryDecisions::retryAfter_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("lowest");
    QTest::addColumn<qint64>("highest");

    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QLocale c = QLocale::c();
    const QDateTime in8 = now.addSecs(8);
    // Dates have whole seconds: between 7 and 8 s remain when the client reads them.
    QTest::newRow("seconds") << QByteArray("7") << qint64(7000) << qint64(7000);
    QTest::newRow("IMF-fixdate")
        << c.toString(in8, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1()
        << qint64(6000) << qint64(8000);
    QTest::newRow("RFC 850")
        << c.toString(in8, QStringLiteral("dddd, dd-MMM-yy hh:mm:ss 'GMT'")).toLatin1()
        << qint64(6000) << qint64(8000);
    QTest::newRow("asctime")
        << c.toString(in8, QStringLiteral("ddd MMM d hh:mm:ss yyyy")).toLatin1() << qint64(6000)
        << qint64(8000);
    QTest::newRow("past date") << QByteArray("Wed, 21 Oct 2015 07:28:00 GMT") << qint64(0)
                               << qint64(0);
    QTest::newRow("garbage: backoff") << QByteArray("later please") << qint64(123) << qint64(123);
    QTest::newRow("negative: backoff") << QByteArray("-3") << qint64(123) << qint64(123);
    QTest::newRow("huge: capped") << QByteArray("999999999") << qint64(9000) << qint64(9000);
    QTest::newRow("overflow: backoff")
        << QByteArray("99999999999999999999999") << qint64(123) << qint64(123);
}

// The delay announced for the retry is what Retry-After asked for, capped; the test does
// not wait for it.
void tst_RetryDecisions::retryAfter()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, lowest);
    QFETCH(qint64, highest);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([value](const TestServer::Request &, int) {
        return TestServer::respond(429, "slow down", { { "Retry-After", value } });
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 123;
    policy.maxDelayMs = 1000;
    policy.maxRetryAfterMs = 9000;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy scheduled(qobject_cast<RetryingReply *>(reply.get()),
                         &RetryingReply::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    const qint64 delay = scheduled.at(0).at(1).toLongLong();
    QVERIFY2(delay >= lowest && delay <= highest, qPrintable(QString::number(delay)));
    reply->abort();
    QCOMPARE(server.requestCount(), 1);
}

void tst_RetryDecisions::demoServerSuccessAfterFaults()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    const QByteArray token = demoToken(server, &manager);
    QVERIFY(
        server.addFault(QStringLiteral("route=/api/entries*,status=503,count=3,retry-after=0")));
    QNetworkRequest request(
        server.baseUrl().resolved(QUrl(QStringLiteral("/api/entries.json?perPage=5"))));
    request.setRawHeader("Authorization", "Bearer " + token);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    const QJsonObject page = QJsonDocument::fromJson(waitForBody(reply.get())).object();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(page.value(QStringLiteral("_embedded"))
                 .toObject()
                 .value(QStringLiteral("items"))
                 .toArray()
                 .size(),
             5);
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 4);
}

void tst_RetryDecisions::attemptTimeoutThenSuccess()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::stall() : TestServer::respond(200, "late but here");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.attemptTimeoutMs = 150;
    manager.setRetryPolicy(policy);
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QCOMPARE(waitForBody(reply.get()), QByteArray("late but here"));
    int gets = 0;
    for (const auto &r : server.requests())
        gets += r.method == "GET"; // the rest are reachability probes (HEAD)
    QCOMPARE(gets, 2);
    QCOMPARE(scheduled.size(), 1);
    QCOMPARE(scheduled.at(0).at(3).toString(), QStringLiteral("timeout"));
}

void tst_RetryDecisions::connectionRefusedIsRetried()
{
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxConnectivityAttempts = 3;
    policy.waitForConnectivity = false; // the schedule alone decides
    manager.setRetryPolicy(policy);
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(closedPort());
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::ConnectionRefusedError);
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 3);
    QCOMPARE(scheduled.size(), 2);
    QCOMPARE(scheduled.at(0).at(3).toString(), QStringLiteral("connection refused"));
}

// A refused connection never reached the server: even a POST without a key may go again.
void tst_RetryDecisions::postIsRetriedWhenNeverSent()
{
    const quint16 port = closedPort();
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(port);
    std::unique_ptr<QNetworkReply> reply(manager.post(QNetworkRequest(url), QByteArray("payload")));
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QVERIFY(scheduled.wait(5000));

    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<RetryingReply *>(reply.get())->isWaitingForConnectivity(),
                             5000);

    // The server comes up on that port: a probe finds it, and the POST arrives once, with
    // its body.
    TestServer server;
    QVERIFY(server.listen(port));
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.method == "HEAD" ? QByteArray() : "ok");
    });
    QCOMPARE(waitForBody(reply.get()), QByteArray("ok"));
    QList<TestServer::Request> posts;
    for (const auto &r : server.requests()) {
        if (r.method == "POST")
            posts.append(r);
        else
            QCOMPARE(r.method, QByteArray("HEAD")); // the probe
    }
    QCOMPARE(posts.size(), 1);
    QCOMPARE(posts.at(0).body, QByteArray("payload"));
}

void tst_RetryDecisions::deadlineEndsWaiting_data()
{
    QTest::addColumn<bool>("waitForConnectivity");
    QTest::newRow("waiting for connectivity") << true;
    QTest::newRow("on the backoff schedule") << false;
}

void tst_RetryDecisions::deadlineEndsWaiting()
{
    QFETCH(bool, waitForConnectivity);
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.deadlineMs = 300;
    policy.waitForConnectivity = waitForConnectivity;
    manager.setRetryPolicy(policy);
    manager.reachability()->setProbeSchedule(50, 50);
    // Not waiting, the breaker would fail the request at once after 5 refusals: this test
    // is about the deadline.
    CircuitBreaker::Settings noBreaker;
    noBreaker.enabled = false;
    manager.circuitBreaker()->setSettings(noBreaker);
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(closedPort());
    QSignalSpy gaveUp(&manager, &RetryingNetworkAccessManager::gaveUp);
    QSignalSpy waiting(&manager, &RetryingNetworkAccessManager::waitingForConnectivity);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
    const int attempts = qobject_cast<RetryingReply *>(reply.get())->attemptCount();
    if (waitForConnectivity) {
        // One attempt found the origin unreachable; then only probes, no more attempts.
        QCOMPARE(attempts, 1);
        QCOMPARE(waiting.size(), 2);
        QCOMPARE(waiting.at(0).at(1).toBool(), true);
        QCOMPARE(waiting.at(1).at(1).toBool(), false);
        // (Refused: connect probes.)
        QVERIFY(manager.reachability()->connectProbeCount() >= 1);
    } else {
        QVERIFY(attempts > 1);
        QCOMPARE(waiting.size(), 0);
    }
    QCOMPARE(gaveUp.size(), 1);
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1);
}

void tst_RetryDecisions::perRequestPolicy()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url());
    request.setAttribute(
        QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
        QVariant::fromValue(RetryPolicy::never()));
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
    QCOMPARE(server.requestCount(), 1);
}

// Apollo-style custom strategies: retry a 404 twice, with a delay of our choosing.
void tst_RetryDecisions::customStrategies()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 2 ? TestServer::respond(404, "not yet") : TestServer::respond(200, "there");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    QList<RetryContext> seen;
    policy.shouldRetry = [&seen](const RetryContext &context) {
        seen.append(context);
        return context.httpStatus == 404;
    };
    policy.delay = [](const RetryContext &context) { return qint64(context.attempt * 7); };
    manager.setRetryPolicy(policy);
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QCOMPARE(waitForBody(reply.get()), QByteArray("there"));
    QCOMPARE(seen.size(), 2);
    QCOMPARE(seen.at(1).attempt, 2);
    QCOMPARE(seen.at(1).fault, FaultClass::Permanent);
    QCOMPARE(seen.at(1).method, QByteArray("GET"));
    QCOMPARE(scheduled.at(0).at(2).toLongLong(), 7);
    QCOMPARE(scheduled.at(1).at(2).toLongLong(), 14);
}

void tst_RetryDecisions::neverMakesExactlyOneAttempt()
{
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(RetryPolicy::never());
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(closedPort());
    for (int i = 0; i < 2; ++i) { // the second finds the origin known unreachable
        std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        QVERIFY(finished.wait(5000));
        QCOMPARE(reply->error(), QNetworkReply::ConnectionRefusedError);
        QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 1);
    }
}

// The deadline strikes while the retry budget holds the retry back: the last 503 is the
// answer, as RetryPolicy::deadlineMs promises, not a bare timeout.
void tst_RetryDecisions::deadlineWhileBudgetHoldsKeepsLastAnswer()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(503, "full"); });
    RetryingNetworkAccessManager manager;
    CircuitBreaker::Settings noBreaker;
    noBreaker.enabled = false;
    manager.circuitBreaker()->setSettings(noBreaker);
    RetryBudget::Settings tight;
    tight.maxTokens = 2; // one failure leaves half: no retry but by the floor
    tight.minRetriesPerSecond = 0.1;
    manager.retryBudget()->setSettings(tight);
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 50;
    policy.deadlineMs = 800;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QCOMPARE(waitForBody(reply.get()), QByteArray("full"));
    QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
}

QTEST_GUILESS_MAIN(tst_RetryDecisions)
#include "tst_retrydecisions.moc"
