// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The sync engine's reading side against the demo server as it follows wallabag 2.6
// (docs/wallabag.md): metadata lists with "content": null, absolute _links naming the host
// PHP sees, a strict second-precision since, LIMIT/OFFSET pages with no tie-breaker, 404
// past the last page, and dates in the server's own offset.

#include "syncfixture.h"
#include "testhelpers.h"

#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUrlQuery>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Demo::RecordedRequest;

class tst_SyncListing : public QObject, protected SyncFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void emptyTextNeverReplacesOfflineCopy();
    void articlesOpenWithTextAfterRefresh();
    void textsComeAsPages();
    void textsMissedByThePagesComeOneByOne();
    void restartWithinSweepIntervalAsksOnlyChanges();
    void pagesBehindAProxy_data();
    void pagesBehindAProxy();
    void changesWithinTheCursorSecondAreNotMissed();
    void entryMovingAcrossPagesIsNotLost();
    void entriesDeletedWhilePagingDoNotFailRefresh();
    void datesInTheServersOffset_data();
    void datesInTheServersOffset();
    void nullsAndZerosAreCopedWith();

private:
    bool refresh();
    QList<RecordedRequest> lists() const;
    int singleEntryGets() const;
    bool everyUnreadHasText(const QSet<qint64> &except = {}) const;
    // Calls \a action in the server's thread when the \a n-th list request of the
    // current refresh arrives, before it is answered.
    void onListRequest(int n, std::function<void()> action);
    int m_listRequests = 0;
};

void tst_SyncListing::init()
{
    QVERIFY(start());
    m_listRequests = 0;
    connect((*m_server).server(), &DemoServer::requestReceived, this,
            [this](const QByteArray &, const QString &path) {
                if (path.startsWith(QLatin1String("/api/entries.json")))
                    ++m_listRequests;
            },
            Qt::DirectConnection);
}

void tst_SyncListing::cleanup()
{
    stop();
}

bool tst_SyncListing::refresh()
{
    m_listRequests = 0;
    return SyncFixture::refresh(20000);
}

QList<RecordedRequest> tst_SyncListing::lists() const
{
    QList<RecordedRequest> result;
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    for (const RecordedRequest &r : all) {
        if (r.method == "GET" && r.path.startsWith(QLatin1String("/api/entries.json")))
            result << r;
    }
    return result;
}

int tst_SyncListing::singleEntryGets() const
{
    static const QRegularExpression entry(QStringLiteral("^/api/entries/[0-9]+(\\.json)?$"));
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    return int(std::count_if(all.cbegin(), all.cend(), [](const RecordedRequest &r) {
        return r.method == "GET" && entry.match(r.path).hasMatch();
    }));
}

bool tst_SyncListing::everyUnreadHasText(const QSet<qint64> &except) const
{
    const QList<Article> unread = m_store->articles({ LocalStore::View::Unread, {}, {} });
    return !unread.isEmpty() && std::all_of(unread.cbegin(), unread.cend(), [&](const Article &a) {
        return except.contains(a.id) || m_store->article(a.id).content.startsWith(QLatin1Char('<'));
    });
}

void tst_SyncListing::onListRequest(int n, std::function<void()> action)
{
    // Connected after init()'s counter, so it sees the count including this request.
    auto fired = std::make_shared<bool>(false);
    connect((*m_server).server(), &DemoServer::requestReceived, this,
            [this, n, action, fired](const QByteArray &, const QString &path) {
                if (!*fired && path.startsWith(QLatin1String("/api/entries.json")) &&
                    m_listRequests == n) {
                    *fired = true;
                    action();
                }
            },
            Qt::DirectConnection);
}

void tst_SyncListing::emptyTextNeverReplacesOfflineCopy()
{
    Article kept;
    kept.id = 7;
    kept.title = QStringLiteral("Kept");
    kept.hasContent = true;
    kept.content = QStringLiteral("<p>Read on the train</p>");
    m_store->mergeFromServer({ kept });
    // A metadata list: "content": null is not content.
    const Article listed =
        Article::fromJson(QJsonObject { { QStringLiteral("id"), 7 },
                                        { QStringLiteral("title"), QStringLiteral("Kept") },
                                        { QStringLiteral("content"), QJsonValue::Null } },
                          QUrl(QStringLiteral("http://127.0.0.1/")));
    QVERIFY(!listed.hasContent);
    m_store->mergeFromServer({ listed });
    QCOMPARE(m_store->article(7).content, kept.content);
    // Nor is an empty text, where the copy has one...
    Article empty = listed;
    empty.hasContent = true;
    m_store->mergeFromServer({ empty });
    QCOMPARE(m_store->article(7).content, kept.content);
    QVERIFY(m_store->article(7).hasContent);
    // ...also when texts come as a page of the list.
    m_store->setContents({ { 7, QString() } });
    QCOMPARE(m_store->article(7).content, kept.content);
}

void tst_SyncListing::textsComeAsPages()
{
    // An entry each took a request each (5-8 articles a second on a real server): the
    // unread list with its contents brings a page of texts per request.
    (*m_server)->setArticleCount(180);
    m_engine->setPageSize(30);
    m_engine->setTextPageSize(30);
    m_engine->setPrefetchContent(true);
    QVERIFY(refresh());
    QTRY_VERIFY_WITH_TIMEOUT(everyUnreadHasText(), 15000);
    const int unread = int(m_store->articles({ LocalStore::View::Unread, {}, {} }).size());
    QVERIFY(unread > 100);
    QCOMPARE(singleEntryGets(), 0);
    QList<RecordedRequest> pages;
    for (const RecordedRequest &r : lists()) {
        const QUrlQuery query(r.query);
        if (query.queryItemValue(QStringLiteral("detail")) != QLatin1String("full"))
            continue;
        pages << r;
        QCOMPARE(query.queryItemValue(QStringLiteral("archive")), QStringLiteral("0"));
        QCOMPARE(query.queryItemValue(QStringLiteral("sort")), QStringLiteral("created"));
        QCOMPARE(query.queryItemValue(QStringLiteral("perPage")), QStringLiteral("30"));
    }
    QCOMPARE(pages.size(), (unread + 29) / 30);
    // Offline, each opens with its text.
    m_manager->setSimulatedOffline(true);
    QVERIFY(everyUnreadHasText());
}

void tst_SyncListing::textsMissedByThePagesComeOneByOne()
{
    (*m_server)->setArticleCount(120);
    m_engine->setPageSize(50);
    m_engine->setTextPageSize(10);
    m_engine->setPrefetchContent(true);
    // While the second page of texts is asked for, five of the newest entries (page 1,
    // read already) are deleted elsewhere: five others move up onto page 1, unseen.
    const QList<int> deleted = { 120, 119, 118, 117, 116 };
    QSignalSpy done(m_engine.get(), &SyncEngine::refreshed);
    m_listRequests = 0;
    int textPages = 0;
    connect((*m_server).server(), &DemoServer::requestReceived, this,
            [&](const QByteArray &, const QString &path) {
                if (!path.startsWith(QLatin1String("/api/entries.json")) || done.isEmpty())
                    return;
                if (++textPages == 2) {
                    for (int id : deleted)
                        (*m_server)->removeArticle(id);
                }
            },
            Qt::DirectConnection);
    m_engine->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 10000);
    QSet<qint64> gone;
    for (int id : deleted)
        gone.insert(id);
    QTRY_VERIFY_WITH_TIMEOUT(everyUnreadHasText(gone), 15000);
    // As many unread entries as were deleted from page 1 (whose texts came with it) moved
    // up past the walk: they, and only they, are asked for one by one.
    const int unreadDeleted = int(std::count_if(deleted.cbegin(), deleted.cend(), [this](int id) {
        return !m_store->article(id).archived;
    }));
    QVERIFY(unreadDeleted > 0);
    QTRY_COMPARE_WITH_TIMEOUT(singleEntryGets(), unreadDeleted, 5000);
}

void tst_SyncListing::restartWithinSweepIntervalAsksOnlyChanges()
{
    QVERIFY(refresh()); // the first: every page
    QVERIFY(lists().size() > 2);
    // A restart soon after: what changed, one request, not a walk through every page.
    makeEngine();
    (*m_server)->resetStats();
    QVERIFY(refresh());
    QCOMPARE(lists().size(), 1);
    QVERIFY(QUrlQuery(lists().constFirst().query).hasQueryItem(QStringLiteral("since")));
    // Once the interval is over, the full list comes again (it finds deletions).
    makeEngine();
    m_engine->setSweepInterval(1);
    QTest::qWait(5);
    (*m_server)->resetStats();
    QVERIFY(refresh());
    const int total = (*m_server)->articleCount();
    QCOMPARE(lists().size(), 1 + (total + 9) / 10);
}

void tst_SyncListing::articlesOpenWithTextAfterRefresh()
{
    m_engine->setPrefetchContent(true);
    QVERIFY(refresh());
    const QList<Article> unread = m_store->articles({ LocalStore::View::Unread, {}, {} });
    QVERIFY(!unread.isEmpty());
    // Listed without their text (metadata), then fetched for offline reading.
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(unread.cbegin(), unread.cend(),
                    [this](const Article &a) { return !m_store->article(a.id).content.isEmpty(); }),
        15000);
    // One the prefetch leaves out (archived) opens with its text too.
    const QList<Article> archived = m_store->articles({ LocalStore::View::Archive, {}, {} });
    QVERIFY(!archived.isEmpty());
    const qint64 old = archived.constFirst().id;
    QVERIFY(!m_store->article(old).hasContent);
    m_engine->fetchContent(old);
    QTRY_VERIFY_WITH_TIMEOUT(!m_store->article(old).content.isEmpty(), 5000);

    // Another refresh lists everything again (a sweep) with "content": null...
    m_engine->setSweepInterval(0);
    QVERIFY(refresh());
    QVERIFY(!lists().isEmpty());
    // ...and offline, every article still opens with its text.
    m_manager->setSimulatedOffline(true);
    for (const Article &a : unread)
        QVERIFY2(m_store->article(a.id).content.startsWith(QLatin1Char('<')), qPrintable(a.title));
    QVERIFY(m_store->article(old).content.startsWith(QLatin1Char('<')));
}

void tst_SyncListing::pagesBehindAProxy_data()
{
    QTest::addColumn<QString>("publicBase");
    // PHP behind a proxy sees the proxy's hop: another host and port...
    QTest::newRow("internal host") << QStringLiteral("http://internal-host:8080");
    // ...or plain http on port 80 behind a TLS-terminating one (no trusted proxies).
    QTest::newRow("scheme and port") << QStringLiteral("https://127.0.0.1:443");
    QTest::newRow("default port") << QStringLiteral("http://127.0.0.1");
}

void tst_SyncListing::pagesBehindAProxy()
{
    QFETCH(QString, publicBase);
    (*m_server)->setArticleCount(180);
    (*m_server)->setPublicBaseUrl(QUrl(publicBase));
    m_engine->setPageSize(30);
    QVERIFY(refresh());
    QCOMPARE(m_store->articleCount(), 180);
    // Every page asked of the server signed in to, one after the other.
    const QList<RecordedRequest> pages = lists();
    QCOMPARE(pages.size(), 6);
    for (int i = 0; i < pages.size(); ++i) {
        const QUrlQuery query(pages.at(i).query);
        QCOMPARE(query.queryItemValue(QStringLiteral("page")),
                 i == 0 ? QString() : QString::number(i + 1));
        QCOMPARE(query.queryItemValue(QStringLiteral("detail")), QStringLiteral("metadata"));
        QCOMPARE(query.queryItemValue(QStringLiteral("perPage")), QStringLiteral("30"));
    }
}

void tst_SyncListing::changesWithinTheCursorSecondAreNotMissed()
{
    QVERIFY(refresh());
    // One entry changes at second T; the refresh takes T as its cursor.
    const QDateTime t = QDateTime::currentDateTimeUtc().addSecs(3600);
    QVERIFY((*m_server)->setArticleUpdatedAt(1, t));
    QVERIFY(refresh());
    QCOMPARE(m_store->article(1).updatedAt.toSecsSinceEpoch(), t.toSecsSinceEpoch());
    // A bulk change lands later within that same second.
    for (int id = 2; id <= 21; ++id)
        QVERIFY((*m_server)->setArticleUpdatedAt(id, t));
    QVERIFY(refresh());
    for (int id = 2; id <= 21; ++id)
        QCOMPARE(m_store->article(id).updatedAt.toSecsSinceEpoch(), t.toSecsSinceEpoch());
}

void tst_SyncListing::entryMovingAcrossPagesIsNotLost()
{
    QVERIFY(refresh());
    // 25 entries change in one second: three pages of 10, in storage order (no tie-breaker).
    const QDateTime t1 = QDateTime::currentDateTimeUtc().addSecs(3600);
    for (int id = 1; id <= 25; ++id)
        QVERIFY((*m_server)->setArticleUpdatedAt(id, t1));
    // While page 2 is asked for, entry 1 (on page 1) changes again and moves to the end:
    // entry 11 moves up onto page 1, already read.
    const QDateTime t2 = t1.addSecs(5);
    onListRequest(2, [this, t2] { (*m_server)->setArticleUpdatedAt(1, t2); });
    QVERIFY(refresh());
    QCOMPARE(m_store->article(1).updatedAt.toSecsSinceEpoch(), t2.toSecsSinceEpoch());
    for (int id = 2; id <= 25; ++id)
        QVERIFY2(m_store->article(id).updatedAt.toSecsSinceEpoch() == t1.toSecsSinceEpoch(),
                 qPrintable(QString::number(id)));
}

void tst_SyncListing::entriesDeletedWhilePagingDoNotFailRefresh()
{
    const int total = (*m_server)->articleCount();
    const int pages = (total + 9) / 10;
    QVERIFY(total % 10 != 0 && total % 10 <= 5);
    // While the last page is asked for, entries are deleted elsewhere: it is past the end.
    onListRequest(pages, [this] {
        for (int id = 1; id <= 5; ++id)
            (*m_server)->removeArticle(id);
    });
    QVERIFY(refresh());
    QCOMPARE(m_store->articleCount(), total - 5);
    QCOMPARE(m_store->article(1).id, 0);
    QCOMPARE(m_store->article(6).id, 6);
}

void tst_SyncListing::datesInTheServersOffset_data()
{
    QTest::addColumn<int>("offset");
    QTest::newRow("+0200") << 2 * 3600;
    QTest::newRow("-0530") << -(5 * 3600 + 30 * 60);
    QTest::newRow("+0000") << 0;
}

void tst_SyncListing::datesInTheServersOffset()
{
    QFETCH(int, offset);
    (*m_server)->setUtcOffset(offset);
    QVERIFY(refresh());
    // The sample's article 1 was created at 2024-01-05T09:12:00Z, whatever zone says so.
    const QDateTime created(QDate(2024, 1, 5), QTime(9, 12), Qt::UTC);
    QCOMPARE(m_store->article(1).createdAt.toUTC(), created);
    QCOMPARE(m_store->article(1).updatedAt.toUTC(), created.addSecs(5 * 3600));
}

void tst_SyncListing::nullsAndZerosAreCopedWith()
{
    QVERIFY(refresh());
    // 50: domain_name null, 48: preview_picture null, 52: reading_time 0.
    QCOMPARE(m_store->article(50).domain, QStringLiteral("dev.example.org"));
    QVERIFY(m_store->article(48).previewPicture.isEmpty());
    QCOMPARE(m_store->article(52).readingTimeMinutes, 0);
    QVERIFY(!m_store->article(52).title.isEmpty());
}

QTEST_GUILESS_MAIN(tst_SyncListing)
#include "tst_synclisting.moc"
