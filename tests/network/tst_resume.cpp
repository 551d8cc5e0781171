// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What a caller reads of a body that breaks off, however often: exactly the body, or a
// prefix of it with an error; never a byte twice, never a short body taken for a success.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QRandomGenerator>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

const QByteArray etag = "\"v1\"";
const QByteArray lastModified = "Wed, 21 Oct 2015 07:28:00 GMT";

using Header = QPair<QByteArray, QByteArray>;

enum class Validator { None, ETag, LastModified };

// One random script: a body, what the server offers for resuming it, how it frames it, and
// where each attempt's response is cut (an absolute body offset; the last attempt is whole).
struct Script
{
    QByteArray body;
    bool acceptRanges = false;
    Validator validator = Validator::None;
    bool chunked = false;
    QList<qint64> cuts;
    QList<bool> resets; // per cut: a reset (RST), or a graceful close (FIN)

    bool resumable() const { return acceptRanges && validator != Validator::None; }
    QString describe() const
    {
        QStringList cutText;
        for (qsizetype i = 0; i < cuts.size(); ++i)
            cutText << QStringLiteral("%1%2")
                           .arg(cuts.at(i))
                           .arg(QLatin1Char(resets.at(i) ? 'R' : 'F'));
        return QStringLiteral("body %1 bytes, ranges %2, validator %3, %4, cuts [%5]")
            .arg(body.size())
            .arg(acceptRanges)
            .arg(int(validator))
            .arg(chunked ? QStringLiteral("chunked") : QStringLiteral("Content-Length"))
            .arg(cutText.join(QLatin1Char(' ')));
    }
};

Script randomScript(QRandomGenerator &random)
{
    Script script;
    const int length = random.bounded(1, 16 * 1024);
    script.body.resize(length);
    for (char &c : script.body)
        c = char(random.bounded(256));
    script.acceptRanges = random.bounded(4) != 0;
    script.validator = Validator(random.bounded(3));
    script.chunked = random.bounded(3) == 0;
    const int cuts = random.bounded(6); // 0 to 5
    for (int i = 0; i < cuts; ++i) {
        script.cuts.append(random.bounded(length));
        script.resets.append(random.bounded(2) == 0);
    }
    return script;
}

// Chunked transfer coding (RFC 9112 §7.1) of \a payload, in chunks of up to 1000 bytes, cut
// after \a keep bytes of data (the whole of it, with the last chunk, when keep < 0).
QByteArray chunkedEncoding(const QByteArray &payload, qint64 keep)
{
    QByteArray out;
    for (qsizetype at = 0; at < payload.size(); at += 1000) {
        const QByteArray chunk = payload.mid(at, 1000);
        out += QByteArray::number(chunk.size(), 16) + "\r\n";
        if (keep >= 0 && at + chunk.size() > keep)
            return out + chunk.left(keep - at);
        out += chunk + "\r\n";
    }
    return keep >= 0 ? out : out + "0\r\n\r\n";
}

TestServer::Response serve(const Script &script, const TestServer::Request &request, int index)
{
    qint64 start = 0;
    const QByteArray range = request.header("Range");
    if (script.acceptRanges && range.startsWith("bytes=") && range.endsWith('-')) {
        const QByteArray ifRange = request.header("If-Range");
        const QByteArray current = script.validator == Validator::ETag ? etag : lastModified;
        if (ifRange.isEmpty() || ifRange == current)
            start = range.mid(6, range.size() - 7).toLongLong();
    }
    Headers headers;
    if (script.acceptRanges)
        headers.append(Header("Accept-Ranges", "bytes"));
    if (script.validator == Validator::ETag)
        headers.append(Header("ETag", etag));
    else if (script.validator == Validator::LastModified)
        headers.append(Header("Last-Modified", lastModified));
    const qint64 total = script.body.size();
    if (start > 0) {
        headers.append(Header("Content-Range",
                              "bytes " + QByteArray::number(start) + '-' +
                                  QByteArray::number(total - 1) + '/' + QByteArray::number(total)));
    }
    const QByteArray payload = script.body.mid(start);
    const bool cut = index < script.cuts.size();
    const qint64 keep = cut ? std::max<qint64>(0, script.cuts.at(index) - start) : -1;
    const int status = start > 0 ? 206 : 200;
    TestServer::Response response;
    if (script.chunked) {
        headers.append(Header("Transfer-Encoding", "chunked"));
        response.bytes = TestServer::head(status, -1, headers) + chunkedEncoding(payload, keep);
    } else {
        response.bytes = TestServer::head(status, payload.size(), headers) +
            (cut ? payload.left(keep) : payload);
    }
    response.ending = !cut        ? TestServer::Response::Close
        : script.resets.at(index) ? TestServer::Response::Abort
                                  : TestServer::Response::Close;
    return response;
}

// The first response of a resumable \a body: its first \a bytes, then silence.
TestServer::Response resumableStart(const QByteArray &body, qint64 bytes)
{
    return TestServer::Response {
        TestServer::head(200, body.size(), { { "Accept-Ranges", "bytes" }, { "ETag", etag } }) +
            body.left(bytes),
        TestServer::Response::Stall
    };
}

// Reads \a reply as it is announced; once \a bytes came, the server resets the connection;
// returns when the reply has finished, with everything read in \a received.
void readThroughACut(QNetworkReply *reply, TestServer *server, qint64 bytes, QByteArray *received)
{
    QObject::connect(reply, &QIODevice::readyRead, reply, [=] { *received += reply->readAll(); });
    QTRY_COMPARE_WITH_TIMEOUT(received->size(), bytes, 5000);
    server->abortConnections();
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(reply->isFinished() || finished.wait(5000));
    *received += reply->readAll();
}

RetryPolicy quickPolicy()
{
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 1;
    policy.maxDelayMs = 2;
    policy.waitForConnectivity = false; // the plain backoff, no probes between attempts
    return policy;
}

} // namespace

class tst_Resume : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void randomCuts();
    void announcedBytesAreNeverWithdrawn_data();
    void announcedBytesAreNeverWithdrawn();
    void resumeChecksTheResponse_data();
    void resumeChecksTheResponse();
    void resumeAnswerIsNotTheStream_data();
    void resumeAnswerIsNotTheStream();
    void correctedErrorSurvivesALimit_data();
    void correctedErrorSurvivesALimit();
    void discardedHeadersAreNotTheAnswer();
    void shortBodyOnKeptAliveConnection_data();
    void shortBodyOnKeptAliveConnection();
};

// The property of item 1: 1 000 seeded random scripts. Set KEEPTRYING_SEED to replay one run.
void tst_Resume::randomCuts()
{
    const quint32 seed = qEnvironmentVariableIsSet("KEEPTRYING_SEED")
        ? quint32(qEnvironmentVariableIntValue("KEEPTRYING_SEED"))
        : 20261201u;
    QRandomGenerator random(seed);
    TestServer server;
    QVERIFY(server.listen());
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(quickPolicy());
    switchOffBreakerAndBudget(manager);

    int successes = 0;
    int resumedSuccesses = 0;
    int blind = 0;
    for (int n = 0; n < 1000; ++n) {
        const Script script = randomScript(random);
        const int base = server.requestCount();
        server.setHandler([&script, base](const TestServer::Request &request, int index) {
            return serve(script, request, index - base);
        });
        std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        const QByteArray received = waitForBody(reply.get());
        const QString where = QStringLiteral("seed %1, script %2: %3; got %4 bytes, %5")
                                  .arg(seed)
                                  .arg(n)
                                  .arg(script.describe())
                                  .arg(received.size())
                                  .arg(reply->errorString());
        QVERIFY2(received != "<timeout>", qPrintable(where));
        QVERIFY2(finished.size() == 1, qPrintable(where));
        if (reply->error() == QNetworkReply::NoError && script.chunked && !script.cuts.isEmpty() &&
            received != script.body) {
            // Qt 6.4 ends a chunked body that a close or a reset cut mid-way as if it were
            // whole, and nothing of the chunk framing reaches its caller: the one case no
            // client above Qt's HTTP parser can tell. It stays a prefix.
            QVERIFY2(script.body.startsWith(received), qPrintable(where));
            ++blind;
            continue;
        }
        if (reply->error() == QNetworkReply::NoError) {
            QVERIFY2(received == script.body, qPrintable(where));
            ++successes;
            if (script.cuts.size() > 0 && script.resumable())
                ++resumedSuccesses;
        } else {
            QVERIFY2(script.body.startsWith(received), qPrintable(where));
            // A server that resumes is waited for until it delivers.
            QVERIFY2(!script.resumable(), qPrintable(where));
        }
    }
    qInfo("seed %u: %d of 1000 scripts succeeded, %d of them after resuming; %d chunked bodies "
          "cut by a close that Qt took for whole",
          seed, successes, resumedSuccesses, blind);
    QVERIFY(resumedSuccesses > 100); // the scripts did exercise resuming
}

// Bytes announced with readyRead are the caller's, read or not: a failed attempt neither
// withdraws them nor sends progress back.
void tst_Resume::announcedBytesAreNeverWithdrawn_data()
{
    QTest::addColumn<bool>("resumable");
    QTest::addRow("server cannot resume: the reply fails, keeping them") << false;
    QTest::addRow("server resumes: the rest follows them") << true;
}

void tst_Resume::announcedBytesAreNeverWithdrawn()
{
    QFETCH(bool, resumable);
    const QByteArray body = QByteArray(600, 'a') + QByteArray(400, 'b');
    TestServer server;
    QVERIFY(server.listen());
    Headers headers;
    if (resumable)
        headers = { { "Accept-Ranges", "bytes" }, { "ETag", etag } };
    server.setHandler([&](const TestServer::Request &request, int index) {
        if (index == 0)
            return TestServer::Response { TestServer::head(200, body.size(), headers) +
                                              body.left(600),
                                          TestServer::Response::Stall };
        Headers partial = headers;
        partial.append(Header("Content-Range", "bytes 600-999/1000"));
        return request.header("Range") == "bytes=600-"
            ? TestServer::respond(206, body.mid(600), partial)
            : TestServer::respond(200, body, headers);
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(quickPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QList<qint64> progress;
    connect(reply.get(), &QNetworkReply::downloadProgress, this,
            [&](qint64 received, qint64) { progress.append(received); });
    int announced = 0;
    connect(reply.get(), &QIODevice::readyRead, this, [&] { ++announced; }); // never reads
    QTRY_COMPARE_WITH_TIMEOUT(reply->bytesAvailable(), 600, 5000);
    server.abortConnections();
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(reply->isFinished() || finished.wait(5000));

    QVERIFY(announced > 0);
    if (resumable) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->readAll(), body);
        QCOMPARE(server.requests().last().header("Range"), QByteArray("bytes=600-"));
    } else {
        QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
        QCOMPARE(reply->readAll(), body.left(600));
        QCOMPARE(server.requestCount(), 1);
    }
    QVERIFY(std::is_sorted(progress.cbegin(), progress.cend()));
}

// Every resumed response is checked: a 206 that starts where the caller's bytes end, for a
// body of the same length, with the same validator; anything else ends the reply, keeping
// what was handed over and adding nothing to it.
void tst_Resume::resumeChecksTheResponse_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<bool>("continues");
    const QByteArray rest(400, 'b');
    const auto partial = [&](const QByteArray &range, const QByteArray &tag) -> QByteArray {
        Headers h = { { "Content-Range", range } };
        if (!tag.isEmpty())
            h.append(Header("ETag", tag));
        return TestServer::head(206, rest.size(), h) + rest;
    };
    QTest::addRow("206, right range and ETag") << partial("bytes 600-999/1000", etag) << true;
    QTest::addRow("206 from elsewhere") << partial("bytes 500-899/1000", etag) << false;
    QTest::addRow("206 of a longer body") << partial("bytes 600-999/2000", etag) << false;
    QTest::addRow("206 of another version") << partial("bytes 600-999/1000", "\"v2\"") << false;
    QTest::addRow("206 without its ETag") << partial("bytes 600-999/1000", QByteArray()) << false;
    QTest::addRow("206 with garbage range") << partial("bytes 600-x/1000", etag) << false;
    QTest::addRow("200: the whole body again")
        << QByteArray(TestServer::head(200, 1000, { { "ETag", etag } }) + QByteArray(1000, 'c'))
        << false;
}

void tst_Resume::resumeChecksTheResponse()
{
    QFETCH(QByteArray, answer);
    QFETCH(bool, continues);
    const QByteArray body = QByteArray(600, 'a') + QByteArray(400, 'b');
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const TestServer::Request &, int index) {
        if (index == 0)
            return resumableStart(body, 600);
        return TestServer::Response { answer, TestServer::Response::Close };
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(quickPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QByteArray received;
    readThroughACut(reply.get(), &server, 600, &received);
    QVERIFY(!QTest::currentTestFailed());
    if (continues) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(received, body);
    } else {
        QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
        QVERIFY(body.startsWith(received));
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    }
}

// What stops the retries of a resume in the rows below.
enum class Stop { Limits, Breaker, Deadline };

void setUp(RetryingNetworkAccessManager &manager, Stop stop)
{
    RetryPolicy policy = quickPolicy();
    policy.maxAttempts = 4;
    switchOffBreakerAndBudget(manager);
    if (stop == Stop::Breaker) {
        // Open after two failures in a row, long enough to stop a request that may not wait.
        CircuitBreaker::Settings breaker;
        breaker.consecutiveFailures = 2;
        breaker.minimumCalls = 1000;
        breaker.breakDurationMs = 60000;
        manager.circuitBreaker()->setSettings(breaker);
    } else if (stop == Stop::Deadline) {
        // A Retry-After past the deadline ends the request at once.
        policy.deadlineMs = 20000;
        policy.maxRetryAfterMs = 60000;
    }
    manager.setRetryPolicy(policy);
}

// Bytes of a 200 were handed over, then every resume is answered with something else than
// the rest of the body: the caller's bytes stay a prefix of the 200's body, with the 200's
// status and headers; the reply ends with RemoteHostClosedError, saying after how many
// bytes and what the last resume got; that answer is only in the lastResume accessors.
void tst_Resume::resumeAnswerIsNotTheStream_data()
{
    QTest::addColumn<QList<QByteArray>>("resumeAnswers");
    QTest::addColumn<int>("stop");
    QTest::addColumn<int>("lastStatus");
    QTest::addColumn<QByteArray>("lastBody");
    QTest::addColumn<QString>("got");

    const auto answer = [](int status, const QByteArray &reason, const QByteArray &body,
                           const QByteArray &extra = QByteArray()) -> QByteArray {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason +
            "\r\nContent-Length: " + QByteArray::number(body.size()) +
            "\r\nConnection: close\r\nX-Answer: " + QByteArray::number(status) + "\r\n" + extra +
            "\r\n" + body;
    };
    const QByteArray busy = "busy, come back later";
    const QByteArray gonePage = "<h1>This one is gone</h1>\n\n\n\n"; // 30 bytes
    QTest::addRow("503, 503, then a final 410")
        << QList<QByteArray> { answer(503, "Service Unavailable", busy),
                               answer(503, "Service Unavailable", busy),
                               answer(410, "Gone", gonePage) }
        << int(Stop::Limits) << 410 << gonePage << QStringLiteral("resuming got 410 Gone");
    QTest::addRow("a final 404") << QList<QByteArray> { answer(404, "Not Found", "no such thing") }
                                 << int(Stop::Limits) << 404 << QByteArray("no such thing")
                                 << QStringLiteral("resuming got 404 Not Found");
    QTest::addRow("503 until the limits stop it") << QList<QByteArray> {
        answer(503, "Service Unavailable", busy), answer(503, "Service Unavailable", busy),
        answer(503, "Service Unavailable", busy), answer(503, "Service Unavailable", busy)
    } << int(Stop::Limits) << 503 << busy << QStringLiteral("resuming got 503 Service Unavailable");
    QTest::addRow("500, then the open breaker")
        << QList<QByteArray> { answer(500, "Internal Server Error", "oops") } << int(Stop::Breaker)
        << 500 << QByteArray("oops") << QStringLiteral("resuming got 500 Internal Server Error");
    QTest::addRow("503 with a Retry-After past the deadline")
        << QList<QByteArray> { answer(503, "Service Unavailable", busy, "Retry-After: 60\r\n") }
        << int(Stop::Deadline) << 503 << busy
        << QStringLiteral("resuming got 503 Service Unavailable");
}

void tst_Resume::resumeAnswerIsNotTheStream()
{
    QFETCH(QList<QByteArray>, resumeAnswers);
    QFETCH(int, stop);
    QFETCH(int, lastStatus);
    QFETCH(QByteArray, lastBody);
    QFETCH(QString, got);
    QByteArray body(114997, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char('a' + i % 26);
    const qint64 cut = 34692;
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const TestServer::Request &, int index) {
        if (index == 0)
            return resumableStart(body, cut);
        return TestServer::Response { resumeAnswers.value(index - 1, resumeAnswers.last()),
                                      TestServer::Response::Close };
    });
    RetryingNetworkAccessManager manager;
    setUp(manager, Stop(stop));
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying);
    QList<QPair<qint64, qint64>> progress;
    connect(reply.get(), &QNetworkReply::downloadProgress, this,
            [&](qint64 received, qint64 total) {
                progress.append({ received, total });
            });
    QByteArray received;
    readThroughACut(reply.get(), &server, cut, &received);
    QVERIFY(!QTest::currentTestFailed());

    QCOMPARE(received, body.left(cut));
    QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
    QVERIFY2(reply->errorString().startsWith(
                 QStringLiteral("The connection closed after 34692 of 114997 bytes")),
             qPrintable(reply->errorString()));
    QVERIFY2(reply->errorString().endsWith(got), qPrintable(reply->errorString()));
    // The 200's metadata, which describes the bytes.
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(), body.size());
    QCOMPARE(reply->rawHeader("ETag"), etag);
    QVERIFY(!reply->hasRawHeader("X-Answer"));
    // The resume's answer, apart.
    QCOMPARE(retrying->lastResumeStatus(), lastStatus);
    QCOMPARE(retrying->lastResumeBody(), lastBody);
    bool tagged = false;
    for (const auto &[name, value] : retrying->lastResumeHeaders())
        tagged = tagged || (name == "X-Answer" && value == QByteArray::number(lastStatus));
    QVERIFY(tagged);
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().first, cut);
    QCOMPARE(progress.last().second, body.size());
    QVERIFY(server.requestCount() >= 2);
}

// An attempt whose end we name better than Qt (a body Qt took for complete though short; a
// transfer timeout Qt reports as a cancel), then stopped by the breaker or the deadline
// instead of resumed: the reply ends with our error and text for it, never Qt's ("Unknown
// error", "Operation canceled"), and keeps the 200's status. The timeout stands in for the
// short body here: Qt 6.4 takes a short body for complete only now and then on loopback,
// and both reach the caller through the same last answer.
void tst_Resume::correctedErrorSurvivesALimit_data()
{
    QTest::addColumn<int>("stop");
    QTest::addRow("breaker") << int(Stop::Breaker);
    QTest::addRow("deadline") << int(Stop::Deadline);
}

void tst_Resume::correctedErrorSurvivesALimit()
{
    QFETCH(int, stop);
    const QByteArray body(20000, 'x');
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const TestServer::Request &, int) {
        Headers headers = { { "Accept-Ranges", "bytes" }, { "ETag", etag } };
        if (Stop(stop) == Stop::Deadline)
            headers.append(Header("Retry-After", "60"));
        return TestServer::Response { TestServer::head(200, body.size(), headers) + body.left(6000),
                                      TestServer::Response::Stall };
    });
    RetryingNetworkAccessManager manager;
    setUp(manager, Stop(stop));
    if (Stop(stop) == Stop::Breaker) {
        CircuitBreaker::Settings breaker = manager.circuitBreaker()->settings();
        breaker.consecutiveFailures = 1;
        manager.circuitBreaker()->setSettings(breaker);
    }
    RetryPolicy policy = manager.retryPolicy();
    policy.attemptTimeoutMs = 200;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    const QByteArray received = waitForBody(reply.get());
    QCOMPARE(received, body.left(6000));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
    QCOMPARE(reply->errorString(), QStringLiteral("No data was received for 200 ms"));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
}

// A 200 whose body broke off before any of it was handed over, then attempts that get no
// response at all: the reply ends with no status and none of the discarded 200's headers.
void tst_Resume::discardedHeadersAreNotTheAnswer()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        if (index == 0)
            return TestServer::Response { TestServer::head(200, 100, { { "X-First", "1" } }),
                                          TestServer::Response::Stall };
        return TestServer::Response { QByteArray(), TestServer::Response::Abort };
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = quickPolicy();
    policy.maxConnectivityAttempts = 2;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy metaData(reply.get(), &QNetworkReply::metaDataChanged);
    QVERIFY(metaData.wait(5000));
    QCOMPARE(reply->rawHeader("X-First"), QByteArray("1"));
    server.abortConnections();
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::RemoteHostClosedError);
    QVERIFY(!reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid());
    QVERIFY(!reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).isValid());
    QVERIFY(!reply->hasRawHeader("X-First"));
    QVERIFY(reply->rawHeaderList().isEmpty());
    QCOMPARE(reply->readAll(), QByteArray());
}

// On a reused keep-alive connection Qt 6.4 can end a reply cut mid-body with NoError and a
// short body. Whatever Qt makes of it, the caller gets the exact body, or an error.
void tst_Resume::shortBodyOnKeptAliveConnection_data()
{
    QTest::addColumn<bool>("resumable");
    QTest::addColumn<bool>("reset");
    QTest::addRow("resumable, reset") << true << true;
    QTest::addRow("resumable, close") << true << false;
    QTest::addRow("not resumable, reset") << false << true;
    QTest::addRow("not resumable, close") << false << false;
}

void tst_Resume::shortBodyOnKeptAliveConnection()
{
    QFETCH(bool, resumable);
    QFETCH(bool, reset);
    QByteArray body(147031, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char('a' + i % 26);
    Headers headers;
    if (resumable)
        headers = { { "Accept-Ranges", "bytes" }, { "ETag", etag } };

    int successes = 0;
    for (int round = 0; round < 20; ++round) {
        TestServer server;
        QVERIFY(server.listen());
        bool cut = false;
        server.setHandler([&](const TestServer::Request &request, int) {
            if (request.target == "/warm")
                return TestServer::Response { TestServer::head(200, 2, {}, true) + "ok",
                                              TestServer::Response::KeepAlive };
            const QByteArray range = request.header("Range");
            if (!cut) {
                cut = true; // cut the first request for the body right after its headers
                return TestServer::Response {
                    TestServer::head(200, body.size(), headers, true) + body.left(round * 97),
                    reset ? TestServer::Response::Abort : TestServer::Response::Close
                };
            }
            if (resumable && range.startsWith("bytes=")) {
                const qint64 from = range.mid(6, range.size() - 7).toLongLong();
                Headers partial = headers;
                partial.append({ "Content-Range",
                                 "bytes " + QByteArray::number(from) + '-' +
                                     QByteArray::number(body.size() - 1) + '/' +
                                     QByteArray::number(body.size()) });
                return TestServer::respond(206, body.mid(from), partial);
            }
            return TestServer::respond(200, body, headers);
        });
        RetryingNetworkAccessManager manager;
        manager.setRetryPolicy(quickPolicy());
        std::unique_ptr<QNetworkReply> warm(
            manager.get(QNetworkRequest(server.url(QStringLiteral("/warm")))));
        QCOMPARE(waitForBody(warm.get()), QByteArray("ok"));
        std::unique_ptr<QNetworkReply> reply(
            manager.get(QNetworkRequest(server.url(QStringLiteral("/body")))));
        const QByteArray received = waitForBody(reply.get());
        QVERIFY(received != "<timeout>");
        if (reply->error() == QNetworkReply::NoError) {
            QCOMPARE(received.size(), body.size());
            QVERIFY(received == body);
            ++successes;
        } else {
            QVERIFY(body.startsWith(received));
            QVERIFY(!resumable);
        }
    }
    if (resumable)
        QCOMPARE(successes, 20);
}

QTEST_GUILESS_MAIN(tst_Resume)
#include "tst_resume.moc"
