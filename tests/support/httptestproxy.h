// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_HTTPTESTPROXY_H
#define KEEPTRYING_HTTPTESTPROXY_H

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

namespace KeepTrying::Test {

/*!
    An HTTP proxy on 127.0.0.1 for tests of what goes through a proxy, as http_proxy and
    curl's -x name one: absolute-form requests ("GET http://host:port/path HTTP/1.1") are
    forwarded, CONNECT opens a tunnel. It reaches loopback only: every target host that
    names this machine (127.0.0.0/8, ::1, localhost, 0.0.0.0) is connected to at 127.0.0.1;
    any other host is answered 403 and nothing leaves the machine. A target that refuses is
    answered 503, as Squid does (ERR_CONNECT_FAIL).

    One request per client connection: the proxy asks the origin to close after its
    response ("Connection: close") and closes the client's connection when the origin has.
    close() stops listening and resets what is open (a proxy that went away); listen() with
    the same port brings it back.
*/
class HttpTestProxy : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray target; //!< As sent: an absolute URL, or host:port for CONNECT.
        QByteArray proxyAuthorization; //!< The Proxy-Authorization header, if any.
        int answer = 0; //!< What the proxy itself answered (403, 503); 0: forwarded.
    };

    explicit HttpTestProxy(QObject *parent = nullptr);
    ~HttpTestProxy() override;

    /*! Listens on 127.0.0.1 at \a port (0: a free one); false if that fails. */
    bool listen(quint16 port = 0);
    /*! Stops listening and resets every open connection. */
    void close();
    bool isListening() const { return m_server.isListening(); }
    quint16 port() const { return m_port; }
    /*! "http://127.0.0.1:port", as an http_proxy value or a -x argument. */
    QString url() const;
    QNetworkProxy proxy() const;

    QList<Request> requests() const { return m_requests; }
    int requestCount() const { return int(m_requests.size()); }
    /*! Requests forwarded to their origin (absolute-form) or tunnelled (CONNECT). */
    int forwarded() const;

private:
    void onNewConnection();
    QTcpServer m_server;
    quint16 m_port = 0;
    QList<Request> m_requests;
    QList<QPointer<QTcpSocket>> m_open;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_HTTPTESTPROXY_H
