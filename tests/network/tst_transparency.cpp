// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// A caller cannot tell RetryingNetworkAccessManager from a plain QNetworkAccessManager when
// nothing fails: the same rows run against both.

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_Transparency : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void transparency_data();
    void transparency();
    void managerFinishedOncePerLogicalRequest();
    void abortIsSynchronousLikeQt_data();
    void abortIsSynchronousLikeQt();
    void autoDeleteReplies_data();
    void autoDeleteReplies();
    void noMetaDataForFailedConnections();
    void readBufferSizeIsHonoured_data();
    void readBufferSizeIsHonoured();
    void abortInASlotOfTheFinalAnswer_data();
    void abortInASlotOfTheFinalAnswer();
};

void tst_Transparency::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

// The same expectations hold for Qt's own manager and ours: a caller cannot tell them apart
// when nothing fails.
void tst_Transparency::transparency_data()
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

void tst_Transparency::transparency()
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

void tst_Transparency::managerFinishedOncePerLogicalRequest()
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

void tst_Transparency::abortIsSynchronousLikeQt_data()
{
    QTest::addColumn<bool>("retrying");
    QTest::newRow("Qt") << false;
    QTest::newRow("KeepTrying") << true;
}

void tst_Transparency::abortIsSynchronousLikeQt()
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

void tst_Transparency::autoDeleteReplies_data()
{
    abortIsSynchronousLikeQt_data();
}

void tst_Transparency::autoDeleteReplies()
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

void tst_Transparency::noMetaDataForFailedConnections()
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

void tst_Transparency::readBufferSizeIsHonoured_data()
{
    abortIsSynchronousLikeQt_data();
}

void tst_Transparency::readBufferSizeIsHonoured()
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

namespace {

// What a caller that aborts a reply from a slot of one of its signals sees.
struct AbortSeen
{
    bool finishedInsideAbort = false;
    int errorsInsideAbort = 0;
    int signalsAfterAbort = 0; // any of the reply's signals once abort() has returned
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    bool open = true;

    bool operator==(const AbortSeen &other) const
    {
        return finishedInsideAbort == other.finishedInsideAbort &&
            errorsInsideAbort == other.errorsInsideAbort &&
            signalsAfterAbort == other.signalsAfterAbort && error == other.error &&
            open == other.open;
    }
};

QString describe(const AbortSeen &seen)
{
    return QStringLiteral("finished inside abort %1, errorOccurred inside %2, signals after %3, "
                          "error %4, open %5")
        .arg(seen.finishedInsideAbort)
        .arg(seen.errorsInsideAbort)
        .arg(seen.signalsAfterAbort)
        .arg(int(seen.error))
        .arg(seen.open);
}

// Runs one GET through \a manager and aborts it in the first \a signal; what follows.
void abortIn(QNetworkAccessManager &manager, const QUrl &url, const QByteArray &signal,
             AbortSeen *out)
{
    AbortSeen &seen = *out;
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    QNetworkReply *r = reply.get();
    bool aborting = false;
    bool aborted = false;
    int finished = 0;
    const auto any = [&] {
        if (aborted)
            ++seen.signalsAfterAbort;
    };
    QObject::connect(r, &QNetworkReply::finished, r, [&] {
        ++finished;
        if (aborting)
            seen.finishedInsideAbort = true;
        any();
    });
    QObject::connect(r, &QNetworkReply::errorOccurred, r, [&] {
        if (aborting)
            ++seen.errorsInsideAbort;
        any();
    });
    const auto abortOnce = [&] {
        if (aborting || aborted)
            return;
        aborting = true;
        r->abort();
        aborting = false;
        aborted = true;
    };
    QObject::connect(r, &QNetworkReply::metaDataChanged, r, [&] {
        any();
        if (signal == "metaDataChanged")
            abortOnce();
    });
    QObject::connect(r, &QNetworkReply::readyRead, r, [&] {
        any();
        if (signal == "readyRead")
            abortOnce();
    });
    QObject::connect(r, &QNetworkReply::downloadProgress, r, any);
    QTRY_VERIFY_WITH_TIMEOUT(finished > 0, 5000);
    QTest::qWait(30); // anything late shows
    seen.error = r->error();
    seen.open = r->isOpen();
}

} // namespace

// abort() from a slot of metaDataChanged() or readyRead() of the answer that ends the
// request (after retries too): each row first records what plain Qt does against the same
// answer, then expects the same of ours: finished() inside abort(), nothing after it.
void tst_Transparency::abortInASlotOfTheFinalAnswer_data()
{
    QTest::addColumn<QByteArray>("signal");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("retriesFirst");
    for (const char *signal : { "metaDataChanged", "readyRead" }) {
        for (int status : { 200, 503 }) {
            for (int retries : { 0, 1 }) {
                QTest::addRow("%s of a %d%s", signal, status, retries ? " after a retry" : "")
                    << QByteArray(signal) << status << retries;
            }
        }
    }
}

void tst_Transparency::abortInASlotOfTheFinalAnswer()
{
    QFETCH(QByteArray, signal);
    QFETCH(int, status);
    QFETCH(int, retriesFirst);
    TestServer server;
    QVERIFY(server.listen());
    int skip = 0; // requests of ours answered 503 before the final answer
    server.setHandler([&](const TestServer::Request &, int index) {
        if (index - skip < 0)
            return TestServer::respond(503, "not yet");
        return TestServer::respond(status, status == 200 ? "the body" : "the final 503");
    });

    QNetworkAccessManager plain;
    AbortSeen qt;
    abortIn(plain, server.url(), signal, &qt);
    QVERIFY(!QTest::currentTestFailed());

    RetryingNetworkAccessManager retrying;
    RetryPolicy policy = fastPolicy();
    policy.waitForConnectivity = false;
    // The final 503 is held while the decision is pending, and handed over as the request
    // finishes: the hand-over this row is about.
    policy.shouldRetry = [retriesFirst](const RetryContext &context) {
        return context.attempt <= retriesFirst;
    };
    retrying.setRetryPolicy(policy);
    skip = server.requestCount() + retriesFirst;
    AbortSeen ours;
    abortIn(retrying, server.url(), signal, &ours);
    QVERIFY(!QTest::currentTestFailed());
    QCOMPARE(server.requestCount(), 2 + retriesFirst);
    QVERIFY2(ours == qt,
             qPrintable(QStringLiteral("Qt: %1\nours: %2").arg(describe(qt), describe(ours))));
    QVERIFY(qt.finishedInsideAbort);
}

QTEST_GUILESS_MAIN(tst_Transparency)
#include "tst_transparency.moc"
