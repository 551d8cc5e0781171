// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "testserver.h"

#include <QtNetwork/QTcpSocket>

namespace KeepTrying::Test {

QByteArray TestServer::Request::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return QByteArray();
}

TestServer::TestServer(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &TestServer::onNewConnection);
    m_handler = [](const Request &, int) { return respond(200, "ok"); };
}

TestServer::~TestServer() = default;

bool TestServer::listen(quint16 port)
{
    return m_server.listen(QHostAddress::LocalHost, port);
}

quint16 TestServer::port() const
{
    return m_server.serverPort();
}

QUrl TestServer::url(const QString &path) const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    u.setHost(QStringLiteral("127.0.0.1"));
    u.setPort(port());
    u.setPath(path);
    return u;
}

void TestServer::setHandler(Handler handler)
{
    m_handler = std::move(handler);
}

QByteArray TestServer::head(int status, qint64 length,
                            const QList<QPair<QByteArray, QByteArray>> &headers, bool keepAlive)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " Test\r\n";
    if (length >= 0)
        out += "Content-Length: " + QByteArray::number(length) + "\r\n";
    if (!keepAlive)
        out += "Connection: close\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    out += "\r\n";
    return out;
}

void TestServer::abortConnections()
{
    const QList<QPointer<QTcpSocket>> open = std::exchange(m_open, {});
    for (const QPointer<QTcpSocket> &socket : open) {
        if (!socket)
            continue;
        socket->abort();
        socket->deleteLater();
    }
}

TestServer::Response TestServer::respond(int status, const QByteArray &body,
                                         const QList<QPair<QByteArray, QByteArray>> &headers)
{
    return Response { head(status, body.size(), headers) + body, Response::Close };
}

TestServer::Response TestServer::cutOff(int status, qint64 declaredLength, const QByteArray &body,
                                        const QList<QPair<QByteArray, QByteArray>> &headers)
{
    return Response { head(status, declaredLength, headers) + body, Response::Abort };
}

void TestServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        socket->setParent(this);
        m_open.removeIf([](const QPointer<QTcpSocket> &open) { return open.isNull(); });
        m_open.append(socket);
        auto pending = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, pending] {
            pending->append(socket->readAll());
            // Request framing for a test peer: head up to the blank line, then
            // Content-Length bytes of body. Enough for what our client sends.
            for (;;) {
                const qsizetype end = pending->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                Request request;
                const QList<QByteArray> lines = pending->left(end).split('\n');
                const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
                request.method = first.value(0);
                request.target = first.value(1);
                qint64 length = 0;
                for (qsizetype i = 1; i < lines.size(); ++i) {
                    const QByteArray line = lines.at(i).trimmed();
                    const qsizetype colon = line.indexOf(':');
                    if (colon <= 0)
                        continue;
                    request.headers.append(
                        { line.left(colon).trimmed(), line.mid(colon + 1).trimmed() });
                    if (line.left(colon).trimmed().compare("content-length", Qt::CaseInsensitive) ==
                        0)
                        length = line.mid(colon + 1).trimmed().toLongLong();
                }
                if (pending->size() < end + 4 + length)
                    return;
                request.body = pending->mid(end + 4, length);
                pending->remove(0, end + 4 + length);

                const int index = int(m_requests.size());
                m_requests.append(request);
                const Response response = m_handler(request, index);
                Q_EMIT requestReceived(index);
                socket->write(response.bytes);
                socket->flush();
                switch (response.ending) {
                case Response::Close:
                    socket->disconnect(this);
                    socket->disconnectFromHost();
                    return;
                case Response::Abort:
                    socket->disconnect(this);
                    socket->waitForBytesWritten(1000);
                    socket->abort();
                    socket->deleteLater();
                    return;
                case Response::Stall:
                    socket->disconnect(this); // what else arrives is not read
                    return;
                case Response::KeepAlive:
                    break; // the next request, if it is here already
                }
            }
        });
    }
}

} // namespace KeepTrying::Test
