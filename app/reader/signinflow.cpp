// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "signinflow.h"

#include "accountkeys.h"
#include "certificateflow.h"
#include "library/credentialstore.h"
#include "savedaccount.h"
#include "ui/mainwindow.h"

#include <QtWidgets/QStatusBar>

SignInFlow::SignInFlow(MainWindow *window, AccountSwitcher *switcher, CredentialStore *secrets,
                       QObject *parent)
    : QObject(parent), m_window(window), m_switcher(switcher), m_secrets(secrets)
{
}

SignInFlow::~SignInFlow()
{
    // A sign-in still running answers nobody; the dialog goes with the flow.
    m_switcher->cancelSignIn();
    delete m_dialog.data();
}

void SignInFlow::setDemoAccount(DemoAccount demo)
{
    m_demo = std::move(demo);
}

void SignInFlow::setStartedWithServer(bool withServer)
{
    m_startedWithServer = withServer;
}

void SignInFlow::setCertificateFlow(CertificateFlow *certificates)
{
    m_certificates = certificates;
}

void SignInFlow::open()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    m_dialog = new SignInDialog(m_window);
    // The keychain is promised only once one answered; until then, this session only.
    m_dialog->setStorageNote(!m_secrets->isKeychainConfirmed());
    connect(m_secrets, &CredentialStore::sessionOnlyChanged, m_dialog.data(),
            &SignInDialog::setStorageNote);
    connect(m_secrets, &CredentialStore::keychainConfirmed, m_dialog.data(),
            [dialog = m_dialog.data()] { dialog->setStorageNote(false); });
    m_dialog->setAccount(knownAccount());
    connect(m_dialog.data(), &SignInDialog::accountSubmitted, this, &SignInFlow::submit);
    connect(m_dialog.data(), &QDialog::finished, this, &SignInFlow::closed);
    m_dialog->open(); // window-modal; no event loop of its own to return into
}

void SignInFlow::openAfterSignOut(const AccountSwitcher::Account &left)
{
    m_signedOutOf = SignInDialog::Account();
    m_signedOutOf.demo = false;
    m_signedOutOf.server = left.server;
    m_signedOutOf.clientId = left.credentials.clientId;
    m_signedOutOf.username = left.credentials.username;
    open();
}

void SignInFlow::openForPassword()
{
    open();
    m_dialog->setNotice(tr("Your password is needed again: this computer has no keychain to "
                           "keep it between sessions. Your library and the changes waiting "
                           "in it are here; type the password to send them."));
}

SignInDialog::Account SignInFlow::knownAccount() const
{
    if (m_switcher->isSignedOut() && m_signedOutOf.server.isValid())
        return m_signedOutOf;
    // What is known already: the account read now (--server, --username, --client-id, or
    // the one saved), else the one saved last, for the dialog to open with. The password
    // is typed again: who opens Sign In on an account of their own often comes to fix it.
    SignInDialog::Account known;
    const AccountSwitcher::Account &current = m_switcher->current();
    if (current.key != AccountKeys::demo() && current.server.isValid()) {
        known.demo = false;
        known.server = current.server;
        known.clientId = current.credentials.clientId;
        known.clientSecret = current.credentials.clientSecret;
        known.username = current.credentials.username;
        return known;
    }
    const SavedAccount saved = SavedAccount::load();
    known.demo = !m_startedWithServer && saved.demo;
    known.server = saved.server;
    known.clientId = saved.clientId;
    known.username = saved.username;
    return known;
}

void SignInFlow::submit(const SignInDialog::Account &chosen)
{
    QString error;
    if (chosen.demo) {
        AccountSwitcher::Account demo;
        QString description;
        if (!m_demo || !m_demo(&demo, &description, &error) ||
            !m_switcher->switchTo(demo, &error)) {
            m_dialog->setError(error);
            return;
        }
        finish(chosen, description);
        return;
    }
    const AccountSwitcher::Account next { AccountKeys::own(chosen.username, chosen.server),
                                          chosen.server,
                                          { chosen.clientId, chosen.clientSecret, chosen.username,
                                            chosen.password } };
    // Called by the switcher, never after cancelSignIn() (dialog closed, or this destroyed).
    m_switcher->signIn(
        next, [this, chosen](bool ok, const QString &message) { answered(chosen, ok, message); });
}

void SignInFlow::answered(const SignInDialog::Account &chosen, bool ok, const QString &message)
{
    if (!m_dialog)
        return;
    if (!ok) {
        // A certificate the reader refused: shown, and trusted or not by the person.
        const auto trustedOrNot = [this, chosen, message](bool trusted) {
            if (!m_dialog)
                return;
            if (trusted)
                submit(chosen); // again, the certificate now pinned
            else
                m_dialog->setError(message);
        };
        if (m_certificates &&
            m_certificates->show(m_dialog, chosen.server, CertificateFlow::Context::SignIn,
                                 trustedOrNot))
            return;
        m_dialog->setError(message); // a wrong password, in words; the dialog stays open
        return;
    }
    finish(chosen, chosen.server.host());
}

void SignInFlow::finish(const SignInDialog::Account &chosen, const QString &description)
{
    const SavedAccount previous = SavedAccount::load();
    SavedAccount next = previous;
    next.demo = chosen.demo;
    if (!chosen.demo) {
        next.server = chosen.server;
        next.clientId = chosen.clientId;
        next.username = chosen.username;
    }
    // Signing out of an account of one's own, or into another: its secrets leave the
    // keychain (the changes it still sends keep them in memory until they are sent).
    if (!previous.demo && (next.demo || previous.keychainKey() != next.keychainKey()))
        m_secrets->remove(previous.keychainKey());
    next.save(); // only what is not secret goes to the settings file
    if (!next.demo)
        m_secrets->write(next.keychainKey(), { chosen.clientSecret, chosen.password });
    if (!chosen.demo && m_certificates) // a certificate trusted while signing in stays
        m_certificates->keep(m_switcher->current().key, chosen.server);

    m_window->setServerDescription(description);
    m_window->showLibrary();
    m_window->statusBar()->showMessage(
        QObject::tr("Signed in as %1.")
            .arg(chosen.demo ? QObject::tr("the demo user") : chosen.username),
        8000);
    const QString key = m_switcher->current().key;
    m_dialog->accept(); // closed(): the dialog is deleted later
    Q_EMIT signedIn(key);
}

void SignInFlow::closed()
{
    m_switcher->cancelSignIn(); // closed while signing in: nothing follows
    if (m_dialog)
        m_dialog->deleteLater();
    m_dialog = nullptr;
}
