// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_SQLITEUTIL_P_H
#define KEEPTRYING_SQLITEUTIL_P_H

#include <QtCore/QString>
#include <QtSql/QSqlDatabase>

class QSqlError;
class QSqlQuery;

/*
    What the SQLite files of KeepTrying (the offline-copy store, the outbox) do alike: open a
    connection, tell damage from other errors, switch to WAL, and remove or set aside a file
    that is damaged or not theirs, with its -wal and -shm companions. Each store keeps its
    own schema, format checks and policy (a cache starts empty; the outbox keeps the file).
*/
namespace KeepTrying::Sqlite {

// Primary result codes (sqlite3.h) the stores tell apart.
constexpr int busy = 5;
constexpr int corrupt = 11;
constexpr int notADatabase = 26;

// The primary result code of \a error (its extended code masked to 8 bits); -1 if none.
int resultCode(const QSqlError &error);
// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or not a database.
bool isDamage(const QSqlError &error);

/*
    Opens a QSQLITE connection named \a connectionName (unique in the process) on \a path,
    waiting up to \a busyTimeoutMs for another connection's write lock; \a options are more
    QSQLITE connect options (e.g. QSQLITE_OPEN_READONLY). On failure the connection is
    removed again and \a error says why (the driver missing included).
*/
QSqlDatabase open(const QString &connectionName, const QString &path, int busyTimeoutMs,
                  QString *error, const QString &options = QString());
// Closes \a db and removes its connection; \a db is invalid afterwards.
void close(QSqlDatabase &db, const QString &connectionName);

/*
    Runs "PRAGMA journal_mode=WAL" in \a query. While another connection turns the same new
    file to WAL, or recovers a WAL left by a crashed process, SQLite answers SQLITE_BUSY at
    once without asking the busy handler (SQLITE_BUSY_RECOVERY is not SQLITE_BUSY to it), so
    two processes that open a new store together would see one of them fail. This waits that
    moment out: it tries again every few milliseconds for up to \a timeoutMs milliseconds.
    Returns false with the error in \a query when it still fails, or at once for any other
    error. The caller reads the resulting mode from \a query.
*/
bool switchToWal(QSqlQuery &query, int timeoutMs);

// Removes the database file \a path and its -wal and -shm files (a cache that starts
// empty). No connection may be open on it.
void removeFiles(const QString &path);
// Renames \a path, and its -wal and -shm files, to "<path>.broken-<UTC time>" so that
// someone may look at it, and returns that name; empty when it could not be renamed. A
// companion that cannot be renamed is removed. No connection may be open on it.
QString setAside(const QString &path);

} // namespace KeepTrying::Sqlite

#endif // KEEPTRYING_SQLITEUTIL_P_H
