// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CERTIFICATEDIALOG_H
#define KEEPTRYING_READER_CERTIFICATEDIALOG_H

#include "library/certificatetrust.h"

#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

/*
    A server's certificate in words, after the reader refused it: for which names it was
    made, who issued it, until when it is valid, its SHA-256 fingerprint (to compare with
    the server's), and what is wrong with it in plain sentences.

    Offer: a certificate not trusted yet; "Trust This Certificate" accepts the dialog (the
    owner pins it). Warn: a certificate other than the one trusted for this server; the
    reader sent nothing, and the only button is Close. Replace: the same warning during
    File ▸ Sign In…, where the person may replace the trusted certificate on purpose; the
    button says so. Cancel (Close) is the default button in every mode.
*/
class CertificateDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Mode { Offer, Warn, Replace };

    CertificateDialog(const CertificateTrust::Refusal &refusal, Mode mode,
                      QWidget *parent = nullptr);

    Mode mode() const { return m_mode; }
    CertificateTrust::Refusal refusal() const { return m_refusal; }
    /*! The button that trusts the certificate, or null (Warn). */
    QPushButton *trustButton() const { return m_trust; }
    /*! Everything the dialog says, for tests and screen readers. */
    QString text() const;

private:
    CertificateTrust::Refusal m_refusal;
    Mode m_mode;
    QPushButton *m_trust = nullptr;
};

#endif // KEEPTRYING_READER_CERTIFICATEDIALOG_H
