// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "localstore.h"

#include "searchfold.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QStandardPaths>
#include <QtCore/QUuid>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

#include <algorithm>

Q_LOGGING_CATEGORY(lcStore, "keeptrying.reader.store", QtWarningMsg)

namespace {

const char Schema[] = R"(
CREATE TABLE IF NOT EXISTS articles (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT '',
    domain TEXT NOT NULL DEFAULT '',
    reading_time INTEGER NOT NULL DEFAULT 0,
    preview TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL DEFAULT 0,
    starred INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    tags TEXT NOT NULL DEFAULT '[]',
    server_starred INTEGER NOT NULL DEFAULT 0,
    server_archived INTEGER NOT NULL DEFAULT 0,
    server_tags TEXT NOT NULL DEFAULT '{}',
    content TEXT,
    has_content INTEGER NOT NULL DEFAULT 0,
    pending TEXT NOT NULL DEFAULT '',
    sync_state INTEGER NOT NULL DEFAULT 0,
    sync_error TEXT NOT NULL DEFAULT '',
    deleted INTEGER NOT NULL DEFAULT 0,
    scroll INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS articles_created ON articles(created_at DESC);
CREATE TABLE IF NOT EXISTS article_tags (
    article_id INTEGER NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (article_id, label)
);
CREATE INDEX IF NOT EXISTS article_tags_label ON article_tags(label);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
)";

const char SummaryColumns[] =
    "id, title, url, domain, reading_time, preview, created_at, updated_at, starred, "
    "archived, tags, has_content, sync_state, sync_error";

QStringList tagsFromJson(const QString &json)
{
    QStringList tags;
    const QJsonArray array = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &value : array)
        tags << value.toString();
    return tags;
}

QString tagsToJson(const QStringList &tags)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(tags)).toJson(QJsonDocument::Compact));
}

QHash<QString, int> tagIdsFromJson(const QString &json)
{
    QHash<QString, int> ids;
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    for (auto it = object.begin(); it != object.end(); ++it)
        ids.insert(it.key(), it.value().toInt());
    return ids;
}

QString tagIdsToJson(const QHash<QString, int> &ids)
{
    QJsonObject object;
    for (auto it = ids.begin(); it != ids.end(); ++it)
        object.insert(it.key(), it.value());
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

Article summaryFrom(const QSqlQuery &q, const QUrl &server)
{
    Article a;
    a.id = q.value(0).toLongLong();
    a.title = q.value(1).toString();
    a.url = QUrl(q.value(2).toString());
    a.domain = q.value(3).toString();
    a.readingTimeMinutes = q.value(4).toInt();
    // No picture stays none: an empty path resolved against the server is the server's root,
    // which the list would then ask for as the preview (a GET of / answered 404).
    if (const QString preview = q.value(5).toString(); !preview.isEmpty())
        a.previewPicture = server.resolved(QUrl(preview));
    if (const qint64 ms = q.value(6).toLongLong())
        a.createdAt = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    if (const qint64 ms = q.value(7).toLongLong())
        a.updatedAt = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    a.starred = q.value(8).toBool();
    a.archived = q.value(9).toBool();
    a.tags = tagsFromJson(q.value(10).toString());
    a.hasContent = q.value(11).toBool();
    a.syncState = SyncState(q.value(12).toInt());
    a.syncError = q.value(13).toString();
    return a;
}

// A LIKE pattern that matches \a text literally anywhere.
QString likePattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char('%'), QLatin1String("\\%"));
    escaped.replace(QLatin1Char('_'), QLatin1String("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

LocalStore::LocalStore(QObject *parent)
    : QObject(parent), m_connection(QStringLiteral("reader-store-") +
                                    QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

LocalStore::~LocalStore()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen())
            db.close();
    }
    if (QSqlDatabase::contains(m_connection))
        QSqlDatabase::removeDatabase(m_connection);
}

bool LocalStore::open(const QString &path, QString *errorMessage)
{
    QSqlDatabase db = QSqlDatabase::contains(m_connection)
        ? QSqlDatabase::database(m_connection, false)
        : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    // Another account's library: the one open is closed first, and whoever shows it is told
    // to read again (reset()) once the new one is set up.
    const bool reopening = db.isOpen();
    if (reopening)
        db.close();
    db.setDatabaseName(path);
    if (!db.open()) {
        if (errorMessage)
            *errorMessage = tr("The reader's database %1 could not be opened: %2")
                                .arg(path, db.lastError().text());
        return false;
    }
    m_path = path;
    m_foldedSearch = SearchFold::install(db);
    exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    const QStringList statements =
        QString::fromLatin1(Schema).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    for (const QString &statement : statements) {
        if (statement.trimmed().isEmpty())
            continue;
        if (!exec(statement)) {
            if (errorMessage)
                *errorMessage = tr("The reader's database %1 could not be set up: %2")
                                    .arg(path, db.lastError().text());
            return false;
        }
    }
    if (reopening)
        Q_EMIT reset();
    return true;
}

bool LocalStore::isOpen() const
{
    return QSqlDatabase::database(m_connection, false).isOpen();
}

bool LocalStore::exec(const QString &sql, const QVariantList &values) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(sql);
    for (const QVariant &value : values) {
        // A null QString binds as SQL NULL; the text columns want '' instead.
        if (value.typeId() == QMetaType::QString && value.toString().isNull())
            q.addBindValue(QStringLiteral(""));
        else
            q.addBindValue(value);
    }
    if (!q.exec()) {
        qCWarning(lcStore) << "query failed:" << q.lastError().text();
        return false;
    }
    return true;
}

QList<Article> LocalStore::articles(const Filter &filter) const
{
    return readArticles(filter, nullptr);
}

QList<Article> LocalStore::articles(const Filter &filter, const QList<qint64> &ids) const
{
    // In slices: SQLite bounds the number of bound values in one statement.
    constexpr qsizetype Slice = 500;
    QList<Article> result;
    for (qsizetype i = 0; i < ids.size(); i += Slice) {
        const QList<qint64> slice = ids.mid(i, Slice);
        result += readArticles(filter, &slice);
    }
    if (ids.size() > Slice) {
        std::sort(result.begin(), result.end(), &LocalStore::listsBefore);
    }
    return result;
}

QList<Article> LocalStore::readArticles(const Filter &filter, const QList<qint64> *ids) const
{
    QString sql = QStringLiteral("SELECT ") + QLatin1String(SummaryColumns) +
        QStringLiteral(" FROM articles WHERE deleted = 0");
    QVariantList values;
    switch (filter.view) {
    case View::Unread:
        sql += QStringLiteral(" AND archived = 0");
        break;
    case View::Starred:
        sql += QStringLiteral(" AND starred = 1");
        break;
    case View::Archive:
        sql += QStringLiteral(" AND archived = 1");
        break;
    case View::All:
        break;
    }
    if (!filter.tag.isEmpty()) {
        sql += QStringLiteral(" AND id IN (SELECT article_id FROM article_tags WHERE label = ?)");
        values << filter.tag;
    }
    const QStringList words =
        filter.search.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        // Accents and case ignored on both sides ("zuge" finds "Züge"), where SQLite lets us.
        if (m_foldedSearch) {
            sql += QStringLiteral(" AND (kt_contains(title, ?) OR kt_contains(domain, ?) OR "
                                  "kt_contains(content, ?))");
            const QString folded = SearchFold::fold(word);
            values << folded << folded << folded;
            continue;
        }
        sql += QStringLiteral(" AND (title LIKE ? ESCAPE '\\' OR domain LIKE ? ESCAPE '\\' OR "
                              "content LIKE ? ESCAPE '\\')");
        const QString pattern = likePattern(word);
        values << pattern << pattern << pattern;
    }
    if (ids) {
        if (ids->isEmpty())
            return {};
        QStringList marks;
        for (qint64 id : *ids) {
            marks << QStringLiteral("?");
            values << id;
        }
        sql += QStringLiteral(" AND id IN (") + marks.join(QLatin1Char(',')) + QLatin1Char(')');
    }
    // listsBefore() is the same order, for lists that place one article themselves.
    sql += QStringLiteral(" ORDER BY created_at DESC, id DESC");

    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &value : std::as_const(values))
        q.addBindValue(value);
    QList<Article> result;
    if (!q.exec()) {
        qCWarning(lcStore) << "query failed:" << q.lastError().text();
        return result;
    }
    while (q.next())
        result << summaryFrom(q, m_server);
    return result;
}

bool LocalStore::listsBefore(const Article &a, const Article &b)
{
    // created_at 0 reads as no date (summaryFrom): it sorts as 0.
    const qint64 createdA = a.createdAt.isValid() ? a.createdAt.toMSecsSinceEpoch() : 0;
    const qint64 createdB = b.createdAt.isValid() ? b.createdAt.toMSecsSinceEpoch() : 0;
    return createdA != createdB ? createdA > createdB : a.id > b.id;
}

Article LocalStore::article(qint64 id) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT ") + QLatin1String(SummaryColumns) +
              QStringLiteral(", content, server_tags FROM articles WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next())
        return {};
    Article a = summaryFrom(q, m_server);
    a.content = q.value(14).toString();
    a.tagIds = tagIdsFromJson(q.value(15).toString());
    return a;
}

QString LocalStore::defaultPath(const QString &account, const QString &kind)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    const QByteArray hash =
        QCryptographicHash::hash(account.toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    return QDir(dir).filePath(QStringLiteral("%1-%2.sqlite").arg(kind, QString::fromLatin1(hash)));
}

LocalStore::Counts LocalStore::counts() const
{
    Counts c;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT COUNT(*), SUM(archived = 0), SUM(starred = 1), "
                              "SUM(archived = 1) FROM articles WHERE deleted = 0")) &&
        q.next()) {
        c.all = q.value(0).toInt();
        c.unread = q.value(1).toInt();
        c.starred = q.value(2).toInt();
        c.archive = q.value(3).toInt();
    }
    if (q.exec(QStringLiteral("SELECT label, COUNT(*) FROM article_tags JOIN articles ON "
                              "articles.id = article_id WHERE deleted = 0 GROUP BY label "
                              "ORDER BY label COLLATE NOCASE"))) {
        while (q.next())
            c.tags.append({ q.value(0).toString(), q.value(1).toInt() });
    }
    return c;
}

int LocalStore::articleCount() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT COUNT(*) FROM articles WHERE deleted = 0")) && q.next())
        return q.value(0).toInt();
    return 0;
}

qint64 LocalStore::contentBytes() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT SUM(LENGTH(CAST(content AS BLOB))) FROM articles")) &&
        q.next())
        return q.value(0).toLongLong();
    return 0;
}

QList<LocalStore::Pending> LocalStore::pendingChanges() const
{
    QList<Pending> result;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT id, pending FROM articles WHERE pending != '' AND "
                               "sync_state != 2 ORDER BY rowid")))
        return result;
    while (q.next()) {
        const QStringList fields =
            q.value(1).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString &name : fields) {
            for (Field f :
                 { Field::Starred, Field::Archived, Field::Tags, Field::Deleted, Field::Added }) {
                if (fieldName(f) == name)
                    result.append({ q.value(0).toLongLong(), f });
            }
        }
    }
    return result;
}

QList<Article> LocalStore::failedArticles() const
{
    QList<Article> result;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec(QStringLiteral("SELECT ") + QLatin1String(SummaryColumns) +
                QStringLiteral(" FROM articles WHERE sync_state = 2 ORDER BY rowid")))
        return result;
    while (q.next())
        result << summaryFrom(q, m_server);
    return result;
}

QList<LocalStore::Field> LocalStore::unsavedFields(qint64 id) const
{
    QList<Field> result;
    const QStringList names = pendingOf(id);
    for (Field f : { Field::Starred, Field::Archived, Field::Tags, Field::Deleted, Field::Added }) {
        if (names.contains(fieldName(f)))
            result << f;
    }
    return result;
}

void LocalStore::mergeFromServer(const QList<Article> &articles)
{
    if (articles.isEmpty())
        return;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    db.transaction();
    for (const Article &a : articles) {
        const QStringList pending = pendingOf(a.id);
        const bool known = exists(a.id);
        QUrl picture = a.previewPicture;
        if (picture.scheme() == m_server.scheme() && picture.host() == m_server.host() &&
            picture.port(-1) == m_server.port(-1))
            picture = QUrl(picture.path(QUrl::FullyEncoded) +
                           (picture.hasQuery() ? QLatin1Char('?') + picture.query() : QString()));
        const QVariant preview = picture.toString();
        const QString serverTags = tagIdsToJson(a.tagIds);
        if (!known) {
            exec(QStringLiteral("INSERT INTO articles (id, title, url, domain, reading_time, "
                                "preview, created_at, updated_at, starred, archived, tags, "
                                "server_starred, server_archived, server_tags, content, "
                                "has_content) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                 { a.id, a.title, a.url.toString(), a.domain, a.readingTimeMinutes, preview,
                   a.createdAt.isValid() ? a.createdAt.toMSecsSinceEpoch() : 0,
                   a.updatedAt.isValid() ? a.updatedAt.toMSecsSinceEpoch() : 0, a.starred,
                   a.archived, tagsToJson(a.tags), a.starred, a.archived, serverTags,
                   a.hasContent ? QVariant(a.content) : QVariant(), a.hasContent });
            writeTags(a.id, a.tags, a.tagIds);
            continue;
        }
        exec(QStringLiteral("UPDATE articles SET title = ?, url = ?, domain = ?, reading_time = ?, "
                            "preview = ?, created_at = ?, updated_at = ?, server_starred = ?, "
                            "server_archived = ?, server_tags = ? WHERE id = ?"),
             { a.title, a.url.toString(), a.domain, a.readingTimeMinutes, preview,
               a.createdAt.isValid() ? a.createdAt.toMSecsSinceEpoch() : 0,
               a.updatedAt.isValid() ? a.updatedAt.toMSecsSinceEpoch() : 0, a.starred, a.archived,
               serverTags, a.id });
        // What the user changed here and the server has not confirmed stays as shown.
        if (!pending.contains(fieldName(Field::Starred)))
            exec(QStringLiteral("UPDATE articles SET starred = ? WHERE id = ?"),
                 { a.starred, a.id });
        if (!pending.contains(fieldName(Field::Archived)))
            exec(QStringLiteral("UPDATE articles SET archived = ? WHERE id = ?"),
                 { a.archived, a.id });
        if (!pending.contains(fieldName(Field::Tags)))
            writeTags(a.id, a.tags, a.tagIds);
        // An empty text never replaces a good offline copy.
        if (a.hasContent)
            exec(QStringLiteral("UPDATE articles SET content = ?, has_content = 1 WHERE id = ? "
                                "AND (? <> '' OR has_content = 0 OR content IS NULL OR "
                                "content = '')"),
                 { a.content, a.id, a.content });
    }
    db.commit();
    Q_EMIT reset();
}

bool LocalStore::exists(qint64 id) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT 1 FROM articles WHERE id = ?"));
    q.addBindValue(id);
    return q.exec() && q.next();
}

bool LocalStore::isMarkedDeleted(qint64 id) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT 1 FROM articles WHERE id = ? AND deleted = 1"));
    q.addBindValue(id);
    return q.exec() && q.next();
}

int LocalStore::sweep(const QSet<qint64> &serverIds)
{
    QList<qint64> gone;
    {
        QSqlQuery q(QSqlDatabase::database(m_connection, false));
        if (!q.exec(QStringLiteral("SELECT id FROM articles WHERE id > 0 AND pending = ''")))
            return 0;
        while (q.next()) {
            const qint64 id = q.value(0).toLongLong();
            if (!serverIds.contains(id))
                gone << id;
        }
    }
    if (gone.isEmpty())
        return 0;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    db.transaction();
    for (qint64 id : std::as_const(gone)) {
        exec(QStringLiteral("DELETE FROM articles WHERE id = ?"), { id });
        exec(QStringLiteral("DELETE FROM article_tags WHERE article_id = ?"), { id });
    }
    db.commit();
    Q_EMIT reset();
    return int(gone.size());
}

void LocalStore::setContent(qint64 id, const QString &html)
{
    exec(QStringLiteral("UPDATE articles SET content = ?, has_content = 1 WHERE id = ?"),
         { html, id });
    Q_EMIT articleChanged(id);
    Q_EMIT contentStored(id, html);
}

void LocalStore::setContents(const QHash<qint64, QString> &htmlById)
{
    if (htmlById.isEmpty())
        return;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    db.transaction();
    for (auto it = htmlById.cbegin(); it != htmlById.cend(); ++it)
        exec(QStringLiteral("UPDATE articles SET content = ?, has_content = 1 WHERE id = ? "
                            "AND (? <> '' OR has_content = 0 OR content IS NULL OR "
                            "content = '')"),
             { it.value(), it.key(), it.value() });
    db.commit();
    // One signal for the page: a list model reads the store once, not once per article.
    Q_EMIT reset();
    for (auto it = htmlById.cbegin(); it != htmlById.cend(); ++it) {
        if (!it.value().isEmpty())
            Q_EMIT contentStored(it.key(), it.value());
    }
}

void LocalStore::writeTags(qint64 id, const QStringList &tags, const QHash<QString, int> &ids)
{
    Q_UNUSED(ids)
    exec(QStringLiteral("UPDATE articles SET tags = ? WHERE id = ?"), { tagsToJson(tags), id });
    exec(QStringLiteral("DELETE FROM article_tags WHERE article_id = ?"), { id });
    for (const QString &tag : tags)
        exec(QStringLiteral("INSERT OR IGNORE INTO article_tags (article_id, label) VALUES (?, ?)"),
             { id, tag });
}

QString LocalStore::fieldName(Field field)
{
    switch (field) {
    case Field::Starred:
        return QStringLiteral("starred");
    case Field::Archived:
        return QStringLiteral("archived");
    case Field::Tags:
        return QStringLiteral("tags");
    case Field::Deleted:
        return QStringLiteral("deleted");
    case Field::Added:
        return QStringLiteral("added");
    }
    return {};
}

QStringList LocalStore::pendingOf(qint64 id) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT pending FROM articles WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
}

void LocalStore::setPendingOf(qint64 id, const QStringList &pending, SyncState state,
                              const QString &error)
{
    exec(QStringLiteral(
             "UPDATE articles SET pending = ?, sync_state = ?, sync_error = ? WHERE id = ?"),
         { pending.join(QLatin1Char(',')), int(state), error, id });
}

void LocalStore::addPending(qint64 id, Field field)
{
    QStringList pending = pendingOf(id);
    if (!pending.contains(fieldName(field)))
        pending << fieldName(field);
    setPendingOf(id, pending, SyncState::Waiting);
}

void LocalStore::setStarred(qint64 id, bool starred)
{
    exec(QStringLiteral("UPDATE articles SET starred = ? WHERE id = ?"), { starred, id });
    addPending(id, Field::Starred);
    Q_EMIT articleChanged(id);
}

void LocalStore::setArchived(qint64 id, bool archived)
{
    exec(QStringLiteral("UPDATE articles SET archived = ? WHERE id = ?"), { archived, id });
    addPending(id, Field::Archived);
    Q_EMIT articleChanged(id);
}

void LocalStore::setTags(qint64 id, const QStringList &tags)
{
    writeTags(id, tags, {});
    addPending(id, Field::Tags);
    Q_EMIT articleChanged(id);
}

void LocalStore::markDeleted(qint64 id)
{
    exec(QStringLiteral("UPDATE articles SET deleted = 1 WHERE id = ?"), { id });
    addPending(id, Field::Deleted);
    Q_EMIT articleChanged(id);
}

void LocalStore::unmarkDeleted(qint64 id)
{
    exec(QStringLiteral("UPDATE articles SET deleted = 0 WHERE id = ?"), { id });
    QStringList pending = pendingOf(id);
    pending.removeAll(fieldName(Field::Deleted));
    setPendingOf(id, pending, pending.isEmpty() ? SyncState::Saved : SyncState::Waiting);
    Q_EMIT articleChanged(id);
}

qint64 LocalStore::addLocal(const QUrl &url)
{
    qint64 id = -1;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT MIN(id) FROM articles")) && q.next())
        id = qMin<qint64>(-1, q.value(0).toLongLong() - 1);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    exec(QStringLiteral("INSERT INTO articles (id, title, url, domain, created_at, updated_at, "
                        "pending, sync_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
         { id, url.toDisplayString(), url.toString(), url.host(), now, now, fieldName(Field::Added),
           int(SyncState::Waiting) });
    Q_EMIT articleChanged(id);
    return id;
}

void LocalStore::confirm(qint64 id, Field field, const QJsonObject &entry, const QUrl &server,
                         bool stillPending)
{
    if (field == Field::Deleted) {
        exec(QStringLiteral("DELETE FROM articles WHERE id = ?"), { id });
        exec(QStringLiteral("DELETE FROM article_tags WHERE article_id = ?"), { id });
        Q_EMIT articleChanged(id);
        return;
    }
    if (field == Field::Added) {
        // The local stand-in becomes the server's article, keeping the changes made to it
        // meanwhile is not needed: an added article has none before it is saved.
        exec(QStringLiteral("DELETE FROM articles WHERE id = ?"), { id });
        exec(QStringLiteral("DELETE FROM article_tags WHERE article_id = ?"), { id });
        Article saved = Article::fromJson(entry, server);
        if (saved.id > 0)
            mergeFromServer({ saved });
        Q_EMIT articleChanged(id);
        return;
    }
    QStringList pending = pendingOf(id);
    if (!stillPending)
        pending.removeAll(fieldName(field));
    if (!entry.isEmpty()) {
        const Article a = Article::fromJson(entry, server);
        exec(QStringLiteral("UPDATE articles SET server_starred = ?, server_archived = ?, "
                            "server_tags = ? WHERE id = ?"),
             { a.starred, a.archived, tagIdsToJson(a.tagIds), id });
    }
    setPendingOf(id, pending, pending.isEmpty() ? SyncState::Saved : SyncState::Waiting);
    Q_EMIT articleChanged(id);
}

void LocalStore::setServerFlag(qint64 id, Field field, bool value)
{
    if (field == Field::Starred)
        exec(QStringLiteral("UPDATE articles SET server_starred = ? WHERE id = ?"), { value, id });
    else if (field == Field::Archived)
        exec(QStringLiteral("UPDATE articles SET server_archived = ? WHERE id = ?"), { value, id });
}

void LocalStore::fail(qint64 id, Field field, const QString &reason)
{
    QStringList pending = pendingOf(id);
    if (!pending.contains(fieldName(field)))
        pending << fieldName(field);
    setPendingOf(id, pending, SyncState::Failed, reason);
    Q_EMIT articleChanged(id);
}

void LocalStore::revert(qint64 id)
{
    if (id < 0) {
        // An article that was never saved: undoing it removes it.
        exec(QStringLiteral("DELETE FROM articles WHERE id = ?"), { id });
        Q_EMIT articleChanged(id);
        return;
    }
    const QStringList pending = pendingOf(id);
    exec(QStringLiteral("UPDATE articles SET starred = server_starred, archived = server_archived, "
                        "deleted = 0 WHERE id = ?"),
         { id });
    if (pending.contains(fieldName(Field::Tags))) {
        QSqlQuery q(QSqlDatabase::database(m_connection, false));
        q.prepare(QStringLiteral("SELECT server_tags FROM articles WHERE id = ?"));
        q.addBindValue(id);
        if (q.exec() && q.next()) {
            const QHash<QString, int> ids = tagIdsFromJson(q.value(0).toString());
            QStringList tags = ids.keys();
            tags.sort(Qt::CaseInsensitive);
            writeTags(id, tags, ids);
        }
    }
    setPendingOf(id, {}, SyncState::Saved);
    Q_EMIT articleChanged(id);
}

void LocalStore::discardPending(qint64 id)
{
    setPendingOf(id, {}, SyncState::Saved);
    Q_EMIT articleChanged(id);
}

QString LocalStore::value(const QString &key) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT value FROM meta WHERE key = ?"));
    q.addBindValue(key);
    return q.exec() && q.next() ? q.value(0).toString() : QString();
}

void LocalStore::setValue(const QString &key, const QString &value)
{
    exec(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"), { key, value });
}

int LocalStore::scrollPosition(qint64 id) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT scroll FROM articles WHERE id = ?"));
    q.addBindValue(id);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

void LocalStore::setScrollPosition(qint64 id, int position)
{
    exec(QStringLiteral("UPDATE articles SET scroll = ? WHERE id = ?"), { position, id });
}
