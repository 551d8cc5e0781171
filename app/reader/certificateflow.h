// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CERTIFICATEFLOW_H
#define KEEPTRYING_READER_CERTIFICATEFLOW_H

#include "ui/certificatedialog.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>

class CertificateTrust;

/*
    After a handshake the reader refused for a certificate reason: the certificate in words
    (CertificateDialog), and the person's answer. Trusting pins that certificate for its
    origin in the CertificateTrust at once and keeps it with the account (SavedAccount) once
    the caller knows which account it is (keep()). A certificate other than the one pinned
    is never trusted from the list: the warning has Close only; File ▸ Sign In… may replace
    it on purpose.
*/
class CertificateFlow : public QObject
{
    Q_OBJECT

public:
    enum class Context { List, SignIn };
    /*! \a trusted: the person trusted (or replaced) the certificate, now pinned. */
    using Done = std::function<void(bool trusted)>;

    explicit CertificateFlow(CertificateTrust *trust, QObject *parent = nullptr);
    ~CertificateFlow() override;

    CertificateTrust *trust() const { return m_trust; }
    /*! Shows the certificate \a server's origin was last refused for, window-modal on
        \a parent; \a done follows when the dialog closes. False (and no dialog) when no
        certificate was refused there, or one a person cannot overrule. */
    bool show(QWidget *parent, const QUrl &server, Context context, Done done);
    /*! Keeps the certificate pinned for \a server with the account \a key, for the next runs. */
    void keep(const QString &key, const QUrl &server);
    /*! Pins what was kept for the account \a key (at start, after a switch). */
    void restore(const QString &key, const QUrl &server);
    /*! The open dialog, or null. */
    CertificateDialog *dialog() const { return m_dialog; }

Q_SIGNALS:
    /*! A certificate dialog opened (for tests and the screenshot driver). */
    void dialogShown(CertificateDialog *dialog);

private:
    CertificateTrust *m_trust;
    QPointer<CertificateDialog> m_dialog;
};

#endif // KEEPTRYING_READER_CERTIFICATEFLOW_H
