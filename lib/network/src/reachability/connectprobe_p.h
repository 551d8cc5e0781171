// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CONNECTPROBE_P_H
#define KEEPTRYING_CONNECTPROBE_P_H

#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QTcpSocket>

namespace KeepTrying {

/*
    One TCP connect probe: opens a connection to host:port (through a SOCKS5 proxy, or an
    HTTP proxy's CONNECT tunnel, when one is given; NoProxy connects directly) and closes it
    the moment it is up. No byte of HTTP is sent: the server's application never sees it.
    finished() is emitted once, never from inside start().
*/
class ConnectProbe final : public QObject
{
    Q_OBJECT
public:
    enum class Result {
        Connected, // the connection was accepted (through the proxy: by the origin)
        Refused, // nothing listens: refused (RST to the SYN), by the origin or the proxy
        Unanswered, // no answer in time, no route, no such host: a connect will tell later
        Inconclusive // a proxy error a connect cannot see past (denied, authentication, …)
    };
    Q_ENUM(Result)

    explicit ConnectProbe(QObject *parent = nullptr);

    void start(const QString &host, quint16 port, const QNetworkProxy &proxy, int timeoutMs);

Q_SIGNALS:
    void finished(KeepTrying::ConnectProbe::Result result);

private:
    void finish(Result result);

    QTcpSocket m_socket;
    QTimer m_timeout;
    bool m_done = false;
};

} // namespace KeepTrying

#endif // KEEPTRYING_CONNECTPROBE_P_H
