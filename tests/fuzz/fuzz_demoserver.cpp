// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The demo server's request handling, bytes in, response out: the input is sent as it is
// over a loopback connection to an in-process DemoServer (Qt HttpServer parses it; the
// transport, the wallabag API and the article store answer), the client then closes its
// reads the answer. No crash, no hang, and what comes back is HTTP.
//
// The literal @TOKEN@ in an input becomes a valid access token of the running server, so
// that inputs reach the API behind the sign-in. The server is made anew every
// restartEvery inputs: what inputs write (entries, tokens, Idempotency-Key records) stays
// bounded.

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QTcpSocket>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

using KeepTrying::Demo::DemoServer;

namespace {

constexpr int restartEvery = 5000;
constexpr int answerTimeoutMs = 5000;
// The answer to a whole request comes in the fourth round (accept, read, answer, read).
constexpr int quietRounds = 10;
constexpr int maxRounds = 100000;

std::unique_ptr<DemoServer> server;
QByteArray token;
int inputs = 0;

// Sends \a request on a fresh connection and returns what comes back. Client and server
// share this thread, and loopback hands bytes over inside write(): each round of events
// moves the exchange one step on (accept, read and answer, read the answer). The answer is
// complete when a few rounds in a row bring nothing new: a request that is cut short waits
// for more, and the server for it, without a timer. The connection is then closed.
QByteArray exchange(const QByteArray &request)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, server->baseUrl().port());
    if (!socket.waitForConnected(answerTimeoutMs))
        std::abort();
    socket.write(request);
    QByteArray answer;
    int quiet = 0;
    for (int round = 0; quiet < quietRounds; ++round) {
        if (round > maxRounds) {
            std::fprintf(stderr, "the demo server keeps sending after %d rounds\n", round);
            std::abort();
        }
        socket.flush();
        QCoreApplication::processEvents();
        const QByteArray more = socket.readAll();
        answer += more;
        const bool moved = !more.isEmpty() || socket.bytesToWrite() > 0;
        if (socket.state() != QAbstractSocket::ConnectedState)
            break;
        quiet = moved ? 0 : quiet + 1;
    }
    socket.abort();
    // Let the server see the close now, not in the next input.
    for (int round = 0; round < 3; ++round)
        QCoreApplication::processEvents();
    return answer;
}

void startServer()
{
    server.reset(); // before the new one: its port may be the same
    server = std::make_unique<DemoServer>();
    if (server->listen(QHostAddress::LocalHost, 0) == 0)
        std::abort();
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("password"));
    form.addQueryItem(QStringLiteral("client_id"), DemoServer::demoClientId());
    form.addQueryItem(QStringLiteral("client_secret"), DemoServer::demoClientSecret());
    form.addQueryItem(QStringLiteral("username"), DemoServer::demoUsername());
    form.addQueryItem(QStringLiteral("password"), DemoServer::demoPassword());
    const QByteArray body = form.toString(QUrl::FullyEncoded).toLatin1();
    const QByteArray answer =
        exchange("POST /oauth/v2/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    const qsizetype headersEnd = answer.indexOf("\r\n\r\n");
    token = QJsonDocument::fromJson(answer.mid(headersEnd + 4))
                .object()
                .value(QLatin1String("access_token"))
                .toString()
                .toLatin1();
    if (headersEnd < 0 || token.isEmpty()) {
        std::fprintf(stderr, "no token from the demo server: %s\n", answer.constData());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    // Bad requests are what this sends: no warning for each.
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=false\n*.info=false\n"
                                                    "*.warning=false"));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!server || ++inputs % restartEvery == 0)
        startServer();
    QByteArray request(reinterpret_cast<const char *>(data), qsizetype(size));
    request.replace("@TOKEN@", token);
    const QByteArray answer = exchange(request);
    // Nothing, or a response (Qt HttpServer writes the status line).
    if (!answer.isEmpty() && !answer.startsWith("HTTP/1.1 "))
        std::abort();
    return 0;
}
