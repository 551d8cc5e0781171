// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OFFLINECOPYSTORE_H
#define KEEPTRYING_OFFLINECOPYSTORE_H

#include <KeepTrying/abstractofflinecopystore.h>
#include <KeepTrying/keeptrying_offlinecopies_export.h>

#include <memory>

namespace KeepTrying {

class OfflineCopyDatabase;

/*!
    Offline copies in one SQLite file (through Qt Sql) in a directory: the store
    RetryingNetworkAccessManager::setOfflineCopyStore() takes in most apps.

    \code
    auto *copies = new KeepTrying::OfflineCopyStore;
    copies->setMaximumSize(100 * 1024 * 1024);
    if (!copies->open(cacheDirectory + QStringLiteral("/offline-copies")))
        qWarning() << "offline copies are not kept";
    manager->setOfflineCopyStore(copies); // the manager's now
    manager->setOfflineCopySettings({ accountKey });
    \endcode

    One row per copy, keyed by account (a SHA-256 of the account key) and URL. The URL key
    has no user info, fragment, default port nor credential query parameters
    (isCredentialName()). Writes are transactions in WAL mode: after a crash a copy is whole
    or absent. A damaged file (truncated, overwritten) is replaced by an empty store; a
    copy whose checksum fails is removed; a file of another program or of a newer format is
    left untouched and the store does not open. Each is a clean miss, logged under
    `keeptrying.offlinecopy`.

    The budget: least recently used unpinned copies are evicted, in the transaction that
    stores, until size() fits maximumSize(). Pinned copies are never evicted: when they
    alone exceed the budget, no unpinned copy is kept (NoRoom). A copy larger than
    maximumSize() is never stored.

    One directory may be shared by several stores, in one process or several: they see
    each other's copies. One instance is used from one thread (Qt Sql's rule), the thread of
    the manager it is given to.
*/
class KEEPTRYING_OFFLINECOPIES_EXPORT OfflineCopyStore : public AbstractOfflineCopyStore
{
    Q_OBJECT
public:
    explicit OfflineCopyStore(QObject *parent = nullptr);
    ~OfflineCopyStore() override;

    /*! The name of the file in the store's directory. */
    static QString fileName();

    /*! Opens the store in \a directory, creating the directory and the file when missing.
        False when it cannot be used: the directory is not writable, or the file belongs to
        another program or to a newer format (left untouched); the store is then closed. A
        damaged file is replaced by an empty store. */
    bool open(const QString &directory);
    /*! Closes the store: lookups miss, stores fail, until open() again. */
    void close();
    bool isOpen() const override;
    /*! The directory open() was given, made absolute; empty before. */
    QString directory() const;

    /*! Bytes the store may keep (bodies, headers and keys, all accounts). Lowering it
        evicts at once. Default 200 MiB. */
    void setMaximumSize(qint64 bytes);
    qint64 maximumSize() const;
    /*! Bytes one copy's body may have; a larger response is not kept. The manager's reply
        holds the body in memory until it finishes: this bounds that too, and keeps one
        large download from evicting every other copy. Default 16 MiB. */
    void setMaximumCopySize(qint64 bytes);
    /*! The smaller of the value set with setMaximumCopySize() and maximumSize(). */
    qint64 maximumCopySize() const override;
    /*! Copies stored, all accounts; -1 when closed. */
    int count() const;

    std::optional<OfflineCopy::Copy> lookup(const QString &accountKey, const QUrl &url) override;
    bool contains(const QString &accountKey, const QUrl &url) const override;
    StoreResult store(const QString &accountKey, const QUrl &url, int status,
                      const QList<RawHeaderPair> &headers, const QByteArray &body, bool pin,
                      OfflineCopy::Overrides overrides) override;
    RefreshResult refresh(const QString &accountKey, const QUrl &url,
                          const QList<RawHeaderPair> &headers,
                          OfflineCopy::Overrides overrides) override;
    bool setPinned(const QString &accountKey, const QUrl &url, bool pinned) override;
    bool remove(const QString &accountKey, const QUrl &url) override;
    void clear(const QString &accountKey) override;
    /*! Removes every copy of every account. */
    void clearAll();
    qint64 size() const override;
    qint64 pinnedSize() const override;

private:
    OfflineCopyDatabase &in(const QString &accountKey) const;

    std::unique_ptr<OfflineCopyDatabase> d;
    qint64 m_maximumCopySize = 16 * 1024 * 1024;
};

} // namespace KeepTrying

#endif // KEEPTRYING_OFFLINECOPYSTORE_H
