// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ACCOUNTSWITCHER_H
#define KEEPTRYING_READER_ACCOUNTSWITCHER_H

#include "wallabagclient.h"

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <functional>
#include <memory>
#include <vector>

class LocalStore;
class OutboxChangeQueue;
class SyncEngine;

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    Moves the reader to another wallabag account (or server, or back to the demo library)
    while it runs: the client's server and tokens, the manager's offline-copy account key,
    the local store's library file, the outbox file, then a refresh. The window keeps the
    same client, store, queue and engine objects; they now speak for the new account, and
    the store's reset() makes every view read again.

    The changes still waiting for the account left behind are sent to the server and account
    they were made for, with that account's credentials, never to the new one: the switcher
    opens that account's outbox and library again in a client, store, queue and engine of
    its own (a retired account, not shown), which signs in with the old credentials and lets
    the outbox drain, each confirmation landing in that account's own library. Once nothing
    waits, the retired account is closed. If it cannot be reached, or refuses the sign-in,
    its changes stay in its files (outbox and library, pending) and go when the user is
    back in that account (SyncEngine::start() queues the store's pending fields). Switching
    back to a retired account closes the retired copy first, so one outbox file has one
    drainer.

    A refused change of the retired account stays a dead letter in its outbox and Failed in
    its library, for the user to undo or discard once back in that account.
*/
class AccountSwitcher : public QObject
{
    Q_OBJECT
    Q_PROPERTY(int retiredCount READ retiredCount NOTIFY retiredCountChanged)

public:
    struct Account
    {
        /*! Names the account's files: "user@https://host" for a server of one's own,
            "demo@built-in" for the demo library. */
        QString key;
        QUrl server;
        WallabagClient::Credentials credentials;
    };
    /*! Where the file \a kind ("library", "outbox") of account \a key lives. */
    using PathFunction = std::function<QString(const QString &key, const QString &kind)>;
    using SignInCallback = std::function<void(bool ok, const QString &message)>;

    /*! Switches \a client, \a store, \a queue and \a engine (none owned; all must outlive the
        switcher), which now serve \a current. Files are found with LocalStore::defaultPath()
        unless setPathFunction() says otherwise. */
    AccountSwitcher(KeepTrying::RetryingNetworkAccessManager *manager, WallabagClient *client,
                    LocalStore *store, OutboxChangeQueue *queue, SyncEngine *engine,
                    const Account &current, QObject *parent = nullptr);
    ~AccountSwitcher() override;

    void setPathFunction(PathFunction paths);
    Account current() const { return m_current; }
    /*! The key of the manager's offline copies for \a account: its server and user name. */
    static QString offlineCopyKey(const Account &account);

    /*! Checks \a account's credentials with a token request of its own (the current account
        is untouched meanwhile); on success switches to it (switchTo()) and calls
        \a done(true, {}); on a refusal calls \a done(false, message), the message in words
        (a wrong password says so). A newer signIn() replaces a running one, whose \a done
        is not called. */
    void signIn(const Account &account, SignInCallback done);
    /*! Drops a running signIn() (the dialog was closed): its \a done is not called. */
    void cancelSignIn();
    /*! Switches now, without checking the credentials first (the demo library, or a
        test). False with \a errorMessage set when the library file cannot be opened; the
        reader then stays with the account it had. */
    bool switchTo(const Account &account, QString *errorMessage = nullptr);

    /*! Signs out of the current account: stops what runs for it (its list, its outbox's
        replays, a sign-in), forgets its tokens and password, removes its library and its
        offline copies from this computer, and serves no account (isSignedOut(); an empty
        library in memory) until the next signIn() or switchTo(). Its outbox file stays when
        \a keepChanges, with the changes held in memory written into it, and goes to the
        server at the next sign-in to that account; else it is removed. */
    void signOut(bool keepChanges);
    bool isSignedOut() const { return m_current.key.isEmpty(); }

    /*! Accounts left behind whose changes are still being sent. */
    int retiredCount() const { return int(m_retired.size()); }

Q_SIGNALS:
    /*! The reader now serves \a key; a refresh has started. */
    void switched(const QString &key);
    void retiredCountChanged(int count);
    /*! The reader signed out of \a key and now serves no account. */
    void signedOut(const QString &key);
    /*! The retired account \a key was closed: \a waiting changes were still not sent (0:
        all went); those stay in its files until the user is back in it. */
    void retiredClosed(const QString &key, int waiting);

private:
    struct Retired;
    void retire(const Account &account);
    void closeRetired(Retired *retired);
    QString path(const QString &key, const QString &kind) const;

    KeepTrying::RetryingNetworkAccessManager *m_manager;
    WallabagClient *m_client;
    LocalStore *m_store;
    OutboxChangeQueue *m_queue;
    SyncEngine *m_engine;
    Account m_current;
    PathFunction m_paths;
    std::vector<std::unique_ptr<Retired>> m_retired;
    std::unique_ptr<WallabagClient> m_probe; // the running signIn()'s token request
};

#endif // KEEPTRYING_READER_ACCOUNTSWITCHER_H
