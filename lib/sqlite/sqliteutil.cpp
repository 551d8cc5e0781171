// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "sqliteutil_p.h"

#include <QtCore/QDateTime>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QFile>
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

bool isDamage(const QSqlError &error)
{
    const int code = resultCode(error);
    return code == corrupt || code == notADatabase;
}

QSqlDatabase open(const QString &connectionName, const QString &path, int busyTimeoutMs,
                  QString *error, const QString &options)
{
    const QString driver = QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        *error = QStringLiteral("the QSQLITE driver of QtSql is not installed");
        return QSqlDatabase();
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, connectionName);
    db.setDatabaseName(path);
    QString connectOptions = QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs);
    if (!options.isEmpty())
        connectOptions += QLatin1Char(';') + options;
    db.setConnectOptions(connectOptions);
    if (!db.open()) {
        *error = db.lastError().text();
        close(db, connectionName);
    }
    return db;
}

void close(QSqlDatabase &db, const QString &connectionName)
{
    if (db.isValid())
        db.close();
    db = QSqlDatabase();
    if (!connectionName.isEmpty() && QSqlDatabase::contains(connectionName))
        QSqlDatabase::removeDatabase(connectionName);
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

void removeFiles(const QString &path)
{
    for (const char *suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
}

QString setAside(const QString &path)
{
    const QString aside = path + QStringLiteral(".broken-") +
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'hhmmsszzz'Z'"));
    if (!QFile::rename(path, aside))
        return QString();
    for (const char *suffix : { "-wal", "-shm" }) {
        const QString companion = path + QLatin1String(suffix);
        if (QFile::exists(companion) && !QFile::rename(companion, aside + QLatin1String(suffix)))
            QFile::remove(companion);
    }
    return aside;
}

} // namespace KeepTrying::Sqlite
