// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "socks5testproxy.h"

#include <QtCore/QPointer>
#include <QtCore/QtEndian>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QTcpSocket>

namespace KeepTrying::Test {

namespace {

// RFC 1928 §6 reply codes.
constexpr char succeeded = 0x00;
constexpr char generalFailure = 0x01;
constexpr char notAllowed = 0x02;
constexpr char hostUnreachable = 0x04;
constexpr char connectionRefused = 0x05;
constexpr char commandNotSupported = 0x07;

QByteArray reply(char code)
{
    // VER REP RSV ATYP=IPv4 BND.ADDR=0.0.0.0 BND.PORT=0
    return QByteArray("\x05", 1) + code + QByteArray("\x00\x01\x00\x00\x00\x00\x00\x00", 8);
}

// One client: greeting, request, then a relay to the target.
class Session : public QObject
{
public:
    Session(QTcpSocket *client, QList<QPair<QString, quint16>> &requests, int &tunnels,
            int &refused)
        : QObject(client), m_client(client), m_requests(requests), m_tunnels(tunnels),
          m_refused(refused)
    {
        connect(client, &QTcpSocket::readyRead, this, [this] { onClientData(); });
        connect(client, &QTcpSocket::disconnected, this, [this] {
            if (m_target)
                m_target->disconnectFromHost();
            m_client->deleteLater();
        });
    }

private:
    void fail(char code)
    {
        m_client->write(reply(code));
        m_client->disconnectFromHost();
        m_state = State::Done;
    }

    void onClientData()
    {
        m_buffer += m_client->readAll();
        if (m_state == State::Greeting) {
            // VER NMETHODS METHODS…: we take "no authentication" (0x00).
            if (m_buffer.size() < 2 || m_buffer.size() < 2 + quint8(m_buffer.at(1)))
                return;
            const QByteArray methods = m_buffer.mid(2, quint8(m_buffer.at(1)));
            m_buffer.remove(0, 2 + methods.size());
            if (!methods.contains('\x00')) {
                m_client->write(QByteArray("\x05\xff", 2));
                m_client->disconnectFromHost();
                m_state = State::Done;
                return;
            }
            m_client->write(QByteArray("\x05\x00", 2));
            m_state = State::Request;
        }
        if (m_state == State::Request) {
            // VER CMD RSV ATYP DST.ADDR DST.PORT
            if (m_buffer.size() < 5)
                return;
            const char command = m_buffer.at(1);
            const char type = m_buffer.at(3);
            int addressLength = 0;
            int addressOffset = 4;
            if (type == 0x01) {
                addressLength = 4;
            } else if (type == 0x04) {
                addressLength = 16;
            } else if (type == 0x03) {
                addressLength = quint8(m_buffer.at(4));
                addressOffset = 5;
            } else {
                fail(generalFailure);
                return;
            }
            const int total = addressOffset + addressLength + 2;
            if (m_buffer.size() < total)
                return;
            const QByteArray address = m_buffer.mid(addressOffset, addressLength);
            const quint16 port =
                qFromBigEndian<quint16>(m_buffer.constData() + addressOffset + addressLength);
            m_buffer.remove(0, total);
            QString host;
            if (type == 0x03)
                host = QString::fromLatin1(address);
            else if (type == 0x01)
                host = QHostAddress(qFromBigEndian<quint32>(address.constData())).toString();
            else
                host =
                    QHostAddress(reinterpret_cast<const quint8 *>(address.constData())).toString();
            m_requests.append({ host, port });
            if (command != 0x01) {
                fail(commandNotSupported);
                return;
            }
            // Loopback only: nothing a test does may leave the machine.
            const QHostAddress target(
                host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host);
            if (target.isNull() || !target.isLoopback()) {
                fail(notAllowed);
                return;
            }
            m_state = State::Connecting;
            m_target = new QTcpSocket(this);
            m_target->setProxy(QNetworkProxy::NoProxy);
            connect(m_target, &QTcpSocket::connected, this, [this] {
                ++m_tunnels;
                m_client->write(reply(succeeded));
                m_state = State::Relaying;
                if (!m_buffer.isEmpty())
                    m_target->write(std::exchange(m_buffer, QByteArray()));
            });
            connect(m_target, &QTcpSocket::readyRead, this,
                    [this] { m_client->write(m_target->readAll()); });
            connect(m_target, &QTcpSocket::errorOccurred, this,
                    [this](QAbstractSocket::SocketError error) {
                        if (m_state == State::Connecting) {
                            if (error == QAbstractSocket::ConnectionRefusedError)
                                ++m_refused;
                            fail(error == QAbstractSocket::ConnectionRefusedError
                                     ? connectionRefused
                                     : hostUnreachable);
                            return;
                        }
                        // A reset by the target is passed on as one.
                        if (error != QAbstractSocket::RemoteHostClosedError)
                            m_client->abort();
                    });
            connect(m_target, &QTcpSocket::disconnected, this, [this] {
                if (m_state == State::Relaying)
                    m_client->disconnectFromHost();
            });
            m_target->connectToHost(target, port);
            return;
        }
        if (m_state == State::Relaying && !m_buffer.isEmpty())
            m_target->write(std::exchange(m_buffer, QByteArray()));
    }

    enum class State { Greeting, Request, Connecting, Relaying, Done };
    State m_state = State::Greeting;
    QTcpSocket *m_client;
    QPointer<QTcpSocket> m_target;
    QByteArray m_buffer;
    QList<QPair<QString, quint16>> &m_requests;
    int &m_tunnels;
    int &m_refused;
};

} // namespace

Socks5TestProxy::Socks5TestProxy(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &Socks5TestProxy::onNewConnection);
}

Socks5TestProxy::~Socks5TestProxy()
{
    // Sessions are children of their client sockets, which are children of the server.
    m_server.close();
}

bool Socks5TestProxy::listen()
{
    return m_server.listen(QHostAddress::LocalHost);
}

QNetworkProxy Socks5TestProxy::proxy() const
{
    return QNetworkProxy(QNetworkProxy::Socks5Proxy, QStringLiteral("127.0.0.1"), port());
}

void Socks5TestProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection())
        new Session(client, m_requests, m_tunnels, m_refused);
}

} // namespace KeepTrying::Test
