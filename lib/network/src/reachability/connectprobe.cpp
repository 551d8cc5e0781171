// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "connectprobe_p.h"

namespace KeepTrying {

namespace {

ConnectProbe::Result resultOf(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
    case QAbstractSocket::ProxyConnectionRefusedError:
        return ConnectProbe::Result::Refused;
    case QAbstractSocket::SocketTimeoutError:
    case QAbstractSocket::NetworkError:
    case QAbstractSocket::HostNotFoundError:
    case QAbstractSocket::ProxyConnectionTimeoutError:
    case QAbstractSocket::ProxyNotFoundError:
        return ConnectProbe::Result::Unanswered;
    default:
        return ConnectProbe::Result::Inconclusive;
    }
}

} // namespace

ConnectProbe::ConnectProbe(QObject *parent) : QObject(parent)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] { finish(Result::Unanswered); });
    connect(&m_socket, &QAbstractSocket::connected, this, [this] { finish(Result::Connected); });
    connect(&m_socket, &QAbstractSocket::errorOccurred, this,
            [this](QAbstractSocket::SocketError error) { finish(resultOf(error)); });
}

void ConnectProbe::start(const QString &host, quint16 port, const QNetworkProxy &proxy,
                         int timeoutMs)
{
    m_socket.setProxy(proxy);
    m_timeout.start(timeoutMs);
    // Connect errors can be reported inside connectToHost(): finish() defers the signal.
    m_socket.connectToHost(host, port);
}

void ConnectProbe::finish(Result result)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout.stop();
    // Closed at once: the connection proved what it had to.
    m_socket.abort();
    QMetaObject::invokeMethod(
        this, [this, result] { Q_EMIT finished(result); }, Qt::QueuedConnection);
}

} // namespace KeepTrying
