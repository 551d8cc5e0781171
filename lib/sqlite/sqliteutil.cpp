// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "sqliteutil_p.h"

#include <QtCore/QDeadlineTimer>
#include <QtCore/QThread>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

namespace KeepTrying::Sqlite {

int resultCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? code & 0xff : -1;
}

bool switchToWal(QSqlQuery &query, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        query.finish();
        if (query.exec(QStringLiteral("PRAGMA journal_mode=WAL")))
            return true;
        if (resultCode(query.lastError()) != busy || deadline.hasExpired())
            return false;
        // The other connection needs well under a millisecond for this step.
        QThread::msleep(2);
    }
}

} // namespace KeepTrying::Sqlite
