// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "library/localstore.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

// The reader's own database: what the screen shows, offline included.
class tst_LocalStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void mergeAddsAndUpdates();
    void filtersAndCounts();
    void searchTitleDomainAndContent_data();
    void searchTitleDomainAndContent();
    void refreshKeepsPendingFields();
    void confirmAndFail();
    void undoPutsServerVersionBack();
    void sweepRemovesWhatServerLacks();
    void survivesReopen();
    void addedArticleBecomesServerArticle();
    void picturesFollowTheServer();
    void storedTextsAreAnnounced();

private:
    static Article article(qint64 id, const QString &title, bool starred = false,
                           bool archived = false, const QStringList &tags = {});
    QTemporaryDir *m_dir = nullptr;
    LocalStore *m_store = nullptr;
};

Article tst_LocalStore::article(qint64 id, const QString &title, bool starred, bool archived,
                                const QStringList &tags)
{
    Article a;
    a.id = id;
    a.title = title;
    a.url = QUrl(QStringLiteral("https://site%1.example/a").arg(id));
    a.domain = QStringLiteral("site%1.example").arg(id);
    a.starred = starred;
    a.archived = archived;
    a.tags = tags;
    for (int i = 0; i < tags.size(); ++i)
        a.tagIds.insert(tags.at(i), i + 1);
    a.createdAt = QDateTime(QDate(2024, 1, 1), QTime(0, 0), Qt::UTC).addDays(id);
    a.updatedAt = a.createdAt;
    return a;
}

void tst_LocalStore::init()
{
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_store = new LocalStore;
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(QStringLiteral("store.sqlite")), &error),
             qPrintable(error));
}

void tst_LocalStore::cleanup()
{
    delete m_store;
    m_store = nullptr;
    delete m_dir;
    m_dir = nullptr;
}

void tst_LocalStore::mergeAddsAndUpdates()
{
    QSignalSpy reset(m_store, &LocalStore::reset);
    m_store->mergeFromServer(
        { article(1, QStringLiteral("One")), article(2, QStringLiteral("Two")) });
    QCOMPARE(reset.size(), 1);
    QCOMPARE(m_store->articleCount(), 2);
    m_store->mergeFromServer({ article(2, QStringLiteral("Two, retitled"), true) });
    QCOMPARE(m_store->articleCount(), 2);
    const Article two = m_store->article(2);
    QCOMPARE(two.title, QStringLiteral("Two, retitled"));
    QVERIFY(two.starred);
    QCOMPARE(two.syncState, SyncState::Saved);
    // Newest first.
    const QList<Article> all = m_store->articles({ LocalStore::View::All, {}, {} });
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).id, 2);
}

void tst_LocalStore::filtersAndCounts()
{
    m_store->mergeFromServer(
        { article(1, QStringLiteral("a"), true, false, { QStringLiteral("qt") }),
          article(2, QStringLiteral("b"), false, true,
                  { QStringLiteral("qt"), QStringLiteral("net") }),
          article(3, QStringLiteral("c"), true, true), article(4, QStringLiteral("d")) });
    const LocalStore::Counts c = m_store->counts();
    QCOMPARE(c.all, 4);
    QCOMPARE(c.unread, 2);
    QCOMPARE(c.starred, 2);
    QCOMPARE(c.archive, 2);
    QCOMPARE(c.tags.size(), 2);
    QCOMPARE(c.tags.at(0), qMakePair(QStringLiteral("net"), 1));
    QCOMPARE(c.tags.at(1), qMakePair(QStringLiteral("qt"), 2));
    QCOMPARE(m_store->articles({ LocalStore::View::Unread, {}, {} }).size(), 2);
    QCOMPARE(m_store->articles({ LocalStore::View::All, QStringLiteral("qt"), {} }).size(), 2);
    QCOMPARE(m_store->articles({ LocalStore::View::Archive, QStringLiteral("qt"), {} }).size(), 1);
}

void tst_LocalStore::searchTitleDomainAndContent_data()
{
    QTest::addColumn<QString>("search");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("title") << QStringLiteral("microwave") << QList<qint64> { 1 };
    QTest::newRow("domain") << QStringLiteral("site2.example") << QList<qint64> { 2 };
    QTest::newRow("content, offline") << QStringLiteral("backoff") << QList<qint64> { 2 };
    QTest::newRow("two words, both needed")
        << QStringLiteral("wifi microwave") << QList<qint64> { 1 };
    QTest::newRow("wildcards are literal") << QStringLiteral("100%") << QList<qint64> {};
    QTest::newRow("nothing") << QStringLiteral("zeppelin") << QList<qint64> {};
}

void tst_LocalStore::searchTitleDomainAndContent()
{
    QFETCH(QString, search);
    QFETCH(QList<qint64>, expected);
    m_store->mergeFromServer({ article(1, QStringLiteral("Wifi and the microwave")),
                               article(2, QStringLiteral("Retries")) });
    m_store->setContent(2, QStringLiteral("<p>Exponential backoff with jitter.</p>"));
    QList<qint64> found;
    for (const Article &a : m_store->articles({ LocalStore::View::All, {}, search }))
        found << a.id;
    QCOMPARE(found, expected);
}

void tst_LocalStore::refreshKeepsPendingFields()
{
    m_store->mergeFromServer(
        { article(1, QStringLiteral("One"), false, false, { QStringLiteral("x") }) });
    m_store->setStarred(1, true);
    m_store->setTags(1, { QStringLiteral("x"), QStringLiteral("y") });
    QCOMPARE(m_store->article(1).syncState, SyncState::Waiting);
    // The server has not seen the change yet: its list still says not starred.
    m_store->mergeFromServer(
        { article(1, QStringLiteral("One (new title)"), false, true, { QStringLiteral("x") }) });
    const Article a = m_store->article(1);
    QVERIFY(a.starred); // the user's change stays on screen
    QCOMPARE(a.tags, (QStringList { QStringLiteral("x"), QStringLiteral("y") }));
    QVERIFY(a.archived); // a field the user did not touch follows the server
    QCOMPARE(a.title, QStringLiteral("One (new title)"));
    QCOMPARE(m_store->pendingChanges().size(), 2);
}

void tst_LocalStore::confirmAndFail()
{
    m_store->mergeFromServer({ article(1, QStringLiteral("One")) });
    m_store->setStarred(1, true);
    m_store->setArchived(1, true);
    m_store->confirm(1, LocalStore::Field::Starred, {}, QUrl());
    QCOMPARE(m_store->article(1).syncState, SyncState::Waiting); // archive still waits
    m_store->fail(1, LocalStore::Field::Archived, QStringLiteral("refused (403)"));
    QCOMPARE(m_store->article(1).syncState, SyncState::Failed);
    QCOMPARE(m_store->article(1).syncError, QStringLiteral("refused (403)"));
    QCOMPARE(m_store->failedArticles().size(), 1);
    QVERIFY(m_store->pendingChanges().isEmpty()); // a refused change is not sent again
}

void tst_LocalStore::undoPutsServerVersionBack()
{
    m_store->mergeFromServer(
        { article(1, QStringLiteral("One"), false, false, { QStringLiteral("x") }) });
    m_store->setStarred(1, true);
    m_store->setTags(1, {});
    m_store->markDeleted(1);
    QCOMPARE(m_store->articleCount(), 0);
    m_store->revert(1);
    const Article a = m_store->article(1);
    QCOMPARE(m_store->articleCount(), 1);
    QVERIFY(!a.starred);
    QCOMPARE(a.tags, QStringList { QStringLiteral("x") });
    QCOMPARE(a.syncState, SyncState::Saved);
}

void tst_LocalStore::sweepRemovesWhatServerLacks()
{
    m_store->mergeFromServer({ article(1, QStringLiteral("a")), article(2, QStringLiteral("b")),
                               article(3, QStringLiteral("c")) });
    m_store->setStarred(3, true); // pending: kept until the server has answered
    QCOMPARE(m_store->sweep({ 1 }), 1);
    QCOMPARE(m_store->article(2).id, 0);
    QCOMPARE(m_store->article(3).id, 3);
    QCOMPARE(m_store->articleCount(), 2);
}

void tst_LocalStore::survivesReopen()
{
    m_store->mergeFromServer({ article(1, QStringLiteral("One")) });
    m_store->setArchived(1, true);
    m_store->setScrollPosition(1, 420);
    m_store->setValue(QStringLiteral("k"), QStringLiteral("v"));
    delete m_store;
    m_store = new LocalStore;
    QVERIFY(m_store->open(m_dir->filePath(QStringLiteral("store.sqlite"))));
    QVERIFY(m_store->article(1).archived);
    QCOMPARE(m_store->scrollPosition(1), 420);
    QCOMPARE(m_store->value(QStringLiteral("k")), QStringLiteral("v"));
    QCOMPARE(m_store->pendingChanges().size(), 1);
}

void tst_LocalStore::addedArticleBecomesServerArticle()
{
    const qint64 local = m_store->addLocal(QUrl(QStringLiteral("https://new.example/x")));
    QVERIFY(local < 0);
    QCOMPARE(m_store->article(local).syncState, SyncState::Waiting);
    const QJsonObject entry { { QStringLiteral("id"), 77 },
                              { QStringLiteral("title"), QStringLiteral("New") },
                              { QStringLiteral("url"), QStringLiteral("https://new.example/x") } };
    m_store->confirm(local, LocalStore::Field::Added, entry,
                     QUrl(QStringLiteral("http://127.0.0.1")));
    QCOMPARE(m_store->article(local).id, 0);
    QCOMPARE(m_store->article(77).title, QStringLiteral("New"));
    QCOMPARE(m_store->articleCount(), 1);
}

void tst_LocalStore::picturesFollowTheServer()
{
    // The built-in server listens on another port each run: its pictures must still load.
    m_store->setServer(QUrl(QStringLiteral("http://127.0.0.1:4000")));
    Article a = article(1, QStringLiteral("One"));
    a.previewPicture = QUrl(QStringLiteral("http://127.0.0.1:4000/images/p.png"));
    Article b = article(2, QStringLiteral("Two"));
    b.previewPicture = QUrl(QStringLiteral("https://cdn.example/p.png"));
    m_store->mergeFromServer({ a, b });
    m_store->setServer(QUrl(QStringLiteral("http://127.0.0.1:5000")));
    QCOMPARE(m_store->article(1).previewPicture,
             QUrl(QStringLiteral("http://127.0.0.1:5000/images/p.png")));
    QCOMPARE(m_store->article(2).previewPicture, QUrl(QStringLiteral("https://cdn.example/p.png")));
}

// The reader downloads a saved article's pictures when its text is stored, one at a time
// or a page at a time: both say so, and an empty text (nothing to read) does not.
void tst_LocalStore::storedTextsAreAnnounced()
{
    QSignalSpy stored(m_store, &LocalStore::contentStored);
    m_store->setContent(1, QStringLiteral("<p>one</p>"));
    QCOMPARE(stored.size(), 1);
    QCOMPARE(stored.at(0).at(0).toLongLong(), 1);
    stored.clear();
    m_store->setContents({ { 2, QStringLiteral("<p>two</p>") },
                           { 3, QStringLiteral("<img src=\"/a.png\">") },
                           { 4, QString() } });
    QCOMPARE(stored.size(), 2);
    QSet<qint64> ids;
    for (const QList<QVariant> &arguments : stored)
        ids.insert(arguments.at(0).toLongLong());
    QCOMPARE(ids, (QSet<qint64> { 2, 3 }));
}

QTEST_GUILESS_MAIN(tst_LocalStore)
#include "tst_localstore.moc"
