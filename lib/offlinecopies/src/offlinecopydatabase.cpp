// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "httpcacherules_p.h"
#include "offlinecopydatabase_p.h"
#include "sqliteutil_p.h"

#include <KeepTrying/redaction.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QDataStream>
#include <QtCore/QDir>
#include <QtCore/QIODevice>
#include <QtCore/QLoggingCategory>
#include <QtCore/QUuid>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

namespace KeepTrying {

namespace {

Q_LOGGING_CATEGORY(lcOfflineCopy, "keeptrying.offlinecopy", QtWarningMsg)

constexpr int currentFormat = 1;
constexpr int busyTimeoutMs = 2000;
constexpr qint64 applicationId = 0x4B544F43; // "KTOC"

using RawHeaderPair = OfflineCopyDatabase::RawHeaderPair;
using namespace HttpCacheRules;

// Qt binds a null QByteArray as SQL NULL; the columns hold empty blobs instead.
QByteArray nonNull(const QByteArray &value)
{
    return value.isNull() ? QByteArray("") : value;
}

QByteArray serializedHeaders(const QList<RawHeaderPair> &headers)
{
    QByteArray blob;
    QDataStream out(&blob, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_0);
    out << headers;
    return blob;
}

bool parseHeaders(const QByteArray &blob, QList<RawHeaderPair> *headers)
{
    QDataStream in(blob);
    in.setVersion(QDataStream::Qt_6_0);
    in >> *headers;
    return in.status() == QDataStream::Ok && in.atEnd();
}

// What the checksum covers: everything a copy hands back.
QByteArray checksumOf(const QString &key, int status, const QByteArray &headers,
                      const QByteArray &body)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(key.toUtf8());
    hash.addData(QByteArray::number(status));
    hash.addData(headers);
    hash.addData(body);
    return hash.result();
}

QByteArray accountHash(const QString &accountKey)
{
    return QCryptographicHash::hash(accountKey.toUtf8(), QCryptographicHash::Sha256);
}

} // namespace

struct OfflineCopyDatabase::Statements
{
    explicit Statements(const QSqlDatabase &db) : lookup(db), contains(db)
    {
        lookup.setForwardOnly(true);
        contains.setForwardOnly(true);
    }
    QSqlQuery lookup;
    QSqlQuery contains;
};

OfflineCopyDatabase::OfflineCopyDatabase()
    : m_account(accountHash(QString())), m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
}

OfflineCopyDatabase::~OfflineCopyDatabase()
{
    close();
}

QString OfflineCopyDatabase::fileName()
{
    return QStringLiteral("offlinecopies.sqlite");
}

int OfflineCopyDatabase::formatVersion()
{
    return currentFormat;
}

QString OfflineCopyDatabase::keyFor(const QUrl &url)
{
    QUrl key =
        url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveFragment | QUrl::NormalizePathSegments);
    const QString scheme = key.scheme();
    if ((scheme == QLatin1String("http") && key.port() == 80) ||
        (scheme == QLatin1String("https") && key.port() == 443))
        key.setPort(-1);
    if (key.hasQuery()) {
        const QString query = key.query(QUrl::FullyEncoded);
        QStringList kept;
        for (const QString &item : query.split(QLatin1Char('&'))) {
            const QString name = item.section(QLatin1Char('='), 0, 0);
            if (!isCredentialName(QUrl::fromPercentEncoding(name.toLatin1())))
                kept.append(item);
        }
        if (kept.isEmpty() && !query.isEmpty())
            key.setQuery(QString());
        else
            key.setQuery(kept.join(QLatin1Char('&')), QUrl::StrictMode);
    }
    return key.toString(QUrl::FullyEncoded);
}

bool OfflineCopyDatabase::open(const QString &directory)
{
    close();
    if (!QDir().mkpath(directory)) {
        qCWarning(lcOfflineCopy) << "cannot create the offline copy directory" << directory;
        return false;
    }
    m_directory = QDir(directory).absolutePath();
    if (openFile() == Opened::Damaged)
        return replaceDamagedFile();
    if (!isOpen()) {
        shutDown();
        return false;
    }
    return true;
}

// The file cannot be read: it is a cache, so it is replaced by an empty store.
bool OfflineCopyDatabase::replaceDamagedFile()
{
    qCWarning(lcOfflineCopy) << "offline copy store damaged, starting empty";
    shutDown();
    m_touches.clear();
    Sqlite::removeFiles(QDir(m_directory).filePath(fileName()));
    if (openFile() != Opened::Ready) {
        shutDown();
        return false;
    }
    return true;
}

OfflineCopyDatabase::Opened OfflineCopyDatabase::openFile()
{
    m_damaged = false;
    m_connectionName = QStringLiteral("keeptrying.offlinecopies.") +
        QUuid::createUuid().toString(QUuid::WithoutBraces);
    // A writer of another instance holds the lock for one copy's transaction (ms); this
    // bounds the wait if something holds it far longer. Readers never wait (WAL).
    QString error;
    m_db = Sqlite::open(m_connectionName, QDir(m_directory).filePath(fileName()), busyTimeoutMs,
                        &error);
    if (!m_db.isOpen()) {
        qCWarning(lcOfflineCopy) << "cannot open the offline copy store:" << error;
        return Opened::Unusable;
    }

    QSqlQuery q(m_db);
    auto scalar = [&q](const QString &sql, qint64 *value) {
        if (!q.exec(sql) || !q.next())
            return false;
        *value = q.value(0).toLongLong();
        q.finish();
        return true;
    };
    auto damagedOrUnusable = [&q]() {
        qCWarning(lcOfflineCopy) << "offline copy store:" << q.lastError().text();
        return Sqlite::isDamage(q.lastError()) ? Opened::Damaged : Opened::Unusable;
    };

    // One snapshot for the checks: another instance may be making the schema of a new file
    // meanwhile, and an id read before its commit with tables read after would look foreign.
    if (!q.exec(QStringLiteral("BEGIN")))
        return damagedOrUnusable();
    qint64 appId = 0;
    qint64 version = 0;
    if (!scalar(QStringLiteral("PRAGMA application_id"), &appId) ||
        !scalar(QStringLiteral("PRAGMA user_version"), &version))
        return damagedOrUnusable();
    if (appId != 0 && appId != applicationId) {
        qCWarning(lcOfflineCopy) << "the offline copy file belongs to another program; not used";
        return Opened::Unusable;
    }
    if (version > currentFormat) {
        qCWarning(lcOfflineCopy) << "offline copies in a newer format" << version
                                 << "are left as they are and not used";
        return Opened::Unusable;
    }
    if (appId == 0 || version < currentFormat) {
        qint64 tables = 0;
        if (!scalar(QStringLiteral("SELECT count(*) FROM sqlite_master"), &tables))
            return damagedOrUnusable();
        if (appId == 0 && tables > 0) {
            qCWarning(lcOfflineCopy) << "the offline copy file belongs to another program; "
                                        "not used";
            return Opened::Unusable;
        }
        if (tables > 0)
            return Opened::Damaged; // an older format of ours: start again
    }
    if (!q.exec(QStringLiteral("COMMIT")))
        return damagedOrUnusable();
    if (appId == 0) {
        // auto_vacuum must be chosen before the first table; WAL outside a transaction.
        if (!q.exec(QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL")))
            return damagedOrUnusable();
    }
    if (!Sqlite::switchToWal(q, busyTimeoutMs) ||
        !q.exec(QStringLiteral("PRAGMA synchronous = NORMAL")))
        return damagedOrUnusable();
    q.finish();

    if (appId == 0) {
        // Another instance may be creating it at the same moment: decide under the lock.
        if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return damagedOrUnusable();
        if (!scalar(QStringLiteral("PRAGMA user_version"), &version))
            return damagedOrUnusable();
        const QStringList schema = {
            QStringLiteral("CREATE TABLE copies ("
                           " account BLOB NOT NULL,"
                           " key TEXT NOT NULL,"
                           " status INTEGER NOT NULL,"
                           " headers BLOB NOT NULL,"
                           " body BLOB NOT NULL,"
                           " checksum BLOB NOT NULL,"
                           " stored_at INTEGER NOT NULL,"
                           " initial_age INTEGER NOT NULL,"
                           " etag BLOB NOT NULL,"
                           " last_modified BLOB NOT NULL,"
                           " flags INTEGER NOT NULL,"
                           " pinned INTEGER NOT NULL,"
                           " size INTEGER NOT NULL,"
                           " last_used INTEGER NOT NULL,"
                           " UNIQUE (account, key))"),
            // The use counter's MAX, and a covering index for the sums and the eviction
            // order, so neither reads the rows (each spans pages of body).
            QStringLiteral("CREATE INDEX copies_last_used ON copies (last_used)"),
            QStringLiteral("CREATE INDEX copies_eviction ON copies (pinned, last_used, size)"),
            QStringLiteral("PRAGMA application_id = %1").arg(applicationId),
            QStringLiteral("PRAGMA user_version = %1").arg(currentFormat),
        };
        if (version == 0) {
            for (const QString &sql : schema) {
                if (!q.exec(sql)) {
                    const Opened result = damagedOrUnusable();
                    m_db.rollback();
                    return result;
                }
            }
        }
        if (!m_db.commit())
            return Opened::Unusable;
    }

    m_statements = std::make_unique<Statements>(m_db);
    if (!m_statements->lookup.prepare(QStringLiteral(
            "SELECT status, headers, body, checksum, stored_at, initial_age, etag,"
            " last_modified, flags, pinned FROM copies WHERE account = ? AND key = ?")) ||
        !m_statements->contains.prepare(
            QStringLiteral("SELECT 1 FROM copies WHERE account = ? AND key = ?"))) {
        const bool damaged = Sqlite::isDamage(m_statements->lookup.lastError());
        qCWarning(lcOfflineCopy) << "offline copy store:" << m_statements->lookup.lastError().text()
                                 << m_statements->contains.lastError().text();
        m_statements.reset();
        return damaged ? Opened::Damaged : Opened::Unusable;
    }
    return Opened::Ready;
}

void OfflineCopyDatabase::close()
{
    if (isOpen() && !m_damaged && !m_touches.isEmpty() && begin())
        commit();
    shutDown();
    m_touches.clear();
}

void OfflineCopyDatabase::shutDown()
{
    m_statements.reset();
    Sqlite::close(m_db, m_connectionName);
    m_connectionName.clear();
}

bool OfflineCopyDatabase::isOpen() const
{
    return m_statements != nullptr;
}

QString OfflineCopyDatabase::directory() const
{
    return m_directory;
}

// Called first by every operation: a damaged file found by an earlier query is replaced
// now, when no query of that operation is alive any more.
bool OfflineCopyDatabase::usable()
{
    if (m_damaged && isOpen())
        replaceDamagedFile();
    return isOpen();
}

void OfflineCopyDatabase::failed(const QSqlError &error, const char *what)
{
    qCWarning(lcOfflineCopy) << "offline copy store:" << what << error.text();
    if (Sqlite::isDamage(error))
        m_damaged = true;
}

void OfflineCopyDatabase::setAccountKey(const QString &accountKey)
{
    m_accountKey = accountKey;
    m_account = accountHash(accountKey);
}

QString OfflineCopyDatabase::accountKey() const
{
    return m_accountKey;
}

void OfflineCopyDatabase::setMaximumSize(qint64 bytes)
{
    m_maximumSize = qMax<qint64>(0, bytes);
    if (usable() && begin()) {
        if (evict())
            commit();
        else
            rollback();
        reclaimSpace();
    }
}

qint64 OfflineCopyDatabase::maximumSize() const
{
    return m_maximumSize;
}

qint64 OfflineCopyDatabase::sum(const QString &sql) const
{
    if (!isOpen())
        return -1;
    QSqlQuery q(m_db);
    if (!q.exec(sql) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

qint64 OfflineCopyDatabase::size() const
{
    return sum(QStringLiteral("SELECT COALESCE(SUM(size), 0) FROM copies"));
}

qint64 OfflineCopyDatabase::pinnedSize() const
{
    return sum(QStringLiteral("SELECT COALESCE(SUM(size), 0) FROM copies WHERE pinned = 1"));
}

int OfflineCopyDatabase::count() const
{
    return int(sum(QStringLiteral("SELECT count(*) FROM copies")));
}

bool OfflineCopyDatabase::begin()
{
    {
        QSqlQuery q(m_db);
        if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
            failed(q.lastError(), "begin");
            return false;
        }
    }
    if (!flushTouches()) {
        rollback();
        return false;
    }
    return true;
}

bool OfflineCopyDatabase::commit()
{
    if (m_db.commit())
        return true;
    failed(m_db.lastError(), "commit");
    rollback();
    return false;
}

void OfflineCopyDatabase::rollback()
{
    m_db.rollback();
}

// The lookups since the last write become uses, in the order they happened: each gets the
// next number of the store-wide use counter, shared by every instance on the file.
bool OfflineCopyDatabase::flushTouches()
{
    if (m_touches.isEmpty())
        return true;
    QSqlQuery q(m_db);
    if (!q.prepare(
            QStringLiteral("UPDATE copies SET last_used = (SELECT COALESCE(MAX(last_used), 0) + 1"
                           " FROM copies) WHERE account = ? AND key = ?"))) {
        failed(q.lastError(), "touch");
        return false;
    }
    for (const auto &[account, key] : std::as_const(m_touches)) {
        q.bindValue(0, account);
        q.bindValue(1, key);
        if (!q.exec()) {
            failed(q.lastError(), "touch");
            return false;
        }
    }
    m_touches.clear();
    return true;
}

// Inside a write transaction: removes least recently used unpinned copies until the store
// fits the budget, or no unpinned copy is left.
bool OfflineCopyDatabase::evict()
{
    qint64 total = sum(QStringLiteral("SELECT COALESCE(SUM(size), 0) FROM copies"));
    if (total < 0)
        return false;
    if (total <= m_maximumSize)
        return true;
    QList<qint64> victims;
    {
        QSqlQuery q(m_db);
        q.setForwardOnly(true);
        if (!q.exec(QStringLiteral(
                "SELECT rowid, size FROM copies WHERE pinned = 0 ORDER BY last_used"))) {
            failed(q.lastError(), "evict");
            return false;
        }
        while (total > m_maximumSize && q.next()) {
            victims.append(q.value(0).toLongLong());
            total -= q.value(1).toLongLong();
        }
    }
    QSqlQuery remove(m_db);
    remove.prepare(QStringLiteral("DELETE FROM copies WHERE rowid = ?"));
    for (const qint64 rowid : std::as_const(victims)) {
        remove.bindValue(0, rowid);
        if (!remove.exec()) {
            failed(remove.lastError(), "evict");
            return false;
        }
    }
    if (!victims.isEmpty())
        qCDebug(lcOfflineCopy) << "evicted" << victims.size() << "offline copies";
    return true;
}

// Gives freed pages back to the file system once they are worth it (a tenth of the budget,
// at least 1 MiB); until then the next copies reuse them.
void OfflineCopyDatabase::reclaimSpace()
{
    if (!isOpen())
        return;
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA freelist_count")) || !q.next())
        return;
    const qint64 freePages = q.value(0).toLongLong();
    if (!q.exec(QStringLiteral("PRAGMA page_size")) || !q.next())
        return;
    const qint64 pageSize = q.value(0).toLongLong();
    q.finish();
    if (freePages * pageSize > qMax<qint64>(1024 * 1024, m_maximumSize / 10))
        q.exec(QStringLiteral("PRAGMA incremental_vacuum"));
}

QDateTime OfflineCopyDatabase::now() const
{
    return m_clock().toUTC();
}

void OfflineCopyDatabase::setClock(Clock clock)
{
    m_clock = clock ? std::move(clock) : Clock([] { return QDateTime::currentDateTimeUtc(); });
}

bool OfflineCopyDatabase::removeKey(const QString &key)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM copies WHERE account = ? AND key = ?"));
    q.addBindValue(m_account);
    q.addBindValue(key);
    if (!q.exec()) {
        failed(q.lastError(), "remove");
        return false;
    }
    return q.numRowsAffected() > 0;
}

OfflineCopyDatabase::StoreResult OfflineCopyDatabase::store(const QUrl &url, int status,
                                                            const QList<RawHeaderPair> &headers,
                                                            const QByteArray &body, bool pin,
                                                            OfflineCopy::Overrides overrides)
{
    if (status < 200 || status > 299 || status == 206)
        return StoreResult::NotStorable;
    if (!usable())
        return StoreResult::Failed;

    const QString key = keyFor(url);
    const QList<RawHeaderPair> kept = storableHeaders(headers);
    const int flags = flagsOf(kept);
    if ((flags & NoStoreFlag) && !overrides.testFlag(OfflineCopy::StoreDespiteNoStore)) {
        // RFC 9111 §5.2.2.5: not stored. The older copy is not what the server serves now.
        if (begin()) {
            if (removeKey(key))
                qCDebug(lcOfflineCopy) << "no-store: removed the older offline copy";
            commit();
        }
        return StoreResult::NoStore;
    }

    const QByteArray headerBlob = serializedHeaders(kept);
    const qint64 copySize = body.size() + headerBlob.size() + key.toUtf8().size();
    if (copySize > m_maximumSize)
        return StoreResult::TooLarge;

    if (!begin())
        return StoreResult::Failed;
    if (!pin) {
        // An unpinned copy only fits beside the pinned ones (its own older pin counts).
        QSqlQuery q(m_db);
        q.prepare(
            QStringLiteral("SELECT COALESCE(SUM(size), 0),"
                           " COALESCE(MAX(CASE WHEN account = ? AND key = ? THEN 1 ELSE 0 END), 0)"
                           " FROM copies WHERE pinned = 1"));
        q.addBindValue(m_account);
        q.addBindValue(key);
        if (!q.exec() || !q.next()) {
            failed(q.lastError(), "store");
            q.finish();
            rollback();
            return StoreResult::Failed;
        }
        const bool alreadyPinned = q.value(1).toInt() != 0;
        const qint64 pinnedOthers = q.value(0).toLongLong();
        q.finish();
        if (!alreadyPinned && pinnedOthers + copySize > m_maximumSize) {
            rollback();
            return StoreResult::NoRoom;
        }
    }

    const QDateTime receivedAt = now();
    {
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral(
            "INSERT INTO copies (account, key, status, headers, body, checksum, stored_at,"
            " initial_age, etag, last_modified, flags, pinned, size, last_used)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " (SELECT COALESCE(MAX(last_used), 0) + 1 FROM copies))"
            " ON CONFLICT (account, key) DO UPDATE SET status = excluded.status,"
            " headers = excluded.headers, body = excluded.body,"
            " checksum = excluded.checksum, stored_at = excluded.stored_at,"
            " initial_age = excluded.initial_age, etag = excluded.etag,"
            " last_modified = excluded.last_modified, flags = excluded.flags,"
            " pinned = MAX(pinned, excluded.pinned), size = excluded.size,"
            " last_used = excluded.last_used"));
        q.addBindValue(m_account);
        q.addBindValue(key);
        q.addBindValue(status);
        q.addBindValue(headerBlob);
        q.addBindValue(nonNull(body));
        q.addBindValue(checksumOf(key, status, headerBlob, body));
        q.addBindValue(receivedAt.toMSecsSinceEpoch());
        q.addBindValue(initialAge(kept, receivedAt));
        q.addBindValue(nonNull(firstValue(kept, "etag")));
        q.addBindValue(nonNull(firstValue(kept, "last-modified")));
        q.addBindValue(flags);
        q.addBindValue(pin ? 1 : 0);
        q.addBindValue(copySize);
        if (!q.exec()) {
            failed(q.lastError(), "store");
            rollback();
            return StoreResult::Failed;
        }
    }
    if (!evict()) {
        rollback();
        return StoreResult::Failed;
    }
    if (!commit())
        return StoreResult::Failed;
    reclaimSpace();
    return StoreResult::Stored;
}

std::optional<OfflineCopyDatabase::Copy> OfflineCopyDatabase::lookup(const QUrl &url)
{
    if (!usable())
        return std::nullopt;
    const QString key = keyFor(url);
    QSqlQuery &q = m_statements->lookup;
    q.bindValue(0, m_account);
    q.bindValue(1, key);
    if (!q.exec()) {
        failed(q.lastError(), "lookup");
        return std::nullopt;
    }
    if (!q.next()) {
        if (q.lastError().isValid())
            failed(q.lastError(), "lookup");
        q.finish();
        return std::nullopt;
    }
    Copy copy;
    copy.url = QUrl(key, QUrl::StrictMode);
    copy.status = q.value(0).toInt();
    const QByteArray headerBlob = q.value(1).toByteArray();
    copy.body = q.value(2).toByteArray();
    const QByteArray checksum = q.value(3).toByteArray();
    copy.storedAt = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
    copy.initialAgeSeconds = q.value(5).toLongLong();
    copy.etag = q.value(6).toByteArray();
    copy.lastModified = q.value(7).toByteArray();
    const int flags = q.value(8).toInt();
    copy.pinned = q.value(9).toInt() != 0;
    q.finish();

    // Verified before it is parsed: a damaged length must not make the stream allocate.
    if (checksum != checksumOf(key, copy.status, headerBlob, copy.body) ||
        !parseHeaders(headerBlob, &copy.headers)) {
        qCWarning(lcOfflineCopy) << "a damaged offline copy was removed";
        if (begin()) {
            removeKey(key);
            commit();
        }
        return std::nullopt;
    }
    copy.mustRevalidate = flags & MustRevalidateFlag;
    copy.noCache = flags & NoCacheFlag;
    copy.noStore = flags & NoStoreFlag;
    m_touches.append({ m_account, key });
    return copy;
}

bool OfflineCopyDatabase::contains(const QUrl &url) const
{
    if (!isOpen() || m_damaged)
        return false;
    QSqlQuery &q = m_statements->contains;
    q.bindValue(0, m_account);
    q.bindValue(1, keyFor(url));
    const bool found = q.exec() && q.next();
    q.finish();
    return found;
}

OfflineCopyDatabase::RefreshResult OfflineCopyDatabase::refresh(const QUrl &url,
                                                                const QList<RawHeaderPair> &headers,
                                                                OfflineCopy::Overrides overrides)
{
    std::optional<Copy> copy = lookup(url);
    if (!copy)
        return isOpen() ? RefreshResult::Missing : RefreshResult::Failed;

    const QList<RawHeaderPair> update = storableHeaders(headers);
    const QByteArray newTag = firstValue(update, "etag");
    if (!newTag.isEmpty() && !copy->etag.isEmpty() && !sameEntityTag(newTag, copy->etag))
        return RefreshResult::ValidatorMismatch; // RFC 9111 §4.3.4: select by validator

    const QList<RawHeaderPair> merged = mergeNotModified(copy->headers, update);

    const QString key = keyFor(url);
    const int flags = flagsOf(merged);
    if (!begin())
        return RefreshResult::Failed;
    if ((flags & NoStoreFlag) && !overrides.testFlag(OfflineCopy::StoreDespiteNoStore)) {
        removeKey(key);
        commit();
        return RefreshResult::Removed;
    }
    const QByteArray headerBlob = serializedHeaders(merged);
    const QDateTime receivedAt = now();
    {
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral(
            "UPDATE copies SET headers = ?, checksum = ?, stored_at = ?, initial_age = ?,"
            " etag = ?, last_modified = ?, flags = ?, size = ?,"
            " last_used = (SELECT COALESCE(MAX(last_used), 0) + 1 FROM copies)"
            " WHERE account = ? AND key = ?"));
        q.addBindValue(headerBlob);
        q.addBindValue(checksumOf(key, copy->status, headerBlob, copy->body));
        q.addBindValue(receivedAt.toMSecsSinceEpoch());
        q.addBindValue(initialAge(merged, receivedAt));
        q.addBindValue(nonNull(firstValue(merged, "etag")));
        q.addBindValue(nonNull(firstValue(merged, "last-modified")));
        q.addBindValue(flags);
        q.addBindValue(copy->body.size() + headerBlob.size() + key.toUtf8().size());
        q.addBindValue(m_account);
        q.addBindValue(key);
        if (!q.exec() || q.numRowsAffected() != 1) {
            failed(q.lastError(), "refresh");
            rollback();
            return RefreshResult::Failed;
        }
    }
    if (!evict()) {
        rollback();
        return RefreshResult::Failed;
    }
    return commit() ? RefreshResult::Refreshed : RefreshResult::Failed;
}

bool OfflineCopyDatabase::setPinned(const QUrl &url, bool pinned)
{
    if (!usable() || !begin())
        return false;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE copies SET pinned = ? WHERE account = ? AND key = ?"));
    q.addBindValue(pinned ? 1 : 0);
    q.addBindValue(m_account);
    q.addBindValue(keyFor(url));
    if (!q.exec()) {
        failed(q.lastError(), "pin");
        rollback();
        return false;
    }
    const bool found = q.numRowsAffected() > 0;
    if (!pinned && found && !evict()) {
        rollback();
        return false;
    }
    return commit() && found;
}

bool OfflineCopyDatabase::remove(const QUrl &url)
{
    if (!usable() || !begin())
        return false;
    const bool removed = removeKey(keyFor(url));
    if (!commit())
        return false;
    reclaimSpace();
    return removed;
}

void OfflineCopyDatabase::clear(const QString &accountKey)
{
    if (!usable() || !begin())
        return;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM copies WHERE account = ?"));
    q.addBindValue(accountHash(accountKey));
    if (!q.exec()) {
        failed(q.lastError(), "clear");
        rollback();
        return;
    }
    if (commit())
        reclaimSpace();
}

void OfflineCopyDatabase::clearAll()
{
    if (!usable() || !begin())
        return;
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("DELETE FROM copies"))) {
        failed(q.lastError(), "clear");
        rollback();
        return;
    }
    if (commit())
        reclaimSpace();
}

} // namespace KeepTrying
