// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/offlinecopystore.h>

#include "offlinecopydatabase_p.h"

namespace KeepTrying {

OfflineCopyStore::OfflineCopyStore(QObject *parent)
    : AbstractOfflineCopyStore(parent), d(std::make_unique<OfflineCopyDatabase>())
{
}

OfflineCopyStore::~OfflineCopyStore() = default;

QString OfflineCopyStore::fileName()
{
    return OfflineCopyDatabase::fileName();
}

bool OfflineCopyStore::open(const QString &directory)
{
    return d->open(directory);
}

void OfflineCopyStore::close()
{
    d->close();
}

bool OfflineCopyStore::isOpen() const
{
    return d->isOpen();
}

QString OfflineCopyStore::directory() const
{
    return d->directory();
}

void OfflineCopyStore::setMaximumSize(qint64 bytes)
{
    d->setMaximumSize(bytes);
}

qint64 OfflineCopyStore::maximumSize() const
{
    return d->maximumSize();
}

void OfflineCopyStore::setMaximumCopySize(qint64 bytes)
{
    m_maximumCopySize = qMax<qint64>(0, bytes);
}

qint64 OfflineCopyStore::maximumCopySize() const
{
    return qMin(m_maximumCopySize, d->maximumSize());
}

int OfflineCopyStore::count() const
{
    return d->count();
}

// The database keeps the account of the calls (its hash is computed once per switch).
OfflineCopyDatabase &OfflineCopyStore::in(const QString &accountKey) const
{
    if (d->accountKey() != accountKey)
        d->setAccountKey(accountKey);
    return *d;
}

std::optional<OfflineCopy::Copy> OfflineCopyStore::lookup(const QString &accountKey,
                                                          const QUrl &url)
{
    return in(accountKey).lookup(url);
}

bool OfflineCopyStore::contains(const QString &accountKey, const QUrl &url) const
{
    return in(accountKey).contains(url);
}

OfflineCopyStore::StoreResult OfflineCopyStore::store(const QString &accountKey, const QUrl &url,
                                                      int status,
                                                      const QList<RawHeaderPair> &headers,
                                                      const QByteArray &body, bool pin,
                                                      OfflineCopy::Overrides overrides)
{
    if (body.size() > m_maximumCopySize)
        return StoreResult::TooLarge;
    return in(accountKey).store(url, status, headers, body, pin, overrides);
}

OfflineCopyStore::RefreshResult OfflineCopyStore::refresh(const QString &accountKey,
                                                          const QUrl &url,
                                                          const QList<RawHeaderPair> &headers,
                                                          OfflineCopy::Overrides overrides)
{
    return in(accountKey).refresh(url, headers, overrides);
}

bool OfflineCopyStore::setPinned(const QString &accountKey, const QUrl &url, bool pinned)
{
    return in(accountKey).setPinned(url, pinned);
}

bool OfflineCopyStore::remove(const QString &accountKey, const QUrl &url)
{
    return in(accountKey).remove(url);
}

void OfflineCopyStore::clear(const QString &accountKey)
{
    d->clear(accountKey);
}

void OfflineCopyStore::clearAll()
{
    d->clearAll();
}

qint64 OfflineCopyStore::size() const
{
    return d->size();
}

qint64 OfflineCopyStore::pinnedSize() const
{
    return d->pinnedSize();
}

} // namespace KeepTrying
