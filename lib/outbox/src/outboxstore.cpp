// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "outboxstore_p.h"

#include "sqliteutil_p.h"

#include <QtCore/QAtomicInteger>
#include <QtCore/QDateTime>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtSql/QSqlQuery>
#include <QtSql/QSqlRecord>

namespace KeepTrying {

Q_LOGGING_CATEGORY(lcOutbox, "keeptrying.outbox", QtWarningMsg)

namespace {

constexpr int schemaVersion = 1;
// Other processes may hold the write lock for a moment (their enqueue or drain).
constexpr int busyTimeoutMs = 5000;

const char columns[] = "id, method, url, headers, body, idempotency_key, resource_key, "
                       "coalescing_key, created_at, attempts, last_error, state, "
                       "next_attempt_at, response_status, response_body, dead_reason, dead_at";

QByteArray headersToJson(const QList<QPair<QByteArray, QByteArray>> &headers)
{
    // Latin-1 maps every byte to one code point, so any header value survives the trip.
    QJsonArray array;
    for (const auto &[name, value] : headers)
        array.append(QJsonArray { QString::fromLatin1(name), QString::fromLatin1(value) });
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QList<QPair<QByteArray, QByteArray>> headersFromJson(const QByteArray &json)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    const QJsonArray array = QJsonDocument::fromJson(json).array();
    for (const QJsonValue &pair : array) {
        const QJsonArray fields = pair.toArray();
        if (fields.size() == 2)
            headers.append(
                { fields.at(0).toString().toLatin1(), fields.at(1).toString().toLatin1() });
    }
    return headers;
}

QDateTime fromMs(qint64 ms)
{
    return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC) : QDateTime();
}

OutboxItem itemFrom(const QSqlQuery &query, qint64 nowMs)
{
    QVariantList row;
    row.reserve(OutboxStore::rowColumns);
    for (int i = 0; i < OutboxStore::rowColumns; ++i)
        row.append(query.value(i));
    return OutboxStore::decodeRow(row, nowMs);
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

OutboxItem OutboxStore::decodeRow(const QVariantList &row, qint64 nowMs)
{
    OutboxItem item;
    item.id = row.value(0).toLongLong();
    item.method = row.value(1).toByteArray();
    item.url = QUrl::fromEncoded(row.value(2).toByteArray(), QUrl::StrictMode);
    item.headers = headersFromJson(row.value(3).toByteArray());
    item.body = row.value(4).toByteArray();
    item.idempotencyKey = row.value(5).toByteArray();
    item.resourceKey = row.value(6).toString();
    item.coalescingKey = row.value(7).toString();
    item.createdAt = fromMs(row.value(8).toLongLong());
    item.attempts = row.value(9).toInt();
    item.lastError = row.value(10).toString();
    const int state = row.value(11).toInt();
    const qint64 next = row.value(12).toLongLong();
    item.nextAttemptAt = fromMs(next);
    if (state == OutboxStore::Sending)
        item.state = OutboxItem::State::Sending;
    else if (state == OutboxStore::Dead)
        item.state = OutboxItem::State::DeadLetter;
    else if (next > nowMs)
        item.state = OutboxItem::State::WaitingToRetry;
    else
        item.state = OutboxItem::State::Queued;
    item.responseStatus = row.value(13).toInt();
    item.responseBody = row.value(14).toByteArray();
    item.deadLetterReason = row.value(15).toString();
    item.deadLetteredAt = fromMs(row.value(16).toLongLong());
    return item;
}

OutboxStore::OutboxStore()
{
    static QAtomicInteger<quint64> counter;
    m_connectionName = QStringLiteral("keeptrying.outbox.%1").arg(++counter);
}

OutboxStore::~OutboxStore()
{
    close();
}

int OutboxStore::peekPendingCount(const QString &path)
{
    if (!QFileInfo::exists(path))
        return 0;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return -1;
    static QAtomicInteger<quint64> counter;
    const QString name = QStringLiteral("keeptrying.outbox.peek.%1").arg(++counter);
    int count = -1;
    QString error;
    // Read-only: a file that is not an outbox is left as it is, for the Outbox to judge.
    QSqlDatabase db =
        Sqlite::open(name, path, busyTimeoutMs, &error, QStringLiteral("QSQLITE_OPEN_READONLY"));
    if (db.isOpen()) {
        QSqlQuery query(db);
        if (query.exec(QStringLiteral("SELECT count(*) FROM items WHERE state < 2")) &&
            query.next())
            count = query.value(0).toInt();
    }
    Sqlite::close(db, name);
    return count;
}

bool OutboxStore::fail(const QSqlError &error, const QString &what)
{
    m_lastErrorCode = error.nativeErrorCode().toInt() & 0xff;
    m_lastError = what + QStringLiteral(": ") +
        (error.databaseText().isEmpty() ? error.text() : error.databaseText());
    qCWarning(lcOutbox).noquote() << m_lastError;
    return false;
}

bool OutboxStore::exec(const QString &sql)
{
    QSqlQuery query(m_db);
    if (!query.exec(sql))
        return fail(query.lastError(), sql);
    return true;
}

bool OutboxStore::begin()
{
    // IMMEDIATE takes the write lock before the first read, so that what a transaction read
    // (a queued item to coalesce) is still so when it writes, whatever other processes do.
    return exec(QStringLiteral("BEGIN IMMEDIATE"));
}

bool OutboxStore::commit()
{
    if (exec(QStringLiteral("COMMIT")))
        return true;
    rollback();
    return false;
}

void OutboxStore::rollback()
{
    QSqlQuery query(m_db);
    query.exec(QStringLiteral("ROLLBACK")); // fails harmlessly when SQLite rolled back itself
}

bool OutboxStore::isOpen() const
{
    return m_db.isOpen();
}

void OutboxStore::dropConnection()
{
    Sqlite::close(m_db, m_connectionName);
}

void OutboxStore::close()
{
    dropConnection();
}

bool OutboxStore::openConnection(const QString &path, bool fullSync, QString *reason, bool *broken)
{
    *broken = false;
    m_db = Sqlite::open(m_connectionName, path, busyTimeoutMs, reason);
    if (!m_db.isOpen())
        return false;
    QSqlQuery query(m_db);
    // Runs \a sql in query; an error that says the file is damaged makes it "broken".
    const auto check = [&](const QString &sql) {
        query.finish();
        if (!query.exec(sql)) {
            *broken = Sqlite::isDamage(query.lastError());
            *reason = sql + QStringLiteral(": ") + query.lastError().databaseText();
            return false;
        }
        return true;
    };

    // Read-only checks first: a file that is not ours is left exactly as it was. The first
    // statement that reads the file finds garbage (SQLITE_NOTADB). They read one snapshot:
    // another process may be making the schema of a new file meanwhile, and a version read
    // before its commit with tables read after would call its outbox foreign.
    if (!check(QStringLiteral("BEGIN")))
        return false;
    if (!check(QStringLiteral("PRAGMA user_version")) || !query.next())
        return false;
    const int version = query.value(0).toInt();
    if (version > schemaVersion) {
        *broken = true;
        *reason = QStringLiteral("schema version %1 is newer than this library's %2")
                      .arg(version)
                      .arg(schemaVersion);
        return false;
    }
    if (version == 0) {
        if (!check(QStringLiteral("SELECT count(*) FROM sqlite_schema")) || !query.next())
            return false;
        if (query.value(0).toInt() != 0) {
            *broken = true;
            *reason = QStringLiteral("the file holds another program's tables");
            return false;
        }
    }
    if (!check(QStringLiteral("PRAGMA quick_check")))
        return false;
    QStringList problems;
    while (query.next()) {
        const QString row = query.value(0).toString();
        if (row != QLatin1String("ok"))
            problems.append(row);
    }
    if (!problems.isEmpty()) {
        *broken = true;
        *reason = QStringLiteral("quick_check: ") + problems.mid(0, 3).join(QStringLiteral("; "));
        return false;
    }
    if (!check(QStringLiteral("COMMIT")))
        return false;
    if (!Sqlite::switchToWal(query, busyTimeoutMs)) {
        *reason = QStringLiteral("PRAGMA journal_mode=WAL: ") + query.lastError().databaseText();
        return false;
    }
    if (query.next() &&
        query.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        qCWarning(lcOutbox) << "WAL is not available here; journal mode"
                            << query.value(0).toString();
    // NORMAL between the commits that acknowledge something to the app; see Durable.
    m_fullSync = fullSync;
    if (!check(QStringLiteral("PRAGMA synchronous=NORMAL")))
        return false;
    if (version == 0) {
        // A new, empty database (checked above): make the schema, unless another process
        // made it since we looked.
        if (!check(QStringLiteral("BEGIN IMMEDIATE")))
            return false;
        if (!check(QStringLiteral("PRAGMA user_version")) || !query.next()) {
            rollback();
            return false;
        }
        const bool madeMeanwhile = query.value(0).toInt() != 0;
        query.finish();
        const QStringList schema = madeMeanwhile
            ? QStringList { QStringLiteral("COMMIT") }
            : QStringList {
                  QStringLiteral("CREATE TABLE items ("
                                 " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                                 " seq INTEGER NOT NULL UNIQUE,"
                                 " method TEXT NOT NULL,"
                                 " url TEXT NOT NULL,"
                                 " headers TEXT NOT NULL,"
                                 " body BLOB NOT NULL,"
                                 " idempotency_key TEXT NOT NULL UNIQUE,"
                                 " resource_key TEXT NOT NULL,"
                                 " coalescing_key TEXT,"
                                 " created_at INTEGER NOT NULL,"
                                 " attempts INTEGER NOT NULL DEFAULT 0,"
                                 " conflicts INTEGER NOT NULL DEFAULT 0,"
                                 " last_error TEXT NOT NULL DEFAULT '',"
                                 " state INTEGER NOT NULL DEFAULT 0,"
                                 " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
                                 " response_status INTEGER NOT NULL DEFAULT 0,"
                                 " response_body BLOB,"
                                 " dead_reason TEXT,"
                                 " dead_at INTEGER)"),
                  QStringLiteral(
                      "CREATE INDEX items_pending ON items(resource_key, seq) WHERE state < 2"),
                  QStringLiteral("CREATE INDEX items_coalescing ON items(coalescing_key)"
                                 " WHERE coalescing_key IS NOT NULL"),
                  QStringLiteral("CREATE INDEX items_created ON items(state, created_at)"),
                  QStringLiteral("PRAGMA user_version=%1").arg(schemaVersion),
                  QStringLiteral("COMMIT"),
              };
        for (const QString &sql : schema) {
            if (!check(sql)) {
                rollback();
                return false;
            }
        }
    }
    // The columns this version reads must all be there.
    if (!check(QStringLiteral("SELECT %1 FROM items LIMIT 0").arg(QLatin1String(columns)))) {
        *broken = true;
        return false;
    }
    return true;
}

OutboxStore::OpenResult OutboxStore::open(const QString &path, bool fullSync)
{
    OpenResult result;
    QString reason;
    bool broken = false;
    if (openConnection(path, fullSync, &reason, &broken)) {
        result.usable = true;
        return result;
    }
    dropConnection();
    if (!broken) {
        result.failure = reason;
        qCWarning(lcOutbox).noquote() << "cannot open the outbox" << path << ":" << reason;
        return result;
    }

    // Keep the file for whoever wants to look at it (or rescue its writes); start afresh.
    const QString aside = Sqlite::setAside(path);
    if (aside.isEmpty()) {
        qCWarning(lcOutbox).noquote() << "the outbox" << path << "is not usable (" << reason
                                      << ") and could not be renamed aside";
        result.failure = reason + QStringLiteral("; and it could not be renamed aside");
        return result;
    }
    qCWarning(lcOutbox).noquote() << "the outbox" << path << "is not usable (" << reason
                                  << "); it is kept as" << aside << "and a fresh one is used";
    result.recoveryReason = reason;
    result.keptAsidePath = aside;
    if (!openConnection(path, fullSync, &reason, &broken)) {
        dropConnection();
        result.failure = reason;
        qCWarning(lcOutbox).noquote() << "cannot open a fresh outbox" << path << ":" << reason;
        return result;
    }
    result.usable = true;
    return result;
}

void OutboxStore::setSynchronousFull(bool full)
{
    m_fullSync = full;
}

OutboxStore::Durable::Durable(OutboxStore &store) : store(store)
{
    if (store.m_fullSync)
        store.exec(QStringLiteral("PRAGMA synchronous=FULL"));
}

OutboxStore::Durable::~Durable()
{
    if (store.m_fullSync)
        store.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
}

bool OutboxStore::setMaxDatabaseBytes(qint64 bytes)
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("PRAGMA page_size")) || !query.next())
        return fail(query.lastError(), QStringLiteral("PRAGMA page_size"));
    const qint64 pageSize = std::max<qint64>(512, query.value(0).toLongLong());
    query.finish();
    // 0xfffffffe is SQLite's own largest bound (and the default).
    const qint64 pages = bytes > 0 ? std::max<qint64>(1, bytes / pageSize) : 0xfffffffeLL;
    return exec(QStringLiteral("PRAGMA max_page_count=%1").arg(pages));
}

OutboxStore::InsertResult OutboxStore::insert(const OutboxItem &item, bool cancelsEarlierChanges)
{
    const Durable durable(*this);
    InsertResult result;
    const auto abandon = [&] {
        rollback();
        result.error = m_lastErrorCode == 13 ? OutboxError::DiskFull : OutboxError::StorageError;
        result.errorString = m_lastError;
        result.superseded.clear();
        return result;
    };
    const auto failWith = [&](const QSqlError &error, const QString &what) {
        fail(error, what);
        return abandon();
    };
    if (!begin())
        return abandon();

    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("SELECT id, method, url, body FROM items WHERE idempotency_key = ?"));
    query.addBindValue(QString::fromLatin1(item.idempotencyKey));
    if (!query.exec())
        return failWith(query.lastError(), QStringLiteral("looking up the Idempotency-Key"));
    if (query.next()) {
        const qint64 id = query.value(0).toLongLong();
        const bool same = query.value(1).toByteArray() == item.method &&
            query.value(2).toByteArray() == item.url.toEncoded() &&
            query.value(3).toByteArray() == item.body;
        query.finish();
        rollback();
        if (!same) {
            result.error = OutboxError::KeyInUse;
            result.errorString = QStringLiteral("the Idempotency-Key belongs to item %1, which "
                                                "is another request")
                                     .arg(id);
            return result;
        }
        result.id = id;
        result.existing = true;
        return result;
    }
    query.finish();

    const auto supersede = [&](const QString &select, const QString &value) {
        QSqlQuery found(m_db);
        found.prepare(select);
        found.addBindValue(value);
        if (!found.exec())
            return fail(found.lastError(), QStringLiteral("finding the items to supersede"));
        while (found.next())
            result.superseded.append(found.value(0).toLongLong());
        return true;
    };
    if (!item.coalescingKey.isEmpty() &&
        !supersede(QStringLiteral("SELECT id FROM items WHERE coalescing_key = ? AND state = 0"),
                   item.coalescingKey))
        return abandon();
    if (cancelsEarlierChanges &&
        !supersede(QStringLiteral("SELECT id FROM items WHERE resource_key = ? AND state = 0"),
                   item.resourceKey))
        return abandon();
    for (const qint64 id : std::as_const(result.superseded)) {
        QSqlQuery removal(m_db);
        removal.prepare(QStringLiteral("DELETE FROM items WHERE id = ?"));
        removal.addBindValue(id);
        if (!removal.exec())
            return failWith(removal.lastError(), QStringLiteral("removing a superseded item"));
    }

    query.prepare(QStringLiteral(
        "INSERT INTO items (seq, method, url, headers, body, idempotency_key, resource_key, "
        "coalescing_key, created_at) VALUES ((SELECT IFNULL(MAX(seq), 0) + 1 FROM items), "
        "?, ?, ?, ?, ?, ?, ?, ?)"));
    query.addBindValue(QString::fromLatin1(item.method));
    query.addBindValue(QString::fromLatin1(item.url.toEncoded()));
    query.addBindValue(QString::fromUtf8(headersToJson(item.headers)));
    query.addBindValue(item.body.isNull() ? QByteArray("") : item.body);
    query.addBindValue(QString::fromLatin1(item.idempotencyKey));
    query.addBindValue(item.resourceKey);
    query.addBindValue(item.coalescingKey.isEmpty() ? QVariant() : QVariant(item.coalescingKey));
    query.addBindValue(item.createdAt.toMSecsSinceEpoch());
    if (!query.exec())
        return failWith(query.lastError(), QStringLiteral("storing the write"));
    const qint64 id = query.lastInsertId().toLongLong();
    if (!commit())
        return abandon();
    m_lastError.clear();
    m_lastErrorCode = 0;
    result.id = id;
    return result;
}

int OutboxStore::resetSending()
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("UPDATE items SET state = 0 WHERE state = 1"))) {
        fail(query.lastError(), QStringLiteral("resetting the sending markers"));
        return -1;
    }
    return query.numRowsAffected();
}

QList<OutboxItem> OutboxStore::dueHeads(qint64 now)
{
    QList<OutboxItem> heads;
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT %1 FROM items i JOIN (SELECT resource_key AS r, MIN(seq) "
                                 "AS s FROM items WHERE state < 2 GROUP BY resource_key) h ON "
                                 "i.resource_key = h.r AND i.seq = h.s WHERE i.state = 0 AND "
                                 "i.next_attempt_at <= ? ORDER BY i.seq")
                      .arg(QString::fromLatin1(columns)
                               .replace(QLatin1String(", "), QLatin1String(", i."))
                               .prepend(QLatin1String("i."))));
    query.addBindValue(now);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("finding the items to send"));
        return heads;
    }
    while (query.next())
        heads.append(itemFrom(query, now));
    return heads;
}

bool OutboxStore::markSending(qint64 id)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE items SET state = 1 WHERE id = ? AND state = 0"));
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("marking an item as being sent"));
    return query.numRowsAffected() == 1;
}

bool OutboxStore::remove(qint64 id)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("DELETE FROM items WHERE id = ?"));
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("removing a delivered item"));
    return query.numRowsAffected() == 1;
}

bool OutboxStore::recordFailure(qint64 id, const QString &error, qint64 nextAttemptAtMs,
                                bool conflict)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE items SET state = 0, attempts = attempts + 1, "
                                 "conflicts = CASE WHEN ? THEN conflicts + 1 ELSE 0 END, "
                                 "last_error = ?, next_attempt_at = ? WHERE id = ?"));
    query.addBindValue(conflict ? 1 : 0);
    query.addBindValue(error);
    query.addBindValue(nextAttemptAtMs);
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("recording a failed replay"));
    return query.numRowsAffected() == 1;
}

bool OutboxStore::defer(qint64 id, qint64 nextAttemptAtMs)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE items SET state = 0, next_attempt_at = ? WHERE id = ?"));
    query.addBindValue(nextAttemptAtMs);
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("deferring an item"));
    return query.numRowsAffected() == 1;
}

int OutboxStore::conflictCount(qint64 id)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT conflicts FROM items WHERE id = ?"));
    query.addBindValue(id);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("reading an item's conflicts"));
        return 0;
    }
    return query.next() ? query.value(0).toInt() : 0;
}

bool OutboxStore::recordDeadLetter(qint64 id, int status, const QByteArray &body,
                                   const QString &reason, const QString &lastError,
                                   bool countAttempt, qint64 now)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE items SET state = 2, attempts = attempts + ?, "
                                 "last_error = ?, response_status = ?, response_body = ?, "
                                 "dead_reason = ?, dead_at = ?, next_attempt_at = 0 WHERE id = ?"));
    query.addBindValue(countAttempt ? 1 : 0);
    query.addBindValue(lastError);
    query.addBindValue(status);
    query.addBindValue(body.isNull() ? QByteArray("") : body);
    query.addBindValue(reason);
    query.addBindValue(now);
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("recording a dead letter"));
    return query.numRowsAffected() == 1;
}

QList<qint64> OutboxStore::expire(qint64 cutoffMs, qint64 now)
{
    QList<qint64> expired;
    if (!begin())
        return expired;
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT id FROM items WHERE state = 0 AND created_at < ?"));
    query.addBindValue(cutoffMs);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("finding expired items"));
        rollback();
        return {};
    }
    while (query.next())
        expired.append(query.value(0).toLongLong());
    query.finish();
    query.prepare(QStringLiteral("UPDATE items SET state = 2, dead_reason = 'expired', "
                                 "response_status = 0, dead_at = ?, next_attempt_at = 0 "
                                 "WHERE state = 0 AND created_at < ?"));
    query.addBindValue(now);
    query.addBindValue(cutoffMs);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("expiring items"));
        rollback();
        return {};
    }
    if (!commit())
        return {};
    return expired;
}

bool OutboxStore::counts(Counts *counts, qint64 now)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral(
        "SELECT (SELECT count(*) FROM items WHERE state < 2), "
        "(SELECT count(*) FROM items WHERE state = 2), "
        "(SELECT MIN(created_at) FROM items WHERE state < 2), "
        "(SELECT MIN(next_attempt_at) FROM items WHERE state = 0 AND next_attempt_at > ?)"));
    query.addBindValue(now);
    if (!query.exec() || !query.next())
        return fail(query.lastError(), QStringLiteral("counting the items"));
    counts->pending = query.value(0).toInt();
    counts->dead = query.value(1).toInt();
    counts->oldestPendingCreatedMs = query.value(2).isNull() ? -1 : query.value(2).toLongLong();
    counts->nextAttemptAtMs = query.value(3).isNull() ? -1 : query.value(3).toLongLong();
    return true;
}

bool OutboxStore::clearRetryTimes()
{
    return exec(QStringLiteral("UPDATE items SET next_attempt_at = 0 WHERE state = 0 AND "
                               "next_attempt_at > 0"));
}

QList<OutboxItem> OutboxStore::items(bool dead)
{
    QList<OutboxItem> result;
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    if (!query.exec(QStringLiteral("SELECT %1 FROM items WHERE %2")
                        .arg(QLatin1String(columns),
                             dead ? QStringLiteral("state = 2 ORDER BY dead_at, seq")
                                  : QStringLiteral("state < 2 ORDER BY seq")))) {
        fail(query.lastError(), QStringLiteral("listing the items"));
        return result;
    }
    const qint64 now = nowMs();
    while (query.next())
        result.append(itemFrom(query, now));
    return result;
}

OutboxItem OutboxStore::item(qint64 id)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT %1 FROM items WHERE id = ?").arg(QLatin1String(columns)));
    query.addBindValue(id);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("reading an item"));
        return {};
    }
    return query.next() ? itemFrom(query, nowMs()) : OutboxItem();
}

int OutboxStore::pendingCount(const QString &resourceKey)
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("SELECT count(*) FROM items WHERE resource_key = ? AND state < 2"));
    query.addBindValue(resourceKey);
    if (!query.exec() || !query.next()) {
        fail(query.lastError(), QStringLiteral("counting a resource's items"));
        return 0;
    }
    return query.value(0).toInt();
}

bool OutboxStore::hasDeadLetters(const QString &resourceKey)
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("SELECT 1 FROM items WHERE resource_key = ? AND state = 2 LIMIT 1"));
    query.addBindValue(resourceKey);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("looking for a resource's dead letters"));
        return false;
    }
    return query.next();
}

OutboxItem OutboxStore::resourceHead(const QString &resourceKey)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT %1 FROM items WHERE resource_key = ? AND state < 2 "
                                 "ORDER BY seq LIMIT 1")
                      .arg(QLatin1String(columns)));
    query.addBindValue(resourceKey);
    if (!query.exec()) {
        fail(query.lastError(), QStringLiteral("reading a resource's first item"));
        return {};
    }
    return query.next() ? itemFrom(query, nowMs()) : OutboxItem();
}

bool OutboxStore::discard(qint64 id)
{
    const Durable durable(*this);
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("DELETE FROM items WHERE id = ? AND state = 2"));
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("discarding a dead letter"));
    return query.numRowsAffected() == 1;
}

bool OutboxStore::cancel(qint64 id)
{
    // state 0 only: markSending() takes an item with the same condition, so of a cancel
    // and a drainer (of any process) exactly one gets it.
    const Durable durable(*this);
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("DELETE FROM items WHERE id = ? AND state = 0"));
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("cancelling an item"));
    return query.numRowsAffected() == 1;
}

bool OutboxStore::requeue(qint64 id)
{
    const Durable durable(*this);
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral(
        "UPDATE items SET state = 0, seq = (SELECT MAX(seq) + 1 FROM items), attempts = 0, "
        "conflicts = 0, next_attempt_at = 0, response_status = 0, response_body = NULL, "
        "dead_reason = NULL, dead_at = NULL, created_at = ? WHERE id = ? AND state = 2"));
    // It starts its life again: an expired item must not expire again at once.
    query.addBindValue(nowMs());
    query.addBindValue(id);
    if (!query.exec())
        return fail(query.lastError(), QStringLiteral("requeueing a dead letter"));
    return query.numRowsAffected() == 1;
}

} // namespace KeepTrying
