// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// A server that stops taking streams on an HTTP/2 connection (GOAWAY, RFC 9113 §6.8) did
// not process the streams above its last-stream-id: they go again, and they and the
// requests after them go out on a connection that can carry them.

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "http2testserver.h"
#include "testhelpers.h"

#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_Http2GoAway : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void neverProcessedPostIsAnsweredOnAFreshConnection();
    void requestAfterGoAway_data();
    void requestAfterGoAway();
};

namespace {

// Cleartext HTTP/2 with prior knowledge (RFC 9113 §3.3).
QNetworkRequest h2cPost(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    request.setAttribute(QNetworkRequest::Http2DirectAttribute, true);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    return request;
}

// Two requests on one connection: the one on stream 1 is answered a little later; the one
// on stream 3 gets a GOAWAY whose last-stream-id is 1 (it was never processed), and the
// connection closes once stream 1 is answered. Later requests are answered at once.
// *processed counts what the server acted on, per path.
void answerOneRefuseOther(Http2TestServer &server, QHash<QByteArray, int> *processed)
{
    server.setHandler([processed](const Http2TestServer::Request &request, int index) {
        Http2TestServer::Action action;
        if (index == 1) {
            action.kind = Http2TestServer::Action::GoAway;
            action.lastStreamId = 1;
            return action;
        }
        ++(*processed)[request.path];
        action.body = "created " + request.body;
        action.delayMs = index == 0 ? 100 : 0;
        return action;
    });
}

} // namespace

// Two POSTs without an Idempotency-Key; the GOAWAY refuses one of them, which may go again
// as it was never processed. Under Qt 6.4 it went out on the connection that had the GOAWAY
// and never ended.
void tst_Http2GoAway::neverProcessedPostIsAnsweredOnAFreshConnection()
{
    Http2TestServer server;
    QVERIFY(server.listen());
    QHash<QByteArray, int> processed;
    answerOneRefuseOther(server, &processed);
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QSignalSpy retried(&manager, &RetryingNetworkAccessManager::retryScheduled);
    std::unique_ptr<QNetworkReply> first(
        manager.post(h2cPost(server.url(QStringLiteral("/a"))), QByteArray("1")));
    std::unique_ptr<QNetworkReply> second(
        manager.post(h2cPost(server.url(QStringLiteral("/b"))), QByteArray("2")));

    QCOMPARE(waitForBody(first.get(), 3000), QByteArray("created 1"));
    QCOMPARE(waitForBody(second.get(), 3000), QByteArray("created 2"));
    for (const auto &reply : { first.get(), second.get() }) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool(), true);
    }
    QCOMPARE(retried.count(), 1); // the refused one, once
    const int attempts = qobject_cast<RetryingReply *>(first.get())->attemptCount() +
        qobject_cast<RetryingReply *>(second.get())->attemptCount();
    QCOMPARE(attempts, 3);
    QCOMPARE(processed.value("/a"), 1);
    QCOMPARE(processed.value("/b"), 1);
    QCOMPARE(server.requests().size(), 3); // the refused one reached it twice
    QCOMPARE(server.connectionCount(), 2);
}

// A new request after the GOAWAY, while the connection that had it still answers its last
// stream. Each row first runs plain QNetworkAccessManager, and writes what Qt 6.4 does by
// itself into the test: it puts the new stream on that connection, where it never goes
// out (no new connection, no end). The drop-in opens a fresh connection for it.
void tst_Http2GoAway::requestAfterGoAway_data()
{
    QTest::addColumn<bool>("retrying");
    QTest::addColumn<bool>("answered");
    QTest::addRow("plain QNetworkAccessManager") << false << false;
    QTest::addRow("RetryingNetworkAccessManager") << true << true;
}

void tst_Http2GoAway::requestAfterGoAway()
{
    QFETCH(bool, retrying);
    QFETCH(bool, answered);
    Http2TestServer server;
    QVERIFY(server.listen());
    QHash<QByteArray, int> processed;
    answerOneRefuseOther(server, &processed);
    std::unique_ptr<QNetworkAccessManager> manager;
    if (retrying) {
        auto *ours = new RetryingNetworkAccessManager;
        RetryPolicy policy = fastPolicy();
        policy.maxConnectivityAttempts = 1; // the refused one ends as plain Qt's does
        ours->setRetryPolicy(policy);
        manager.reset(ours);
    } else {
        manager = std::make_unique<QNetworkAccessManager>();
    }
    std::unique_ptr<QNetworkReply> first(
        manager->post(h2cPost(server.url(QStringLiteral("/a"))), QByteArray("1")));
    std::unique_ptr<QNetworkReply> second(
        manager->post(h2cPost(server.url(QStringLiteral("/b"))), QByteArray("2")));
    // The refused one ends first; the other is still being answered.
    QSignalSpy firstFinished(first.get(), &QNetworkReply::finished);
    QSignalSpy secondFinished(second.get(), &QNetworkReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(firstFinished.count() + secondFinished.count(), 1, 3000);
    QNetworkReply *refused = firstFinished.count() == 1 ? first.get() : second.get();
    QCOMPARE(refused->error(), QNetworkReply::ContentReSendError);
    QVERIFY2(refused->errorString().contains(QLatin1String("stopped accepting new streams")),
             qPrintable(refused->errorString()));

    std::unique_ptr<QNetworkReply> third(
        manager->post(h2cPost(server.url(QStringLiteral("/c"))), QByteArray("3")));
    QSignalSpy thirdFinished(third.get(), &QNetworkReply::finished);
    QCOMPARE(thirdFinished.wait(2000), answered);
    QCOMPARE(processed.value("/c"), answered ? 1 : 0);
    QCOMPARE(server.connectionCount(), answered ? 2 : 1);
    if (answered) {
        QCOMPARE(third->error(), QNetworkReply::NoError);
        QCOMPARE(third->readAll(), QByteArray("created 3"));
    }
    QTRY_COMPARE_WITH_TIMEOUT(firstFinished.count() + secondFinished.count(), 2, 3000);
    QNetworkReply *other = refused == first.get() ? second.get() : first.get();
    QCOMPARE(other->error(), QNetworkReply::NoError); // the GOAWAY let it finish
}

QTEST_GUILESS_MAIN(tst_Http2GoAway)
#include "tst_http2goaway.moc"
