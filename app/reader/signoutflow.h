// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SIGNOUTFLOW_H
#define KEEPTRYING_READER_SIGNOUTFLOW_H

#include "ui/signoutdialog.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

class AccountSwitcher;
class ChangeQueue;
class CredentialStore;
class ImageStore;
class MainWindow;
class SignInFlow;

/*
    File ▸ Sign Out…, of an account of one's own (the built-in demo library has no secret
    and nothing personal: there is nothing to sign out of).

    open() asks first (SignOutDialog, window-modal, owned until it closes), saying what is
    removed and, when changes wait for the server, whether to keep them for the next
    sign-in to the same account (the default) or discard them. Confirmed, the reader:
    stops everything that runs for the account, so no request goes with its token again
    (AccountSwitcher::signOut(): its list, its outbox's replays, its pictures); keeps or
    removes its outbox; removes its library and offline copies from this computer (a
    shared computer: the next person must not read them); forgets its password and client
    secret in the keychain and in memory; and opens Sign In filled with the server, client
    id and user name, not the secrets. The next start shows the demo library until the
    person signs in again.
*/
class SignOutFlow : public QObject
{
    Q_OBJECT

public:
    /*! None owned; all must outlive this object. */
    SignOutFlow(MainWindow *window, AccountSwitcher *switcher, ChangeQueue *queue,
                CredentialStore *secrets, ImageStore *images, SignInFlow *signIn,
                QObject *parent = nullptr);
    ~SignOutFlow() override;

    /*! True when the account read now is one of one's own. */
    bool canSignOut() const;
    /*! Shows the confirmation (File ▸ Sign Out…); nothing when there is nothing to sign
        out of. */
    void open();
    /*! The open dialog, or null. */
    SignOutDialog *dialog() const { return m_dialog; }

Q_SIGNALS:
    /*! The reader signed out of the account \a key; Sign In is open. */
    void signedOut(const QString &key);

private:
    void signOut(bool keepChanges);

    MainWindow *m_window;
    AccountSwitcher *m_switcher;
    ChangeQueue *m_queue;
    CredentialStore *m_secrets;
    ImageStore *m_images;
    SignInFlow *m_signIn;
    QPointer<SignOutDialog> m_dialog;
};

#endif // KEEPTRYING_READER_SIGNOUTFLOW_H
