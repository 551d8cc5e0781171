// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The offline copy store on its own (a private class, compiled into this test): what it
// keeps and hands back, the account partition, the HTTP caching rules it respects, the 304
// refresh, damaged and foreign files, LRU eviction with pins, persistence and two instances
// on one directory. The reply's use of it (stale first, fresh later) is tested elsewhere.

#include "offlinecopydatabase_p.h"
#include "testhelpers.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QLoggingCategory>
#include <QtCore/QRandomGenerator>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUuid>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QTest>

#include <atomic>

using KeepTrying::OfflineCopyDatabase;
using Headers = QList<OfflineCopyDatabase::RawHeaderPair>;
using StoreResult = OfflineCopyDatabase::StoreResult;
using RefreshResult = OfflineCopyDatabase::RefreshResult;
namespace OfflineCopy = KeepTrying::OfflineCopy;

Q_DECLARE_METATYPE(Headers)

namespace {

QUrl url(const char *text)
{
    return QUrl(QString::fromLatin1(text));
}

const QUrl entries = url("http://127.0.0.1:8080/api/entries.json?page=1");
const QUrl entry = url("http://127.0.0.1:8080/api/entries/7.json");
const QUrl image = url("http://127.0.0.1:8080/images/7.png");

const QDateTime t0 = QDateTime(QDate(2024, 3, 1), QTime(9, 0, 0), Qt::UTC);

Headers jsonHeaders()
{
    return { { "Content-Type", "application/json" },
             { "Cache-Control", "no-cache, private" }, // what wallabag (Symfony) sends
             { "ETag", "\"v1\"" },
             { "Date", "Fri, 01 Mar 2024 09:00:00 GMT" } };
}

QByteArray bodyOf(int size, char fill)
{
    return QByteArray(size, fill);
}

// Runs \a sql on the store's file through a connection of the test's own.
QVariant onFile(const QString &directory, const QString &sql)
{
    const QString name = QUuid::createUuid().toString();
    QVariant result;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(directory + QLatin1Char('/') + OfflineCopyDatabase::fileName());
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql) && q.next())
                result = q.value(0);
        }
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

QByteArray fileBytes(const QString &directory, const QString &suffix = QString())
{
    QFile file(directory + QLatin1Char('/') + OfflineCopyDatabase::fileName() + suffix);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_OfflineCopyStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void roundTrip_data();
    void roundTrip();
    void sameKey_data();
    void sameKey();
    void accountsArePartitions();
    void statusesNotStored_data();
    void statusesNotStored();
    void noStore();
    void cacheControlFlags_data();
    void cacheControlFlags();
    void ageFollowsRfc9111();
    void notModifiedRefreshesHeadersAndTime();
    void notModifiedEdgeCases();
    void damagedFileIsACleanMiss_data();
    void damagedFileIsACleanMiss();
    void damagedCopyIsRemoved();
    void foreignFileIsLeftAlone_data();
    void foreignFileIsLeftAlone();
    void evictsLeastRecentlyUsed();
    void budgetHoldsAfterEveryStore();
    void pinnedCopiesAreNeverEvicted();
    void pinnedCopiesAloneOverBudget();
    void loweringTheBudgetEvicts();
    void copyLargerThanBudgetIsNotStored();
    void survivesReopen();
    void twoInstancesShareADirectory();
    void newFileOpenedByManyAtOnce();
    void closedStoreMisses();
    void unusableDirectory();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<OfflineCopyDatabase> m_store;
    QDateTime m_now;

    std::unique_ptr<OfflineCopyDatabase> openStore()
    {
        auto store = std::make_unique<OfflineCopyDatabase>();
        store->setClock([this] { return m_now; });
        if (!store->open(m_dir->path()))
            return nullptr;
        return store;
    }
};

void tst_OfflineCopyStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_now = t0;
    m_store = openStore();
    QVERIFY(m_store);
}

void tst_OfflineCopyStore::cleanup()
{
    m_store.reset();
    m_dir.reset();
    QLoggingCategory::setFilterRules(QString());
}

void tst_OfflineCopyStore::roundTrip_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<Headers>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<Headers>("storedHeaders");
    QTest::addColumn<QByteArray>("etag");
    QTest::addColumn<QByteArray>("lastModified");

    const QByteArray json = R"({"id":7,"title":"Offline first","content":"<p>Hello</p>"})";
    QTest::newRow("wallabag entry JSON")
        << 200 << jsonHeaders() << json << jsonHeaders() << QByteArray("\"v1\"") << QByteArray();

    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    png += QByteArray(5000, '\0');
    png += "IEND";
    const Headers imageHeaders = { { "Content-Type", "image/png" },
                                   { "Last-Modified", "Thu, 29 Feb 2024 12:00:00 GMT" },
                                   { "Content-Length", QByteArray::number(png.size()) } };
    QTest::newRow("binary image, Last-Modified")
        << 200 << imageHeaders << png << imageHeaders << QByteArray()
        << QByteArray("Thu, 29 Feb 2024 12:00:00 GMT");

    QTest::newRow("204, no body") << 204 << Headers { { "X-Request-Id", "abc" } } << QByteArray()
                                  << Headers { { "X-Request-Id", "abc" } } << QByteArray()
                                  << QByteArray();

    // RFC 9111 §3.1: hop-by-hop fields and those Connection names are not stored; nor is
    // Set-Cookie, a credential.
    const Headers withHopByHop = { { "Content-Type", "text/plain" },
                                   { "Connection", "keep-alive, X-Hop" },
                                   { "Keep-Alive", "timeout=5" },
                                   { "X-Hop", "1" },
                                   { "Transfer-Encoding", "chunked" },
                                   { "Set-Cookie", "PHPSESSID=secret; HttpOnly" },
                                   { "X-Kept", "yes" } };
    QTest::newRow("hop-by-hop and Set-Cookie dropped")
        << 200 << withHopByHop << QByteArray("text")
        << Headers { { "Content-Type", "text/plain" }, { "X-Kept", "yes" } } << QByteArray()
        << QByteArray();
}

void tst_OfflineCopyStore::roundTrip()
{
    QFETCH(int, status);
    QFETCH(Headers, headers);
    QFETCH(QByteArray, body);
    QFETCH(Headers, storedHeaders);
    QFETCH(QByteArray, etag);
    QFETCH(QByteArray, lastModified);

    QCOMPARE(m_store->store(entry, status, headers, body), StoreResult::Stored);
    QVERIFY(m_store->contains(entry));
    const std::optional<OfflineCopyDatabase::Copy> copy = m_store->lookup(entry);
    QVERIFY(copy);
    QCOMPARE(copy->url, entry);
    QCOMPARE(copy->status, status);
    QCOMPARE(copy->headers, storedHeaders);
    QCOMPARE(copy->body, body);
    QCOMPARE(copy->storedAt, t0);
    QCOMPARE(copy->etag, etag);
    QCOMPARE(copy->lastModified, lastModified);
    QCOMPARE(copy->pinned, false);
    QCOMPARE(m_store->count(), 1);
    QVERIFY(m_store->size() >= body.size());
    QVERIFY(!m_store->lookup(image));
}

void tst_OfflineCopyStore::sameKey_data()
{
    QTest::addColumn<QUrl>("stored");
    QTest::addColumn<QUrl>("asked");
    QTest::addColumn<bool>("found");

    const QUrl base = url("http://127.0.0.1:8080/api/entries.json?page=2&perPage=30");
    QTest::newRow("same") << base << base << true;
    QTest::newRow("user info ignored")
        << url("http://alice:pw@127.0.0.1:8080/api/entries.json?page=2&perPage=30") << base << true;
    QTest::newRow("fragment ignored")
        << url("http://127.0.0.1:8080/api/entries.json?page=2&perPage=30#top") << base << true;
    QTest::newRow("access_token ignored (wallabag accepts it in the query)")
        << url("http://127.0.0.1:8080/api/entries.json?page=2&access_token=T1&perPage=30")
        << url("http://127.0.0.1:8080/api/entries.json?page=2&access_token=T2&perPage=30") << true;
    QTest::newRow("only a token") << url("http://127.0.0.1/a?access_token=T1")
                                  << url("http://127.0.0.1/a") << true;
    QTest::newRow("default port") << url("https://127.0.0.1:443/a") << url("https://127.0.0.1/a")
                                  << true;
    QTest::newRow("dot segments") << url("http://127.0.0.1/api/../api/a")
                                  << url("http://127.0.0.1/api/a") << true;
    QTest::newRow("other page") << base
                                << url("http://127.0.0.1:8080/api/entries.json?page=3&perPage=30")
                                << false;
    QTest::newRow("other port") << url("http://127.0.0.1:8080/a") << url("http://127.0.0.1:8081/a")
                                << false;
    QTest::newRow("other scheme") << url("http://127.0.0.1/a") << url("https://127.0.0.1/a")
                                  << false;
}

void tst_OfflineCopyStore::sameKey()
{
    QFETCH(QUrl, stored);
    QFETCH(QUrl, asked);
    QFETCH(bool, found);

    QCOMPARE(m_store->store(stored, 200, {}, "body"), StoreResult::Stored);
    QCOMPARE(bool(m_store->lookup(asked)), found);
    // No credential reaches the disk, in the file or its write-ahead log.
    m_store.reset();
    const QByteArray onDisk =
        fileBytes(m_dir->path(), QStringLiteral("-wal")) + fileBytes(m_dir->path(), QString());
    QVERIFY(onDisk.contains("127.0.0.1"));
    QVERIFY(!onDisk.contains("access_token"));
    QVERIFY(!onDisk.contains("alice:pw"));
}

void tst_OfflineCopyStore::accountsArePartitions()
{
    const QString alice = QStringLiteral("https://wallabag.example|alice");
    const QString bob = QStringLiteral("https://wallabag.example|bob");

    m_store->setAccountKey(alice);
    QCOMPARE(m_store->store(entries, 200, jsonHeaders(), "alice's list"), StoreResult::Stored);
    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "alice's entry"), StoreResult::Stored);

    m_store->setAccountKey(bob);
    QVERIFY(!m_store->lookup(entries));
    QVERIFY(!m_store->contains(entry));
    QCOMPARE(m_store->store(entries, 200, jsonHeaders(), "bob's list"), StoreResult::Stored);
    QCOMPARE(m_store->lookup(entries)->body, QByteArray("bob's list"));
    QVERIFY(!m_store->setPinned(entry, true)); // alice's copy is not bob's to pin
    QVERIFY(!m_store->remove(entry)); // nor to remove

    m_store->setAccountKey(QString()); // the empty key is a partition of its own
    QVERIFY(!m_store->lookup(entries));

    m_store->setAccountKey(alice);
    QCOMPARE(m_store->lookup(entries)->body, QByteArray("alice's list"));
    QCOMPARE(m_store->lookup(entry)->body, QByteArray("alice's entry"));

    m_store->clear(alice);
    QVERIFY(!m_store->lookup(entries));
    QCOMPARE(m_store->count(), 1);
    m_store->setAccountKey(bob);
    QCOMPARE(m_store->lookup(entries)->body, QByteArray("bob's list"));

    m_store->clearAll();
    QCOMPARE(m_store->count(), 0);
    QCOMPARE(m_store->size(), 0);
}

void tst_OfflineCopyStore::statusesNotStored_data()
{
    QTest::addColumn<int>("status");
    QTest::newRow("206 partial") << 206;
    QTest::newRow("304") << 304;
    QTest::newRow("301") << 301;
    QTest::newRow("404") << 404;
    QTest::newRow("503") << 503;
    QTest::newRow("100") << 100;
}

void tst_OfflineCopyStore::statusesNotStored()
{
    QFETCH(int, status);
    QCOMPARE(m_store->store(entry, status, {}, "x"), StoreResult::NotStorable);
    QCOMPARE(m_store->count(), 0);
}

void tst_OfflineCopyStore::noStore()
{
    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "old"), StoreResult::Stored);

    // RFC 9111 §5.2.2.5: not stored, and the older copy goes too.
    const Headers noStoreHeaders = { { "Cache-Control", "private, no-store" } };
    QCOMPARE(m_store->store(entry, 200, noStoreHeaders, "secret"), StoreResult::NoStore);
    QVERIFY(!m_store->lookup(entry));
    QCOMPARE(m_store->count(), 0);

    // The request's override stores it, marked.
    QCOMPARE(
        m_store->store(entry, 200, noStoreHeaders, "kept", false, OfflineCopy::StoreDespiteNoStore),
        StoreResult::Stored);
    const auto copy = m_store->lookup(entry);
    QVERIFY(copy);
    QCOMPARE(copy->body, QByteArray("kept"));
    QVERIFY(copy->noStore);
}

void tst_OfflineCopyStore::cacheControlFlags_data()
{
    QTest::addColumn<Headers>("headers");
    QTest::addColumn<bool>("mustRevalidate");
    QTest::addColumn<bool>("noCache");

    QTest::newRow("none") << Headers {} << false << false;
    QTest::newRow("wallabag: no-cache, private")
        << Headers { { "Cache-Control", "no-cache, private" } } << false << true;
    QTest::newRow("must-revalidate")
        << Headers { { "Cache-Control", "max-age=0, must-revalidate" } } << true << false;
    QTest::newRow("case and spaces")
        << Headers { { "cache-control", " Must-Revalidate ,NO-CACHE" } } << true << true;
    QTest::newRow("two fields") << Headers { { "Cache-Control", "private" },
                                             { "Cache-Control", "must-revalidate" } }
                                << true << false;
    QTest::newRow("comma inside a quoted-string")
        << Headers { { "Cache-Control", "no-cache=\"Set-Cookie, must-revalidate\", max-age=5" } }
        << false << true;
    QTest::newRow("proxy-revalidate is for shared caches")
        << Headers { { "Cache-Control", "proxy-revalidate" } } << false << false;
}

void tst_OfflineCopyStore::cacheControlFlags()
{
    QFETCH(Headers, headers);
    QFETCH(bool, mustRevalidate);
    QFETCH(bool, noCache);

    QCOMPARE(m_store->store(entry, 200, headers, "body"), StoreResult::Stored);
    const auto copy = m_store->lookup(entry);
    QVERIFY(copy);
    QCOMPARE(copy->mustRevalidate, mustRevalidate);
    QCOMPARE(copy->noCache, noCache);
    QCOMPARE(copy->noStore, false);
}

void tst_OfflineCopyStore::ageFollowsRfc9111()
{
    // Date 30 s before it arrived, Age 10: corrected_initial_age = max(30, 10) = 30.
    m_now = t0.addSecs(30);
    QCOMPARE(m_store->store(entry, 200,
                            { { "Date", "Fri, 01 Mar 2024 09:00:00 GMT" }, { "Age", "10" } },
                            "body"),
             StoreResult::Stored);
    // Age 100 beats a Date 30 s old.
    QCOMPARE(m_store->store(image, 200,
                            { { "Date", "Fri, 01 Mar 2024 09:00:00 GMT" }, { "Age", "100" } },
                            "png"),
             StoreResult::Stored);
    const auto copy = m_store->lookup(entry);
    QVERIFY(copy);
    QCOMPARE(copy->initialAgeSeconds, 30);
    QCOMPARE(copy->ageSeconds(t0.addSecs(30 + 3600)), 30 + 3600);
    QCOMPARE(copy->ageSeconds(t0), 30); // a clock set back never makes it younger
    QCOMPARE(m_store->lookup(image)->ageSeconds(t0.addSecs(30)), 100);

    // RFC 9111 §1.2.2: an Age too large to add to counts as 2^31 s, and stays so as the copy
    // ages (it overflowed a qint64 before, which UBSan reports).
    QCOMPARE(m_store->store(entry, 200, { { "Age", "9223372036854775807" } }, "body"),
             StoreResult::Stored);
    const auto ancient = m_store->lookup(entry);
    QVERIFY(ancient);
    QCOMPARE(ancient->initialAgeSeconds, Q_INT64_C(2147483648));
    QCOMPARE(ancient->ageSeconds(t0.addSecs(30 + 3600)), Q_INT64_C(2147483648));
}

void tst_OfflineCopyStore::notModifiedRefreshesHeadersAndTime()
{
    const Headers stored = { { "Content-Type", "application/json" },
                             { "Content-Length", "13" },
                             { "Cache-Control", "no-cache, private" },
                             { "ETag", "W/\"v1\"" },
                             { "X-Old", "stays" } };
    QCOMPARE(m_store->store(entry, 200, stored, "{\"id\":7,\"a\":1}"), StoreResult::Stored);
    const auto before = m_store->lookup(entry);
    QVERIFY(before);
    QCOMPARE(before->revalidationHeaders(), Headers({ { "If-None-Match", "W/\"v1\"" } }));

    m_now = t0.addSecs(600);
    const Headers notModified = { { "Cache-Control", "max-age=60, must-revalidate" },
                                  { "ETag", "\"v1\"" },
                                  { "Content-Length", "0" },
                                  { "Connection", "close" },
                                  { "Date", "Fri, 01 Mar 2024 09:10:00 GMT" } };
    QCOMPARE(m_store->refresh(entry, notModified), RefreshResult::Refreshed);

    const auto after = m_store->lookup(entry);
    QVERIFY(after);
    QCOMPARE(after->body, before->body);
    QCOMPARE(after->status, 200);
    QCOMPARE(after->storedAt, t0.addSecs(600));
    QCOMPARE(after->ageSeconds(t0.addSecs(600)), 0);
    QCOMPARE(after->header("Cache-Control"), QByteArray("max-age=60, must-revalidate"));
    QCOMPARE(after->header("Content-Length"), QByteArray("13")); // RFC 9111 §3.2
    QCOMPARE(after->header("X-Old"), QByteArray("stays"));
    QCOMPARE(after->header("Connection"), QByteArray());
    QCOMPARE(after->etag, QByteArray("\"v1\""));
    QVERIFY(after->mustRevalidate);
    QVERIFY(!after->noCache);
}

void tst_OfflineCopyStore::notModifiedEdgeCases()
{
    QCOMPARE(m_store->refresh(entry, { { "ETag", "\"v1\"" } }), RefreshResult::Missing);

    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "v1 body"), StoreResult::Stored);
    // A 304 for another representation leaves the copy as it was.
    m_now = t0.addSecs(60);
    QCOMPARE(m_store->refresh(entry, { { "ETag", "\"v2\"" } }), RefreshResult::ValidatorMismatch);
    QCOMPARE(m_store->lookup(entry)->storedAt, t0);

    // A 304 that says no-store removes it, unless the request overrides.
    QCOMPARE(m_store->refresh(entry, { { "Cache-Control", "no-store" } },
                              OfflineCopy::StoreDespiteNoStore),
             RefreshResult::Refreshed);
    QVERIFY(m_store->lookup(entry)->noStore);
    QCOMPARE(m_store->refresh(entry, { { "Cache-Control", "no-store" } }), RefreshResult::Removed);
    QVERIFY(!m_store->contains(entry));
}

void tst_OfflineCopyStore::damagedFileIsACleanMiss_data()
{
    QTest::addColumn<QString>("damage");
    QTest::newRow("truncated to half") << QStringLiteral("truncate-half");
    QTest::newRow("truncated to 100 bytes") << QStringLiteral("truncate-100");
    QTest::newRow("pages overwritten") << QStringLiteral("overwrite-middle");
    QTest::newRow("not a database") << QStringLiteral("garbage");
    QTest::newRow("empty file") << QStringLiteral("empty");
}

void tst_OfflineCopyStore::damagedFileIsACleanMiss()
{
    QFETCH(QString, damage);
    // The store logs what it found; this test asserts what it does.
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.offlinecopy.warning=false"));

    QList<QUrl> urls;
    QList<QByteArray> bodies;
    for (int i = 0; i < 40; ++i) {
        urls.append(QUrl(QStringLiteral("http://127.0.0.1/api/entries/%1.json").arg(i)));
        bodies.append(bodyOf(4000 + i, char('a' + i % 26)));
        QCOMPARE(m_store->store(urls.last(), 200, jsonHeaders(), bodies.last()),
                 StoreResult::Stored);
    }
    m_store.reset(); // the last connection checkpoints the WAL into the file

    const QString path = m_dir->filePath(OfflineCopyDatabase::fileName());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    const qint64 length = file.size();
    QVERIFY(length > 100000);
    if (damage == QLatin1String("truncate-half")) {
        QVERIFY(file.resize(length / 2));
    } else if (damage == QLatin1String("truncate-100")) {
        QVERIFY(file.resize(100));
    } else if (damage == QLatin1String("overwrite-middle")) {
        // Every other page of the first half (b-tree and overflow pages alike) gets noise.
        QRandomGenerator random(42);
        for (qint64 page = 1; page < length / 4096 / 2; page += 2) {
            QByteArray noise(4096, '\0');
            for (char &c : noise)
                c = char(random.bounded(256));
            file.seek(page * 4096);
            file.write(noise);
        }
    } else if (damage == QLatin1String("garbage")) {
        file.seek(0);
        file.write(QByteArray(8192, 'x'));
    } else if (damage == QLatin1String("empty")) {
        QVERIFY(file.resize(0));
    }
    file.close();

    m_store = std::make_unique<OfflineCopyDatabase>();
    m_store->open(m_dir->path());
    // Every lookup either misses or hands back the very copy that was stored.
    int found = 0;
    for (int i = 0; i < urls.size(); ++i) {
        const auto copy = m_store->lookup(urls.at(i));
        if (copy) {
            QCOMPARE(copy->body, bodies.at(i));
            ++found;
        }
    }
    QVERIFY2(found < urls.size(), "the damage went unnoticed by the test itself");

    // And the store works again: a damaged file was replaced by an empty one.
    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "fresh"), StoreResult::Stored);
    QCOMPARE(m_store->lookup(entry)->body, QByteArray("fresh"));
    QVERIFY(m_store->isOpen());
    m_store.reset();
    QCOMPARE(onFile(m_dir->path(), QStringLiteral("PRAGMA integrity_check")).toString(),
             QStringLiteral("ok"));
}

void tst_OfflineCopyStore::damagedCopyIsRemoved()
{
    const QByteArray marker = "MARKER-0123456789-MARKER";
    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), marker + bodyOf(3000, 'q')),
             StoreResult::Stored);
    QCOMPARE(m_store->store(image, 200, {}, "png"), StoreResult::Stored);
    m_store.reset();

    // One byte of the body changes; SQLite has no checksum of its own that would notice.
    QFile file(m_dir->filePath(OfflineCopyDatabase::fileName()));
    QVERIFY(file.open(QIODevice::ReadWrite));
    const QByteArray bytes = file.readAll();
    const qsizetype at = bytes.indexOf(marker);
    QVERIFY(at > 0);
    file.seek(at);
    file.write("m");
    file.close();

    m_store = openStore();
    QVERIFY(m_store);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("damaged offline copy")));
    QVERIFY(!m_store->lookup(entry));
    QCOMPARE(m_store->count(), 1); // that copy was removed, the other one stays
    QCOMPARE(m_store->lookup(image)->body, QByteArray("png"));
}

void tst_OfflineCopyStore::foreignFileIsLeftAlone_data()
{
    QTest::addColumn<QString>("sql");
    QTest::newRow("newer format")
        << QStringLiteral("PRAGMA user_version = %1").arg(OfflineCopyDatabase::formatVersion() + 1);
    QTest::newRow("another program's database") << QStringLiteral("PRAGMA application_id = 1234");
}

void tst_OfflineCopyStore::foreignFileIsLeftAlone()
{
    QFETCH(QString, sql);
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.offlinecopy.warning=false"));
    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "body"), StoreResult::Stored);
    m_store.reset();
    onFile(m_dir->path(), sql);
    const QByteArray before = fileBytes(m_dir->path());

    OfflineCopyDatabase store;
    QVERIFY(!store.open(m_dir->path()));
    QVERIFY(!store.isOpen());
    QVERIFY(!store.lookup(entry));
    QCOMPARE(store.store(entry, 200, {}, "other"), StoreResult::Failed);
    QVERIFY(!store.setPinned(entry, true));
    QCOMPARE(store.size(), -1);
    store.close();
    QCOMPARE(fileBytes(m_dir->path()), before);
}

void tst_OfflineCopyStore::evictsLeastRecentlyUsed()
{
    // Each copy is 1000 bytes of body plus a few dozen of key and headers: three fit.
    m_store->setMaximumSize(3500);
    const QList<QUrl> urls = { url("http://127.0.0.1/a"), url("http://127.0.0.1/b"),
                               url("http://127.0.0.1/c"), url("http://127.0.0.1/d"),
                               url("http://127.0.0.1/e") };
    for (int i = 0; i < 3; ++i)
        QCOMPARE(m_store->store(urls.at(i), 200, {}, bodyOf(1000, 'x')), StoreResult::Stored);
    QCOMPARE(m_store->count(), 3);

    QVERIFY(m_store->lookup(urls.at(0))); // a is used again: b is now the oldest
    QCOMPARE(m_store->store(urls.at(3), 200, {}, bodyOf(1000, 'x')), StoreResult::Stored);
    QVERIFY(m_store->contains(urls.at(0)));
    QVERIFY(!m_store->contains(urls.at(1)));
    QVERIFY(m_store->contains(urls.at(2)));
    QVERIFY(m_store->contains(urls.at(3)));

    // Storing again is a use too: c refreshed, so a goes next.
    QCOMPARE(m_store->store(urls.at(2), 200, {}, bodyOf(1000, 'y')), StoreResult::Stored);
    QCOMPARE(m_store->store(urls.at(4), 200, {}, bodyOf(1000, 'x')), StoreResult::Stored);
    QVERIFY(!m_store->contains(urls.at(0)));
    QVERIFY(m_store->contains(urls.at(2)));
    QVERIFY(m_store->contains(urls.at(3)));
    QVERIFY(m_store->contains(urls.at(4)));
    QVERIFY(m_store->size() <= 3500);
}

void tst_OfflineCopyStore::budgetHoldsAfterEveryStore()
{
    const quint32 seed = 20240301;
    QRandomGenerator random(seed);
    const qint64 budget = 64 * 1024;
    m_store->setMaximumSize(budget);
    QList<QUrl> pinned;
    for (int i = 0; i < 200; ++i) {
        const QUrl u(QStringLiteral("http://127.0.0.1/item/%1").arg(random.bounded(60)));
        const bool pin = random.bounded(20) == 0 && pinned.size() < 3;
        const StoreResult result =
            m_store->store(u, 200, jsonHeaders(), bodyOf(random.bounded(100, 12000), 'z'), pin);
        QVERIFY2(result == StoreResult::Stored,
                 qPrintable(QStringLiteral("seed %1, store %2").arg(seed).arg(i)));
        if (pin)
            pinned.append(u);
        QVERIFY2(m_store->size() <= budget,
                 qPrintable(QStringLiteral("seed %1, store %2: %3 bytes")
                                .arg(seed)
                                .arg(i)
                                .arg(m_store->size())));
        for (const QUrl &p : std::as_const(pinned))
            QVERIFY2(m_store->contains(p), qPrintable(QStringLiteral("seed %1").arg(seed)));
    }
}

void tst_OfflineCopyStore::pinnedCopiesAreNeverEvicted()
{
    m_store->setMaximumSize(3500);
    const QUrl saved = url("http://127.0.0.1/saved");
    QCOMPARE(m_store->store(saved, 200, {}, bodyOf(1000, 's'), true), StoreResult::Stored);
    QVERIFY(m_store->lookup(saved)->pinned);
    const QUrl pinnedLater = url("http://127.0.0.1/later");
    QCOMPARE(m_store->store(pinnedLater, 200, {}, bodyOf(1000, 'l')), StoreResult::Stored);
    QVERIFY(m_store->setPinned(pinnedLater, true));
    // A fresh response for a pinned copy keeps the pin.
    QCOMPARE(m_store->store(pinnedLater, 200, {}, bodyOf(1000, 'L')), StoreResult::Stored);
    QVERIFY(m_store->lookup(pinnedLater)->pinned);

    for (int i = 0; i < 20; ++i) {
        QCOMPARE(m_store->store(QUrl(QStringLiteral("http://127.0.0.1/n/%1").arg(i)), 200, {},
                                bodyOf(1000, 'n')),
                 StoreResult::Stored);
        QVERIFY(m_store->contains(saved));
        QVERIFY(m_store->contains(pinnedLater));
        QCOMPARE(m_store->count(), 3);
    }
    QVERIFY(m_store->pinnedSize() > 2000);

    // Unpinned, it is an ordinary copy again, and the least recently used one.
    QVERIFY(m_store->setPinned(saved, false));
    QCOMPARE(m_store->store(url("http://127.0.0.1/n/last"), 200, {}, bodyOf(1000, 'n')),
             StoreResult::Stored);
    QVERIFY(!m_store->contains(saved));
    QVERIFY(m_store->contains(pinnedLater));
}

void tst_OfflineCopyStore::pinnedCopiesAloneOverBudget()
{
    m_store->setMaximumSize(10000);
    const QUrl a = url("http://127.0.0.1/a"), b = url("http://127.0.0.1/b");
    QCOMPARE(m_store->store(url("http://127.0.0.1/plain"), 200, {}, bodyOf(1000, 'p')),
             StoreResult::Stored);
    QCOMPARE(m_store->store(a, 200, {}, bodyOf(6000, 'a'), true), StoreResult::Stored);
    QCOMPARE(m_store->store(b, 200, {}, bodyOf(6000, 'b'), true), StoreResult::Stored);
    // Both pins stay, over the budget; every unpinned copy went.
    QVERIFY(m_store->contains(a));
    QVERIFY(m_store->contains(b));
    QCOMPARE(m_store->count(), 2);
    QVERIFY(m_store->size() > m_store->maximumSize());
    QCOMPARE(m_store->size(), m_store->pinnedSize());
    // No room for an unpinned copy until the app unpins.
    QCOMPARE(m_store->store(url("http://127.0.0.1/c"), 200, {}, bodyOf(100, 'c')),
             StoreResult::NoRoom);
    QVERIFY(m_store->setPinned(a, false)); // now evictable, and over budget: it goes
    QVERIFY(!m_store->contains(a));
    QCOMPARE(m_store->store(url("http://127.0.0.1/c"), 200, {}, bodyOf(100, 'c')),
             StoreResult::Stored);
}

void tst_OfflineCopyStore::loweringTheBudgetEvicts()
{
    for (int i = 0; i < 10; ++i)
        QCOMPARE(m_store->store(QUrl(QStringLiteral("http://127.0.0.1/%1").arg(i)), 200, {},
                                bodyOf(1000, 'x')),
                 StoreResult::Stored);
    QCOMPARE(m_store->maximumSize(), 200 * 1024 * 1024);
    m_store->setMaximumSize(3500);
    QCOMPARE(m_store->count(), 3);
    QVERIFY(m_store->contains(url("http://127.0.0.1/9"))); // the newest stay
    QVERIFY(!m_store->contains(url("http://127.0.0.1/6")));
}

void tst_OfflineCopyStore::copyLargerThanBudgetIsNotStored()
{
    m_store->setMaximumSize(1024 * 1024);
    QCOMPARE(m_store->store(image, 200, {}, "small old image"), StoreResult::Stored);
    QCOMPARE(m_store->store(image, 200, {}, bodyOf(1024 * 1024 + 1, 'h')), StoreResult::TooLarge);
    QCOMPARE(m_store->store(image, 200, {}, bodyOf(1024 * 1024 + 1, 'h'), true),
             StoreResult::TooLarge);
    QCOMPARE(m_store->lookup(image)->body, QByteArray("small old image"));
    QVERIFY(m_store->size() < 1000);
}

void tst_OfflineCopyStore::survivesReopen()
{
    m_store->setMaximumSize(3500);
    const QUrl a = url("http://127.0.0.1/a"), b = url("http://127.0.0.1/b"),
               c = url("http://127.0.0.1/c"), d = url("http://127.0.0.1/d");
    m_store->setAccountKey(QStringLiteral("alice"));
    QCOMPARE(m_store->store(a, 200, jsonHeaders(), bodyOf(1000, 'a'), true), StoreResult::Stored);
    QCOMPARE(m_store->store(b, 200, jsonHeaders(), bodyOf(1000, 'b')), StoreResult::Stored);
    QCOMPARE(m_store->store(c, 200, jsonHeaders(), bodyOf(1000, 'c')), StoreResult::Stored);
    QVERIFY(m_store->lookup(b)); // a use, written when the store closes
    m_store.reset();

    m_now = t0.addDays(1);
    m_store = openStore();
    QVERIFY(m_store);
    m_store->setMaximumSize(3500);
    QVERIFY(!m_store->lookup(a)); // another account until the key is set again
    m_store->setAccountKey(QStringLiteral("alice"));
    const auto copy = m_store->lookup(a);
    QVERIFY(copy);
    QCOMPARE(copy->body, bodyOf(1000, 'a'));
    QCOMPARE(copy->headers, jsonHeaders());
    QCOMPARE(copy->storedAt, t0);
    QVERIFY(copy->pinned);
    QVERIFY(copy->noCache);
    // b was used after c before the restart: c goes first.
    QCOMPARE(m_store->store(d, 200, {}, bodyOf(1000, 'd')), StoreResult::Stored);
    QVERIFY(m_store->contains(a));
    QVERIFY(m_store->contains(b));
    QVERIFY(!m_store->contains(c));
}

void tst_OfflineCopyStore::twoInstancesShareADirectory()
{
    const qint64 budget = 40 * 1024;
    std::unique_ptr<OfflineCopyDatabase> other = openStore();
    QVERIFY(other);
    m_store->setMaximumSize(budget);
    other->setMaximumSize(budget);

    QCOMPARE(m_store->store(entry, 200, jsonHeaders(), "from the first"), StoreResult::Stored);
    QCOMPARE(other->lookup(entry)->body, QByteArray("from the first"));

    const quint32 seed = 7;
    QRandomGenerator random(seed);
    for (int i = 0; i < 150; ++i) {
        OfflineCopyDatabase &store = random.bounded(2) ? *m_store : *other;
        const QUrl u(QStringLiteral("http://127.0.0.1/shared/%1").arg(random.bounded(30)));
        const QByteArray body = bodyOf(random.bounded(500, 6000), char('a' + i % 26));
        QCOMPARE(store.store(u, 200, {}, body), StoreResult::Stored);
        QVERIFY2(store.size() <= budget, qPrintable(QStringLiteral("seed %1").arg(seed)));
        OfflineCopyDatabase &reader = &store == m_store.get() ? *other : *m_store;
        const auto seen = reader.lookup(u); // may have been evicted by nothing: it is the newest
        QVERIFY2(seen && seen->body == body, qPrintable(QStringLiteral("seed %1").arg(seed)));
    }
    const int count = m_store->count();
    QCOMPARE(other->count(), count);
    m_store.reset();
    other.reset();
    QCOMPARE(onFile(m_dir->path(), QStringLiteral("PRAGMA integrity_check")).toString(),
             QStringLiteral("ok"));
    QCOMPARE(onFile(m_dir->path(), QStringLiteral("SELECT count(*) FROM copies")).toInt(), count);
}

void tst_OfflineCopyStore::newFileOpenedByManyAtOnce()
{
    // Two instances of an app starting together on a new directory: SQLite refuses the
    // second switch to WAL at once, without its busy handler. Both must get their copies.
    constexpr int rounds = 300;
    constexpr int openers = 3;
    for (int round = 0; round < rounds; ++round) {
        const QString directory = m_dir->filePath(QStringLiteral("together-%1").arg(round));
        QVERIFY(QDir().mkpath(directory));
        std::atomic<int> failures { 0 };
        KeepTrying::Test::runAtOnce(openers, [&](int) {
            OfflineCopyDatabase store;
            if (!store.open(directory))
                ++failures;
        });
        QVERIFY2(failures == 0,
                 qPrintable(QStringLiteral("round %1: %2 of %3 could not open")
                                .arg(round)
                                .arg(failures.load())
                                .arg(openers)));
    }
}

void tst_OfflineCopyStore::closedStoreMisses()
{
    OfflineCopyDatabase store;
    QVERIFY(!store.isOpen());
    QVERIFY(!store.lookup(entry));
    QVERIFY(!store.contains(entry));
    QCOMPARE(store.store(entry, 200, {}, "x"), StoreResult::Failed);
    QCOMPARE(store.refresh(entry, {}), RefreshResult::Failed);
    QVERIFY(!store.remove(entry));
    store.clear(QString());
    QCOMPARE(store.count(), -1);
}

void tst_OfflineCopyStore::unusableDirectory()
{
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.offlinecopy.warning=false"));
    QFile blocker(m_dir->filePath(QStringLiteral("a-file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    OfflineCopyDatabase store;
    QVERIFY(!store.open(m_dir->filePath(QStringLiteral("a-file/copies"))));
    QVERIFY(!store.lookup(entry));
}

QTEST_GUILESS_MAIN(tst_OfflineCopyStore)
#include "tst_offlinecopystore.moc"
