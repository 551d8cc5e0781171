// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "certificateflow.h"

#include "library/certificatetrust.h"
#include "savedaccount.h"

CertificateFlow::CertificateFlow(CertificateTrust *trust, QObject *parent)
    : QObject(parent), m_trust(trust)
{
}

CertificateFlow::~CertificateFlow()
{
    delete m_dialog.data();
}

bool CertificateFlow::show(QWidget *parent, const QUrl &server, Context context, Done done)
{
    const CertificateTrust::Refusal refusal = m_trust->refusal(server);
    if (refusal.isNull() || !CertificateTrust::isTrustable(refusal))
        return false;
    if (m_dialog) // one at a time: the list and a sign-in may both meet the same refusal
        delete m_dialog.data();
    const CertificateDialog::Mode mode = !refusal.changed
        ? CertificateDialog::Mode::Offer
        : (context == Context::SignIn ? CertificateDialog::Mode::Replace
                                      : CertificateDialog::Mode::Warn);
    m_dialog = new CertificateDialog(refusal, mode, parent);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog.data(), &QDialog::finished, this, [this, server, refusal, done](int result) {
        const bool trusted = result == QDialog::Accepted;
        m_trust->clearRefusal(server);
        if (trusted)
            m_trust->setPin(server, CertificateTrust::pinFor(refusal));
        if (done)
            done(trusted);
    });
    m_dialog->open(); // window-modal; no event loop of its own
    Q_EMIT dialogShown(m_dialog.data());
    return true;
}

void CertificateFlow::keep(const QString &key, const QUrl &server)
{
    const CertificateTrust::Pin pin = m_trust->pin(server);
    if (!pin.isNull())
        SavedAccount::setTrustedCertificate(key, pin);
}

void CertificateFlow::restore(const QString &key, const QUrl &server)
{
    const CertificateTrust::Pin pin = SavedAccount::trustedCertificate(key);
    if (!pin.isNull())
        m_trust->setPin(server, pin);
}
