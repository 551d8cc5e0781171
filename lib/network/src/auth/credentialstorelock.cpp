// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/credentialstorelock.h>

#include "logging_p.h"

#include <QtCore/QLockFile>
#include <QtCore/QTimer>

#include <algorithm>

namespace KeepTrying {

class CredentialStoreLockPrivate
{
public:
    explicit CredentialStoreLockPrivate(const QString &path) : lockPath(path), lock(path) { }

    void tryTake();

    QString lockPath;
    QLockFile lock;
    QTimer poll;
    std::function<void()> acquired;
    int pollIntervalMs = 20;
};

void CredentialStoreLockPrivate::tryTake()
{
    if (!acquired)
        return;
    if (!lock.isLocked() && !lock.tryLock(0)) {
        if (lock.error() == QLockFile::PermissionError || lock.error() == QLockFile::UnknownError)
            qCWarning(lcNetwork) << "cannot take the credential store lock" << lockPath;
        poll.start(pollIntervalMs);
        return;
    }
    poll.stop();
    const auto callback = std::exchange(acquired, {});
    callback();
}

CredentialStoreLock::CredentialStoreLock(const QString &credentialStorePath, QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<CredentialStoreLockPrivate>(credentialStorePath +
                                                                          QStringLiteral(".lock")))
{
    Q_D(CredentialStoreLock);
    d->lock.setStaleLockTime(30000);
    d->poll.setSingleShot(true);
    connect(&d->poll, &QTimer::timeout, this, [d] { d->tryTake(); });
}

CredentialStoreLock::~CredentialStoreLock()
{
    release();
}

QString CredentialStoreLock::lockFilePath() const
{
    Q_D(const CredentialStoreLock);
    return d->lockPath;
}

void CredentialStoreLock::acquire(std::function<void()> acquired)
{
    Q_D(CredentialStoreLock);
    d->acquired = std::move(acquired);
    d->poll.start(0); // from the event loop, never on the caller's stack
}

void CredentialStoreLock::release()
{
    Q_D(CredentialStoreLock);
    d->poll.stop();
    d->acquired = {};
    if (d->lock.isLocked())
        d->lock.unlock();
}

bool CredentialStoreLock::isHeld() const
{
    Q_D(const CredentialStoreLock);
    return d->lock.isLocked();
}

int CredentialStoreLock::pollIntervalMs() const
{
    Q_D(const CredentialStoreLock);
    return d->pollIntervalMs;
}

void CredentialStoreLock::setPollIntervalMs(int milliseconds)
{
    Q_D(CredentialStoreLock);
    d->pollIntervalMs = std::max(1, milliseconds);
}

int CredentialStoreLock::staleLockTimeMs() const
{
    Q_D(const CredentialStoreLock);
    return d->lock.staleLockTime();
}

void CredentialStoreLock::setStaleLockTimeMs(int milliseconds)
{
    Q_D(CredentialStoreLock);
    d->lock.setStaleLockTime(std::max(0, milliseconds));
}

} // namespace KeepTrying
