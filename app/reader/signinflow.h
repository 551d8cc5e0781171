// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SIGNINFLOW_H
#define KEEPTRYING_READER_SIGNINFLOW_H

#include "library/accountswitcher.h"
#include "ui/signindialog.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>

class CertificateFlow;
class CredentialStore;
class MainWindow;

/*
    File ▸ Sign In…: a wallabag account of one's own, or the demo library, applied at once.

    open() shows a SignInDialog (window-modal, not a nested event loop) that this object
    owns until it closes. Sign In with an account of one's own checks the credentials with
    AccountSwitcher::signIn() while the dialog waits; a refusal is shown in the dialog, which
    stays open with what was typed. The demo library is switched to at once, the built-in
    server started first if it is not running (setDemoAccount()). On success the account is
    saved (SavedAccount; its secrets in the CredentialStore, the previous account's removed
    when signing out of it), the window shows the new library and the dialog closes.
    Changes still waiting for the account left behind stay that account's (AccountSwitcher).

    A server whose certificate the reader refused (self-signed, a private CA) shows that
    certificate (CertificateFlow) over the dialog; trusted, the sign-in goes again with it
    pinned, and the pin is kept with the account on success. Not trusted, the refusal is
    shown in the dialog as any other.

    Closing the dialog, or destroying this object, drops a sign-in still running: nothing of
    it follows.
*/
class SignInFlow : public QObject
{
    Q_OBJECT

public:
    /*! Makes the demo library's account ready (starting the built-in server if needed):
        false with \a error set when it cannot. \a description names it for the status bar. */
    using DemoAccount = std::function<bool(AccountSwitcher::Account *account, QString *description,
                                           QString *error)>;

    /*! None owned; all must outlive this object. */
    SignInFlow(MainWindow *window, AccountSwitcher *switcher, CredentialStore *secrets,
               QObject *parent = nullptr);
    ~SignInFlow() override;

    void setDemoAccount(DemoAccount demo);
    /*! The reader was started with --server: the dialog does not offer the demo library as
        the current choice. */
    void setStartedWithServer(bool withServer);
    /*! Offers a refused certificate (not owned; may be null: no offer). */
    void setCertificateFlow(CertificateFlow *certificates);

    /*! Shows the dialog (File ▸ Sign In…), filled with what is known of the account read
        now, or of the one saved last; brings it forward when it is open already. */
    void open();
    /*! Shows the dialog after signing out of \a left: its server, client id and user name
        filled in, never its secrets. */
    void openAfterSignOut(const AccountSwitcher::Account &left);
    /*! Shows the dialog at a start whose saved account's secrets no keychain kept: filled
        with the account read now, saying plainly why the password is asked again. */
    void openForPassword();
    /*! The open dialog, or null. */
    SignInDialog *dialog() const { return m_dialog; }

Q_SIGNALS:
    /*! The reader now serves the account \a key, chosen in the dialog, which has closed. */
    void signedIn(const QString &key);

private:
    SignInDialog::Account knownAccount() const;
    void submit(const SignInDialog::Account &chosen);
    void answered(const SignInDialog::Account &chosen, bool ok, const QString &message);
    void finish(const SignInDialog::Account &chosen, const QString &description);
    void closed();

    MainWindow *m_window;
    AccountSwitcher *m_switcher;
    CredentialStore *m_secrets;
    DemoAccount m_demo;
    bool m_startedWithServer = false;
    CertificateFlow *m_certificates = nullptr;
    SignInDialog::Account m_signedOutOf; // what Sign In offers while signed out
    QPointer<SignInDialog> m_dialog;
};

#endif // KEEPTRYING_READER_SIGNINFLOW_H
