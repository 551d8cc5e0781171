// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_SQLITEUTIL_P_H
#define KEEPTRYING_SQLITEUTIL_P_H

class QSqlError;
class QSqlQuery;

namespace KeepTrying::Sqlite {

// Primary result codes (sqlite3.h) the stores tell apart.
constexpr int busy = 5;
constexpr int corrupt = 11;
constexpr int notADatabase = 26;

// The primary result code of \a error (its extended code masked to 8 bits); -1 if none.
int resultCode(const QSqlError &error);

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

} // namespace KeepTrying::Sqlite

#endif // KEEPTRYING_SQLITEUTIL_P_H
