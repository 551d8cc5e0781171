// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CERTIFICATETRUST_H
#define KEEPTRYING_READER_CERTIFICATETRUST_H

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslError>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

/*
    Certificates the person chose to trust, one per origin, pinned by their SHA-256
    fingerprint: a self-hosted wallabag with a self-signed or private-CA certificate.

    It watches a manager's sslErrors(): every attempt of every request the manager makes
    (retries included: each attempt is a reply of QNetworkAccessManager::createRequest(),
    which reports its handshake there). An attempt gets past the handshake only when the
    server presented exactly the pinned certificate (same fingerprint) and every problem
    Qt found with it is one the person saw and accepted (self-signed, unknown issuer, other
    name); then exactly those errors are ignored for that attempt. Anything else fails as
    Qt fails it: another certificate, or the pinned one once it has expired. Nothing is
    ever ignored wholesale, and no CA is added: trusting the issuer of a private CA would
    trust every certificate it signs.

    A handshake refused for a certificate reason is remembered (refusal()) so that the
    window and the Sign In dialog can show that certificate in words. The reachability
    probes need no pin: they count a presented certificate as an answer and send nothing.
*/
class CertificateTrust : public QObject
{
    Q_OBJECT

public:
    struct Pin
    {
        QByteArray sha256; //!< hex, lower case, no separators
        QList<QSslError::SslError> accepted; //!< the problems the person accepted
        bool isNull() const { return sha256.isEmpty(); }
    };
    /*! A handshake the reader refused. */
    struct Refusal
    {
        QString origin;
        QSslCertificate certificate; //!< what the server presented (its leaf)
        QList<QSslError> errors;
        bool changed = false; //!< another certificate than the one pinned for this origin
        bool isNull() const { return origin.isEmpty(); }
    };

    explicit CertificateTrust(QObject *parent = nullptr);

    /*! Decides the handshakes of every request \a manager makes (not owned). */
    void watch(QNetworkAccessManager *manager);

    void setPin(const QUrl &server, const Pin &pin);
    void removePin(const QUrl &server);
    Pin pin(const QUrl &server) const;
    /*! The pin that trusts \a refusal's certificate with the problems it had. */
    static Pin pinFor(const Refusal &refusal);

    /*! The last refused handshake of \a server's origin, or a null one. */
    Refusal refusal(const QUrl &server) const;
    void clearRefusal(const QUrl &server);

    /*! "AB:CD:…", the SHA-256 fingerprint as certificate viewers show it. */
    static QString fingerprint(const QSslCertificate &certificate);
    static QByteArray sha256(const QSslCertificate &certificate);
    /*! What is wrong with the certificate, in plain sentences, one per problem. */
    static QStringList problems(const Refusal &refusal);
    /*! True for a refusal a pin can answer: none of its problems is beyond trust (a
        revoked certificate, or none presented). */
    static bool isTrustable(const Refusal &refusal);

Q_SIGNALS:
    /*! A handshake with \a origin was refused for a certificate reason. */
    void refused(const QString &origin);

private:
    void decide(QNetworkReply *reply, const QList<QSslError> &errors);

    QHash<QString, Pin> m_pins; // by Reachability::originOf()
    QHash<QString, Refusal> m_refusals;
};

#endif // KEEPTRYING_READER_CERTIFICATETRUST_H
