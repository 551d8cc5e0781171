// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OFFLINECOPYDATABASE_P_H
#define KEEPTRYING_OFFLINECOPYDATABASE_P_H

#include <KeepTrying/abstractofflinecopystore.h>
#include <KeepTrying/offlinecopy.h>

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtSql/QSqlDatabase>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QSqlError;
QT_END_NAMESPACE

namespace KeepTrying {

/*
    Where offline copies live: one SQLite database (through QtSql) in the store's directory,
    one row per copy, rather than a QNetworkDiskCache subclass.

    - Pinning, LRU and the byte budget are columns (pinned, last_used, size) with an index:
      eviction is one ordered query, run in the same write transaction as the insert, so the
      budget holds after every store even with two processes on the directory. Qt's disk
      cache has no per-copy fields of ours: a pin would rewrite the whole file (updateMetaData
      copies the body), and its expire() walks the directory and orders by file time, which
      reads do not change (FIFO, not LRU).
    - The account is part of the primary key (a SHA-256 of the app's account key), so a
      lookup cannot return another account's copy; clear(account) is one DELETE. With the
      disk cache it would be a cache per subdirectory and a budget summed across them.
    - Writes are transactions (WAL, synchronous=NORMAL): after a crash a copy is whole or
      absent, never half written; readers never wait for a writer.
    - Damage is reported, not guessed: SQLITE_CORRUPT / SQLITE_NOTADB (a truncated or
      overwritten file) drop the file and start empty; a SHA-1 over each copy's headers and
      body catches damage SQLite does not checksum (that copy is removed); application_id and
      user_version name the format, and a file of another program or a newer format is left
      untouched and never read (every lookup misses). Each is a clean miss, never a hang.
    - Lookups are an indexed read of one row; bodies of a few KB to ~100 KB read from SQLite
      about as fast as or faster than from separate files (sqlite.org/fasterthanfs.html).
      A lookup never writes: its LRU touch is kept in memory and written with the next write.
    Costs: QtSql (the outbox needs it too), and a copy's body is read whole into memory
    (copies are API answers and article images, bounded by the budget).

    The key of a copy is its URL without user info, fragment, default port and credential
    query parameters (isCredentialName(): wallabag accepts access_token in the query, and a
    token that rotates must neither be written to disk nor split one URL into many). Request
    headers are not part of it. Vary is not matched: the copy is the last 2xx answer for the
    URL in the account.

    Pinned copies are never evicted. When they alone exceed the budget they all stay, every
    unpinned copy goes, and new unpinned copies are not stored (NoRoom) until the app unpins
    or removes some; size() is then above maximumSize(). A single copy larger than the budget
    is never stored, pinned or not.

    Not thread-safe: use one instance from one thread (QSqlDatabase's rule). Several
    instances, in one process or several, may share a directory.

    The engine of KeepTrying::OfflineCopyStore, which gives it the account of each call; the
    RFC 9111 rules it applies are in httpcacherules_p.h.
*/
class OfflineCopyDatabase final
{
public:
    using RawHeaderPair = OfflineCopy::Copy::RawHeaderPair;
    using Clock = std::function<QDateTime()>;

    using Copy = OfflineCopy::Copy;
    using StoreResult = AbstractOfflineCopyStore::StoreResult;
    using RefreshResult = AbstractOfflineCopyStore::RefreshResult;

    OfflineCopyDatabase();
    ~OfflineCopyDatabase();
    OfflineCopyDatabase(const OfflineCopyDatabase &) = delete;
    OfflineCopyDatabase &operator=(const OfflineCopyDatabase &) = delete;

    // The file in the store's directory.
    static QString fileName();
    // The format this code writes (PRAGMA user_version).
    static int formatVersion();
    // What a copy of \a url is stored under (see above).
    static QString keyFor(const QUrl &url);

    // Opens (creating it and the directory when missing) the store in \a directory. False
    // when it cannot be used: the directory is not writable, or the file belongs to another
    // program or a newer format (left untouched). A damaged file is replaced by an empty
    // store. When closed, lookups miss and stores fail.
    bool open(const QString &directory);
    void close();
    bool isOpen() const;
    QString directory() const;

    // The partition for every later call; empty is a partition of its own.
    void setAccountKey(const QString &accountKey);
    QString accountKey() const;

    // Bytes the store may keep (all accounts). Lowering it evicts at once. Default 200 MiB.
    void setMaximumSize(qint64 bytes);
    qint64 maximumSize() const;
    // Bytes stored (sum of each copy's body, headers and key), all accounts; -1 if closed.
    qint64 size() const;
    // Of which pinned.
    qint64 pinnedSize() const;
    // Copies stored, all accounts; -1 if closed.
    int count() const;

    // Stores the response to a GET of \a url in the current account, replacing its copy. A
    // copy pinned before stays pinned (\a pin only adds a pin). Evicts least recently used
    // unpinned copies until size() fits maximumSize().
    StoreResult store(const QUrl &url, int status, const QList<RawHeaderPair> &headers,
                      const QByteArray &body, bool pin = false,
                      OfflineCopy::Overrides overrides = OfflineCopy::NoOverride);
    // The copy of \a url in the current account, or none (also when damaged: it is removed).
    // Counts as a use for LRU.
    std::optional<Copy> lookup(const QUrl &url);
    bool contains(const QUrl &url) const;
    // A 304 answered the revalidation of \a url: its headers replace the stored ones of the
    // same name (RFC 9111 §3.2, except Content-Length and hop-by-hop fields), storedAt
    // becomes now, the body stays.
    RefreshResult refresh(const QUrl &url, const QList<RawHeaderPair> &headers,
                          OfflineCopy::Overrides overrides = OfflineCopy::NoOverride);
    // Pins or unpins the copy of \a url; false if there is none. Unpinning may evict.
    bool setPinned(const QUrl &url, bool pinned);
    bool remove(const QUrl &url);
    // Removes every copy stored under \a accountKey.
    void clear(const QString &accountKey);
    // Removes every copy of every account.
    void clearAll();

    // The time source for storedAt and ages (tests); default QDateTime::currentDateTimeUtc.
    void setClock(Clock clock);

private:
    struct Statements;
    enum class Opened { Ready, Damaged, Unusable };

    Opened openFile();
    bool replaceDamagedFile();
    void shutDown();
    bool usable();
    void failed(const QSqlError &error, const char *what);
    bool begin();
    bool commit();
    void rollback();
    bool flushTouches();
    bool evict();
    void reclaimSpace();
    qint64 sum(const QString &sql) const;
    bool removeKey(const QString &key);
    QDateTime now() const;

    QString m_directory;
    QString m_connectionName;
    QSqlDatabase m_db;
    std::unique_ptr<Statements> m_statements;
    QString m_accountKey;
    QByteArray m_account; // SHA-256 of m_accountKey
    qint64 m_maximumSize = 200 * 1024 * 1024;
    QList<QPair<QByteArray, QString>> m_touches; // (account, key) looked up since last write
    Clock m_clock;
    bool m_damaged = false; // a query found the file damaged: replaced at the next call
};

} // namespace KeepTrying

#endif // KEEPTRYING_OFFLINECOPYDATABASE_P_H
