// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READERAPP_H
#define KEEPTRYING_READER_READERAPP_H

#include "library/accountswitcher.h"
#include "library/builtinserver.h"
#include "library/certificatetrust.h"
#include "library/credentialstore.h"
#include "readeroptions.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <memory>

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

class CertificateFlow;
class ImageStore;
class LocalStore;
class MainWindow;
class OutboxChangeQueue;
class RequestLog;
class SignInFlow;
class SignOutFlow;
class SyncEngine;
class WallabagClient;

/*
    The reader's composition root: from its options to a window on a session of one
    account. main() parses the command line and starts one; a test builds one the same way
    and drives its window as a person does.

    open() chooses the account (--server; else the one saved by File ▸ Sign In…, its
    secrets from the keychain; else the built-in demo server, started here), then builds
    the session for it (the one network manager, the local store, the client, images, the
    outbox queue and sync engine, the request log) and the window with its File ▸ Sign In…
    workflow (SignInFlow over an AccountSwitcher) and File ▸ Sign Out… (SignOutFlow). start() shows
   the window with the saved copy and starts the sync. Everything is owned here and destroyed in the
   reverse order of its making: nothing outlives what it uses.
*/
class ReaderApp : public QObject
{
    Q_OBJECT

public:
    explicit ReaderApp(const ReaderOptions &options, QObject *parent = nullptr);
    ~ReaderApp() override;

    /*! Builds everything, shows nothing. False with errorMessage() and exitCode() set when
        the reader cannot start (the built-in server cannot listen, a --demo-fault is wrong,
        the library file cannot be opened). */
    bool open();
    QString errorMessage() const { return m_errorMessage; }
    int exitCode() const { return m_exitCode; }

    /*! Shows the window and what the store has at once, then starts the sync and the
        periodic refresh. */
    void start();
    /*! The clock the window's first painted list is measured from (the process start;
        by default the making of this object). Before open(). */
    void setLaunchTimer(const QElapsedTimer &timer) { m_launch = timer; }

    /*! How long a delete can be undone for sure (the notice shows, the delete waits before
        it is sent); 6 s by default. After open(). */
    Q_INVOKABLE void setUndoTimeMs(int ms);

    MainWindow *window() const { return m_window.get(); }
    SyncEngine *engine() const { return m_engine.get(); }
    LocalStore *store() const { return m_store.get(); }
    OutboxChangeQueue *queue() const { return m_queue.get(); }
    WallabagClient *client() const { return m_client.get(); }
    ImageStore *images() const { return m_images.get(); }
    KeepTrying::RetryingNetworkAccessManager *manager() const { return m_manager.get(); }
    AccountSwitcher *switcher() const { return m_switcher.get(); }
    SignInFlow *signInFlow() const { return m_signIn.get(); }
    SignOutFlow *signOutFlow() const { return m_signOut.get(); }
    /*! Certificates trusted per account, and the dialog that shows a refused one. */
    CertificateFlow *certificateFlow() const { return m_certificates.get(); }
    CertificateTrust *certificateTrust() { return &m_trust; }
    CredentialStore *credentialStore() { return &m_secrets; }
    /*! The demo server in this process; not running while an account of one's own is read
        and the demo library was never chosen. */
    BuiltInServer *builtInServer() { return &m_builtIn; }

private:
    bool fail(int exitCode, const QString &message);
    bool chooseStartAccount();
    bool startBuiltInServer(quint16 preferredPort);
    bool prepareDemoAccount(AccountSwitcher::Account *account, QString *description,
                            QString *error);
    bool openSession();
    void buildWindow();
    void setBuiltInHooks();
    void updateAccountActions();
    void refreshIfSignedIn();

    ReaderOptions m_options;
    QElapsedTimer m_launch;
    QString m_errorMessage;
    int m_exitCode = 0;
    AccountSwitcher::Account m_account; // the one opened at start
    QString m_serverDescription;
    QString m_savedAccountNote;
    bool m_needsPassword = false; // the saved account's secrets were kept by no keychain

    // Declared in the order of making; destroyed the other way round.
    BuiltInServer m_builtIn;
    CredentialStore m_secrets;
    CertificateTrust m_trust;
    std::unique_ptr<CertificateFlow> m_certificates;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<ImageStore> m_images;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    std::unique_ptr<SyncEngine> m_engine;
    std::unique_ptr<RequestLog> m_requestLog;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AccountSwitcher> m_switcher;
    std::unique_ptr<SignInFlow> m_signIn;
    std::unique_ptr<SignOutFlow> m_signOut;
    QTimer m_periodic;
};

#endif // KEEPTRYING_READER_READERAPP_H
