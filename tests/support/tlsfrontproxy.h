// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TLSFRONTPROXY_H
#define KEEPTRYING_TLSFRONTPROXY_H

#include <QtCore/QCryptographicHash>
#include <QtCore/QHash>
#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>

namespace KeepTrying::Test {

/*!
    HTTPS in front of a cleartext server on loopback, as a self-hoster's TLS terminator
    (nginx, Caddy) stands in front of wallabag: it presents the certificate it is given and
    passes the bytes of each connection through to the backend port unchanged.
*/
class TlsFrontProxy : public QSslServer
{
    Q_OBJECT
public:
    TlsFrontProxy(const QSslCertificate &certificate, const QSslKey &key, quint16 backendPort,
                  QObject *parent = nullptr);

    /*! Listens on 127.0.0.1 at \a port (0: a free one); false if that fails. */
    bool listenOnLoopback(quint16 port = 0);
    /*! https://127.0.0.1:<port>/ */
    QUrl url() const;
    /*! The certificate presented from the next connection on. */
    void setCertificate(const QSslCertificate &certificate);
    int handshakeCount() const { return m_handshakes; }
    /*! Handshakes finished presenting \a certificate (one begun before a setCertificate()
        may finish after it: this tells them apart). */
    int handshakeCount(const QSslCertificate &certificate) const
    {
        return m_handshakesWith.value(certificate.digest(QCryptographicHash::Sha256));
    }
    /*! Stops listening and resets every open connection: the server is gone. */
    void goDown();

private:
    void pipe(QTcpSocket *front);
    quint16 m_backendPort;
    int m_handshakes = 0;
    QHash<QByteArray, int> m_handshakesWith; // by the SHA-256 of the certificate presented
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_TLSFRONTPROXY_H
