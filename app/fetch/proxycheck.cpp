// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "proxycheck.h"

ProxyCheck::ProxyCheck(QObject *parent) : QObject(parent), m_socket(this), m_timeout(this)
{
    // The proxy itself, never through another proxy.
    m_socket.setProxy(QNetworkProxy::NoProxy);
    m_timeout.setSingleShot(true);
    connect(&m_socket, &QTcpSocket::connected, this,
            [this] { done(true, ExitCodes::Success, {}); });
    connect(&m_socket, &QTcpSocket::errorOccurred, this,
            [this](QAbstractSocket::SocketError error) {
                done(false,
                     error == QAbstractSocket::HostNotFoundError ? ExitCodes::ProxyNotFound
                                                                 : ExitCodes::CouldNotConnect,
                     m_socket.errorString());
            });
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        done(false, ExitCodes::Timeout,
             QStringLiteral("no answer within %1 ms").arg(m_timeout.interval()));
    });
}

void ProxyCheck::start(const QNetworkProxy &proxy, int timeoutMs)
{
    if (m_running)
        return;
    m_running = true;
    m_timeout.start(timeoutMs);
    m_socket.connectToHost(proxy.hostName(), proxy.port());
}

void ProxyCheck::done(bool accepted, ExitCodes::Code code, const QString &reason)
{
    if (!m_running)
        return;
    m_running = false;
    m_timeout.stop();
    m_socket.abort(); // whatever it emits now finds m_running false
    Q_EMIT finished(accepted, code, reason);
}
