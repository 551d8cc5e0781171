// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CREDENTIALSTORELOCK_H
#define KEEPTRYING_CREDENTIALSTORELOCK_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>
#include <memory>

namespace KeepTrying {

class CredentialStoreLockPrivate;

/*!
    One renewal at a time across processes that share a credential store (a file with
    the tokens): a lock file beside it, taken around the renewal. With a refresh token that
    works once, two processes that both renew would sign one of them out.

    Use it in Authenticator::renew():

    1. acquire(): the callback runs once this process holds the lock;
    2. read the store again: if another process renewed while this one waited, take its
        credentials, release() and finishRenewal(key, Renewed) without a request;
    3. else renew, write the store, then release() and finishRenewal().

    Waiting never blocks the event loop: the lock is tried every pollIntervalMs() (a lock
    held by another process, or by another object in this one). A lock left by a process
    that died is taken over after staleLockTimeMs(). The lock file is
    credentialStorePath + ".lock" (QLockFile: a PID and host name inside).

    @note Two objects in one process on the same path exclude each other too (tests use
    that to stand in for two processes).
*/
class KEEPTRYING_NETWORK_EXPORT CredentialStoreLock : public QObject
{
    Q_OBJECT

public:
    explicit CredentialStoreLock(const QString &credentialStorePath, QObject *parent = nullptr);
    /*! Releases the lock if held; a pending acquire() is dropped. */
    ~CredentialStoreLock() override;

    QString lockFilePath() const;
    /*! Calls \a acquired, from the event loop, once the lock is held. A second acquire()
        while one waits replaces its callback; while the lock is held, it calls back at once
        (from the event loop). */
    void acquire(std::function<void()> acquired);
    /*! Gives the lock back (nothing when not held); a pending acquire() is dropped. */
    void release();
    bool isHeld() const;

    /*! Milliseconds between tries while another holder has the lock (default 20, ≥ 1). */
    int pollIntervalMs() const;
    void setPollIntervalMs(int milliseconds);
    /*! Age in milliseconds after which a lock file is taken as left by a dead process
        (default 30000; QLockFile::setStaleLockTime). */
    int staleLockTimeMs() const;
    void setStaleLockTimeMs(int milliseconds);

private:
    Q_DECLARE_PRIVATE(CredentialStoreLock)
    std::unique_ptr<CredentialStoreLockPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_CREDENTIALSTORELOCK_H
