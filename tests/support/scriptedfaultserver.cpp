// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "scriptedfaultserver.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QTimer>

#include <memory>

namespace KeepTrying::Test {

namespace {

QString kindName(ScriptedFaultServer::Kind kind)
{
    using Kind = ScriptedFaultServer::Kind;
    switch (kind) {
    case Kind::Ok:
        return QStringLiteral("ok");
    case Kind::Status:
        return QStringLiteral("status");
    case Kind::ResetBeforeHeaders:
        return QStringLiteral("reset-before-headers");
    case Kind::ResetAfterHeaders:
        return QStringLiteral("reset-after-headers");
    case Kind::ResetMidBody:
        return QStringLiteral("reset-mid-body");
    case Kind::Refuse:
        return QStringLiteral("refuse");
    }
    return QString();
}

} // namespace

QString ScriptedFaultServer::Behaviour::describe() const
{
    QString text = kindName(kind);
    switch (kind) {
    case Kind::Status:
        text += QStringLiteral(" %1 body %2").arg(status).arg(errorBodyBytes);
        if (retryAfter == RetryAfter::Seconds)
            text += QStringLiteral(" Retry-After %1 s").arg(retryAfterSeconds);
        else if (retryAfter == RetryAfter::HttpDate)
            text += QStringLiteral(" Retry-After date now%1%2 s")
                        .arg(retryAfterSeconds < 0 ? QString() : QStringLiteral("+"))
                        .arg(retryAfterSeconds);
        break;
    case Kind::Refuse:
        text += QStringLiteral(" %1 ms").arg(refuseMs);
        break;
    case Kind::ResetMidBody:
        text += QStringLiteral(" at %1").arg(cutAt);
        Q_FALLTHROUGH();
    case Kind::Ok:
    case Kind::ResetAfterHeaders:
        if (acceptRanges)
            text += QStringLiteral(" ranges+etag");
        if (!honourRange)
            text += QStringLiteral(" ignores-range");
        break;
    case Kind::ResetBeforeHeaders:
        break;
    }
    if (latencyMs > 0)
        text += QStringLiteral(" latency %1 ms").arg(latencyMs);
    if (dripBytes > 0)
        text += QStringLiteral(" drip %1 B/%2 ms").arg(dripBytes).arg(dripIntervalMs);
    return text;
}

QByteArray ScriptedFaultServer::Record::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return QByteArray();
}

ScriptedFaultServer::ScriptedFaultServer(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &ScriptedFaultServer::onNewConnection);
}

ScriptedFaultServer::~ScriptedFaultServer()
{
    shutDown();
}

void ScriptedFaultServer::setResource(const QByteArray &body, const QByteArray &etag)
{
    m_resource = body;
    m_etag = etag;
}

QByteArray ScriptedFaultServer::errorBody(int requestIndex, int status, qint64 bytes)
{
    QByteArray body = "E" + QByteArray::number(status) + '#' + QByteArray::number(requestIndex);
    while (body.size() < bytes)
        body += ' ' + QByteArray::number(body.size());
    return body.left(bytes);
}

bool ScriptedFaultServer::listen()
{
    if (!m_server.listen(QHostAddress::LocalHost))
        return false;
    m_port = m_server.serverPort();
    m_clock.start();
    if (m_script.value(0).kind == Kind::Refuse) {
        m_refusedFirst = true;
        advanceRefusals(-1);
    }
    return true;
}

QUrl ScriptedFaultServer::url(const QString &path) const
{
    QUrl u;
    u.setScheme(QStringLiteral("http"));
    u.setHost(QStringLiteral("127.0.0.1"));
    u.setPort(m_port);
    u.setPath(path);
    return u;
}

void ScriptedFaultServer::shutDown()
{
    m_shutDown = true;
    m_server.close();
    m_portHolder.abort();
    const QList<QPointer<QTcpSocket>> open = std::exchange(m_open, {});
    for (const QPointer<QTcpSocket> &socket : open) {
        if (socket) {
            socket->disconnect(this);
            socket->abort();
            socket->deleteLater();
        }
    }
}

// Plays the Refuse steps that come next: the listener closes, and opens again on the same
// port when the step's time is up (then the step after it is looked at).
void ScriptedFaultServer::advanceRefusals(int afterIndex)
{
    if (m_shutDown || m_refusing || m_step >= m_script.size() ||
        m_script.at(m_step).kind != Kind::Refuse)
        return;
    const int ms = m_script.at(m_step).refuseMs;
    ++m_step;
    if (afterIndex >= 0)
        m_records[afterIndex].refusedAfter = true;
    m_refusing = true;
    m_server.close();
    // The port stays ours while it refuses: bound, not listening, so connections to it are
    // refused, and no other server (another test or chaos run on this machine) is given it
    // for port 0, to be reached by this server's clients meanwhile.
    if (!m_portHolder.bind(QHostAddress::LocalHost, m_port, QAbstractSocket::ShareAddress))
        qWarning("ScriptedFaultServer: cannot hold port %u while refusing", unsigned(m_port));
    QTimer::singleShot(ms, this, [this] {
        m_refusing = false;
        if (m_shutDown) {
            m_portHolder.abort();
            return;
        }
        // SO_REUSEADDR (Qt's default for a server on Unix) lets the port be taken again while
        // the holder, which does not listen, keeps it.
        if (!m_server.listen(QHostAddress::LocalHost, m_port))
            qWarning("ScriptedFaultServer: cannot listen on port %u again", unsigned(m_port));
        m_portHolder.abort();
        advanceRefusals(-1);
    });
}

void ScriptedFaultServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        socket->setParent(this);
        m_open.removeIf([](const QPointer<QTcpSocket> &open) { return open.isNull(); });
        m_open.append(socket);
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto pending = std::make_shared<QByteArray>();
        auto index = std::make_shared<int>(-1); // the record of the request being read
        auto length = std::make_shared<qint64>(0);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, pending, index, length] {
            pending->append(socket->readAll());
            if (*index == -2)
                return; // a probe or an answered request: the rest is not read
            if (*index == -1) {
                // Request framing for a test peer: the head up to the blank line, then
                // Content-Length bytes of body. Enough for what our client sends.
                const qsizetype end = pending->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                Record record;
                const QList<QByteArray> lines = pending->left(end).split('\n');
                const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
                record.method = first.value(0);
                record.target = first.value(1);
                for (qsizetype i = 1; i < lines.size(); ++i) {
                    const QByteArray line = lines.at(i).trimmed();
                    const qsizetype colon = line.indexOf(':');
                    if (colon <= 0)
                        continue;
                    const QByteArray name = line.left(colon).trimmed();
                    const QByteArray value = line.mid(colon + 1).trimmed();
                    record.headers.append({ name, value });
                    if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                        *length = value.toLongLong();
                }
                pending->remove(0, end + 4);
                if (!record.target.startsWith("/chaos")) {
                    ++m_probes;
                    *index = -2;
                    socket->write(
                        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    socket->disconnectFromHost();
                    return;
                }
                // A request counts as reaching the server with its head: a keyless POST
                // whose body never arrives whole has still been seen.
                record.arrivedAtMs = m_clock.elapsed();
                record.behaviour = m_script.value(m_step);
                if (m_step < m_script.size())
                    ++m_step;
                *index = int(m_records.size());
                m_records.append(record);
            }
            Record &record = m_records[*index];
            record.body += pending->left(*length - record.body.size());
            pending->clear();
            if (record.body.size() < *length)
                return;
            record.bodyComplete = true;
            const int answering = std::exchange(*index, -2);
            handle(socket, answering);
        });
    }
}

void ScriptedFaultServer::handle(QTcpSocket *socket, int index)
{
    const Behaviour behaviour = m_records.at(index).behaviour;
    QPointer<QTcpSocket> guarded(socket);
    if (behaviour.latencyMs > 0)
        QTimer::singleShot(behaviour.latencyMs, this,
                           [this, guarded, index] { send(guarded, index); });
    else
        send(guarded, index);
}

void ScriptedFaultServer::send(QPointer<QTcpSocket> socket, int index)
{
    if (!socket || m_shutDown)
        return;
    Record &record = m_records[index];
    const Behaviour &b = record.behaviour;
    if (b.kind == Kind::ResetBeforeHeaders) {
        finishResponse(socket, index, true);
        return;
    }
    QByteArray head;
    QByteArray body;
    const auto line = [&head](const QByteArray &name, const QByteArray &value) {
        head += name + ": " + value + "\r\n";
    };
    if (b.kind == Kind::Status) {
        record.sentStatus = b.status;
        body = errorBody(index, b.status, b.errorBodyBytes);
        head = "HTTP/1.1 " + QByteArray::number(b.status) + " Scripted\r\n";
        if (b.retryAfter == RetryAfter::Seconds) {
            line("Retry-After", QByteArray::number(b.retryAfterSeconds));
        } else if (b.retryAfter == RetryAfter::HttpDate) {
            const QDateTime at = QDateTime::currentDateTimeUtc().addSecs(b.retryAfterSeconds);
            line("Retry-After",
                 QLocale::c()
                     .toString(at, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                     .toLatin1());
        }
        line("Content-Type", "text/plain");
    } else {
        qint64 start = 0;
        const QByteArray range = record.header("Range");
        const QByteArray ifRange = record.header("If-Range");
        if (b.acceptRanges && b.honourRange && range.startsWith("bytes=") && range.endsWith('-') &&
            (ifRange.isEmpty() || ifRange == m_etag)) {
            start = range.mid(6, range.size() - 7).toLongLong();
            if (start < 0 || start >= m_resource.size())
                start = 0;
        }
        record.rangeStart = start;
        record.sentStatus = start > 0 ? 206 : 200;
        head = start > 0 ? "HTTP/1.1 206 Partial Content\r\n" : "HTTP/1.1 200 OK\r\n";
        if (b.acceptRanges) {
            line("Accept-Ranges", "bytes");
            line("ETag", m_etag);
        }
        if (start > 0) {
            line("Content-Range",
                 "bytes " + QByteArray::number(start) + '-' +
                     QByteArray::number(m_resource.size() - 1) + '/' +
                     QByteArray::number(m_resource.size()));
        }
        line("Content-Type", "application/octet-stream");
        body = m_resource.mid(start);
    }
    line("Content-Length", QByteArray::number(body.size()));
    line("Connection", "close");
    head += "\r\n";
    if (record.method == "HEAD")
        body.clear();
    record.payloadBytes = body.size();

    bool reset = false;
    if (b.kind == Kind::ResetAfterHeaders) {
        body.clear();
        reset = true;
    } else if (b.kind == Kind::ResetMidBody) {
        body = body.left(std::max<qint64>(0, std::min<qint64>(b.cutAt, body.size() - 1)));
        reset = true;
    }
    socket->write(head);
    if (b.dripBytes > 0 && !body.isEmpty()) {
        socket->flush();
        drip(socket, index, body, reset);
        return;
    }
    socket->write(body);
    record.sentBody += body;
    finishResponse(socket, index, reset);
}

void ScriptedFaultServer::drip(QPointer<QTcpSocket> socket, int index, QByteArray rest,
                               bool resetAtEnd)
{
    if (!socket || m_shutDown)
        return;
    const int size = m_records.at(index).behaviour.dripBytes;
    const QByteArray piece = rest.left(size);
    socket->write(piece);
    socket->flush();
    m_records[index].sentBody += piece;
    rest.remove(0, piece.size());
    if (rest.isEmpty()) {
        finishResponse(socket, index, resetAtEnd);
        return;
    }
    QTimer::singleShot(
        m_records.at(index).behaviour.dripIntervalMs, this,
        [this, socket, index, rest, resetAtEnd] { drip(socket, index, rest, resetAtEnd); });
}

void ScriptedFaultServer::finishResponse(QTcpSocket *socket, int index, bool reset)
{
    Record &record = m_records[index];
    record.answered = true;
    record.complete = !reset;
    socket->disconnect(this);
    if (reset) {
        socket->flush();
        // The client may have gone already (it aborted): then there is nothing to wait for,
        // and QAbstractSocket would warn about waiting in UnconnectedState.
        if (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() > 0)
            socket->waitForBytesWritten(1000);
        socket->abort();
        socket->deleteLater();
    } else {
        socket->disconnectFromHost();
    }
    advanceRefusals(index);
}

} // namespace KeepTrying::Test
