// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TESTSERVER_H
#define KEEPTRYING_TESTSERVER_H

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QPointer>
#include <QtCore/QUrl>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <functional>

namespace KeepTrying::Test {

/*!
    A loopback HTTP/1.1 server for tests that need faults at the byte level: a response
    cut off mid-body, a connection that never answers, a reset. A connection carries one
    request ("Connection: close") unless a response asks to keep it alive. The handler is
    told the request and its 0-based index and returns what to send and how to end.
*/
class TestServer : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray target; // path and query as sent
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const QByteArray &name) const;
    };

    struct Response
    {
        enum Ending {
            Close, // send everything, then close gracefully
            Abort, // send everything, then reset the connection
            Stall, // send everything (often nothing), then keep the connection open silently
            KeepAlive // send everything, then wait for the next request on this connection
        };
        QByteArray bytes;
        Ending ending = Close;
    };
    using Handler = std::function<Response(const Request &request, int index)>;

    explicit TestServer(QObject *parent = nullptr);
    ~TestServer() override;

    /*! Listens on 127.0.0.1 at \a port (0: a free one); false if that fails. */
    bool listen(quint16 port = 0);
    quint16 port() const;
    QUrl url(const QString &path = QStringLiteral("/")) const;
    void setHandler(Handler handler);

    QList<Request> requests() const { return m_requests; }
    int requestCount() const { return int(m_requests.size()); }
    int connectionCount() const { return m_connections; }

    /*! A complete response with Content-Length and the extra header lines given. */
    static Response respond(int status, const QByteArray &body = QByteArray(),
                            const QList<QPair<QByteArray, QByteArray>> &headers = {});
    /*! The status line and headers announcing \a declaredLength bytes, then only \a body,
        then a reset: a response cut off mid-body. */
    static Response cutOff(int status, qint64 declaredLength, const QByteArray &body,
                           const QList<QPair<QByteArray, QByteArray>> &headers = {});
    static Response stall() { return Response { QByteArray(), Response::Stall }; }
    /*! The status line and headers of a response: Content-Length \a length (none when
        negative), then "Connection: close" unless \a keepAlive, then \a headers. */
    static QByteArray head(int status, qint64 length,
                           const QList<QPair<QByteArray, QByteArray>> &headers = {},
                           bool keepAlive = false);

    /*! Resets every connection still open (a stalled one, say), as a crashing server would. */
    void abortConnections();

Q_SIGNALS:
    void requestReceived(int index);

private:
    void onNewConnection();
    QTcpServer m_server;
    Handler m_handler;
    QList<Request> m_requests;
    QList<QPointer<QTcpSocket>> m_open;
    int m_connections = 0;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_TESTSERVER_H
