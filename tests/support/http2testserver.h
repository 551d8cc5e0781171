// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_HTTP2TESTSERVER_H
#define KEEPTRYING_HTTP2TESTSERVER_H

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QUrl>
#include <QtNetwork/QTcpServer>

#include <functional>

namespace KeepTrying::Test {

/*!
    A loopback HTTP/2 server over cleartext TCP with prior knowledge (RFC 9113 §3.3), for
    tests of what a client does when the server refuses a stream: a GOAWAY whose
    last-stream-id is below the request's stream (RFC 9113 §6.8), or RST_STREAM with
    REFUSED_STREAM (§8.7). The framing and HPACK are libnghttp2's. The handler is told each
    complete request and its 0-based index and returns what to do with its stream.
*/
class Http2TestServer : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const QByteArray &name) const;
    };
    struct Action
    {
        enum Kind {
            Respond, //!< answer with status, headers and body
            GoAway, //!< GOAWAY (lastStreamId) and close: streams above it never processed
            RefuseStream //!< RST_STREAM(REFUSED_STREAM): never processed
        };
        Kind kind = Respond;
        int status = 200;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        //! GoAway: the last-stream-id sent; -1 for the stream below this one (so this one
        //! was not processed). Client streams are odd: 1, 3, 5, …
        int lastStreamId = -1;
        //! Respond: the answer waits this long (other streams go on meanwhile).
        int delayMs = 0;
    };
    using Handler = std::function<Action(const Request &request, int index)>;

    explicit Http2TestServer(QObject *parent = nullptr);
    ~Http2TestServer() override;

    /*! Listens on 127.0.0.1 at a free port; false if that fails. */
    bool listen();
    QUrl url(const QString &path = QStringLiteral("/")) const;
    void setHandler(Handler handler) { m_handler = std::move(handler); }

    /*! Every complete request the server received, refused ones included. */
    QList<Request> requests() const { return m_requests; }
    /*! Requests the handler answered: the ones the server "processed". */
    int processedCount() const { return m_processed; }
    int connectionCount() const { return m_connections; }

private:
    friend class Http2Connection;
    void onNewConnection();
    QTcpServer m_server;
    Handler m_handler;
    QList<Request> m_requests;
    int m_processed = 0;
    int m_connections = 0;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_HTTP2TESTSERVER_H
