// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "testhelpers.h"

#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Demo::RecordedRequest;

// Adds against a demo server that behaves as wallabag does: no Idempotency-Key, and a
// deduplication by URL that a second POST racing the first one's page fetch slips past.
class tst_SyncAdds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void slowAddIsNeverDuplicated();
    void refusedAddIsSentAgainOnce();
    void addWithExpiredTokenIsMadeOnce();

private:
    bool refresh();
    int posts() const;
    int shown(const QUrl &url) const;

    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    QTemporaryDir m_dir;
    std::unique_ptr<SyncEngine> m_engine;
};

void tst_SyncAdds::init()
{
    QVERIFY(m_dir.isValid());
    QFile::remove(m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    QVERIFY(!(*m_server)->idempotencyKeysHonoured()); // as wallabag
    m_store = std::make_unique<LocalStore>();
    QVERIFY(m_store->open(QStringLiteral(":memory:")));
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    KeepTrying::RetryPolicy policy = KeepTrying::Test::fastPolicy();
    // As the reader's own policy: the manager would put a key on every POST.
    policy.addIdempotencyKey = true;
    // Much shorter than the server's page fetch below: the first attempt times out while
    // the server is still at work on it.
    policy.attemptTimeoutMs = 300;
    m_manager->setRetryPolicy(policy);
    KeepTrying::Test::switchOffBreakerAndBudget(*m_manager);
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer((*m_server)->baseUrl(),
                        { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                          DemoServer::demoUsername(), DemoServer::demoPassword() });
    m_queue = std::make_unique<OutboxChangeQueue>(m_client.get(), m_manager.get(),
                                                  m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    m_engine->setPageSize(50);
    m_engine->setPrefetchContent(false);
}

void tst_SyncAdds::cleanup()
{
    m_engine.reset();
    m_queue.reset();
    m_client.reset();
    m_manager.reset();
    m_store.reset();
    m_server.reset();
}

bool tst_SyncAdds::refresh()
{
    QSignalSpy done(m_engine.get(), &SyncEngine::refreshed);
    QSignalSpy failed(m_engine.get(), &SyncEngine::refreshFailed);
    m_engine->refresh();
    return QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 10000) &&
        !done.isEmpty();
}

int tst_SyncAdds::posts() const
{
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    return int(std::count_if(all.cbegin(), all.cend(), [](const RecordedRequest &r) {
        return r.method == "POST" && r.path == QLatin1String("/api/entries.json");
    }));
}

int tst_SyncAdds::shown(const QUrl &url) const
{
    const QList<Article> all = m_store->articles({ LocalStore::View::All, {}, {} });
    return int(
        std::count_if(all.cbegin(), all.cend(), [&](const Article &a) { return a.url == url; }));
}

// The first POST times out while the server fetches the page (wallabag: up to 10 s, then it
// stores the entry). Sent again at once, it would find no entry yet and make a second one.
// The reader asks exists.json first, waits out the settle time, and takes the entry the
// first POST made.
void tst_SyncAdds::slowAddIsNeverDuplicated()
{
    QVERIFY(refresh());
    const int before = (*m_server)->articleCount();
    m_queue->setAddSettleMs(2000); // longer than the fetch below
    (*m_server)->setAddFetchDelay(1500);
    const QUrl url(QStringLiteral("https://articles.example/slow-to-fetch?a=1+2&b=%C3%A9"));
    const qint64 id = m_engine->addUrl(url);
    QVERIFY(id < 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->waitingCount(), 0, 15000);
    // Every add the server took has ended its fetch: what it stores is stored.
    QTRY_COMPARE_WITH_TIMEOUT((*m_server)->stats().value(QLatin1String("in_progress")).toInt(), 0,
                              5000);
    QCOMPARE((*m_server)->articleCount(), before + 1);
    QCOMPARE(posts(), 1);
    QCOMPARE(m_store->article(id).id, 0); // the stand-in became the server's entry
    QCOMPARE(shown(url), 1);
    QVERIFY(refresh());
    QCOMPARE(shown(url), 1);
    QCOMPARE((*m_server)->articleCount(), before + 1);
}

// The server is down: the POST's connection is refused, so nothing reached it. It goes
// again when the server is back, without waiting for any settle time, and is made once.
void tst_SyncAdds::refusedAddIsSentAgainOnce()
{
    QVERIFY(refresh());
    const int before = (*m_server)->articleCount();
    m_queue->setAddSettleMs(60000); // a needless wait would outlast the test's timeouts
    QSignalSpy attempts(m_manager.get(), &KeepTrying::RetryingNetworkAccessManager::attemptStarted);
    (*m_server)->goDown(60000);
    QTRY_VERIFY_WITH_TIMEOUT((*m_server)->isDown(), 5000);
    const QUrl url(QStringLiteral("https://articles.example/refused-first"));
    const qint64 id = m_engine->addUrl(url);
    QTRY_VERIFY_WITH_TIMEOUT(!attempts.isEmpty(), 5000);
    (*m_server)->comeUp();
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->waitingCount(), 0, 10000);
    QCOMPARE(posts(), 1);
    QCOMPARE((*m_server)->articleCount(), before + 1);
    QCOMPARE(m_store->article(id).id, 0);
    QCOMPARE(shown(url), 1);
    QVERIFY(refresh());
    QCOMPARE(shown(url), 1);
}

// The token expired before an add: the manager does not send a POST without a key twice, so
// the add gets its 401 while the token is renewed; the outbox keeps it in its place and sends
// it again with the new token, at once (a 401 was not processed: no settle time, no check).
void tst_SyncAdds::addWithExpiredTokenIsMadeOnce()
{
    QVERIFY(refresh());
    const int before = (*m_server)->articleCount();
    m_queue->setAddSettleMs(60000); // a needless wait would outlast the test's timeouts
    (*m_server)->expireAccessTokens();
    (*m_server)->resetStats();
    const QUrl url(QStringLiteral("https://articles.example/added-at-expiry"));
    const qint64 id = m_engine->addUrl(url);
    QTRY_COMPARE_WITH_TIMEOUT(m_queue->waitingCount(), 0, 10000);
    QCOMPARE(m_queue->outbox()->deadLetterCount(), 0);
    QCOMPARE((*m_server)->articleCount(), before + 1);
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    const auto tokenRequests =
        std::count_if(all.cbegin(), all.cend(), [](const RecordedRequest &r) {
            return r.method == "POST" && r.path == QLatin1String("/oauth/v2/token");
        });
    QCOMPARE(tokenRequests, 1);
    QCOMPARE(posts(), 2); // refused with the old token, made with the new one
    QCOMPARE(m_store->article(id).id, 0);
    QCOMPARE(shown(url), 1);
    QVERIFY(m_client->isSignedIn());
}

QTEST_GUILESS_MAIN(tst_SyncAdds)
#include "tst_syncadds.moc"
