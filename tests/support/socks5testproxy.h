// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_SOCKS5TESTPROXY_H
#define KEEPTRYING_SOCKS5TESTPROXY_H

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QTcpServer>

namespace KeepTrying::Test {

/*!
    A SOCKS5 proxy (RFC 1928: no authentication, CONNECT only) on 127.0.0.1 for tests of
    what goes through a proxy. It connects only to loopback addresses: a CONNECT to anything
    else is answered "not allowed" and nothing leaves the machine. It records every CONNECT
    it is asked for and how many it could open, and relays bytes both ways.
*/
class Socks5TestProxy : public QObject
{
    Q_OBJECT
public:
    explicit Socks5TestProxy(QObject *parent = nullptr);
    ~Socks5TestProxy() override;

    /*! Listens on 127.0.0.1 at a free port; false if that fails. */
    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    /*! A QNetworkProxy for this proxy. */
    QNetworkProxy proxy() const;

    /*! Every CONNECT asked for, in order: host (as sent) and port. */
    QList<QPair<QString, quint16>> connectRequests() const { return m_requests; }
    /*! CONNECTs whose connection to the target was opened. */
    int tunnels() const { return m_tunnels; }
    /*! CONNECTs the target refused (answered "connection refused"). */
    int refused() const { return m_refused; }

private:
    void onNewConnection();
    QTcpServer m_server;
    QList<QPair<QString, quint16>> m_requests;
    int m_tunnels = 0;
    int m_refused = 0;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_SOCKS5TESTPROXY_H
