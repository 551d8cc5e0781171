// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_SCRIPTEDFAULTSERVER_H
#define KEEPTRYING_SCRIPTEDFAULTSERVER_H

#include <QtCore/QElapsedTimer>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QPointer>
#include <QtCore/QUrl>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

namespace KeepTrying::Test {

/*!
    A loopback HTTP/1.1 server (127.0.0.1 only) that plays a script: one behaviour per
    request that reaches it under /chaos, in order, then plain 200s once the script is used
    up. It serves one resource (a body set by the test) and keeps a record of every request
    and of what it sent back, for tests that check a client against what the server really
    did. Requests to other paths (reachability probes) get an empty 200 and are only
    counted. Every response carries "Connection: close".

    A Refuse step is not a request: when the script reaches it (at listen() or after the
    response before it), the listener closes for refuseMs, so connections are refused, and
    the next step plays on the request after it reopens.
*/
class ScriptedFaultServer : public QObject
{
    Q_OBJECT
public:
    enum class Kind {
        Ok, //!< the resource: 200 whole, or a 206 from the Range asked (honourRange)
        Status, //!< an error status (503, 429, 500) with a body of its own
        ResetBeforeHeaders, //!< the request is read, then the connection is reset
        ResetAfterHeaders, //!< the headers of the resource's answer, then a reset
        ResetMidBody, //!< the headers and cutAt bytes of the body, then a reset
        Refuse //!< the listener closes for refuseMs (not a request)
    };
    enum class RetryAfter { None, Seconds, HttpDate };

    struct Behaviour
    {
        Kind kind = Kind::Ok;
        int status = 503; //!< for Status
        RetryAfter retryAfter = RetryAfter::None;
        int retryAfterSeconds = 0; //!< delay-seconds, or the HTTP-date's offset from now
        qint64 errorBodyBytes = 0; //!< for Status: the size of its body
        bool acceptRanges = false; //!< Accept-Ranges: bytes and an ETag on the resource
        bool honourRange = true; //!< a Range request gets a 206 (else the whole 200)
        qint64 cutAt = 0; //!< ResetMidBody: body bytes of this response sent before the reset
        int latencyMs = 0; //!< wait before the status line
        int dripBytes = 0; //!< > 0: the body goes in pieces of this size …
        int dripIntervalMs = 0; //!< … this many ms apart
        int refuseMs = 0; //!< Refuse: how long the listener stays closed
        QString describe() const;
    };

    //! One request that reached /chaos, and what the server sent back.
    struct Record
    {
        QByteArray method;
        QByteArray target;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body; //!< as received (complete once bodyComplete)
        bool bodyComplete = false;
        Behaviour behaviour;
        int sentStatus = 0; //!< status line sent, 0 when none
        qint64 rangeStart = 0; //!< first byte of the resource sent (a 206's start)
        QByteArray sentBody; //!< the body bytes written (before any reset)
        bool complete = false; //!< the whole response was written, then closed
        bool answered = false; //!< the server has finished with this request (sent or reset)
        bool refusedAfter = false; //!< the listener closed after this response
        qint64 payloadBytes = 0; //!< the body length the response declared (0 for HEAD)
        qint64 arrivedAtMs = 0; //!< when its head arrived, since listen()
        QByteArray header(const QByteArray &name) const;
    };

    explicit ScriptedFaultServer(QObject *parent = nullptr);
    ~ScriptedFaultServer() override;

    void setResource(const QByteArray &body, const QByteArray &etag);
    QByteArray resource() const { return m_resource; }
    QByteArray etag() const { return m_etag; }
    void setScript(const QList<Behaviour> &script) { m_script = script; }
    /*! The body of a Status response: deterministic, unlike any other attempt's. */
    static QByteArray errorBody(int requestIndex, int status, qint64 bytes);

    /*! Listens on 127.0.0.1 at a free port; false if that fails. */
    bool listen();
    quint16 port() const { return m_port; }
    QUrl url(const QString &path = QStringLiteral("/chaos")) const;

    QList<Record> records() const { return m_records; }
    int requestCount() const { return int(m_records.size()); }
    int probeCount() const { return m_probes; }
    /*! Milliseconds since listen(). */
    qint64 elapsed() const { return m_clock.elapsed(); }
    /*! True while the listener is closed by a Refuse step. */
    bool isRefusing() const { return m_refusing; }
    /*! Refuse steps played before any request reached the server. */
    bool refusedFirst() const { return m_refusedFirst; }
    /*! Every connection still open is reset; timers stop; nothing more is sent. */
    void shutDown();

private:
    void onNewConnection();
    void handle(QTcpSocket *socket, int index);
    void send(QPointer<QTcpSocket> socket, int index);
    void drip(QPointer<QTcpSocket> socket, int index, QByteArray rest, bool resetAtEnd);
    void finishResponse(QTcpSocket *socket, int index, bool reset);
    void advanceRefusals(int afterIndex);

    QTcpServer m_server;
    QTcpSocket m_portHolder; // bound to m_port while the listener is closed
    quint16 m_port = 0;
    QByteArray m_resource;
    QByteArray m_etag;
    QList<Behaviour> m_script;
    int m_step = 0; // next step of the script
    QList<Record> m_records;
    int m_probes = 0;
    bool m_refusing = false;
    bool m_refusedFirst = false;
    bool m_shutDown = false;
    QElapsedTimer m_clock;
    QList<QPointer<QTcpSocket>> m_open;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_SCRIPTEDFAULTSERVER_H
