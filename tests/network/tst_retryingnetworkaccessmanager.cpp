#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QBuffer>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QPointer>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QHttpMultiPart>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using namespace KeepTrying;
using KeepTrying::Test::TestServer;

namespace {

// Short, deterministic schedules: the tests measure behaviour, not time.
RetryPolicy fastPolicy()
{
    RetryPolicy policy;
    policy.initialDelayMs = 10;
    policy.maxDelayMs = 50;
    policy.jitter = Jitter::None;
    return policy;
}

// For tests of something else (the window, a deadline): no circuit breaker, no retry budget.
void switchOffBreakerAndBudget(RetryingNetworkAccessManager &manager)
{
    CircuitBreaker::Settings breaker;
    breaker.enabled = false;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget;
    budget.enabled = false;
    manager.retryBudget()->setSettings(budget);
}

// Waits for finished() and returns the whole body.
QByteArray waitForBody(QNetworkReply *reply, int timeoutMs = 10000)
{
    QByteArray body;
    QObject::connect(reply, &QIODevice::readyRead, reply, [&] { body += reply->readAll(); });
    if (!reply->isFinished()) {
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(timeoutMs))
            return "<timeout>";
    }
    body += reply->readAll();
    return body;
}

using Headers = QList<QPair<QByteArray, QByteArray>>;

} // namespace

// Deletes its target when told, whichever signal tells it.
class Deleter : public QObject
{
    Q_OBJECT
public:
    explicit Deleter(QObject *target) : m_target(target) { }
public Q_SLOTS:
    void deleteTarget() { delete m_target.data(); }

private:
    QPointer<QObject> m_target;
};

// Aborts whichever reply sent the signal it is connected to.
class Aborter : public QObject
{
    Q_OBJECT
public Q_SLOTS:
    void abortSender()
    {
        if (auto *reply = qobject_cast<QNetworkReply *>(sender()))
            reply->abort();
    }
};

class tst_RetryingNetworkAccessManager : public QObject
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
    void abortDuringWaitSendsNothing();
    void deleteDuringWaitSendsNothing();
    void abortDuringAttempt();
    void postWithoutKeyIsNotRetried();
    void postWithIdempotencyKey();
    void callerKeyIsKept();
    void ioDeviceBodyIsReplayed();
    void multipartBodyIsReplayed();
    void resumeWithRange();
    void resumeImpossibleFailsCleanly();
    void resumeRefusedByServer();
    void unreadBodyStartsAfresh();
    void demoServerWriteAppliedOnce();
    void demoServerAbortDuringWait();
    void demoServerSuccessAfterFaults();
    void logsHoldNoCredentials();
    void attemptTimeoutThenSuccess();
    void attemptTimeoutMidBody_data();
    void attemptTimeoutMidBody();
    void connectionRefusedIsRetried();
    void postIsRetriedWhenNeverSent();
    void deadlineEndsWaiting_data();
    void deadlineEndsWaiting();
    void perRequestPolicy();
    void customStrategies();
    void simulatedOffline_data();
    void simulatedOffline();
    void simulatedOfflineFromEnvironment();
    void statistics();
    void transparency_data();
    void transparency();
    void managerFinishedOncePerLogicalRequest();
    void abortIsSynchronousLikeQt_data();
    void abortIsSynchronousLikeQt();
    void managerDeletedWithRepliesInFlight();
    void autoDeleteReplies_data();
    void autoDeleteReplies();
    void deleteInsideSignals_data();
    void deleteInsideSignals();
    void smallReadBufferWithHeldErrorBody();
    void noMetaDataForFailedConnections();
    void concurrencyWindowFollowsOverload();
    void concurrencyWindowSwitchedOffAndOn();
    void scoutGoesAloneToAnOriginNotSeenAlive_data();
    void scoutGoesAloneToAnOriginNotSeenAlive();
    void releaseAfterOutageIsPacedByAnswers_data();
    void releaseAfterOutageIsPacedByAnswers();
    void shedAnswerHoldsItsSlot_data();
    void shedAnswerHoldsItsSlot();
    void lostConnectionAmongLiveOnesIsNoOutage();
    void longResponseDoesNotHoldTheWindow();
    void deadlineFreesASlotGrantedBeforeItsAttempt();
    void neverMakesExactlyOneAttempt();
    void sharedMonitorsDeletedWhileWaiting();
    void deadlineWhileBudgetHoldsKeepsLastAnswer();
    void abortFromInsideSignals_data();
    void abortFromInsideSignals();
    void deleteLaterInsideFinished();
    void readBufferSizeIsHonoured_data();
    void readBufferSizeIsHonoured();
};

void tst_RetryingNetworkAccessManager::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

void tst_RetryingNetworkAccessManager::serverFaultsThenSuccess()
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

void tst_RetryingNetworkAccessManager::serverFaultLimit()
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

void tst_RetryingNetworkAccessManager::nonRetryableStatus_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("error");
    QTest::newRow("400") << 400 << int(QNetworkReply::ProtocolInvalidOperationError);
    QTest::newRow("401") << 401 << int(QNetworkReply::AuthenticationRequiredError);
    QTest::newRow("404") << 404 << int(QNetworkReply::ContentNotFoundError);
    QTest::newRow("501") << 501 << int(QNetworkReply::OperationNotImplementedError);
}

void tst_RetryingNetworkAccessManager::nonRetryableStatus()
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

void tst_RetryingNetworkAccessManager::tlsErrorIsNotRetried()
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

void tst_RetryingNetworkAccessManager::retryAfter_data()
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
void tst_RetryingNetworkAccessManager::retryAfter()
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
    QSignalSpy scheduled(reply.get(), SIGNAL(retryScheduled(int, qint64, QString)));
    QVERIFY(scheduled.wait(5000));
    const qint64 delay = scheduled.at(0).at(1).toLongLong();
    QVERIFY2(delay >= lowest && delay <= highest, qPrintable(QString::number(delay)));
    reply->abort();
    QCOMPARE(server.requestCount(), 1);
}

void tst_RetryingNetworkAccessManager::abortDuringWaitSendsNothing()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 50;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QSignalSpy scheduled(retrying, &RetryingReply::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    QVERIFY(retrying->isWaitingToRetry());

    reply->abort();
    QCOMPARE(finished.size(), 1); // synchronously, as Qt's replies do
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(!retrying->isWaitingToRetry());
    QTest::qWait(200); // four times the backoff: a retry would have gone out by now
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(finished.size(), 1);
}

void tst_RetryingNetworkAccessManager::deleteDuringWaitSendsNothing()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 50;
    manager.setRetryPolicy(policy);
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    delete reply;
    QTest::qWait(200);
    QCOMPARE(server.requestCount(), 1);
}

void tst_RetryingNetworkAccessManager::abortDuringAttempt()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy received(&server, &TestServer::requestReceived);
    QVERIFY(received.wait(5000));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    reply->abort();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(reply->isFinished());
    QTest::qWait(100);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(finished.size(), 1);
}

void tst_RetryingNetworkAccessManager::postWithoutKeyIsNotRetried()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(201, "created");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(
        manager.post(QNetworkRequest(server.url()), QByteArray("{\"a\":1}")));
    waitForBody(reply.get());
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
    QCOMPARE(server.requestCount(), 1);
    QVERIFY(server.requests().at(0).header("Idempotency-Key").isEmpty());
}

void tst_RetryingNetworkAccessManager::postWithIdempotencyKey()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 2 ? TestServer::respond(503) : TestServer::respond(201, "created");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.addIdempotencyKey = true;
    manager.setRetryPolicy(policy);
    const QByteArray body = QByteArray(100000, 'x') + "end";
    QNetworkRequest request(server.url(QStringLiteral("/api/entries.json")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    std::unique_ptr<QNetworkReply> reply(manager.post(request, body));
    QCOMPARE(waitForBody(reply.get()), QByteArray("created"));
    QCOMPARE(server.requestCount(), 3);
    const QByteArray key = server.requests().at(0).header("Idempotency-Key");
    QCOMPARE(key.size(), 36); // a UUID
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->idempotencyKey(), key);
    for (const auto &r : server.requests()) {
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.header("Idempotency-Key"), key);
        QCOMPARE(r.body, body);
    }

    // A second logical request gets a key of its own.
    std::unique_ptr<QNetworkReply> second(manager.post(request, body));
    waitForBody(second.get());
    QVERIFY(server.requests().last().header("Idempotency-Key") != key);
}

void tst_RetryingNetworkAccessManager::callerKeyIsKept()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(502) : TestServer::respond(200, "patched");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.addIdempotencyKey = true;
    manager.setRetryPolicy(policy);
    QNetworkRequest request(server.url());
    request.setRawHeader("Idempotency-Key", "mine-123");
    std::unique_ptr<QNetworkReply> reply(manager.sendCustomRequest(request, "PATCH", "{}"));
    QCOMPARE(waitForBody(reply.get()), QByteArray("patched"));
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(server.requests().at(0).method, QByteArray("PATCH"));
    QCOMPARE(server.requests().at(1).header("Idempotency-Key"), QByteArray("mine-123"));
}

void tst_RetryingNetworkAccessManager::ioDeviceBodyIsReplayed()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(500) : TestServer::respond(204);
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QByteArray data;
    for (int i = 0; i < 5000; ++i)
        data += QByteArray::number(i) + ',';
    QBuffer device(&data);
    QVERIFY(device.open(QIODevice::ReadOnly));
    std::unique_ptr<QNetworkReply> reply(manager.put(QNetworkRequest(server.url()), &device));
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(server.requests().at(0).body, data);
    QCOMPARE(server.requests().at(1).body, data);
}

void tst_RetryingNetworkAccessManager::multipartBodyIsReplayed()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200, "stored");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.addIdempotencyKey = true;
    manager.setRetryPolicy(policy);
    auto *multiPart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    QHttpPart part;
    part.setHeader(QNetworkRequest::ContentDispositionHeader,
                   QVariant(QStringLiteral("form-data; name=\"note\"")));
    part.setBody("a note");
    multiPart->append(part);
    std::unique_ptr<QNetworkReply> reply(manager.post(QNetworkRequest(server.url()), multiPart));
    multiPart->setParent(reply.get());
    QCOMPARE(waitForBody(reply.get()), QByteArray("stored"));
    QCOMPARE(server.requestCount(), 2);
    QVERIFY(server.requests().at(0).body.contains("a note"));
    QCOMPARE(server.requests().at(1).body, server.requests().at(0).body);
}

// The body breaks off after 400 of 1000 bytes; the retry asks for the rest with Range and
// If-Range, and the caller gets every byte once.
void tst_RetryingNetworkAccessManager::resumeWithRange()
{
    QByteArray content;
    for (int i = 0; i < 1000; ++i)
        content += char('a' + i % 26);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([content](const TestServer::Request &request, int index) {
        if (index == 0)
            return TestServer::cutOff(200, content.size(), content.left(400),
                                      { { "Accept-Ranges", "bytes" }, { "ETag", "\"v1\"" } });
        if (request.header("Range") != "bytes=400-" || request.header("If-Range") != "\"v1\"")
            return TestServer::respond(400, "bad range");
        return TestServer::respond(
            206, content.mid(400),
            { { "Content-Range", "bytes 400-999/1000" }, { "ETag", "\"v1\"" } });
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy metaData(reply.get(), &QNetworkReply::metaDataChanged);
    const QByteArray body = waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(body.size(), content.size());
    QCOMPARE(body, content);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(metaData.size(), 1);
}

void tst_RetryingNetworkAccessManager::resumeImpossibleFailsCleanly()
{
    const QByteArray content(1000, 'z');
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([content](const TestServer::Request &, int) {
        return TestServer::cutOff(200, content.size(), content.left(400));
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    const QByteArray body = waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
    QCOMPARE(body, content.left(400)); // exactly what arrived, once
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(finished.size(), 1);
}

void tst_RetryingNetworkAccessManager::resumeRefusedByServer()
{
    // The resource changed between attempts: If-Range fails and a full 200 comes back.
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        if (index == 0)
            return TestServer::cutOff(200, 10, "01234",
                                      { { "Accept-Ranges", "bytes" }, { "ETag", "\"v1\"" } });
        return TestServer::respond(200, "ABCDEFGHIJ", { { "ETag", "\"v2\"" } });
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    const QByteArray body = waitForBody(reply.get());
    QCOMPARE(body, QByteArray("01234"));
    QVERIFY(reply->error() != QNetworkReply::NoError);
    QCOMPARE(server.requestCount(), 2);
}

void tst_RetryingNetworkAccessManager::attemptTimeoutThenSuccess()
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

void tst_RetryingNetworkAccessManager::attemptTimeoutMidBody_data()
{
    QTest::addColumn<bool>("resumable");
    QTest::newRow("resumable") << true;
    QTest::newRow("not resumable") << false;
}

// The body stalls half-way: the attempt times out, and what arrived is kept exactly once.
void tst_RetryingNetworkAccessManager::attemptTimeoutMidBody()
{
    QFETCH(bool, resumable);
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
    const QByteArray content = QByteArray(3000, 'a') + QByteArray(3000, 'b');
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const TestServer::Request &, int index) {
        if (index > 0)
            return TestServer::respond(206, content.mid(3000),
                                       { { "Content-Range", "bytes 3000-5999/6000" } });
        Headers headers;
        if (resumable)
            headers = { { "Accept-Ranges", "bytes" },
                        { "Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT" } };
        TestServer::Response stalled =
            TestServer::cutOff(200, content.size(), content.left(3000), headers);
        stalled.ending = TestServer::Response::Stall;
        return stalled;
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.attemptTimeoutMs = 200;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    const QByteArray body = waitForBody(reply.get());
    if (resumable) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(body, content);
        QCOMPARE(server.requests().at(1).header("If-Range"),
                 QByteArray("Wed, 21 Oct 2015 07:28:00 GMT"));
    } else {
        QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
        QCOMPARE(body, content.left(3000));
        QCOMPARE(server.requestCount(), 1);
    }
}

static quint16 closedPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort(); // closed again when probe goes
}

void tst_RetryingNetworkAccessManager::connectionRefusedIsRetried()
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
void tst_RetryingNetworkAccessManager::postIsRetriedWhenNeverSent()
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

void tst_RetryingNetworkAccessManager::deadlineEndsWaiting_data()
{
    QTest::addColumn<bool>("waitForConnectivity");
    QTest::newRow("waiting for connectivity") << true;
    QTest::newRow("on the backoff schedule") << false;
}

void tst_RetryingNetworkAccessManager::deadlineEndsWaiting()
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
        QVERIFY(manager.reachability()->probeCount() >= 1);
    } else {
        QVERIFY(attempts > 1);
        QCOMPARE(waiting.size(), 0);
    }
    QCOMPARE(gaveUp.size(), 1);
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1);
}

void tst_RetryingNetworkAccessManager::perRequestPolicy()
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
void tst_RetryingNetworkAccessManager::customStrategies()
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

void tst_RetryingNetworkAccessManager::simulatedOffline_data()
{
    deadlineEndsWaiting_data();
}

void tst_RetryingNetworkAccessManager::simulatedOffline()
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

void tst_RetryingNetworkAccessManager::simulatedOfflineFromEnvironment()
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

void tst_RetryingNetworkAccessManager::statistics()
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

// The same expectations hold for Qt's own manager and ours: a caller cannot tell them apart
// when nothing fails.
void tst_RetryingNetworkAccessManager::transparency_data()
{
    QTest::addColumn<bool>("retrying");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("error");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("finalPath");

    for (bool retrying : { false, true }) {
        const char *who = retrying ? "KeepTrying" : "Qt";
        QTest::addRow("%s GET 200", who)
            << retrying << QByteArray("GET") << "/ok" << 200 << int(QNetworkReply::NoError)
            << QByteArray("payload") << "/ok";
        QTest::addRow("%s GET 404", who) << retrying << QByteArray("GET") << "/missing" << 404
                                         << int(QNetworkReply::ContentNotFoundError)
                                         << QByteArray("no such thing") << "/missing";
        QTest::addRow("%s HEAD", who) << retrying << QByteArray("HEAD") << "/ok" << 200
                                      << int(QNetworkReply::NoError) << QByteArray() << "/ok";
        QTest::addRow("%s POST", who)
            << retrying << QByteArray("POST") << "/echo" << 200 << int(QNetworkReply::NoError)
            << QByteArray("sent body") << "/echo";
        QTest::addRow("%s redirect", who)
            << retrying << QByteArray("GET") << "/old" << 200 << int(QNetworkReply::NoError)
            << QByteArray("payload") << "/ok";
        QTest::addRow("%s DELETE", who)
            << retrying << QByteArray("DELETE") << "/ok" << 200 << int(QNetworkReply::NoError)
            << QByteArray("payload") << "/ok";
    }
}

void tst_RetryingNetworkAccessManager::transparency()
{
    QFETCH(bool, retrying);
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(int, status);
    QFETCH(int, error);
    QFETCH(QByteArray, body);
    QFETCH(QString, finalPath);

    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        if (request.target == "/ok")
            return TestServer::respond(200, request.method == "HEAD" ? QByteArray() : "payload",
                                       { { "Content-Type", "text/plain" }, { "X-Custom", "1" } });
        if (request.target == "/echo")
            return TestServer::respond(200, request.body, { { "Content-Type", "text/plain" } });
        if (request.target == "/old")
            return TestServer::respond(301, QByteArray(), { { "Location", "/ok" } });
        return TestServer::respond(404, "no such thing");
    });

    std::unique_ptr<QNetworkAccessManager> manager(retrying ? new RetryingNetworkAccessManager
                                                            : new QNetworkAccessManager);
    QSignalSpy managerFinished(manager.get(), &QNetworkAccessManager::finished);
    QNetworkRequest request(server.url(path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    QNetworkReply *raw = nullptr;
    if (method == "GET")
        raw = manager->get(request);
    else if (method == "HEAD")
        raw = manager->head(request);
    else if (method == "DELETE")
        raw = manager->deleteResource(request);
    else
        raw = manager->post(request, QByteArray("sent body"));
    std::unique_ptr<QNetworkReply> reply(raw);
    QCOMPARE(reply->isRunning(), true);
    QCOMPARE(reply->isFinished(), false);
    QCOMPARE(reply->isOpen(), true);
    QCOMPARE(reply->manager(), manager.get());
    QCOMPARE(reply->operation() == QNetworkAccessManager::CustomOperation, false);
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QSignalSpy errorSpy(reply.get(), &QNetworkReply::errorOccurred);
    QSignalSpy metaData(reply.get(), &QNetworkReply::metaDataChanged);
    QSignalSpy progress(reply.get(), &QNetworkReply::downloadProgress);

    QCOMPARE(waitForBody(reply.get()), body);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(managerFinished.size(), 1);
    QCOMPARE(managerFinished.at(0).at(0).value<QNetworkReply *>(), reply.get());
    QCOMPARE(int(reply->error()), error);
    QCOMPARE(errorSpy.size(), error == QNetworkReply::NoError ? 0 : 1);
    QVERIFY(metaData.size() >= 1);
    QVERIFY(reply->isFinished());
    QVERIFY(!reply->isRunning());
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), status);
    QVERIFY(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).isValid());
    QCOMPARE(reply->url().path(), finalPath);
    QCOMPARE(reply->request().url().path(), path);
    if (status == 200 && method != "HEAD") {
        QCOMPARE(reply->header(QNetworkRequest::ContentTypeHeader).toString(),
                 QStringLiteral("text/plain"));
        QCOMPARE(reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(), body.size());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toLongLong(), qint64(body.size()));
    }
    if (path == QLatin1String("/ok") && method == "GET")
        QCOMPARE(reply->rawHeader("X-Custom"), QByteArray("1"));
    QVERIFY(!reply->hasRawHeader("Location"));
    QCOMPARE(reply->bytesAvailable(), 0);
    QCOMPARE(reply->read(10), QByteArray());
}

void tst_RetryingNetworkAccessManager::managerFinishedOncePerLogicalRequest()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 2 ? TestServer::respond(503) : TestServer::respond(200, "x");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QSignalSpy managerFinished(&manager, &QNetworkAccessManager::finished);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    waitForBody(reply.get());
    QTest::qWait(20);
    QCOMPARE(managerFinished.size(), 1);
    QCOMPARE(managerFinished.at(0).at(0).value<QNetworkReply *>(), reply.get());
}

void tst_RetryingNetworkAccessManager::abortIsSynchronousLikeQt_data()
{
    QTest::addColumn<bool>("retrying");
    QTest::newRow("Qt") << false;
    QTest::newRow("KeepTrying") << true;
}

void tst_RetryingNetworkAccessManager::abortIsSynchronousLikeQt()
{
    QFETCH(bool, retrying);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    std::unique_ptr<QNetworkAccessManager> manager(retrying ? new RetryingNetworkAccessManager
                                                            : new QNetworkAccessManager);
    std::unique_ptr<QNetworkReply> reply(manager->get(QNetworkRequest(server.url())));
    QSignalSpy received(&server, &TestServer::requestReceived);
    QVERIFY(received.wait(5000));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QSignalSpy errors(reply.get(), &QNetworkReply::errorOccurred);
    reply->abort();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(reply->isFinished());
    QVERIFY(!reply->isOpen());
    reply->abort(); // a second abort is harmless
    QCOMPARE(finished.size(), 1);
}

void tst_RetryingNetworkAccessManager::readBufferSizeIsHonoured_data()
{
    abortIsSynchronousLikeQt_data();
}

void tst_RetryingNetworkAccessManager::readBufferSizeIsHonoured()
{
    QFETCH(bool, retrying);
    const QByteArray content(512 * 1024, 'q');
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [content](const TestServer::Request &, int) { return TestServer::respond(200, content); });
    std::unique_ptr<QNetworkAccessManager> manager(retrying ? new RetryingNetworkAccessManager
                                                            : new QNetworkAccessManager);
    std::unique_ptr<QNetworkReply> reply(manager->get(QNetworkRequest(server.url())));
    reply->setReadBufferSize(16 * 1024);
    // A slow reader: 4 KiB per millisecond, whatever has arrived.
    qint64 largest = 0;
    QByteArray body;
    QTimer reader;
    connect(&reader, &QTimer::timeout, this, [&] {
        largest = std::max(largest, reply->bytesAvailable());
        body += reply->read(4096);
    });
    reader.start(1);
    QTRY_COMPARE_WITH_TIMEOUT(body.size(), content.size(), 10000);
    QVERIFY(reply->isFinished());
    QCOMPARE(body, content);
    QVERIFY2(largest <= 64 * 1024, qPrintable(QString::number(largest)));
}

// Qt's manager deletes every reply below it, attempts included: nothing may be deleted twice.
void tst_RetryingNetworkAccessManager::managerDeletedWithRepliesInFlight()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return request.target == "/stall" ? TestServer::stall() : TestServer::respond(503);
    });
    auto *manager = new RetryingNetworkAccessManager;
    manager->setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> running =
        manager->get(QNetworkRequest(server.url(QStringLiteral("/stall"))));
    QPointer<QNetworkReply> waiting = manager->get(QNetworkRequest(server.url()));
    QPointer<QNetworkReply> done = manager->get(QNetworkRequest(server.url(QStringLiteral("/x"))));
    QSignalSpy scheduled(waiting.data(), SIGNAL(retryScheduled(int, qint64, QString)));
    QVERIFY(scheduled.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(server.requestCount() >= 3, true, 5000);
    delete manager;
    QVERIFY(running.isNull());
    QVERIFY(waiting.isNull());
    QVERIFY(done.isNull());
    const int seen = server.requestCount();
    QTest::qWait(100);
    QCOMPARE(server.requestCount(), seen);
}

void tst_RetryingNetworkAccessManager::abortFromInsideSignals_data()
{
    QTest::addColumn<QByteArray>("signal");
    QTest::newRow("attemptStarted") << QByteArray(SIGNAL(attemptStarted(int)));
    QTest::newRow("retryScheduled") << QByteArray(SIGNAL(retryScheduled(int, qint64, QString)));
    QTest::newRow("metaDataChanged") << QByteArray(SIGNAL(metaDataChanged()));
    QTest::newRow("readyRead") << QByteArray(SIGNAL(readyRead()));
}

// abort() from a slot of our own signals: finished() once, and nothing more is sent.
void tst_RetryingNetworkAccessManager::abortFromInsideSignals()
{
    QFETCH(QByteArray, signal);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200, "body");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkReply *reply = manager.get(QNetworkRequest(server.url()));
    std::unique_ptr<QNetworkReply> owner(reply);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    // attemptStarted(1) has already passed: aborting on attempt 2 is what can be tested.
    Aborter aborter;
    QVERIFY(QObject::connect(reply, signal.constData(), &aborter, SLOT(abortSender())));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1);
    QVERIFY(server.requestCount() <= 2);
}

void tst_RetryingNetworkAccessManager::deleteLaterInsideFinished()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200, "body");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    QByteArray body;
    connect(reply, &QNetworkReply::finished, this, [&] {
        body = reply->readAll();
        reply->deleteLater();
    });
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
    QCOMPARE(body, QByteArray("body"));
}

// A caller that reads only at finished() never saw the broken body: the retry starts afresh.
void tst_RetryingNetworkAccessManager::unreadBodyStartsAfresh()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::cutOff(200, 100, QByteArray(40, 'x'))
                          : TestServer::respond(200, QByteArray(100, 'y'));
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray(100, 'y'));
    QCOMPARE(server.requestCount(), 2);
}

namespace {

QByteArray demoToken(QNetworkAccessManager &manager, const QUrl &base)
{
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("password"));
    form.addQueryItem(QStringLiteral("client_id"), Demo::DemoServer::demoClientId());
    form.addQueryItem(QStringLiteral("client_secret"), Demo::DemoServer::demoClientSecret());
    form.addQueryItem(QStringLiteral("username"), Demo::DemoServer::demoUsername());
    form.addQueryItem(QStringLiteral("password"), Demo::DemoServer::demoPassword());
    QNetworkRequest request(base.resolved(QUrl(QStringLiteral("/oauth/v2/token"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArray("application/x-www-form-urlencoded"));
    std::unique_ptr<QNetworkReply> reply(
        manager.post(request, form.toString(QUrl::FullyEncoded).toLatin1()));
    const QByteArray body = waitForBody(reply.get());
    return QJsonDocument::fromJson(body)
        .object()
        .value(QStringLiteral("access_token"))
        .toString()
        .toLatin1();
}

} // namespace

// The first POST is applied but its answer is lost mid-body; the retry carries the same
// Idempotency-Key and body, and the server answers it from its record instead of applying it
// again.
void tst_RetryingNetworkAccessManager::demoServerWriteAppliedOnce()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.addIdempotencyKey = true;
    manager.setRetryPolicy(policy);
    const QByteArray token = demoToken(manager, server.baseUrl());
    QVERIFY(!token.isEmpty());
    QVERIFY(server.addFault(
        QStringLiteral("route=/api/entries.json,method=POST,drop=mid-body,count=1")));
    server.resetStats();

    QNetworkRequest request(server.baseUrl().resolved(QUrl(QStringLiteral("/api/entries.json"))));
    request.setRawHeader("Authorization", "Bearer " + token);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    const QByteArray body = R"({"url":"https://example.org/kept","title":"Kept once"})";
    std::unique_ptr<QNetworkReply> reply(manager.post(request, body));
    // Read at finished(), as most callers do: the broken first answer was never read.
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    const QByteArray answer = reply->readAll();
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(QJsonDocument::fromJson(answer).object().value(QStringLiteral("title")).toString(),
             QStringLiteral("Kept once"));

    const QJsonObject stats = server.stats();
    QCOMPARE(stats.value(QStringLiteral("writes_applied")).toInt(), 1);
    QCOMPARE(stats.value(QStringLiteral("duplicate_writes_rejected")).toInt(), 1);
    QList<Demo::RecordedRequest> posts;
    for (const auto &r : server.recordedRequests()) {
        if (r.method == "POST" && r.path == QLatin1String("/api/entries.json"))
            posts.append(r);
    }
    QCOMPARE(posts.size(), 2);
    QCOMPARE(posts.at(0).body, body);
    QCOMPARE(posts.at(1).body, body);
    auto keyOf = [](const Demo::RecordedRequest &r) {
        for (const auto &h : r.headers) {
            if (h.first.compare("Idempotency-Key", Qt::CaseInsensitive) == 0)
                return h.second;
        }
        return QByteArray();
    };
    QVERIFY(!keyOf(posts.at(0)).isEmpty());
    QCOMPARE(keyOf(posts.at(1)), keyOf(posts.at(0)));
}

void tst_RetryingNetworkAccessManager::demoServerAbortDuringWait()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    QVERIFY(server.addFault(QStringLiteral("status=503")));
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 100;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(
        QNetworkRequest(server.baseUrl().resolved(QUrl(QStringLiteral("/api/version"))))));
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    reply->abort();
    QTest::qWait(300);
    QCOMPARE(server.stats().value(QStringLiteral("total_requests")).toInt(), 1);
}

void tst_RetryingNetworkAccessManager::demoServerSuccessAfterFaults()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    const QByteArray token = demoToken(manager, server.baseUrl());
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

namespace {
QStringList capturedLog;
void captureMessage(QtMsgType, const QMessageLogContext &, const QString &message)
{
    capturedLog.append(message);
}
} // namespace

// Debug logging on, every attempt logged: neither a header value nor a query token nor the
// URL's password ever reaches the log.
void tst_RetryingNetworkAccessManager::logsHoldNoCredentials()
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

void tst_RetryingNetworkAccessManager::autoDeleteReplies_data()
{
    abortIsSynchronousLikeQt_data();
}

void tst_RetryingNetworkAccessManager::autoDeleteReplies()
{
    QFETCH(bool, retrying);
    TestServer server;
    QVERIFY(server.listen());
    std::unique_ptr<QNetworkAccessManager> manager(retrying ? new RetryingNetworkAccessManager
                                                            : new QNetworkAccessManager);
    manager->setAutoDeleteReplies(true);
    QPointer<QNetworkReply> reply = manager->get(QNetworkRequest(server.url()));
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
}

void tst_RetryingNetworkAccessManager::deleteInsideSignals_data()
{
    QTest::addColumn<QByteArray>("signal");
    QTest::addColumn<bool>("deleteManager");
    const char *signals[] = { SIGNAL(attemptStarted(int)),
                              SIGNAL(retryScheduled(int, qint64, QString)),
                              SIGNAL(waitingToRetryChanged(bool)),
                              SIGNAL(gaveUp(QString)),
                              SIGNAL(errorOccurred(QNetworkReply::NetworkError)),
                              SIGNAL(metaDataChanged()),
                              SIGNAL(readyRead()),
                              SIGNAL(finished()) };
    for (const char *signal : signals) {
        for (bool deleteManager : { false, true }) {
            QTest::addRow("%s, delete %s", signal + 1, deleteManager ? "manager" : "reply")
                << QByteArray(signal) << deleteManager;
        }
    }
}

// Deleting the reply, or its manager, from a slot of any of its signals is safe (run under
// ASan to see it), and nothing more is sent afterwards.
void tst_RetryingNetworkAccessManager::deleteInsideSignals()
{
    QFETCH(QByteArray, signal);
    QFETCH(bool, deleteManager);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 2 ? TestServer::respond(503, "busy") : TestServer::respond(200, "body");
    });
    auto *manager = new RetryingNetworkAccessManager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 2; // two 503s: gaveUp and errorOccurred happen too
    manager->setRetryPolicy(policy);
    QPointer<QNetworkReply> reply = manager->get(QNetworkRequest(server.url()));
    QPointer<RetryingNetworkAccessManager> guard(manager);
    Deleter deleter(deleteManager ? static_cast<QObject *>(manager) : reply.data());
    QVERIFY(QObject::connect(reply, signal.constData(), &deleter, SLOT(deleteTarget())));
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
    const int seen = server.requestCount();
    QTest::qWait(60);
    QCOMPARE(server.requestCount(), seen);
    delete guard.data();
}

// A 503 with a body larger than the read buffer is held until it ends; it must not stall.
void tst_RetryingNetworkAccessManager::smallReadBufferWithHeldErrorBody()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503, QByteArray(200000, 'e'))
                          : TestServer::respond(200, "fine");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    reply->setReadBufferSize(4096);
    QCOMPARE(waitForBody(reply.get()), QByteArray("fine"));

    // And when the held 503 is the final answer, its whole body reaches the caller.
    server.setHandler([](const TestServer::Request &, int) {
        return TestServer::respond(503, QByteArray(200000, 'e'));
    });
    RetryPolicy once = fastPolicy();
    once.maxAttempts = 2;
    manager.setRetryPolicy(once);
    std::unique_ptr<QNetworkReply> failing(manager.get(QNetworkRequest(server.url())));
    failing->setReadBufferSize(4096);
    QCOMPARE(waitForBody(failing.get()), QByteArray(200000, 'e'));
    QCOMPARE(failing->error(), QNetworkReply::ServiceUnavailableError);
}

void tst_RetryingNetworkAccessManager::noMetaDataForFailedConnections()
{
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxConnectivityAttempts = 3;
    policy.waitForConnectivity = false;
    manager.setRetryPolicy(policy);
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(closedPort());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    QSignalSpy metaData(reply.get(), &QNetworkReply::metaDataChanged);
    QSignalSpy readyRead(reply.get(), &QNetworkReply::readyRead);
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::ConnectionRefusedError);
    QCOMPARE(metaData.size(), 0); // as Qt's own reply: no response, no metadata
    QCOMPARE(readyRead.size(), 0);
}

// A server that serves one request at a time and sheds the rest with 503: the window
// shrinks to one, so far fewer requests are shed than with every request on its own; it grows
// again with answers. Every request completes once.
void tst_RetryingNetworkAccessManager::concurrencyWindowFollowsOverload()
{
    int rejected[2] = { 0, 0 };
    for (bool adaptive : { false, true }) {
        Demo::DemoServer server;
        QVERIFY(server.listen() != 0);
        server.setMaxConcurrent(1);
        server.setServiceTime(30);
        RetryingNetworkAccessManager manager;
        manager.setAdaptiveConcurrencyEnabled(adaptive);
        QCOMPARE(manager.isAdaptiveConcurrencyEnabled(), adaptive);
        RetryPolicy policy = fastPolicy();
        policy.maxAttempts = 1000;
        manager.setRetryPolicy(policy);
        switchOffBreakerAndBudget(manager); // the window alone
        const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
        QCOMPARE(manager.concurrencyLimit(url), 6);

        std::vector<std::unique_ptr<QNetworkReply>> replies;
        int finished = 0;
        for (int i = 0; i < 12; ++i) {
            replies.emplace_back(manager.get(QNetworkRequest(url)));
            connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, 12, 15000);
        for (const auto &reply : replies)
            QCOMPARE(reply->error(), QNetworkReply::NoError);
        rejected[adaptive] = server.stats().value(QStringLiteral("capacity_rejections")).toInt();
        if (adaptive)
            QVERIFY(manager.concurrencyLimit(url) >= 1);
    }
    QVERIFY2(rejected[1] * 2 < rejected[0],
             qPrintable(QStringLiteral("shed with the window: %1, without: %2")
                            .arg(rejected[1])
                            .arg(rejected[0])));
}

// Switching the window off lets the queue go; switching it on again starts from the truth.
void tst_RetryingNetworkAccessManager::concurrencyWindowSwitchedOffAndOn()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setServiceTime(200);
    RetryingNetworkAccessManager manager;
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    int finished = 0;
    const auto get = [&] {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    };
    for (int i = 0; i < 10; ++i)
        get();
    QTest::qWait(50); // six in flight, four queued
    manager.setAdaptiveConcurrencyEnabled(false);
    QTRY_COMPARE_WITH_TIMEOUT(finished, 10, 10000);
    manager.setAdaptiveConcurrencyEnabled(true);
    for (int i = 0; i < 3; ++i)
        get();
    QTRY_COMPARE_WITH_TIMEOUT(finished, 13, 10000);
}

// An origin never seen alive gets one attempt, a scout, until its connection is up: a server
// that is down costs one refused connection, not one per request; a live one gets the whole
// window as soon as the scout's request went out, long before its answer.
void tst_RetryingNetworkAccessManager::scoutGoesAloneToAnOriginNotSeenAlive_data()
{
    QTest::addColumn<bool>("serverUp");
    QTest::newRow("connections refused") << false;
    QTest::newRow("server answering slowly") << true;
}

void tst_RetryingNetworkAccessManager::scoutGoesAloneToAnOriginNotSeenAlive()
{
    QFETCH(bool, serverUp);
    constexpr int count = 10;
    Demo::DemoServer server;
    QUrl url;
    if (serverUp) {
        QVERIFY(server.listen() != 0);
        server.setServiceTime(1000);
        url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    } else {
        url = QUrl(QStringLiteral("http://127.0.0.1/"));
        url.setPort(closedPort());
    }
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(nullptr);
    int attempts = 0;
    connect(&manager, &RetryingNetworkAccessManager::attemptStarted, this, [&] { ++attempts; });
    int finished = 0;
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < count; ++i) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QCOMPARE(attempts, 1); // the scout
    if (serverUp) {
        // Once its request is out, the window's six: all before any answer.
        QTRY_COMPARE_WITH_TIMEOUT(server.stats().value(QStringLiteral("total_requests")).toInt(), 6,
                                  900);
        QCOMPARE(finished, 0);
        QCOMPARE(attempts, 6);
        for (const auto &reply : replies)
            reply->abort();
        return;
    }
    const auto allWaiting = [&] {
        return std::all_of(replies.cbegin(), replies.cend(), [](const auto &reply) {
            return qobject_cast<RetryingReply *>(reply.get())->isWaitingForConnectivity();
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allWaiting(), 2000);
    QCOMPARE(attempts, 1);
    QCOMPARE(finished, 0);
}

// After an outage the window restarts at one, and the first answers come one at a time:
// every client that waited comes back at once, and a server fresh from a restart must not
// get their backlogs in one burst. Without the window, the backlog goes out together.
void tst_RetryingNetworkAccessManager::releaseAfterOutageIsPacedByAnswers_data()
{
    QTest::addColumn<bool>("adaptive");
    QTest::addColumn<int>("minPeak");
    QTest::addColumn<int>("maxPeak");
    QTest::newRow("window") << true << 1 << 1;
    QTest::newRow("no window (control)") << false << 3 << 10;
}

void tst_RetryingNetworkAccessManager::releaseAfterOutageIsPacedByAnswers()
{
    QFETCH(bool, adaptive);
    QFETCH(int, minPeak);
    QFETCH(int, maxPeak);
    constexpr int count = 10;
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setServiceTime(30);
    RetryingNetworkAccessManager manager;
    manager.setAdaptiveConcurrencyEnabled(adaptive);
    manager.reachability()->setBackend(nullptr);
    manager.reachability()->setProbeSchedule(50, 50);
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));

    server.goDown(300);
    QVERIFY(server.isDown());
    int finished = 0;
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < count; ++i) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QSignalSpy back(&server, &Demo::DemoServer::downChanged);
    QVERIFY(back.wait(5000));
    server.resetStats();
    QTRY_COMPARE_WITH_TIMEOUT(finished, count, 10000);
    for (const auto &reply : replies)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    const int peak = server.stats().value(QStringLiteral("peak_in_progress")).toInt();
    QVERIFY2(peak >= minPeak && peak <= maxPeak, qPrintable(QString::number(peak)));
}

// A server that sheds load answers 503 at once. The slot of a shed attempt stays taken for
// one smoothed round trip, so a client does not ask again and again within one round trip
// of the request the server is busy with.
void tst_RetryingNetworkAccessManager::shedAnswerHoldsItsSlot_data()
{
    QTest::addColumn<bool>("adaptive");
    QTest::newRow("window") << true;
    QTest::newRow("no window (control)") << false;
}

void tst_RetryingNetworkAccessManager::shedAnswerHoldsItsSlot()
{
    QFETCH(bool, adaptive);
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setMaxConcurrent(1);
    server.setServiceTime(200);
    RetryingNetworkAccessManager manager;
    manager.setAdaptiveConcurrencyEnabled(adaptive);
    RetryPolicy policy;
    policy.initialDelayMs = 1;
    policy.maxDelayMs = 1;
    policy.jitter = Jitter::None;
    policy.maxAttempts = 10000;
    manager.setRetryPolicy(policy);
    switchOffBreakerAndBudget(manager); // the window alone
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));

    // One answer first: the round trip is 200 ms.
    std::unique_ptr<QNetworkReply> first(manager.get(QNetworkRequest(url)));
    QSignalSpy firstDone(first.get(), &QNetworkReply::finished);
    QVERIFY(firstDone.wait(5000));
    QCOMPARE(first->error(), QNetworkReply::NoError);

    // Two at once: one is served, the other shed until the first is done.
    server.resetStats();
    std::unique_ptr<QNetworkReply> a(manager.get(QNetworkRequest(url)));
    std::unique_ptr<QNetworkReply> b(manager.get(QNetworkRequest(url)));
    QSignalSpy aDone(a.get(), &QNetworkReply::finished);
    QSignalSpy bDone(b.get(), &QNetworkReply::finished);
    QVERIFY(aDone.wait(5000));
    QVERIFY(bDone.count() == 1 || bDone.wait(5000));
    QCOMPARE(a->error(), QNetworkReply::NoError);
    QCOMPARE(b->error(), QNetworkReply::NoError);
    const int shed = server.stats().value(QStringLiteral("capacity_rejections")).toInt();
    if (adaptive)
        QVERIFY2(shed <= 3, qPrintable(QString::number(shed))); // see the window's rules
    else
        QVERIFY2(shed >= 10, qPrintable(QString::number(shed))); // a retry every millisecond
}

// One connection lost while five others to the same origin are alive is a glitch, not an
// outage: the window restarts at one and grows back with their answers (slow start up to half
// of what was in flight), rather than sending the next requests one at a time.
void tst_RetryingNetworkAccessManager::lostConnectionAmongLiveOnesIsNoOutage()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    // Qt itself sends a request again, up to three times, when its connection closes before
    // any response: four drops make the loss reach us.
    QVERIFY(server.addFault(QStringLiteral("route=/images/preview-02.png,drop=before-headers,"
                                           "count=4")));
    QVERIFY(server.addFault(QStringLiteral("route=/images/preview-01.png,latency=150")));
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(nullptr);
    const QUrl live = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    const QUrl lost = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-02.png")));

    std::unique_ptr<QNetworkReply> warmUp(manager.get(QNetworkRequest(live)));
    QSignalSpy warmedUp(warmUp.get(), &QNetworkReply::finished);
    QVERIFY(warmedUp.wait(5000));
    QCOMPARE(manager.concurrencyLimit(live), 6);

    // Six in flight (the lost one and five live ones), four more waiting for the window.
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    int finished = 0;
    const auto get = [&](const QUrl &url) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    };
    get(lost);
    for (int i = 0; i < 9; ++i)
        get(live);
    // Measure the second wave: from the first answer of the first.
    connect(replies[1].get(), &QNetworkReply::finished, this, [&] { server.resetStats(); });
    QTRY_COMPARE_WITH_TIMEOUT(finished, 10, 10000);
    for (const auto &reply : replies)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    // Three at once as the live answers come (one at a time would never pass two here).
    const int peak = server.stats().value(QStringLiteral("peak_in_progress")).toInt();
    QVERIFY2(peak >= 3, qPrintable(QString::number(peak)));
}

// After a lost connection the window is one; a response that streams on and on (an event
// stream, a long download) has been answered and must not keep every other request to the
// origin waiting until it ends.
void tst_RetryingNetworkAccessManager::longResponseDoesNotHoldTheWindow()
{
    Test::TestServer server;
    QVERIFY(server.listen());
    int streamRequests = 0;
    server.setHandler([&](const Test::TestServer::Request &request, int) {
        if (!request.target.startsWith("/stream"))
            return Test::TestServer::respond(200, "ok");
        if (++streamRequests <= 4) // Qt itself tries up to four connections per attempt
            return Test::TestServer::Response { QByteArray(), Test::TestServer::Response::Abort };
        Test::TestServer::Response endless = Test::TestServer::cutOff(200, 1000000, "data: 1\n");
        endless.ending = Test::TestServer::Response::Stall;
        return endless;
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.waitForConnectivity = false; // the lost connection is retried, not waited out
    manager.setRetryPolicy(policy);

    std::unique_ptr<QNetworkReply> stream(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/stream")))));
    QSignalSpy streaming(stream.get(), &QNetworkReply::readyRead);
    QVERIFY(streaming.wait(5000));
    QCOMPARE(manager.concurrencyLimit(server.url()), 1);
    std::vector<std::unique_ptr<QNetworkReply>> others;
    int finished = 0;
    for (int i = 0; i < 5; ++i) {
        others.emplace_back(
            manager.get(QNetworkRequest(server.url(QStringLiteral("/api/%1").arg(i)))));
        connect(others.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, 5, 5000);
    for (const auto &reply : others)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    QVERIFY(!stream->isFinished());
    stream->abort();
}

// A request waiting for a slot whose deadline passes just as it is granted one (the deadline
// timer was overdue on a busy event loop, and the slot came free first) must give the slot
// back, even though it ends with its last error answer; else the origin stays a slot short
// for as long as that reply lives.
void tst_RetryingNetworkAccessManager::deadlineFreesASlotGrantedBeforeItsAttempt()
{
    Test::TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const Test::TestServer::Request &request, int) {
        if (request.target.startsWith("/busy"))
            return Test::TestServer::respond(503, "busy");
        if (request.target.startsWith("/slow"))
            return Test::TestServer::stall();
        return Test::TestServer::respond(200, "ok");
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager); // the window and the deadline alone
    RetryPolicy policy;
    policy.maxAttempts = 100000;
    policy.delay = [](const RetryContext &) { return qint64(5); };
    manager.setRetryPolicy(policy);

    // 503s halve the window to one.
    RetryPolicy withDeadline = policy;
    withDeadline.deadlineMs = 400;
    QNetworkRequest busyRequest(server.url(QStringLiteral("/busy")));
    busyRequest.setAttribute(
        QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
        QVariant::fromValue(withDeadline));
    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<QNetworkReply> busy(manager.get(busyRequest));
    QTRY_COMPARE_WITH_TIMEOUT(manager.concurrencyLimit(server.url()), 1, 2000);
    // The one slot goes to a request that never ends; the busy one waits for it.
    std::unique_ptr<QNetworkReply> slow(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/slow")))));
    QTRY_COMPARE_WITH_TIMEOUT(qobject_cast<RetryingReply *>(slow.get())->attemptCount(), 1, 2000);
    // A busy event loop: the deadline becomes overdue without being delivered; then the slot
    // comes free through a posted event, which runs before timers.
    QThread::msleep(std::max<qint64>(0, 400 - clock.elapsed()) + 50);
    QMetaObject::invokeMethod(
        slow.get(), [&] { slow->abort(); }, Qt::QueuedConnection);
    QTRY_VERIFY_WITH_TIMEOUT(busy->isFinished(), 2000);

    // The busy reply lives on, as finished replies often do; the origin has its slot back.
    std::unique_ptr<QNetworkReply> next(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/next")))));
    QSignalSpy nextDone(next.get(), &QNetworkReply::finished);
    QVERIFY(next->isFinished() || nextDone.wait(3000));
    QCOMPARE(next->error(), QNetworkReply::NoError);
}

void tst_RetryingNetworkAccessManager::neverMakesExactlyOneAttempt()
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

// A shared monitor that is deleted while requests wait on it no longer holds them.
void tst_RetryingNetworkAccessManager::sharedMonitorsDeletedWhileWaiting()
{
    TestServer server;
    QVERIFY(server.listen());
    RetryingNetworkAccessManager manager;
    auto *shared = new Reachability;
    manager.setReachability(shared);
    shared->setSimulatedOffline(true);
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < 3; ++i)
        replies.emplace_back(manager.get(QNetworkRequest(server.url())));
    QTest::qWait(50);
    QCOMPARE(server.requestCount(), 0);
    delete shared;
    for (const auto &reply : replies) {
        if (!reply->isFinished()) {
            QSignalSpy finished(reply.get(), &QNetworkReply::finished);
            QVERIFY(finished.wait(5000));
        }
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    }
    QVERIFY(manager.reachability() != nullptr);
}

// The deadline strikes while the retry budget holds the retry back: the last 503 is the
// answer, as RetryPolicy::deadlineMs promises, not a bare timeout.
void tst_RetryingNetworkAccessManager::deadlineWhileBudgetHoldsKeepsLastAnswer()
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

QTEST_GUILESS_MAIN(tst_RetryingNetworkAccessManager)
#include "tst_retryingnetworkaccessmanager.moc"
