// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// A write without an Idempotency-Key reaches the server at most once, Qt's own re-send
// included; a request the server surely did not process (HTTP/2 refused it) goes again,
// whatever its method.

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "http2testserver.h"
#include "testhelpers.h"
#include "testserver.h"

#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_ReplaySafety : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keylessWriteReachesServerOnce_data();
    void keylessWriteReachesServerOnce();
    void getMayBeSentAgain();
    void refusedHttp2StreamIsRetried_data();
    void refusedHttp2StreamIsRetried();
};

// The server reads the whole request, then resets the connection without a word: it may
// well have acted on it. Plain Qt 6.4 sends it again by itself, on a fresh connection too.
void tst_ReplaySafety::keylessWriteReachesServerOnce_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("keptAlive");
    for (bool keptAlive : { false, true }) {
        const char *connection = keptAlive ? "kept-alive connection" : "fresh connection";
        QTest::addRow("POST, %s", connection)
            << QByteArray("POST") << QByteArray("order=1") << keptAlive;
        QTest::addRow("POST without body, %s", connection)
            << QByteArray("POST") << QByteArray() << keptAlive;
        QTest::addRow("PATCH, %s", connection)
            << QByteArray("PATCH") << QByteArray("x=2") << keptAlive;
    }
}

void tst_ReplaySafety::keylessWriteReachesServerOnce()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, body);
    QFETCH(bool, keptAlive);

    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        if (request.target == "/warm")
            return TestServer::Response { TestServer::head(200, 2, {}, true) + "ok",
                                          TestServer::Response::KeepAlive };
        return TestServer::Response { QByteArray(), TestServer::Response::Abort };
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    if (keptAlive) {
        std::unique_ptr<QNetworkReply> warm(
            manager.get(QNetworkRequest(server.url(QStringLiteral("/warm")))));
        QCOMPARE(waitForBody(warm.get()), QByteArray("ok"));
    }
    QNetworkRequest request(server.url(QStringLiteral("/orders")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    std::unique_ptr<QNetworkReply> reply(manager.sendCustomRequest(request, method, body));
    waitForBody(reply.get());

    int writes = 0;
    const auto requests = server.requests();
    for (const auto &r : requests) {
        if (r.target == "/orders") {
            ++writes;
            QCOMPARE(r.method, method);
            QCOMPARE(r.body, body);
        }
    }
    QCOMPARE(writes, 1);
    QCOMPARE(server.connectionCount(), 1); // and no new connection for a second try
    QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
    QVERIFY2(reply->errorString().contains(QLatin1String("Idempotency-Key")),
             qPrintable(reply->errorString()));
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 1);
}

// A GET is safe to send again: Qt's re-send or ours, it ends with the answer.
void tst_ReplaySafety::getMayBeSentAgain()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        if (index == 0)
            return TestServer::Response { QByteArray(), TestServer::Response::Abort };
        return TestServer::respond(200, "fine");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QCOMPARE(waitForBody(reply.get()), QByteArray("fine"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(server.requestCount(), 2);
}

// RFC 9113 §6.8 and §8.7: a stream above a GOAWAY's last-stream-id, or refused with
// REFUSED_STREAM, was not processed. It is retried like a connectivity fault, a keyless
// POST too, and spends none of the server-fault attempts (maxAttempts 1 allows none).
void tst_ReplaySafety::refusedHttp2StreamIsRetried_data()
{
    QTest::addColumn<int>("refusal");
    QTest::addRow("GOAWAY below the stream") << int(Http2TestServer::Action::GoAway);
    QTest::addRow("RST_STREAM REFUSED_STREAM") << int(Http2TestServer::Action::RefuseStream);
}

void tst_ReplaySafety::refusedHttp2StreamIsRetried()
{
    QFETCH(int, refusal);
    Http2TestServer server;
    QVERIFY(server.listen());
    server.setHandler([refusal](const Http2TestServer::Request &request, int index) {
        Http2TestServer::Action action;
        if (index == 0)
            action.kind = Http2TestServer::Action::Kind(refusal);
        action.body = "created " + request.body;
        return action;
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 1;
    manager.setRetryPolicy(policy);
    QNetworkRequest request(server.url(QStringLiteral("/orders")));
    request.setAttribute(QNetworkRequest::Http2DirectAttribute, true); // h2c, prior knowledge
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    std::unique_ptr<QNetworkReply> reply(manager.post(request, QByteArray("order=7")));
    QCOMPARE(waitForBody(reply.get()), QByteArray("created order=7"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool(), true);
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.processedCount(), 1);
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 2);
}

QTEST_GUILESS_MAIN(tst_ReplaySafety)
#include "tst_replaysafety.moc"
