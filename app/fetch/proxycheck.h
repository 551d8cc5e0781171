// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FETCH_PROXYCHECK_H
#define KEEPTRYING_FETCH_PROXYCHECK_H

#include "exitcodes.h"

#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QTcpSocket>

/*!
    Whether a proxy accepts connections: one TCP connect to it, closed at once, nothing sent.

    Through an HTTP proxy, Qt reports a proxy that refuses as plain ConnectionRefusedError
    (plain http) or UnknownNetworkError (https, CONNECT), the same words as for an origin
    that is away: only asking the proxy itself tells the two apart. A proxy that accepts
    stands between us and an origin that failed, which is worth waiting for; one that does
    not ends the run.
*/
class ProxyCheck : public QObject
{
    Q_OBJECT

public:
    explicit ProxyCheck(QObject *parent = nullptr);

    /*! Connects to \a proxy directly; finished() follows within \a timeoutMs. */
    void start(const QNetworkProxy &proxy, int timeoutMs);
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    /*! \a accepted: the proxy took the connection. Otherwise \a code is the exit code (7
        refused or unreachable, 5 its name did not resolve, 28 no answer in time) and
        \a reason says why in words. */
    void finished(bool accepted, ExitCodes::Code code, const QString &reason);

private:
    void done(bool accepted, ExitCodes::Code code, const QString &reason);

    QTcpSocket m_socket;
    QTimer m_timeout;
    bool m_running = false;
};

#endif // KEEPTRYING_FETCH_PROXYCHECK_H
