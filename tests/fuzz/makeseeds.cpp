// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Writes the seed corpora that are made by the code itself rather than by hand:
//   fuzz_makeseeds CORPUS_DIR
// CORPUS_DIR/offlinecopystore/: store files made by OfflineCopyDatabase (empty, one copy,
// copies in two accounts with validators and pins); CORPUS_DIR/outboxrow/: rows of items
// that OutboxStore wrote, read back as the outbox reads them, in outboxrow.h's format.

#include "offlinecopydatabase_p.h"
#include "outboxrow.h"
#include "outboxstore_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>

#include <cstdio>

using namespace KeepTrying;

namespace {

bool copyFile(const QString &from, const QString &to)
{
    QFile::remove(to);
    return QFile::copy(from, to);
}

bool makeStoreSeeds(const QString &out)
{
    const QDateTime now =
        QDateTime::fromString(QStringLiteral("2026-01-05T09:12:00Z"), Qt::ISODate);
    const QUrl one(QStringLiteral("http://127.0.0.1:8080/api/entries/1.json"));
    const QUrl two(QStringLiteral("http://127.0.0.1:8080/api/entries/2.json"));
    const QUrl image(QStringLiteral("http://127.0.0.1:8080/images/one.png"));
    QDir().mkpath(out);
    for (int seed = 0; seed < 3; ++seed) {
        QTemporaryDir dir;
        {
            OfflineCopyDatabase store;
            store.setClock([now] { return now; });
            if (!store.open(dir.path()))
                return false;
            if (seed >= 1) {
                store.store(one, 200,
                            { { "Content-Type", "application/json" }, { "ETag", "\"v1\"" } },
                            R"({"id":1,"title":"One"})");
            }
            if (seed >= 2) {
                store.store(image, 200,
                            { { "Content-Type", "image/png" },
                              { "Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT" },
                              { "Cache-Control", "must-revalidate" },
                              { "Age", "30" } },
                            QByteArray("\x89PNG\r\n\x1a\n", 8), true);
                store.setAccountKey(QStringLiteral("alice"));
                store.store(two, 200, { { "Cache-Control", "no-cache" } }, R"({"id":2})");
            }
            store.close();
        }
        // Whole: the WAL checkpointed into the file when the last connection closed.
        const QString file = QDir(dir.path()).filePath(OfflineCopyDatabase::fileName());
        if (!copyFile(file, QDir(out).filePath(QStringLiteral("store-%1.sqlite").arg(seed))))
            return false;
    }
    return true;
}

bool makeRowSeeds(const QString &out)
{
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(QStringLiteral("outbox.sqlite"));
    QList<OutboxItem> items;
    {
        OutboxItem a;
        a.method = "PATCH";
        a.url = QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries/7.json"));
        a.headers = { { "Content-Type", "application/json" }, { "Accept", "application/json" } };
        a.body = R"({"starred":1})";
        a.idempotencyKey = "0b6c3cfe-9d2e-4f35-8a41-3c1f5e7d9a20";
        a.resourceKey = QStringLiteral("http://127.0.0.1:8080/api/entries/7.json");
        a.coalescingKey = QStringLiteral("entry-7-starred");
        a.createdAt = QDateTime::fromMSecsSinceEpoch(Q_INT64_C(1767604300000), Qt::UTC);
        items << a;
        OutboxItem b = a;
        b.method = "DELETE";
        b.url = QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries/8.json"));
        b.headers = {};
        b.body = {};
        b.idempotencyKey = "5d1f9c1e-2b7a-4c7e-9e3f-8a0b6d4c2e11";
        b.coalescingKey.clear();
        items << b;
        OutboxItem c = a;
        c.method = "POST";
        c.url = QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries.json?x=%C3%A9"));
        c.headers = { { "X-Latin-1", "caf\xe9" } };
        c.body = R"({"url":"https://example.org/a"})";
        c.idempotencyKey = "c0ffee00-1111-4222-8333-444455556666";
        c.coalescingKey.clear();
        items << c;
    }
    qint64 deadId = 0;
    {
        OutboxStore store;
        if (!store.open(path, true).usable)
            return false;
        for (const OutboxItem &item : std::as_const(items)) {
            const OutboxStore::InsertResult result = store.insert(item, false);
            if (result.id <= 0)
                return false;
            deadId = result.id;
        }
        store.recordFailure(1, QStringLiteral("Connection refused"), Q_INT64_C(1767604400000),
                            false);
        store.recordDeadLetter(deadId, 422, R"({"error":"invalid"})", QStringLiteral("refused"),
                               QStringLiteral("HTTP 422"), true, Q_INT64_C(1767604310000));
        store.close();
    }
    QDir().mkpath(out);
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("seeds"));
        db.setDatabaseName(path);
        if (!db.open())
            return false;
        // The SELECT list of outboxstore.cpp, in its order.
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral(
                "SELECT id, method, url, headers, body, idempotency_key, resource_key, "
                "coalescing_key, created_at, attempts, last_error, state, next_attempt_at, "
                "response_status, response_body, dead_reason, dead_at FROM items ORDER BY id")))
            return false;
        int n = 0;
        while (q.next()) {
            QVariantList row;
            for (int i = 0; i < OutboxStore::rowColumns; ++i)
                row << q.value(i);
            QFile file(QDir(out).filePath(QStringLiteral("row-%1").arg(++n)));
            if (!file.open(QIODevice::WriteOnly) || file.write(OutboxRow::encode(row)) < 0)
                return false;
        }
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("seeds"));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_makeseeds CORPUS_DIR\n");
        return 2;
    }
    const QDir corpus(QString::fromLocal8Bit(argv[1]));
    if (!makeStoreSeeds(corpus.filePath(QStringLiteral("offlinecopystore"))) ||
        !makeRowSeeds(corpus.filePath(QStringLiteral("outboxrow")))) {
        std::fprintf(stderr, "could not make the seeds\n");
        return 1;
    }
    return 0;
}
