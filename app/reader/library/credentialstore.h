// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CREDENTIALSTORE_H
#define KEEPTRYING_READER_CREDENTIALSTORE_H

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

/*
    Keeps the secrets of a sign-in (the client secret and the password) in the system
    keychain through QtKeychain, where the build has it and a keychain service answers;
    otherwise only in memory for this session. Secrets are never written to a plain file,
    to the log, or to the outbox; what is not secret (server, client id, user name) is the
    caller's to keep in QSettings.

    Whether the keychain works is learnt from the first job: a job that finds no backend
    (no Secret Service or KWallet on D-Bus) switches the store to this session only, and
    sessionOnlyChanged() says so, so that the sign-in dialog can tell the user the
    password will be asked for again next time.
*/
class CredentialStore : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool sessionOnly READ isSessionOnly NOTIFY sessionOnlyChanged)

public:
    struct Secrets
    {
        QString clientSecret;
        QString password;
    };
    using ReadCallback = std::function<void(bool found, const Secrets &secrets)>;

    /*! \a service names the entries in the keychain; \a useKeychain false keeps secrets for
        this session only (also when the build has no QtKeychain). */
    explicit CredentialStore(const QString &service, bool useKeychain = true,
                             QObject *parent = nullptr);
    /*! Waits (at most 3 s, events of the keychain's D-Bus calls only) for writes and removals
        still in flight: a quit right after Sign Out must not leave the password behind. */
    ~CredentialStore() override;

    /*! Writes and removals the keychain has not answered yet. */
    int pendingChanges() const { return m_pendingChanges; }
    /*! Runs the event loop until pendingChanges() is 0 or \a timeoutMs passed; true when 0. */
    bool waitForPendingChanges(int timeoutMs);

    /*! True when the build has QtKeychain. */
    static bool hasKeychainSupport();
    /*! True when secrets live in memory only (no keychain, or none answered). */
    bool isSessionOnly() const { return m_sessionOnly; }
    /*! True once a keychain answered a job (found or not found): only then may the user be
        told the secrets are kept there. */
    bool isKeychainConfirmed() const { return m_confirmed; }
    /*! Asks the keychain once (a read of nothing), so that isKeychainConfirmed() or
        isSessionOnly() is known before a sign-in dialog shows. */
    void probe();

    /*! Reads the secrets of \a account (e.g. "user@https://host"); \a done is called once,
        possibly before this returns. */
    void read(const QString &account, ReadCallback done);
    /*! Stores the secrets of \a account; \a done(true) when stored (in the keychain, or
        for this session when there is none). */
    void write(const QString &account, const Secrets &secrets,
               std::function<void(bool stored)> done = {});
    /*! Forgets \a account's secrets everywhere (sign-out); \a done follows once the keychain
        has answered (at once without one). */
    void remove(const QString &account, std::function<void()> done = {});

Q_SIGNALS:
    void sessionOnlyChanged(bool sessionOnly);
    /*! A keychain answered for the first time. */
    void keychainConfirmed();
    /*! pendingChanges() fell to 0. */
    void pendingChangesDone();

private:
    void fallBackToSession();
    void confirm();
    void changeDone();

    QString m_service;
    bool m_sessionOnly = true;
    bool m_confirmed = false;
    QHash<QString, Secrets> m_session;
    int m_pendingChanges = 0;
    bool m_closing = false;
};

#endif // KEEPTRYING_READER_CREDENTIALSTORE_H
