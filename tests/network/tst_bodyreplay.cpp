// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Request bodies replayed byte for byte (with their Idempotency-Key), response bodies resumed
// with Range/If-Range, and bytes handed to the caller never handed again.

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "demotoken.h"
#include "testhelpers.h"
#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QBuffer>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtNetwork/QHttpMultiPart>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_BodyReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
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
    void attemptTimeoutMidBody_data();
    void attemptTimeoutMidBody();
    void smallReadBufferWithHeldErrorBody();
    void uploadProgressNeverGoesBack();
};

void tst_BodyReplay::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

void tst_BodyReplay::postWithoutKeyIsNotRetried()
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

void tst_BodyReplay::postWithIdempotencyKey()
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

void tst_BodyReplay::callerKeyIsKept()
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

void tst_BodyReplay::ioDeviceBodyIsReplayed()
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

void tst_BodyReplay::multipartBodyIsReplayed()
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
void tst_BodyReplay::resumeWithRange()
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

void tst_BodyReplay::resumeImpossibleFailsCleanly()
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

void tst_BodyReplay::resumeRefusedByServer()
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

// A caller that reads only at finished() never saw the broken body: the retry starts afresh.
void tst_BodyReplay::unreadBodyStartsAfresh()
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

// The first POST is applied but its answer is lost mid-body; the retry carries the same
// Idempotency-Key and body, and the server answers it from its record instead of applying it
// again.
void tst_BodyReplay::demoServerWriteAppliedOnce()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setIdempotencyKeysHonoured(true); // wallabag has none; this tests the library's
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.addIdempotencyKey = true;
    manager.setRetryPolicy(policy);
    const QByteArray token = demoToken(server, &manager);
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

void tst_BodyReplay::attemptTimeoutMidBody_data()
{
    QTest::addColumn<bool>("resumable");
    QTest::newRow("resumable") << true;
    QTest::newRow("not resumable") << false;
}

// The body stalls half-way: the attempt times out, and what arrived is kept exactly once.
void tst_BodyReplay::attemptTimeoutMidBody()
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

// A 503 with a body larger than the read buffer is held until it ends; it must not stall.
void tst_BodyReplay::smallReadBufferWithHeldErrorBody()
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

// A PUT whose first attempt is reset once the server has read its body, then retried: the
// caller's upload progress never goes back (the failed attempt's closing (0, 0) and the
// retry's restart stay ours), and it ends as plain Qt's does for a PUT that succeeds.
void tst_BodyReplay::uploadProgressNeverGoesBack()
{
    const QByteArray body(700000, 'u');
    using Progress = QList<QPair<qint64, qint64>>;
    const auto record = [](QNetworkReply *reply, Progress *progress) {
        QObject::connect(reply, &QNetworkReply::uploadProgress, reply,
                         [progress](qint64 sent, qint64 total) {
                             progress->append({ sent, total });
                         });
    };

    // What plain Qt reports for the same PUT answered at once.
    Progress qt;
    {
        TestServer server;
        QVERIFY(server.listen());
        server.setHandler(
            [](const TestServer::Request &, int) { return TestServer::respond(200, "stored"); });
        QNetworkAccessManager plain;
        std::unique_ptr<QNetworkReply> reply(plain.put(QNetworkRequest(server.url()), body));
        record(reply.get(), &qt);
        QCOMPARE(waitForBody(reply.get()), QByteArray("stored"));
    }
    QVERIFY(qt.size() >= 2);

    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::Response { QByteArray(), TestServer::Response::Abort }
                          : TestServer::respond(200, "stored");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.waitForConnectivity = false;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.put(QNetworkRequest(server.url()), body));
    Progress ours;
    record(reply.get(), &ours);
    QCOMPARE(waitForBody(reply.get()), QByteArray("stored"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QVERIFY(server.requestCount() >= 2); // the body went twice
    QCOMPARE(server.requests().last().body.size(), body.size());

    const auto text = [](const Progress &progress) {
        QString out;
        for (const auto &[sent, total] : progress)
            out += QStringLiteral("(%1, %2) ").arg(sent).arg(total);
        return out;
    };
    const QString seen = text(ours);
    qInfo("Qt: %s\nours: %s", qPrintable(text(qt)), qPrintable(seen));
    QVERIFY2(ours.size() >= 2, qPrintable(seen));
    // Non-decreasing up to Qt's closing (0, 0), which comes once, last, as from plain Qt.
    const Progress rising = ours.mid(0, ours.size() - 1);
    for (qsizetype i = 1; i < rising.size(); ++i)
        QVERIFY2(rising.at(i).first > rising.at(i - 1).first, qPrintable(seen));
    QVERIFY2(!rising.contains(QPair<qint64, qint64>(0, 0)), qPrintable(seen));
    QCOMPARE(ours.last(), qt.last());
    QCOMPARE(ours.at(ours.size() - 2), qt.at(qt.size() - 2));
}

QTEST_GUILESS_MAIN(tst_BodyReplay)
#include "tst_bodyreplay.moc"
