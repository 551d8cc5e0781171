// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "http2testserver.h"

#include <QtCore/QHash>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>

namespace KeepTrying::Test {

QByteArray Http2TestServer::Request::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return QByteArray();
}

// One client connection: bytes from the socket go into nghttp2, frames nghttp2 wants to
// send go to the socket.
class Http2Connection : public QObject
{
public:
    Http2Connection(Http2TestServer *server, QTcpSocket *socket)
        : QObject(socket), m_server(server), m_socket(socket)
    {
        nghttp2_session_callbacks *callbacks = nullptr;
        nghttp2_session_callbacks_new(&callbacks);
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &onBeginHeaders);
        nghttp2_session_callbacks_set_on_header_callback(callbacks, &onHeader);
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &onData);
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &onFrame);
        nghttp2_session_server_new(&m_session, callbacks, this);
        nghttp2_session_callbacks_del(callbacks);
        nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, nullptr, 0);
        connect(socket, &QTcpSocket::readyRead, this, &Http2Connection::onReadyRead);
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        flush();
    }
    ~Http2Connection() override { nghttp2_session_del(m_session); }

private:
    struct Stream
    {
        Http2TestServer::Request request;
        QByteArray body; // the response body still to send
        qsizetype sent = 0;
    };

    void onReadyRead()
    {
        const QByteArray bytes = m_socket->readAll();
        if (nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t *>(bytes.data()),
                                     size_t(bytes.size())) < 0) {
            m_socket->abort();
            return;
        }
        flush();
    }

    void flush()
    {
        for (;;) {
            const uint8_t *data = nullptr;
            const ssize_t n = nghttp2_session_mem_send(m_session, &data);
            if (n <= 0)
                break;
            m_socket->write(reinterpret_cast<const char *>(data), n);
        }
        if (m_closeAfterFlush && m_delayed == 0 && !nghttp2_session_want_write(m_session)) {
            m_socket->flush();
            m_socket->disconnectFromHost();
        }
    }

    void requestComplete(int32_t streamId)
    {
        auto it = m_streams.find(streamId);
        if (it == m_streams.end())
            return;
        const int index = int(m_server->m_requests.size());
        m_server->m_requests.append(it->request);
        const Http2TestServer::Action action = m_server->m_handler(it->request, index);
        switch (action.kind) {
        case Http2TestServer::Action::GoAway:
            // Nothing above the last-stream-id was processed (RFC 9113 §6.8).
            nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE,
                                  action.lastStreamId >= 0 ? action.lastStreamId
                                                           : std::max(0, streamId - 2),
                                  NGHTTP2_NO_ERROR, nullptr, 0);
            m_closeAfterFlush = true;
            return;
        case Http2TestServer::Action::RefuseStream:
            nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, streamId,
                                      NGHTTP2_REFUSED_STREAM);
            return;
        case Http2TestServer::Action::Respond:
            break;
        }
        ++m_server->m_processed;
        if (action.delayMs > 0) {
            ++m_delayed; // a GOAWAY sent meanwhile closes the connection only after it
            QTimer::singleShot(action.delayMs, this, [this, streamId, action] {
                --m_delayed;
                respond(streamId, action);
                flush();
            });
            return;
        }
        respond(streamId, action);
    }

    void respond(int32_t streamId, const Http2TestServer::Action &action)
    {
        auto it = m_streams.find(streamId);
        if (it == m_streams.end())
            return;
        it->body = action.body;
        std::deque<QByteArray> storage; // keeps the bytes nghttp2_nv points at in place
        std::vector<nghttp2_nv> nva;
        const auto add = [&](const QByteArray &name, const QByteArray &value) {
            const QByteArray &n = storage.emplace_back(name.toLower());
            const QByteArray &v = storage.emplace_back(value);
            nva.push_back({ reinterpret_cast<uint8_t *>(const_cast<char *>(n.data())),
                            reinterpret_cast<uint8_t *>(const_cast<char *>(v.data())),
                            size_t(n.size()), size_t(v.size()), NGHTTP2_NV_FLAG_NONE });
        };
        add(":status", QByteArray::number(action.status));
        add("content-length", QByteArray::number(action.body.size()));
        for (const auto &h : action.headers)
            add(h.first, h.second);
        nghttp2_data_provider provider;
        provider.source.ptr = this;
        provider.read_callback = &readBody;
        nghttp2_submit_response(m_session, streamId, nva.data(), nva.size(), &provider);
    }

    static ssize_t readBody(nghttp2_session *, int32_t streamId, uint8_t *buf, size_t length,
                            uint32_t *flags, nghttp2_data_source *source, void *)
    {
        auto *self = static_cast<Http2Connection *>(source->ptr);
        Stream &stream = self->m_streams[streamId];
        const size_t n = std::min<size_t>(length, size_t(stream.body.size() - stream.sent));
        std::memcpy(buf, stream.body.constData() + stream.sent, n);
        stream.sent += qsizetype(n);
        if (stream.sent == stream.body.size())
            *flags |= NGHTTP2_DATA_FLAG_EOF;
        return ssize_t(n);
    }

    static int onBeginHeaders(nghttp2_session *, const nghttp2_frame *frame, void *user)
    {
        auto *self = static_cast<Http2Connection *>(user);
        if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
            self->m_streams.insert(frame->hd.stream_id, Stream());
        return 0;
    }

    static int onHeader(nghttp2_session *, const nghttp2_frame *frame, const uint8_t *name,
                        size_t nameLength, const uint8_t *value, size_t valueLength, uint8_t,
                        void *user)
    {
        auto *self = static_cast<Http2Connection *>(user);
        auto it = self->m_streams.find(frame->hd.stream_id);
        if (it == self->m_streams.end())
            return 0;
        const QByteArray n(reinterpret_cast<const char *>(name), qsizetype(nameLength));
        const QByteArray v(reinterpret_cast<const char *>(value), qsizetype(valueLength));
        if (n == ":method")
            it->request.method = v;
        else if (n == ":path")
            it->request.path = v;
        else if (!n.startsWith(':'))
            it->request.headers.append({ n, v });
        return 0;
    }

    static int onData(nghttp2_session *, uint8_t, int32_t streamId, const uint8_t *data,
                      size_t length, void *user)
    {
        auto *self = static_cast<Http2Connection *>(user);
        auto it = self->m_streams.find(streamId);
        if (it != self->m_streams.end())
            it->request.body.append(reinterpret_cast<const char *>(data), qsizetype(length));
        return 0;
    }

    static int onFrame(nghttp2_session *, const nghttp2_frame *frame, void *user)
    {
        auto *self = static_cast<Http2Connection *>(user);
        const bool endsStream = frame->hd.flags & NGHTTP2_FLAG_END_STREAM;
        if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) && endsStream)
            self->requestComplete(frame->hd.stream_id);
        return 0;
    }

    Http2TestServer *m_server;
    QTcpSocket *m_socket;
    nghttp2_session *m_session = nullptr;
    QHash<int32_t, Stream> m_streams;
    bool m_closeAfterFlush = false;
    int m_delayed = 0; // responses still to be submitted
};

Http2TestServer::Http2TestServer(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &Http2TestServer::onNewConnection);
    m_handler = [](const Request &, int) { return Action(); };
}

Http2TestServer::~Http2TestServer() = default;

bool Http2TestServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl Http2TestServer::url(const QString &path) const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    u.setHost(QStringLiteral("127.0.0.1"));
    u.setPort(m_server.serverPort());
    u.setPath(path);
    return u;
}

void Http2TestServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        socket->setParent(this);
        new Http2Connection(this, socket);
    }
}

} // namespace KeepTrying::Test
