// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Tests keeptrying-fetch: its exit code table directly, and the real executable through
// QProcess against small servers on 127.0.0.1 started by each test.

#include "exitcodes.h"
#include "fetcher.h"

#include <KeepTrying/circuitbreaker.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtHttpServer/QAbstractHttpServer>
#include <QtHttpServer/QHttpServerRequest>
#include <QtHttpServer/QHttpServerResponder>
#include <QtHttpServer/QHttpServerResponse>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>

namespace {

const QString fetchProgram = QStringLiteral(KEEPTRYING_FETCH_EXECUTABLE);

struct CannedResponse
{
    int status = 200;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
};

struct RecordedRequest
{
    QByteArray method;
    QByteArray path;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &header : headers) {
            if (header.first.compare(name, Qt::CaseInsensitive) == 0)
                return header.second;
        }
        return QByteArray();
    }
    bool hasHeader(const QByteArray &name) const
    {
        return std::any_of(headers.cbegin(), headers.cend(), [&name](const auto &header) {
            return header.first.compare(name, Qt::CaseInsensitive) == 0;
        });
    }
};

// Answers the n-th request with the n-th canned response (the last one repeats), records
// every request and counts connections.
class CannedServer : public QAbstractHttpServer
{
public:
    explicit CannedServer(QList<CannedResponse> responses) : m_responses(std::move(responses))
    {
        QObject::connect(&m_tcpServer, &QTcpServer::newConnection, &m_tcpServer,
                         [this] { ++m_connections; });
    }

    bool start(quint16 port = 0)
    {
        if (!m_tcpServer.listen(QHostAddress::LocalHost, port))
            return false;
        bind(&m_tcpServer);
        return true;
    }

    QString url(const QString &path = QStringLiteral("/")) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_tcpServer.serverPort()).arg(path);
    }

    int connections() const { return m_connections; }
    QList<RecordedRequest> requests() const { return m_requests; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        RecordedRequest recorded;
        recorded.method = QByteArray(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(
                                         int(request.method())))
                              .toUpper();
        recorded.path = request.url().path(QUrl::FullyEncoded).toLatin1();
        recorded.headers = request.headers();
        recorded.body = request.body();
        m_requests.append(recorded);

        const CannedResponse &canned =
            m_responses.at(std::min(m_requests.size(), m_responses.size()) - 1);
        QHttpServerResponse response(QByteArrayLiteral("application/octet-stream"), canned.body,
                                     QHttpServerResponder::StatusCode(canned.status));
        for (const auto &header : canned.headers)
            response.addHeader(header.first, header.second);
        response.write(makeResponder(request, socket));
        return true;
    }

    void missingHandler(const QHttpServerRequest &, QTcpSocket *) override { }

private:
    QTcpServer m_tcpServer;
    QList<CannedResponse> m_responses;
    QList<RecordedRequest> m_requests;
    int m_connections = 0;
};

// Accepts connections and answers only what a test writes to them itself.
class StallingServer : public QTcpServer
{
public:
    StallingServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                socket->setParent(this);
                m_sockets.append(socket);
            }
        });
    }
    int connections() const { return int(m_sockets.size()); }
    QList<QTcpSocket *> sockets() const { return m_sockets; }

private:
    QList<QTcpSocket *> m_sockets;
};

struct FetchRun
{
    bool started = false;
    bool finishedInTime = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    QStringList errLines() const
    {
        return QString::fromUtf8(err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    QStringList retryLines() const
    {
        QStringList lines = errLines();
        lines.removeIf(
            [](const QString &line) { return !line.startsWith(QLatin1String("retry ")); });
        return lines;
    }
};

QProcessEnvironment fetchEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // Nothing from the caller's environment may send us elsewhere or offline.
    const QStringList unwanted = { QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"),
                                   QStringLiteral("http_proxy"),
                                   QStringLiteral("HTTP_PROXY"),
                                   QStringLiteral("https_proxy"),
                                   QStringLiteral("HTTPS_PROXY"),
                                   QStringLiteral("all_proxy"),
                                   QStringLiteral("ALL_PROXY"),
                                   QStringLiteral("no_proxy"),
                                   QStringLiteral("NO_PROXY") };
    for (const QString &name : unwanted)
        environment.remove(name);
    return environment;
}

// Runs a program to its end while this thread's event loop keeps serving the test servers.
FetchRun runProgram(const QString &program, const QStringList &arguments)
{
    FetchRun run;
    QProcess process;
    process.setProcessEnvironment(fetchEnvironment());
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(program, arguments);
    run.started = process.waitForStarted(10000);
    if (!run.started)
        return run;
    run.finishedInTime = !finished.isEmpty() || finished.wait(10000);
    if (!run.finishedInTime) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

FetchRun runFetch(const QStringList &arguments)
{
    return runProgram(fetchProgram, arguments);
}

// Bytes of every value, line ends and NULs included, so that any text conversion shows.
QByteArray binaryBody(qsizetype size)
{
    QByteArray body(size, Qt::Uninitialized);
    QRandomGenerator random(42);
    for (qsizetype i = 0; i < size; ++i)
        body[i] = char(random.bounded(256));
    return body.append(QByteArray("\r\n\0\n", 4));
}

// A port nobody listens on (for now): connections to it are refused.
quint16 unusedPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

} // namespace

#define VERIFY_RUN(run)                                                                            \
    do {                                                                                           \
        QVERIFY2((run).started, "keeptrying-fetch did not start");                                 \
        QVERIFY2((run).finishedInTime, (run).err.constData());                                     \
    } while (false)

class tst_Fetch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exitCodeForReply_data();
    void exitCodeForReply();
    void helpListsEveryExitCode();
    void usageErrors_data();
    void usageErrors();
    void version();
    void getWritesBodyToStdout();
    void retriesServerFaults_data();
    void retriesServerFaults();
    void notFoundIsNotRetried();
    void refusedConnection();
    void simulatedOfflineRunsIntoDeadline();
    void attemptTimeout();
    void requestBody_data();
    void requestBody();
    void headersArrive();
    void verboseHidesCredentials();
    void verboseRedactsQueryHeadersAndRedirects();
    void saysWhileItWaitsForTheServer();
    void simulatedOffline_data();
    void simulatedOffline();
    void saysWhileItWaitsBehindTheBreaker();
    void namesTheBreakerThatStoppedIt();
    void verboseRendersTypedReasons();
    void outputFile();
    void failedDownloadLeavesNoFile();
    void idempotencyKey_data();
    void idempotencyKey();
    void streamsBodyAsItArrives_data();
    void streamsBodyAsItArrives();
    void hostNotFound();
};

void tst_Fetch::exitCodeForReply_data()
{
    QTest::addColumn<QNetworkReply::NetworkError>("error");
    QTest::addColumn<int>("status");
    QTest::addColumn<ExitCodes::Code>("expected");

    QTest::newRow("200") << QNetworkReply::NoError << 200 << ExitCodes::Success;
    QTest::newRow("204") << QNetworkReply::NoError << 204 << ExitCodes::Success;
    QTest::newRow("304 not followed") << QNetworkReply::NoError << 304 << ExitCodes::Success;
    QTest::newRow("file: ok") << QNetworkReply::NoError << 0 << ExitCodes::Success;
    QTest::newRow("401") << QNetworkReply::AuthenticationRequiredError << 401
                         << ExitCodes::HttpError;
    QTest::newRow("404") << QNetworkReply::ContentNotFoundError << 404 << ExitCodes::HttpError;
    QTest::newRow("407") << QNetworkReply::ProxyAuthenticationRequiredError << 407
                         << ExitCodes::HttpError;
    QTest::newRow("409") << QNetworkReply::ContentConflictError << 409 << ExitCodes::HttpError;
    QTest::newRow("418") << QNetworkReply::UnknownContentError << 418 << ExitCodes::HttpError;
    QTest::newRow("500") << QNetworkReply::InternalServerError << 500 << ExitCodes::HttpError;
    QTest::newRow("501") << QNetworkReply::OperationNotImplementedError << 501
                         << ExitCodes::HttpError;
    QTest::newRow("503") << QNetworkReply::ServiceUnavailableError << 503 << ExitCodes::HttpError;
    QTest::newRow("host not found")
        << QNetworkReply::HostNotFoundError << 0 << ExitCodes::HostNotFound;
    QTest::newRow("refused") << QNetworkReply::ConnectionRefusedError << 0
                             << ExitCodes::CouldNotConnect;
    QTest::newRow("offline") << QNetworkReply::TemporaryNetworkFailureError << 0
                             << ExitCodes::CouldNotConnect;
    QTest::newRow("session") << QNetworkReply::NetworkSessionFailedError << 0
                             << ExitCodes::CouldNotConnect;
    QTest::newRow("unreachable") << QNetworkReply::UnknownNetworkError << 0
                                 << ExitCodes::CouldNotConnect;
    QTest::newRow("proxy refused")
        << QNetworkReply::ProxyConnectionRefusedError << 0 << ExitCodes::CouldNotConnect;
    QTest::newRow("timeout") << QNetworkReply::TimeoutError << 0 << ExitCodes::Timeout;
    QTest::newRow("deadline after 503") << QNetworkReply::TimeoutError << 503 << ExitCodes::Timeout;
    QTest::newRow("transfer timeout")
        << QNetworkReply::OperationCanceledError << 0 << ExitCodes::Timeout;
    QTest::newRow("proxy timeout") << QNetworkReply::ProxyTimeoutError << 0 << ExitCodes::Timeout;
    QTest::newRow("closed") << QNetworkReply::RemoteHostClosedError << 0 << ExitCodes::ReceiveError;
    QTest::newRow("tls") << QNetworkReply::SslHandshakeFailedError << 0
                         << ExitCodes::TlsHandshakeFailed;
    QTest::newRow("redirects") << QNetworkReply::TooManyRedirectsError << 301
                               << ExitCodes::TooManyRedirects;
    QTest::newRow("insecure redirect")
        << QNetworkReply::InsecureRedirectError << 302 << ExitCodes::TooManyRedirects;
    QTest::newRow("proxy not found")
        << QNetworkReply::ProxyNotFoundError << 0 << ExitCodes::ProxyNotFound;
    QTest::newRow("proxy closed") << QNetworkReply::ProxyConnectionClosedError << 0
                                  << ExitCodes::ProxyError;
    QTest::newRow("proxy other") << QNetworkReply::UnknownProxyError << 0 << ExitCodes::ProxyError;
    QTest::newRow("file: missing")
        << QNetworkReply::ContentNotFoundError << 0 << ExitCodes::FileNotReadable;
    QTest::newRow("file: denied") << QNetworkReply::ContentAccessDenied << 0
                                  << ExitCodes::FileNotReadable;
    QTest::newRow("resend") << QNetworkReply::ContentReSendError << 0
                            << ExitCodes::SendRewindFailed;
    QTest::newRow("unknown scheme")
        << QNetworkReply::ProtocolUnknownError << 0 << ExitCodes::UnsupportedProtocol;
    QTest::newRow("protocol failure")
        << QNetworkReply::ProtocolFailure << 0 << ExitCodes::WeirdServerReply;
    QTest::newRow("server, no status")
        << QNetworkReply::UnknownServerError << 0 << ExitCodes::WeirdServerReply;
}

void tst_Fetch::exitCodeForReply()
{
    QFETCH(QNetworkReply::NetworkError, error);
    QFETCH(int, status);
    QFETCH(ExitCodes::Code, expected);
    QCOMPARE(ExitCodes::forReply(error, status), expected);
}

void tst_Fetch::helpListsEveryExitCode()
{
    const QString table = ExitCodes::helpTable();
    const QList<ExitCodes::Code> codes = ExitCodes::all();
    QVERIFY(codes.contains(ExitCodes::Usage));
    for (ExitCodes::Code code : codes) {
        QVERIFY(!ExitCodes::description(code).isEmpty());
        const QString row =
            QStringLiteral("%1  %2").arg(int(code), 2).arg(ExitCodes::description(code));
        QVERIFY2(table.contains(row), qPrintable(row));
    }

    const FetchRun run = runFetch({ QStringLiteral("--help") });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    const QString help = QString::fromUtf8(run.out);
    QVERIFY(help.contains(QLatin1String("--max-attempts")));
    QVERIFY(help.contains(QLatin1String("--simulate-offline")));
    QVERIFY(help.contains(table));
}

void tst_Fetch::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");

    // Nothing here reaches a server: the port is never listened on.
    const QString url = QStringLiteral("http://127.0.0.1:1/");
    QTest::newRow("no URL") << QStringList() << 2;
    QTest::newRow("two URLs") << QStringList { url, url } << 2;
    QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate"), url } << 2;
    QTest::newRow("missing value") << QStringList { url, QStringLiteral("--max-attempts") } << 2;
    QTest::newRow("attempts not a number")
        << QStringList { QStringLiteral("--max-attempts"), QStringLiteral("many"), url } << 2;
    QTest::newRow("zero attempts")
        << QStringList { QStringLiteral("--max-attempts"), QStringLiteral("0"), url } << 2;
    QTest::newRow("negative delay")
        << QStringList { QStringLiteral("--initial-delay"), QStringLiteral("-5"), url } << 2;
    QTest::newRow("huge deadline")
        << QStringList { QStringLiteral("--deadline"), QStringLiteral("99999999999999999999"), url }
        << 2;
    QTest::newRow("timeout with unit")
        << QStringList { QStringLiteral("--timeout"), QStringLiteral("5s"), url } << 2;
    QTest::newRow("bad jitter") << QStringList { QStringLiteral("--jitter"), QStringLiteral("some"),
                                                 url }
                                << 2;
    QTest::newRow("header without colon")
        << QStringList { QStringLiteral("-H"), QStringLiteral("X-Test"), url } << 2;
    QTest::newRow("header with space in name")
        << QStringList { QStringLiteral("-H"), QStringLiteral("X Test: 1"), url } << 2;
    QTest::newRow("bad method") << QStringList { QStringLiteral("-X"), QStringLiteral("GET /x"),
                                                 url }
                                << 2;
    QTest::newRow("empty key") << QStringList { QStringLiteral("--idempotency-key="), url } << 2;
    QTest::newRow("malformed URL") << QStringList { QStringLiteral("http://[::1/") } << 3;
    QTest::newRow("missing @file")
        << QStringList { QStringLiteral("-d"), QStringLiteral("@/nonexistent/kt-body"), url } << 26;
}

void tst_Fetch::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);

    const FetchRun run = runFetch(arguments);
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY(run.out.isEmpty());
    const QStringList lines = run.errLines();
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines.first().startsWith(QLatin1String("keeptrying-fetch: ")),
             qPrintable(lines.first()));
}

void tst_Fetch::version()
{
    const FetchRun run = runFetch({ QStringLiteral("--version") });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith("keeptrying-fetch "));
}

void tst_Fetch::getWritesBodyToStdout()
{
    const QByteArray body = binaryBody(300 * 1024);
    CannedServer server({ { 200, body, {} } });
    QVERIFY(server.start());

    const FetchRun run = runFetch({ server.url(QStringLiteral("/data.bin")) });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.size(), body.size());
    QVERIFY(run.out == body);
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().method, QByteArray("GET"));
    QCOMPARE(server.requests().first().path, QByteArray("/data.bin"));
}

void tst_Fetch::retriesServerFaults_data()
{
    QTest::addColumn<QString>("jitter");
    QTest::addColumn<QList<qint64>>("exactDelays"); // empty: only within the bounds

    QTest::newRow("no jitter") << QStringLiteral("none") << QList<qint64> { 10, 20 };
    QTest::newRow("full jitter") << QStringLiteral("full") << QList<qint64>();
}

void tst_Fetch::retriesServerFaults()
{
    QFETCH(QString, jitter);
    QFETCH(QList<qint64>, exactDelays);

    CannedServer server({ { 503, "busy", {} }, { 503, "busy", {} }, { 200, "finally", {} } });
    QVERIFY(server.start());

    const FetchRun run = runFetch({ QStringLiteral("--initial-delay"), QStringLiteral("10"),
                                    QStringLiteral("--jitter"), jitter, server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("finally"));
    QCOMPARE(server.requests().size(), 3);

    const QStringList retries = run.retryLines();
    QCOMPARE(retries.size(), 2);
    QCOMPARE(run.errLines(), retries); // nothing else on stderr
    static const QRegularExpression pattern(
        QStringLiteral("^retry (\\d+) in (\\d+) ms: HTTP 503$"));
    for (int i = 0; i < retries.size(); ++i) {
        const QRegularExpressionMatch match = pattern.match(retries.at(i));
        QVERIFY2(match.hasMatch(), qPrintable(retries.at(i)));
        QCOMPARE(match.captured(1).toInt(), i + 2);
        const qint64 delay = match.captured(2).toLongLong();
        if (exactDelays.isEmpty()) {
            QVERIFY2(delay >= 0 && delay <= (qint64(10) << i), qPrintable(retries.at(i)));
        } else {
            QCOMPARE(delay, exactDelays.at(i));
        }
    }
}

void tst_Fetch::notFoundIsNotRetried()
{
    CannedServer server({ { 404, "no such page", {} } });
    QVERIFY(server.start());

    const FetchRun run = runFetch({ QStringLiteral("--initial-delay"), QStringLiteral("10"),
                                    server.url(QStringLiteral("/missing")) });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 22);
    QVERIFY(run.out.isEmpty()); // as curl --fail: no error body
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(run.errLines(),
             QStringList { QStringLiteral("keeptrying-fetch: HTTP 404 Not Found") });
}

void tst_Fetch::refusedConnection()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    const FetchRun run = runFetch({ QStringLiteral("--max-attempts"), QStringLiteral("2"),
                                    QStringLiteral("--initial-delay"), QStringLiteral("10"),
                                    QStringLiteral("http://127.0.0.1:%1/").arg(port) });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 7);
    QVERIFY(run.out.isEmpty());
    const QStringList retries = run.retryLines();
    QCOMPARE(retries.size(), 1);
    QVERIFY2(retries.first().startsWith(QLatin1String("retry 2 in ")), qPrintable(retries.first()));
    const QStringList lines = run.errLines();
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines.last().startsWith(QLatin1String("keeptrying-fetch: ")),
             qPrintable(lines.last()));
}

void tst_Fetch::simulatedOfflineRunsIntoDeadline()
{
    CannedServer server({ { 200, "never sent", {} } });
    QVERIFY(server.start());

    const FetchRun run = runFetch(
        { QStringLiteral("--simulate-offline"), QStringLiteral("--deadline"), QStringLiteral("300"),
          QStringLiteral("--initial-delay"), QStringLiteral("20"), server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 28);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.errLines().constLast().startsWith(QLatin1String("keeptrying-fetch: ")),
             run.err.constData());
    // Let any late connection show before counting.
    QTest::qWait(50);
    QCOMPARE(server.connections(), 0);
    QCOMPARE(server.requests().size(), 0);
}

void tst_Fetch::attemptTimeout()
{
    StallingServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));

    const FetchRun run = runFetch(
        { QStringLiteral("--timeout"), QStringLiteral("200"), QStringLiteral("--max-attempts"),
          QStringLiteral("1"), QStringLiteral("http://127.0.0.1:%1/").arg(server.serverPort()) });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 28);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(server.connections(), 1);
    QCOMPARE(run.retryLines().size(), 0);
    QCOMPARE(run.errLines().size(), 1);
}

void tst_Fetch::requestBody_data()
{
    QTest::addColumn<QStringList>("options"); // "@FILE" stands for the body file
    QTest::addColumn<QByteArray>("expectedMethod");
    QTest::addColumn<bool>("fromFile");

    QTest::newRow("-d inline") << QStringList { QStringLiteral("-d"), QStringLiteral("a=1&b=2") }
                               << QByteArray("POST") << false;
    QTest::newRow("-d @file") << QStringList { QStringLiteral("-d"), QStringLiteral("@FILE") }
                              << QByteArray("POST") << true;
    QTest::newRow("-X PUT -d @file")
        << QStringList { QStringLiteral("-X"), QStringLiteral("PUT"), QStringLiteral("--data"),
                         QStringLiteral("@FILE") }
        << QByteArray("PUT") << true;
    QTest::newRow("-X PATCH -d inline")
        << QStringList { QStringLiteral("-X"), QStringLiteral("PATCH"), QStringLiteral("-d"),
                         QStringLiteral("a=1&b=2") }
        << QByteArray("PATCH") << false;
}

void tst_Fetch::requestBody()
{
    QFETCH(QStringList, options);
    QFETCH(QByteArray, expectedMethod);
    QFETCH(bool, fromFile);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray fileBody = binaryBody(64 * 1024);
    const QString fileName = dir.filePath(QStringLiteral("body.bin"));
    {
        QFile file(fileName);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(fileBody), fileBody.size());
    }
    options.replaceInStrings(QStringLiteral("@FILE"), QLatin1Char('@') + fileName);
    const QByteArray expectedBody = fromFile ? fileBody : QByteArray("a=1&b=2");

    CannedServer server({ { 200, "stored", {} } });
    QVERIFY(server.start());
    const FetchRun run = runFetch(options << server.url(QStringLiteral("/upload")));
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("stored"));
    QCOMPARE(server.requests().size(), 1);
    const RecordedRequest request = server.requests().first();
    QCOMPARE(request.method, expectedMethod);
    QCOMPARE(request.body.size(), expectedBody.size());
    QVERIFY(request.body == expectedBody);
    QCOMPARE(request.header("Content-Type"), QByteArray("application/x-www-form-urlencoded"));
}

void tst_Fetch::headersArrive()
{
    CannedServer server({ { 200, "ok", {} } });
    QVERIFY(server.start());

    const FetchRun run =
        runFetch({ QStringLiteral("-H"), QStringLiteral("X-Test: hello world"),
                   QStringLiteral("--header"), QStringLiteral("Accept:text/plain"),
                   QStringLiteral("-H"), QStringLiteral("User-Agent: tester/1"), server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(server.requests().size(), 1);
    const RecordedRequest request = server.requests().first();
    QCOMPARE(request.header("X-Test"), QByteArray("hello world"));
    QCOMPARE(request.header("Accept"), QByteArray("text/plain"));
    QCOMPARE(request.header("User-Agent"), QByteArray("tester/1"));
}

void tst_Fetch::verboseHidesCredentials()
{
    CannedServer server(
        { { 200,
            "ok",
            { { "Set-Cookie", "session=s3cret-cookie" }, { "X-Served-By", "canned" } } } });
    QVERIFY(server.start());

    const FetchRun run =
        runFetch({ QStringLiteral("-v"), QStringLiteral("-H"),
                   QStringLiteral("Authorization: Bearer s3cret-token"), QStringLiteral("-H"),
                   QStringLiteral("Cookie: id=s3cret-id"), server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("ok"));
    QCOMPARE(server.requests().first().header("Authorization"), QByteArray("Bearer s3cret-token"));

    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(!err.contains(QLatin1String("s3cret")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("< HTTP/1.1 200")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("< X-Served-By: canned")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("Authorization: <redacted>")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("attempt 1")), qPrintable(err));
}

void tst_Fetch::verboseRedactsQueryHeadersAndRedirects()
{
    CannedServer server(
        { { 302, "", { { "Location", "/next?token=s3cret-next&page=3" } } },
          { 200,
            "ok",
            { { "X-Session-Token", "s3cret-session" }, { "X-Served-By", "canned" } } } });
    QVERIFY(server.start());

    const QString url = server.url(QStringLiteral("/api/entries?access_token=s3cret-query&page=2"));
    const FetchRun run = runFetch(
        { QStringLiteral("-v"), QStringLiteral("-H"), QStringLiteral("X-Api-Key: s3cret-key"),
          QStringLiteral("-H"), QStringLiteral("X-Auth-Token: s3cret-token"), QStringLiteral("-H"),
          QStringLiteral("Idempotency-Key: k-1"), url });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray("ok"));
    // The server got everything as given; only what is printed leaves the secrets out.
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().first().header("X-Api-Key"), QByteArray("s3cret-key"));

    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(!err.contains(QLatin1String("s3cret")), qPrintable(err));
    const QString base = server.url(QString());
    QVERIFY2(
        err.contains(QStringLiteral("* GET %1/api/entries?access_token=REDACTED&page=2").arg(base)),
        qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("> X-Api-Key: <redacted>")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("> X-Auth-Token: <redacted>")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("> Idempotency-Key: k-1")), qPrintable(err));
    QVERIFY2(
        err.contains(QStringLiteral("* redirected to %1/next?token=REDACTED&page=3").arg(base)),
        qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("< X-Session-Token: <redacted>")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("< X-Served-By: canned")), qPrintable(err));
}

void tst_Fetch::saysWhileItWaitsForTheServer()
{
    const quint16 port = unusedPort();
    QVERIFY(port != 0);
    const QString server = QStringLiteral("127.0.0.1:%1").arg(port);

    QProcess process;
    process.setProcessEnvironment(fetchEnvironment());
    QByteArray err;
    connect(&process, &QProcess::readyReadStandardError, &process,
            [&] { err += process.readAllStandardError(); });
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(fetchProgram,
                  { QStringLiteral("--initial-delay"), QStringLiteral("5"),
                    QStringLiteral("--deadline"), QStringLiteral("20000"),
                    QStringLiteral("http://%1/").arg(server) });
    QVERIFY(process.waitForStarted(10000));

    // Refused, so the manager waits for the server (probing it) instead of trying again;
    // the user hears so, not just the retry line before the wait.
    const QString waiting = QStringLiteral("waiting for %1 to answer").arg(server);
    QTRY_VERIFY2_WITH_TIMEOUT(err.contains(waiting.toUtf8()), err.constData(), 10000);
    QVERIFY(finished.isEmpty());

    CannedServer back({ { 200, "back", {} } });
    QVERIFY(back.start(port));
    QVERIFY(!finished.isEmpty() || finished.wait(10000));
    err += process.readAllStandardError();
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == 0, err.constData());
    QCOMPARE(process.readAllStandardOutput(), QByteArray("back"));

    const QStringList lines = QString::fromUtf8(err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const qsizetype waitLine = lines.indexOf(waiting);
    QVERIFY2(waitLine > 0 && lines.at(waitLine - 1).startsWith(QLatin1String("retry 2 in ")),
             err.constData());
    static const QRegularExpression again(QStringLiteral("^%1 answers again, attempt (\\d+)$")
                                              .arg(QRegularExpression::escape(server)));
    QVERIFY2(waitLine + 1 < lines.size() && again.match(lines.at(waitLine + 1)).hasMatch(),
             err.constData());
    QVERIFY(again.match(lines.at(waitLine + 1)).captured(1).toInt() >= 2);
}

void tst_Fetch::simulatedOffline_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("retries");
    QTest::addColumn<bool>("waits");

    // As --help says: it waits without attempts until the deadline...
    QTest::newRow("waits until the deadline")
        << QStringList { QStringLiteral("--deadline"), QStringLiteral("300") } << 28 << 0 << true;
    // ...or, allowed only so many attempts, each fails at once as a connectivity fault.
    QTest::newRow("attempts fail at once")
        << QStringList { QStringLiteral("--max-attempts"), QStringLiteral("3"),
                         QStringLiteral("--initial-delay"), QStringLiteral("5") }
        << 7 << 2 << false;
}

void tst_Fetch::simulatedOffline()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(int, retries);
    QFETCH(bool, waits);

    CannedServer server({ { 200, "never sent", {} } });
    QVERIFY(server.start());
    const FetchRun run =
        runFetch(QStringList { QStringLiteral("--simulate-offline") } << options << server.url());
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.retryLines().size(), retries);
    QCOMPARE(run.errLines().contains(
                 QStringLiteral("waiting: the network is offline (simulated), nothing is sent")),
             waits);
    QTest::qWait(50); // let any late connection show before counting
    QCOMPARE(server.connections(), 0);

    const FetchRun help = runFetch({ QStringLiteral("--help") });
    VERIFY_RUN(help);
    const QString text = QString::fromUtf8(help.out).simplified();
    QVERIFY2(text.contains(QLatin1String("waits for the network without making attempts, so it "
                                         "ends only at --deadline")),
             qPrintable(text));
    QVERIFY(!text.contains(QLatin1String("every attempt fails at once")));
}

void tst_Fetch::verboseRendersTypedReasons()
{
    // -v: each wait as the manager's typed reason says it (its length, end, cause and the
    // fault as data), and the give-up as its GiveUpReason.
    CannedServer server(
        { { 503, "busy", { { "Retry-After", "0" } } }, { 503, "busy", {} }, { 503, "busy", {} } });
    QVERIFY(server.start());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FetchOptions options;
    options.url = QUrl(server.url(QStringLiteral("/api/entries.json")));
    options.outputFile = dir.filePath(QStringLiteral("out"));
    options.verbose = true;
    options.policy.initialDelayMs = 5;
    options.policy.maxDelayMs = 10;
    options.policy.jitter = KeepTrying::Jitter::None;
    options.policy.maxAttempts = 3;
    Fetcher fetcher(options);
    KeepTrying::CircuitBreaker::Settings breaker;
    breaker.enabled = false;
    fetcher.manager()->circuitBreaker()->setSettings(breaker);
    QStringList lines;
    fetcher.setLineHandler([&lines](const QString &line) { lines.append(line); });
    QSignalSpy finished(&fetcher, &Fetcher::finished);
    QVERIFY(fetcher.start());
    QVERIFY(finished.wait(10000));

    static const QRegularExpression retryAfter(QStringLiteral(
        "^\\* waiting 0 ms \\(until \\S+Z\\): the server's Retry-After after HTTP 503$"));
    static const QRegularExpression backoff(
        QStringLiteral("^\\* waiting \\d+ ms \\(until \\S+Z\\): backoff after HTTP 503$"));
    QVERIFY2(lines.indexOf(retryAfter) >= 0, qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(lines.indexOf(backoff) >= 0, qPrintable(lines.join(QLatin1Char('\n'))));
    QVERIFY2(
        lines.contains(QStringLiteral("* gave up: AttemptsExhausted after 3 attempts (HTTP 503)")),
        qPrintable(lines.join(QLatin1Char('\n'))));
}

void tst_Fetch::saysWhileItWaitsBehindTheBreaker()
{
    // In-process: with its defaults a single request never trips the breaker (ten calls in
    // the window), so the test sets a streak rule of two.
    CannedServer server({ { 503, "busy", {} }, { 503, "busy", {} }, { 200, "fine", {} } });
    QVERIFY(server.start());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    FetchOptions options;
    options.url = QUrl(server.url(QStringLiteral("/api/entries.json")));
    options.outputFile = dir.filePath(QStringLiteral("out"));
    options.policy.initialDelayMs = 5;
    options.policy.maxDelayMs = 10;
    options.policy.deadlineMs = 10000;
    Fetcher fetcher(options);
    KeepTrying::CircuitBreaker::Settings settings;
    settings.consecutiveFailures = 2;
    settings.breakDurationMs = 300;
    fetcher.manager()->circuitBreaker()->setSettings(settings);
    QStringList lines;
    fetcher.setLineHandler([&lines](const QString &line) { lines.append(line); });
    QSignalSpy finished(&fetcher, &Fetcher::finished);
    QVERIFY(fetcher.start());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().first().toInt(), 0);
    QCOMPARE(server.requests().size(), 3);

    const QString origin = server.url(QString()).mid(int(qstrlen("http://")));
    static const QRegularExpression waiting(
        QStringLiteral("^waiting: the circuit breaker of %1 is open after repeated failures; a "
                       "request may go through in \\d+ ms$")
            .arg(QRegularExpression::escape(origin)));
    const qsizetype waitLine = lines.indexOf(waiting);
    QVERIFY2(waitLine >= 0, qPrintable(lines.join(QLatin1Char('\n'))));
    QCOMPARE(lines.value(waitLine + 1),
             QStringLiteral("the circuit breaker of %1 lets attempt 3 through").arg(origin));
    // Backoffs are not mistaken for the breaker: two retries, one breaker wait.
    QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^retry \\d in "))).size(), 2);
    QCOMPARE(lines.filter(QLatin1String("circuit breaker")).size(), 2);
}

// --max-attempts (no waiting) and an origin whose breaker opens: fetch ends with the last
// real answer, exit 22, says that the breaker stopped it, and announces no retry it will
// not make.
void tst_Fetch::namesTheBreakerThatStoppedIt()
{
    QList<CannedResponse> answers;
    for (int i = 0; i < 20; ++i)
        answers.append({ 503, "busy", {} });
    CannedServer server(answers);
    QVERIFY(server.start());
    FetchOptions options;
    options.url = QUrl(server.url(QStringLiteral("/api/entries.json")));
    options.policy.maxAttempts = 20;
    options.policy.maxConnectivityAttempts = 20;
    options.policy.waitForConnectivity = false;
    options.policy.initialDelayMs = 1;
    options.policy.maxDelayMs = 1;
    Fetcher fetcher(options);
    KeepTrying::CircuitBreaker::Settings settings;
    settings.consecutiveFailures = 3;
    settings.breakDurationMs = 60000;
    fetcher.manager()->circuitBreaker()->setSettings(settings);
    QStringList lines;
    fetcher.setLineHandler([&lines](const QString &line) { lines.append(line); });
    QSignalSpy finished(&fetcher, &Fetcher::finished);
    QVERIFY(fetcher.start());
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().first().toInt(), 22);
    QCOMPARE(server.requests().size(), 3);
    QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^retry \\d+ in "))).size(), 2);
    QVERIFY2(lines.last().contains(QLatin1String("HTTP 503")) &&
                 lines.last().contains(QLatin1String("circuit breaker")),
             qPrintable(lines.join(QLatin1Char('\n'))));
}

void tst_Fetch::outputFile()
{
    const QByteArray body = binaryBody(100 * 1024);
    CannedServer server({ { 200, body, {} } });
    QVERIFY(server.start());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("out.bin"));

    const FetchRun run = runFetch({ QStringLiteral("-o"), fileName, server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    QFile file(fileName);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll() == body);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList { QStringLiteral("out.bin") });
}

void tst_Fetch::failedDownloadLeavesNoFile()
{
    CannedServer server({ { 503, "busy", {} } });
    QVERIFY(server.start());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("out.bin"));

    const FetchRun run = runFetch(
        { QStringLiteral("-o"), fileName, QStringLiteral("--max-attempts"), QStringLiteral("2"),
          QStringLiteral("--initial-delay"), QStringLiteral("10"), server.url() });
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 22);
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(run.retryLines().size(), 1);
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
}

void tst_Fetch::idempotencyKey_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("expectedRequests");
    QTest::addColumn<QByteArray>("expectedKey"); // empty: any non-empty key; "-": none

    QTest::newRow("POST without key: not retried") << QStringList() << 1 << QByteArray("-");
    QTest::newRow("auto") << QStringList { QStringLiteral("--idempotency-key"),
                                           QStringLiteral("auto") }
                          << 2 << QByteArray();
    QTest::newRow("given key") << QStringList { QStringLiteral("--idempotency-key"),
                                                QStringLiteral("order-42") }
                               << 2 << QByteArray("order-42");
}

void tst_Fetch::idempotencyKey()
{
    QFETCH(QStringList, options);
    QFETCH(int, expectedRequests);
    QFETCH(QByteArray, expectedKey);

    CannedServer server({ { 503, "busy", {} }, { 201, "created", {} } });
    QVERIFY(server.start());
    options << QStringLiteral("-d") << QStringLiteral("title=hello")
            << QStringLiteral("--initial-delay") << QStringLiteral("10")
            << server.url(QStringLiteral("/api/entries.json"));

    const FetchRun run = runFetch(options);
    VERIFY_RUN(run);
    const QList<RecordedRequest> requests = server.requests();
    QCOMPARE(requests.size(), expectedRequests);
    QCOMPARE(run.exitCode, expectedRequests == 2 ? 0 : 22);
    for (const RecordedRequest &request : requests) {
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.body, QByteArray("title=hello"));
        if (expectedKey == "-") {
            QVERIFY(!request.hasHeader("Idempotency-Key"));
        } else if (expectedKey.isEmpty()) {
            QVERIFY(!request.header("Idempotency-Key").isEmpty());
            QCOMPARE(request.header("Idempotency-Key"), requests.first().header("Idempotency-Key"));
        } else {
            QCOMPARE(request.header("Idempotency-Key"), expectedKey);
        }
    }
}

void tst_Fetch::streamsBodyAsItArrives_data()
{
    QTest::addColumn<bool>("completes");
    QTest::addColumn<bool>("toFile");

    QTest::newRow("stdout, complete") << true << false;
    QTest::newRow("stdout, cut") << false << false;
    QTest::newRow("-o, complete") << true << true;
    QTest::newRow("-o, cut") << false << true;
}

void tst_Fetch::streamsBodyAsItArrives()
{
    QFETCH(bool, completes);
    QFETCH(bool, toFile);

    StallingServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fileName = dir.filePath(QStringLiteral("out.bin"));
    const QByteArray body = binaryBody(64 * 1024);
    const qsizetype firstPart = 40000;

    QStringList arguments { QStringLiteral("--max-attempts"), QStringLiteral("1") };
    if (toFile)
        arguments << QStringLiteral("-o") << fileName;
    arguments << QStringLiteral("http://127.0.0.1:%1/stream").arg(server.serverPort());

    QProcess process;
    process.setProcessEnvironment(fetchEnvironment());
    QByteArray received;
    connect(&process, &QProcess::readyReadStandardOutput, &process,
            [&] { received += process.readAllStandardOutput(); });
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(fetchProgram, arguments);

    QTRY_COMPARE_WITH_TIMEOUT(server.connections(), 1, 10000);
    QTcpSocket *socket = server.sockets().first();
    QTRY_VERIFY_WITH_TIMEOUT(socket->bytesAvailable() > 0, 10000); // the request is here
    // A fixed response written by hand: the test decides when the rest of the body comes.
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                  "Content-Length: " +
                  QByteArray::number(body.size()) + "\r\n\r\n");
    socket->write(body.left(firstPart));
    if (!toFile) {
        // The first part is written out while the rest is outstanding: nothing waits for
        // the whole body.
        QTRY_COMPARE_WITH_TIMEOUT(received.size(), firstPart, 10000);
        QVERIFY(finished.isEmpty());
    }

    if (completes)
        socket->write(body.mid(firstPart));
    else
        socket->disconnectFromHost();
    QVERIFY(!finished.isEmpty() || finished.wait(10000));
    received += process.readAllStandardOutput();
    const QByteArray err = process.readAllStandardError();

    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == (completes ? 0 : 56), err.constData());
    if (toFile) {
        QVERIFY(received.isEmpty());
        if (completes) {
            QFile file(fileName);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll() == body);
        } else {
            // QSaveFile: a cut download leaves no file, not even a temporary one.
            QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        }
    } else {
        QVERIFY(received == (completes ? body : body.left(firstPart)));
    }
    QCOMPARE(server.connections(), 1);
}

void tst_Fetch::hostNotFound()
{
    // The lookup happens in a new network namespace with only a loopback device that is
    // down, for a name under the reserved .invalid TLD: no query can leave this machine.
    QStringList unshareArguments;
    for (const QString &flags : { QStringLiteral("-n"), QStringLiteral("-rn") }) {
        const FetchRun probe =
            runProgram(QStringLiteral("unshare"), { flags, QStringLiteral("true") });
        if (probe.started && probe.finishedInTime && probe.exitCode == 0) {
            unshareArguments = { flags };
            break;
        }
    }
    if (unshareArguments.isEmpty())
        QSKIP("unshare cannot make a network namespace here");

    const FetchRun run = runProgram(
        QStringLiteral("unshare"),
        unshareArguments << fetchProgram << QStringLiteral("--max-attempts") << QStringLiteral("2")
                         << QStringLiteral("--initial-delay") << QStringLiteral("10")
                         << QStringLiteral("http://nonexistent.invalid/"));
    VERIFY_RUN(run);
    QCOMPARE(run.exitCode, 6);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(run.retryLines().size(), 1);
    QVERIFY2(run.errLines().constLast().startsWith(QLatin1String("keeptrying-fetch: ")),
             run.err.constData());
}

QTEST_GUILESS_MAIN(tst_Fetch)

#include "tst_fetch.moc"
