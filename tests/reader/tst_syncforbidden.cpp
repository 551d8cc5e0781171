// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Another user's entry: wallabag answers 403 for it (WallabagRestController::
// validateUserAccess) on GET, PATCH, DELETE and its tags. The reader refuses that one change
// once, in words, and everything else goes on.

#include "syncfixture.h"
#include "testhelpers.h"

#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Demo::RecordedRequest;

class tst_SyncForbidden : public QObject, protected SyncFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void otherUsersEntryIsRefusedAloneAndOnce();

private:
    int requestsTo(const QByteArray &method, const QString &path) const;
    // An entry saved by the demo server's other user; its id.
    qint64 otherUsersEntry();
};

void tst_SyncForbidden::init()
{
    QVERIFY(start());
    m_engine->setTextPageSize(10);
}

void tst_SyncForbidden::cleanup()
{
    stop();
}

int tst_SyncForbidden::requestsTo(const QByteArray &method, const QString &path) const
{
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    return int(std::count_if(all.cbegin(), all.cend(), [&](const RecordedRequest &r) {
        return r.method == method && r.path == path;
    }));
}

qint64 tst_SyncForbidden::otherUsersEntry()
{
    WallabagClient other(m_manager.get());
    other.setServer((*m_server)->baseUrl(),
                    { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                      DemoServer::otherUsername(), DemoServer::otherPassword() });
    qint64 id = 0;
    other.addEntry(QUrl(QStringLiteral("https://other.example.org/theirs")),
                   [&](const WallabagClient::Result &r) {
                       id = r.ok ? r.json.value(QLatin1String("id")).toInteger() : -1;
                   });
    if (!QTest::qWaitFor([&] { return id != 0; }, 10000))
        return 0;
    return id;
}

void tst_SyncForbidden::otherUsersEntryIsRefusedAloneAndOnce()
{
    QVERIFY(refresh());
    const qint64 theirs = otherUsersEntry();
    QVERIFY(theirs > 0);
    // Not in the demo user's list...
    QVERIFY(refresh());
    QCOMPARE(m_store->article(theirs).id, 0);
    // ...but the store holds it (an id kept from elsewhere): unread, without its text.
    Article held;
    held.id = theirs;
    held.title = QStringLiteral("Theirs");
    held.url = QUrl(QStringLiteral("https://other.example.org/theirs"));
    held.createdAt = held.updatedAt = QDateTime::currentDateTimeUtc();
    m_store->mergeFromServer({ held });
    const QString path = QStringLiteral("/api/entries/%1.json").arg(theirs);

    // Changes to it and to one of the user's own go out together.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("dead letter: HTTP 403")));
    const bool wasStarred = m_store->article(7).starred;
    m_engine->setStarred(theirs, true);
    m_engine->setStarred(7, !wasStarred);
    // The other user's is refused, in words, and kept for the user to decide...
    QTRY_COMPARE_WITH_TIMEOUT(m_store->article(theirs).syncState, SyncState::Failed, 5000);
    QVERIFY2(
        m_store->article(theirs).syncError.contains(QLatin1String("does not let this account")),
        qPrintable(m_store->article(theirs).syncError));
    // ...the user's own is saved.
    QTRY_COMPARE_WITH_TIMEOUT(m_store->article(7).syncState, SyncState::Saved, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->waitingCount(), 0, 5000);
    QCOMPARE(m_queue->outbox()->deadLetterCount(), 1);

    // Its text cannot be read: said once, not asked again and again.
    QSignalSpy contentFailed(m_engine.get(), &SyncEngine::contentFailed);
    m_engine->fetchContent(theirs);
    QTRY_COMPARE_WITH_TIMEOUT(contentFailed.size(), 1, 5000);
    QCOMPARE(contentFailed.constFirst().constFirst().toLongLong(), theirs);
    m_engine->fetchContent(7); // the user moves on

    // Texts for offline reading: every other unread article gets its text.
    m_engine->setPrefetchContent(true);
    QVERIFY(refresh());
    const QList<Article> unread = m_store->articles({ LocalStore::View::Unread, {}, {} });
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(unread.cbegin(), unread.cend(),
                                         [&](const Article &a) {
                                             return a.id == theirs ||
                                                 m_store->article(a.id).hasContent;
                                         }),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(requestsTo("GET", path), 2, 5000); // the user's, the prefetch's
    // The next refresh does not ask for it again, nor is the change sent again.
    QVERIFY(refresh());
    QTest::qWait(200);
    QCOMPARE(requestsTo("PATCH", path), 1);
    QCOMPARE(requestsTo("GET", path), 2);
    QVERIFY(!m_store->article(theirs).hasContent);
    QVERIFY(!m_engine->isRefreshing());
}

QTEST_GUILESS_MAIN(tst_SyncForbidden)
#include "tst_syncforbidden.moc"
