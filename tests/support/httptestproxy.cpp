// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "httptestproxy.h"

#include <QtCore/QUrl>
#include <QtNetwork/QHostAddress>

#include <algorithm>
#include <memory>

namespace KeepTrying::Test {

namespace {

// Only names of this machine are ever connected to, and then at 127.0.0.1.
bool isThisMachine(const QString &host)
{
    const QString name = host.toLower();
    if (name == QLatin1String("localhost") || name.endsWith(QLatin1String(".localhost")))
        return true;
    QHostAddress address;
    if (!address.setAddress(name))
        return false;
    return address.isLoopback() || address == QHostAddress(QHostAddress::AnyIPv4);
}

QByteArray answer(int status, const QByteArray &reason)
{
    const QByteArray body = reason + '\n';
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason +
        "\r\nContent-Type: text/plain\r\nContent-Length: " + QByteArray::number(body.size()) +
        "\r\nConnection: close\r\n\r\n" + body;
}

} // namespace

HttpTestProxy::HttpTestProxy(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &HttpTestProxy::onNewConnection);
}

HttpTestProxy::~HttpTestProxy()
{
    close();
}

bool HttpTestProxy::listen(quint16 port)
{
    if (!m_server.listen(QHostAddress::LocalHost, port))
        return false;
    m_port = m_server.serverPort();
    return true;
}

void HttpTestProxy::close()
{
    m_server.close();
    for (const QPointer<QTcpSocket> &socket : std::as_const(m_open)) {
        if (socket)
            socket->abort();
    }
    m_open.clear();
}

QString HttpTestProxy::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_port);
}

QNetworkProxy HttpTestProxy::proxy() const
{
    return QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("127.0.0.1"), m_port);
}

int HttpTestProxy::forwarded() const
{
    return int(std::count_if(m_requests.cbegin(), m_requests.cend(),
                             [](const Request &request) { return request.answer == 0; }));
}

void HttpTestProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        m_open.append(client);
        auto *origin = new QTcpSocket(client);
        m_open.append(origin);
        // The client's bytes until the head is complete; then they go to the origin.
        auto buffer = std::make_shared<QByteArray>();
        auto tunnel = std::make_shared<bool>(false);
        auto index = std::make_shared<qsizetype>(-1);

        connect(client, &QTcpSocket::disconnected, client, [client, origin] {
            origin->disconnectFromHost();
            client->deleteLater();
        });
        // The client may have gone before the origin's bytes arrive: they are dropped.
        connect(origin, &QTcpSocket::readyRead, client, [client, origin] {
            if (!origin->isOpen())
                return;
            const QByteArray bytes = origin->readAll();
            if (client->state() == QAbstractSocket::ConnectedState)
                client->write(bytes);
        });
        connect(origin, &QTcpSocket::disconnected, client, [client, origin] {
            const QByteArray bytes = origin->isOpen() ? origin->readAll() : QByteArray();
            if (client->state() == QAbstractSocket::ConnectedState) {
                client->write(bytes);
                client->disconnectFromHost();
            }
        });
        connect(origin, &QTcpSocket::connected, client, [client, origin, buffer, tunnel] {
            if (client->state() != QAbstractSocket::ConnectedState) {
                origin->abort(); // the client has gone
                return;
            }
            if (*tunnel)
                client->write("HTTP/1.1 200 Connection established\r\n\r\n");
            origin->write(*buffer);
            buffer->clear();
        });
        connect(origin, &QTcpSocket::errorOccurred, client,
                [this, client, origin, index](QAbstractSocket::SocketError) {
                    if (origin->state() == QAbstractSocket::ConnectedState ||
                        origin->error() == QAbstractSocket::RemoteHostClosedError)
                        return;
                    // Nothing listens there: what Squid answers (ERR_CONNECT_FAIL).
                    if (*index >= 0)
                        m_requests[*index].answer = 503;
                    if (client->state() != QAbstractSocket::ConnectedState)
                        return;
                    client->write(answer(503, "Service Unavailable"));
                    client->disconnectFromHost();
                });

        connect(client, &QTcpSocket::readyRead, client,
                [this, client, origin, buffer, tunnel, index] {
                    const QByteArray data = client->readAll();
                    if (*index >= 0) {
                        // Past the head: the body, or the tunnel's bytes.
                        if (origin->state() == QAbstractSocket::ConnectedState)
                            origin->write(data);
                        else
                            *buffer += data;
                        return;
                    }
                    *buffer += data;
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    QList<QByteArray> lines = buffer->left(end).split('\n');
                    const QByteArray rest = buffer->mid(end + 4);
                    for (QByteArray &line : lines)
                        line = line.trimmed();
                    const QList<QByteArray> words = lines.value(0).split(' ');
                    Request request;
                    request.method = words.value(0);
                    request.target = words.value(1);
                    QByteArray head;
                    for (qsizetype i = 1; i < lines.size(); ++i) {
                        const QByteArray name = lines.at(i).left(lines.at(i).indexOf(':'));
                        if (name.compare("proxy-authorization", Qt::CaseInsensitive) == 0)
                            request.proxyAuthorization = lines.at(i).mid(name.size() + 1).trimmed();
                        // Hop-by-hop: not for the origin. Ours says close.
                        if (name.compare("proxy-authorization", Qt::CaseInsensitive) == 0 ||
                            name.compare("proxy-connection", Qt::CaseInsensitive) == 0 ||
                            name.compare("connection", Qt::CaseInsensitive) == 0 ||
                            name.compare("keep-alive", Qt::CaseInsensitive) == 0)
                            continue;
                        head += lines.at(i) + "\r\n";
                    }
                    *index = m_requests.size();
                    QString host;
                    int port = -1;
                    QByteArray originForm;
                    if (request.method == "CONNECT") {
                        const QUrl authority(QStringLiteral("//") +
                                             QString::fromLatin1(request.target));
                        host = authority.host();
                        port = authority.port();
                        *tunnel = true;
                        buffer->clear();
                        *buffer += rest;
                    } else {
                        const QUrl url = QUrl::fromEncoded(request.target);
                        host = url.host();
                        port = url.port(80);
                        originForm = url.path(QUrl::FullyEncoded).toLatin1();
                        if (originForm.isEmpty())
                            originForm = "/";
                        if (url.hasQuery())
                            originForm += '?' + url.query(QUrl::FullyEncoded).toLatin1();
                        *buffer = request.method + ' ' + originForm + ' ' + words.value(2) +
                            "\r\n" + head + "Connection: close\r\n\r\n" + rest;
                    }
                    const bool allowed = isThisMachine(host) && port > 0 && port <= 65535;
                    if (!allowed)
                        request.answer = 403;
                    m_requests.append(request);
                    if (!allowed) {
                        client->write(answer(403, "Forbidden"));
                        client->disconnectFromHost();
                        return;
                    }
                    origin->connectToHost(QHostAddress(QHostAddress::LocalHost), quint16(port));
                });
    }
}

} // namespace KeepTrying::Test
