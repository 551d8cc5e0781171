// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "signoutflow.h"

#include "accountkeys.h"
#include "library/accountswitcher.h"
#include "library/changequeue.h"
#include "library/credentialstore.h"
#include "library/imagestore.h"
#include "savedaccount.h"
#include "signinflow.h"
#include "ui/mainwindow.h"

SignOutFlow::SignOutFlow(MainWindow *window, AccountSwitcher *switcher, ChangeQueue *queue,
                         CredentialStore *secrets, ImageStore *images, SignInFlow *signIn,
                         QObject *parent)
    : QObject(parent), m_window(window), m_switcher(switcher), m_queue(queue), m_secrets(secrets),
      m_images(images), m_signIn(signIn)
{
}

SignOutFlow::~SignOutFlow()
{
    delete m_dialog.data();
}

bool SignOutFlow::canSignOut() const
{
    return !m_switcher->isSignedOut() && m_switcher->current().key != AccountKeys::demo();
}

void SignOutFlow::open()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    if (!canSignOut())
        return;
    const AccountSwitcher::Account account = m_switcher->current();
    m_dialog = new SignOutDialog(m_window);
    // The port too when it is not the scheme's own: two servers on one host differ by it.
    const int defaultPort = account.server.scheme() == QLatin1String("https") ? 443 : 80;
    const int port = account.server.port(defaultPort);
    const QString server = port == defaultPort
        ? account.server.host()
        : QStringLiteral("%1:%2").arg(account.server.host()).arg(port);
    m_dialog->setAccount(account.credentials.username, server, m_queue->waitingCount());
    connect(m_dialog.data(), &QDialog::finished, this, [this, key = account.key](int result) {
        const bool keep = m_dialog->keepsChanges();
        m_dialog->deleteLater();
        m_dialog = nullptr;
        // Still the account the person was asked about (no sign-in finished meanwhile).
        if (result == QDialog::Accepted && m_switcher->current().key == key)
            signOut(keep);
    });
    m_dialog->open(); // window-modal; no event loop of its own to return into
}

void SignOutFlow::signOut(bool keepChanges)
{
    const AccountSwitcher::Account leaving = m_switcher->current();
    m_switcher->signOut(keepChanges);
    m_images->clear();
    // What is not secret stays, for Sign In to offer; the next start shows the demo library
    // (no password to read the account with), not a note that one was lost. Another
    // account saved earlier (this one came from --server) stays as it is.
    const QString leavingKey = AccountKeys::keychain(leaving.credentials.username, leaving.server);
    const SavedAccount before = SavedAccount::load();
    if (before.demo || before.keychainKey() == leavingKey) {
        SavedAccount saved;
        saved.demo = false;
        saved.server = leaving.server;
        saved.clientId = leaving.credentials.clientId;
        saved.username = leaving.credentials.username;
        saved.save(); // the server, client id and user name
        saved.demo = true;
        saved.save(); // and the demo library at the next start
    }

    m_secrets->remove(leavingKey); // the keychain's entry, and this session's copy

    m_window->showSignedOut();
    Q_EMIT signedOut(leaving.key);
    m_signIn->openAfterSignOut(leaving);
}
