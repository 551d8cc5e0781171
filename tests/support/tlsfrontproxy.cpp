// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "tlsfrontproxy.h"

#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

namespace KeepTrying::Test {

TlsFrontProxy::TlsFrontProxy(const QSslCertificate &certificate, const QSslKey &key,
                             quint16 backendPort, QObject *parent)
    : QSslServer(parent), m_backendPort(backendPort)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(certificate);
    configuration.setPrivateKey(key);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // no client certificates
    setSslConfiguration(configuration);
    connect(this, &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            ++m_handshakes;
            if (const auto *tls = qobject_cast<QSslSocket *>(socket)) {
                ++m_handshakesWith[tls->sslConfiguration().localCertificate().digest(
                    QCryptographicHash::Sha256)];
            }
            pipe(socket);
        }
    });
    // A client that refuses the certificate ends the handshake: the socket is ours to drop.
    connect(this, &QSslServer::errorOccurred, this,
            [](QSslSocket *socket, QAbstractSocket::SocketError) { socket->deleteLater(); });
}

bool TlsFrontProxy::listenOnLoopback(quint16 port)
{
    return listen(QHostAddress::LocalHost, port);
}

QUrl TlsFrontProxy::url() const
{
    QUrl u;
    u.setScheme(QStringLiteral("https"));
    u.setHost(QStringLiteral("127.0.0.1"));
    u.setPort(serverPort());
    u.setPath(QStringLiteral("/"));
    return u;
}

void TlsFrontProxy::setCertificate(const QSslCertificate &certificate)
{
    QSslConfiguration configuration = sslConfiguration();
    configuration.setLocalCertificate(certificate);
    setSslConfiguration(configuration);
}

void TlsFrontProxy::goDown()
{
    close();
    const QList<QTcpSocket *> fronts = findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly);
    for (QTcpSocket *front : fronts)
        front->abort();
}

void TlsFrontProxy::pipe(QTcpSocket *front)
{
    front->setParent(this);
    auto *back = new QTcpSocket(front);
    connect(front, &QTcpSocket::readyRead, back, [front, back] {
        if (back->state() == QAbstractSocket::ConnectedState)
            back->write(front->readAll());
    });
    connect(back, &QTcpSocket::connected, front, [front, back] { back->write(front->readAll()); });
    connect(back, &QTcpSocket::readyRead, front, [front, back] { front->write(back->readAll()); });
    connect(back, &QTcpSocket::disconnected, front, [front] { front->disconnectFromHost(); });
    connect(back, &QTcpSocket::errorOccurred, front, [front] { front->disconnectFromHost(); });
    connect(front, &QTcpSocket::disconnected, front, [front, back] {
        back->disconnectFromHost();
        front->deleteLater();
    });
    back->connectToHost(QHostAddress::LocalHost, m_backendPort);
}

} // namespace KeepTrying::Test
