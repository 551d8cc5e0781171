// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TLSTESTSERVER_H
#define KEEPTRYING_TLSTESTSERVER_H

#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>

#include <functional>

namespace KeepTrying::Test {

/*!
    A loopback HTTPS/1.1 server (Qt's QSslServer) for the TLS faults: it presents the
    certificate it is given, and each connection follows the plan, by its 0-based index:
    served (one GET, answered "200 hello", then closed), or broken at a chosen point of the
    handshake. It counts what reached it, so a test can tell how many connections and
    handshakes an attempt made.
*/
class TlsTestServer : public QSslServer
{
    Q_OBJECT
public:
    enum class Fault {
        None, // handshake, read the request, answer 200 "hello", close
        CloseAfterClientHello, // read the ClientHello, then close gracefully (FIN)
        ResetAfterClientHello, // read the ClientHello, then reset (RST)
        CloseAfterHandshake // finish the handshake, then close before any response
    };
    using Plan = std::function<Fault(int connection)>;

    TlsTestServer(const QSslCertificate &certificate, const QSslKey &key,
                  QObject *parent = nullptr);

    /*! Listens on 127.0.0.1 at a free port; false if that fails. */
    bool listenOnLoopback();
    /*! https://127.0.0.1:<port><path>, or the same with \a host (localhost, say). */
    QUrl url(const QString &path = QStringLiteral("/"),
             const QString &host = QStringLiteral("127.0.0.1")) const;
    void setPlan(Plan plan) { m_plan = std::move(plan); }
    /*! The certificate presented from the next connection on. */
    void setCertificate(const QSslCertificate &certificate);

    int connectionCount() const { return m_connections; } // TCP connections accepted
    int handshakeCount() const { return m_handshakes; } // TLS handshakes completed
    int requestCount() const { return m_requests; } // requests read (and answered or cut)
    void resetCounts() { m_connections = m_handshakes = m_requests = 0; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    void serve(QTcpSocket *socket, Fault fault);
    void breakHandshake(qintptr descriptor, Fault fault);
    Plan m_plan;
    Fault m_nextFault = Fault::None;
    int m_connections = 0;
    int m_handshakes = 0;
    int m_requests = 0;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_TLSTESTSERVER_H
