// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "benchserver.h"

#include <QtCore/QFile>
#include <QtCore/QHash>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <memory>

namespace KeepTrying::Bench {

namespace {

// One connection: answers requests in order; a stream is fed as the socket drains.
class Connection : public QObject
{
public:
    explicit Connection(QTcpSocket *socket) : m_socket(socket)
    {
        m_chunk = QByteArray(256 * 1024, 'k');
        connect(socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
        connect(socket, &QTcpSocket::bytesWritten, this, &Connection::feed);
        connect(socket, &QTcpSocket::disconnected, this, [this] {
            m_socket->deleteLater();
            deleteLater();
        });
    }

private:
    void onReadyRead()
    {
        m_pending += m_socket->readAll();
        // Benchmark requests are GETs without a body: each ends at the blank line.
        while (m_remaining == 0) {
            const qsizetype end = m_pending.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray line = m_pending.left(m_pending.indexOf("\r\n"));
            m_pending.remove(0, end + 4);
            const QByteArray target = line.split(' ').value(1);
            if (target.startsWith("/stream?bytes=")) {
                m_remaining = target.mid(14).toLongLong();
                m_socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                                "Content-Length: " +
                                QByteArray::number(m_remaining) + "\r\n\r\n");
                feed();
            } else if (target.startsWith("/flaky?")) {
                // /flaky?bytes=N&fails=K&key=X: the first K requests for X answer 503 with
                // an N-byte body, the next a small 200.
                const QUrlQuery query(QString::fromLatin1(target.mid(7)));
                const QString key = query.queryItemValue(QStringLiteral("key"));
                if (s_served[key]++ < query.queryItemValue(QStringLiteral("fails")).toInt()) {
                    m_remaining = query.queryItemValue(QStringLiteral("bytes")).toLongLong();
                    m_socket->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: " +
                                    QByteArray::number(m_remaining) + "\r\n\r\n");
                    feed();
                } else {
                    m_socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                }
            } else {
                static const QByteArray small(64, 's');
                m_socket->write(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 64\r\n\r\n" +
                    small);
            }
        }
    }

    void feed()
    {
        while (m_remaining > 0 && m_socket->bytesToWrite() < 1024 * 1024) {
            const qint64 n = std::min<qint64>(m_remaining, m_chunk.size());
            m_socket->write(m_chunk.constData(), n);
            m_remaining -= n;
        }
        if (m_remaining == 0 && !m_pending.isEmpty())
            onReadyRead();
    }

    static inline QHash<QString, int> s_served; // the server's thread only
    QTcpSocket *m_socket;
    QByteArray m_pending;
    QByteArray m_chunk;
    qint64 m_remaining = 0;
};

qint64 statusField(const QByteArray &name)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith(QByteArray(name + ':')))
            return line.mid(name.size() + 1).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

} // namespace

BenchServer::BenchServer()
{
    m_thread.start();
    auto *server = new QTcpServer;
    server->listen(QHostAddress::LocalHost, 0);
    m_port = server->serverPort();
    server->moveToThread(&m_thread);
    QObject::connect(server, &QTcpServer::newConnection, server, [server] {
        while (QTcpSocket *socket = server->nextPendingConnection())
            new Connection(socket);
    });
    QObject::connect(&m_thread, &QThread::finished, server, &QObject::deleteLater);
}

BenchServer::~BenchServer()
{
    m_thread.quit();
    m_thread.wait();
}

QUrl BenchServer::url(const QString &pathAndQuery) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(pathAndQuery));
}

qint64 residentBytes()
{
    return statusField("VmRSS");
}

qint64 peakResidentBytes()
{
    return statusField("VmHWM");
}

void resetPeakResident()
{
    QFile clearRefs(QStringLiteral("/proc/self/clear_refs"));
    if (clearRefs.open(QIODevice::WriteOnly))
        clearRefs.write("5");
}

} // namespace KeepTrying::Bench
