// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "certificatetrust.h"

#include <KeepTrying/reachability.h>

#include <QtCore/QLoggingCategory>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QSslConfiguration>

Q_LOGGING_CATEGORY(lcTrust, "keeptrying.reader.trust", QtWarningMsg)

namespace {

using KeepTrying::Reachability;

// The problems a person can judge for a server of their own: who vouches for the
// certificate, the names in it, its dates. A revoked certificate, or a handshake with no
// certificate at all, is not theirs to overrule.
bool isTrustableError(QSslError::SslError error)
{
    switch (error) {
    case QSslError::SelfSignedCertificate:
    case QSslError::SelfSignedCertificateInChain:
    case QSslError::UnableToGetLocalIssuerCertificate:
    case QSslError::UnableToGetIssuerCertificate:
    case QSslError::UnableToVerifyFirstCertificate:
    case QSslError::CertificateUntrusted:
    case QSslError::HostNameMismatch:
    case QSslError::CertificateExpired:
    case QSslError::CertificateNotYetValid:
        return true;
    default:
        return false;
    }
}

} // namespace

CertificateTrust::CertificateTrust(QObject *parent) : QObject(parent) { }

void CertificateTrust::watch(QNetworkAccessManager *manager)
{
    // QNetworkAccessManager::createRequest() connects each reply's sslErrors() to this
    // signal, directly: the slot runs while the handshake waits for its answer, and an
    // ignoreSslErrors() called here lets exactly that handshake go on.
    connect(manager, &QNetworkAccessManager::sslErrors, this, &CertificateTrust::decide);
}

void CertificateTrust::setPin(const QUrl &server, const Pin &pin)
{
    if (pin.isNull()) {
        removePin(server);
        return;
    }
    m_pins.insert(Reachability::originOf(server), pin);
    m_refusals.remove(Reachability::originOf(server));
}

void CertificateTrust::removePin(const QUrl &server)
{
    m_pins.remove(Reachability::originOf(server));
}

CertificateTrust::Pin CertificateTrust::pin(const QUrl &server) const
{
    return m_pins.value(Reachability::originOf(server));
}

CertificateTrust::Pin CertificateTrust::pinFor(const Refusal &refusal)
{
    Pin pin;
    pin.sha256 = sha256(refusal.certificate);
    for (const QSslError &error : refusal.errors) {
        if (!pin.accepted.contains(error.error()))
            pin.accepted.append(error.error());
    }
    return pin;
}

CertificateTrust::Refusal CertificateTrust::refusal(const QUrl &server) const
{
    return m_refusals.value(Reachability::originOf(server));
}

void CertificateTrust::clearRefusal(const QUrl &server)
{
    m_refusals.remove(Reachability::originOf(server));
}

QByteArray CertificateTrust::sha256(const QSslCertificate &certificate)
{
    return certificate.isNull() ? QByteArray()
                                : certificate.digest(QCryptographicHash::Sha256).toHex();
}

QString CertificateTrust::fingerprint(const QSslCertificate &certificate)
{
    const QByteArray hex = sha256(certificate).toUpper();
    QStringList pairs;
    for (int i = 0; i + 1 < hex.size(); i += 2)
        pairs << QString::fromLatin1(hex.mid(i, 2));
    return pairs.join(QLatin1Char(':'));
}

bool CertificateTrust::isTrustable(const Refusal &refusal)
{
    if (refusal.certificate.isNull() || refusal.errors.isEmpty())
        return false;
    for (const QSslError &error : refusal.errors) {
        if (!isTrustableError(error.error()))
            return false;
    }
    return true;
}

QStringList CertificateTrust::problems(const Refusal &refusal)
{
    const QString host = QUrl(refusal.origin).host();
    QStringList words;
    const auto add = [&words](const QString &sentence) {
        if (!words.contains(sentence))
            words << sentence;
    };
    for (const QSslError &error : refusal.errors) {
        switch (error.error()) {
        case QSslError::SelfSignedCertificate:
        case QSslError::SelfSignedCertificateInChain:
            add(tr("It was made by the server itself (self-signed): no authority this "
                   "computer trusts vouches for it."));
            break;
        case QSslError::UnableToGetLocalIssuerCertificate:
        case QSslError::UnableToGetIssuerCertificate:
        case QSslError::UnableToVerifyFirstCertificate:
        case QSslError::CertificateUntrusted:
            add(tr("It was issued by an authority this computer does not know, such as a "
                   "private one of your own."));
            break;
        case QSslError::HostNameMismatch:
            add(tr("It was not made for the name %1.").arg(host));
            break;
        case QSslError::CertificateExpired:
            add(tr("It expired on %1.")
                    .arg(QLocale().toString(error.certificate().expiryDate().date(),
                                            QLocale::LongFormat)));
            break;
        case QSslError::CertificateNotYetValid:
            add(tr("It is valid only from %1.")
                    .arg(QLocale().toString(error.certificate().effectiveDate().date(),
                                            QLocale::LongFormat)));
            break;
        case QSslError::CertificateRevoked:
            add(tr("Its issuer has withdrawn it."));
            break;
        default:
            add(tr("It cannot be checked."));
            break;
        }
    }
    return words;
}

void CertificateTrust::decide(QNetworkReply *reply, const QList<QSslError> &errors)
{
    const QString origin = Reachability::originOf(reply->url());
    // The leaf the server presented. Qt hands the reply its handshake's configuration
    // before it reports the errors; the errors name the certificate too.
    QSslCertificate leaf = reply->sslConfiguration().peerCertificate();
    if (leaf.isNull() && !errors.isEmpty())
        leaf = errors.constFirst().certificate();
    const auto found = m_pins.constFind(origin);
    if (found != m_pins.constEnd() && !leaf.isNull() && sha256(leaf) == found->sha256) {
        bool accepted = true;
        for (const QSslError &error : errors)
            accepted = accepted && found->accepted.contains(error.error());
        if (accepted) {
            reply->ignoreSslErrors(errors); // these, for this certificate, nothing else
            return;
        }
    }
    Refusal refusal;
    refusal.origin = origin;
    refusal.certificate = leaf;
    refusal.errors = errors;
    refusal.changed = found != m_pins.constEnd() && sha256(leaf) != found->sha256;
    qCInfo(lcTrust) << "refused the certificate of" << origin << "sha256" << sha256(leaf)
                    << (refusal.changed ? "(not the pinned one)" : "");
    m_refusals.insert(origin, refusal);
    Q_EMIT refused(origin);
}
