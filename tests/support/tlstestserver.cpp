// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "tlstestserver.h"

#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

#include <sys/socket.h>

namespace KeepTrying::Test {

TlsTestServer::TlsTestServer(const QSslCertificate &certificate, const QSslKey &key,
                             QObject *parent)
    : QSslServer(parent)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(certificate);
    configuration.setPrivateKey(key);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // no client certificates
    setSslConfiguration(configuration);
    m_plan = [](int) { return Fault::None; };
    // Emitted from inside QSslServer::incomingConnection(), before the handshake starts.
    connect(this, &QSslServer::startedEncryptionHandshake, this,
            [this](QSslSocket *socket) { socket->setProperty("fault", int(m_nextFault)); });
    // Sockets come out here once their handshake is over.
    connect(this, &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            ++m_handshakes;
            serve(socket, Fault(socket->property("fault").toInt()));
        }
    });
    // A client that refuses the certificate ends the handshake: the socket is ours to drop.
    connect(this, &QSslServer::errorOccurred, this,
            [](QSslSocket *socket, QAbstractSocket::SocketError) { socket->deleteLater(); });
}

bool TlsTestServer::listenOnLoopback()
{
    return listen(QHostAddress::LocalHost);
}

QUrl TlsTestServer::url(const QString &path, const QString &host) const
{
    QUrl u;
    u.setScheme(QStringLiteral("https"));
    u.setHost(host);
    u.setPort(serverPort());
    u.setPath(path);
    return u;
}

void TlsTestServer::setCertificate(const QSslCertificate &certificate)
{
    QSslConfiguration configuration = sslConfiguration();
    configuration.setLocalCertificate(certificate);
    setSslConfiguration(configuration);
}

void TlsTestServer::incomingConnection(qintptr descriptor)
{
    const Fault fault = m_plan(m_connections++);
    if (fault == Fault::CloseAfterClientHello || fault == Fault::ResetAfterClientHello) {
        breakHandshake(descriptor, fault);
        return;
    }
    m_nextFault = fault;
    QSslServer::incomingConnection(descriptor); // starts the server side of the handshake
}

void TlsTestServer::breakHandshake(qintptr descriptor, Fault fault)
{
    // A plain socket: whatever the client sends first is its ClientHello.
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QIODevice::readyRead, socket, [socket, fault] {
        socket->readAll();
        if (fault == Fault::ResetAfterClientHello) {
            // SO_LINGER 0: close() sends RST rather than FIN.
            const linger reset { 1, 0 };
            ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset,
                         sizeof reset);
            socket->abort();
            socket->deleteLater();
        } else {
            socket->disconnectFromHost();
        }
    });
}

void TlsTestServer::serve(QTcpSocket *socket, Fault fault)
{
    socket->setParent(this);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    if (fault == Fault::CloseAfterHandshake) {
        // Before any response; the request may be on its way or already here.
        socket->disconnectFromHost();
        return;
    }
    const auto answer = [this, socket] {
        const QByteArray request = socket->property("request").toByteArray() + socket->readAll();
        socket->setProperty("request", request);
        if (!request.contains("\r\n\r\n") || socket->property("answered").toBool())
            return;
        socket->setProperty("answered", true);
        ++m_requests;
        socket->write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
        socket->disconnectFromHost();
    };
    connect(socket, &QIODevice::readyRead, socket, answer);
    answer(); // bytes that came with the handshake
}

} // namespace KeepTrying::Test
