// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Offline copies through the manager: a GET that opts in keeps its last 2xx answer and,
// when it cannot be answered fresh soon, offers it at once while it keeps trying (one
// reply, stale first, fresh later); online reads revalidate it.

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QPointer>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

const Headers wallabagCaching = { { "Cache-Control", "no-cache, private" },
                                  { "Content-Type", "application/json" } };

QNetworkRequest optedIn(const QUrl &url, OfflineCopy::Mode mode = OfflineCopy::Keep,
                        OfflineCopy::Overrides overrides = OfflineCopy::NoOverride)
{
    QNetworkRequest request(url);
    request.setAttribute(OfflineCopy::ModeAttribute, int(mode));
    if (overrides != OfflineCopy::NoOverride)
        request.setAttribute(OfflineCopy::OverrideAttribute, int(overrides));
    return request;
}

RetryingReply *get(RetryingNetworkAccessManager &manager, const QNetworkRequest &request)
{
    auto *reply = qobject_cast<RetryingReply *>(manager.get(request));
    Q_ASSERT(reply);
    return reply;
}

} // namespace

class tst_OfflineCopies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void storeOwnership();

    void offlineStartOffersTheCopyThenTheFresh();
    void slowAnswerOffersTheCopyAfterTheThreshold();
    void fastAnswerOffersNothing();
    void callerIgnoringTheOfferSeesAPlainReply();
    void notModifiedAnswersWithTheCopy();
    void callersOwnConditionalGetsThe304();
    void accountsArePartitions();
    void cachingRules_data();
    void cachingRules();
    void pinnedCopiesSurviveTheBudget();
    void damagedStoreIsAMiss();
    void requestsThatDidNotOptInAreUntouched();
    void answerAfterAnAccountSwitchIsNotKept();
    void redirectedGetKeepsItsOwnUrl();
    void goneRemovesTheCopy_data();
    void goneRemovesTheCopy();
    void notModifiedForAnotherVersionAsksAgain();
    void largeBodiesAreNotKept();

private:
    void makeManager();
    void offerOnlyWhenBlocked(); // no offer by the threshold timer within the test
    void prime(const QUrl &url, const QByteArray &body, const Headers &headers = wallabagCaching,
               OfflineCopy::Mode mode = OfflineCopy::Keep,
               OfflineCopy::Overrides overrides = OfflineCopy::NoOverride);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<RetryingNetworkAccessManager> m_manager;
    OfflineCopyStore *m_copies = nullptr; // owned by m_manager
    QByteArray m_body = "fresh";
    Headers m_headers = wallabagCaching;
};

void tst_OfflineCopies::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server = std::make_unique<TestServer>();
    QVERIFY(m_server->listen());
    m_body = "fresh";
    m_headers = wallabagCaching;
    m_server->setHandler([this](const TestServer::Request &, int) {
        return TestServer::respond(200, m_body, m_headers);
    });
    makeManager();
}

void tst_OfflineCopies::makeManager()
{
    m_manager = std::make_unique<RetryingNetworkAccessManager>();
    switchOffBreakerAndBudget(*m_manager);
    m_manager->setRetryPolicy(fastPolicy());
    m_copies = new OfflineCopyStore; // the manager's (it has no parent)
    QVERIFY(m_copies->open(m_dir->path()));
    m_manager->setOfflineCopyStore(m_copies);
    QCOMPARE(m_copies->parent(), m_manager.get());
    OfflineCopy::Settings settings;
    settings.accountKey = QStringLiteral("http://wallabag.test alice");
    settings.offerAfterMs = 50;
    m_manager->setOfflineCopySettings(settings);
}

void tst_OfflineCopies::offerOnlyWhenBlocked()
{
    OfflineCopy::Settings settings = m_manager->offlineCopySettings();
    settings.offerAfterMs = 60 * 1000;
    m_manager->setOfflineCopySettings(settings);
}

void tst_OfflineCopies::cleanup()
{
    m_manager.reset();
    m_server.reset();
    m_dir.reset();
}

void tst_OfflineCopies::prime(const QUrl &url, const QByteArray &body, const Headers &headers,
                              OfflineCopy::Mode mode, OfflineCopy::Overrides overrides)
{
    m_body = body;
    m_headers = headers;
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url, mode, overrides)));
    QCOMPARE(waitForBody(reply.get()), body);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
}

void tst_OfflineCopies::offlineStartOffersTheCopyThenTheFresh()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries.json?page=1"));
    prime(url, "yesterday's list");
    QVERIFY(m_manager->hasOfflineCopy(url));
    offerOnlyWhenBlocked(); // offline: offered at once, not after a threshold

    m_manager->setSimulatedOffline(true);
    m_body = "today's list";
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QCOMPARE(offered.count(), 0); // never on the caller's stack
    QTRY_COMPARE_WITH_TIMEOUT(offered.count(), 1, 1000);
    QVERIFY(reply->hasStaleCopy());
    QCOMPARE(reply->staleCopyBody(), QByteArray("yesterday's list"));
    QCOMPARE(reply->staleCopyStatus(), 200);
    QVERIFY(reply->staleCopyStoredAt().isValid());
    QCOMPARE(reply->attribute(OfflineCopy::IsStaleAttribute).toBool(), true);
    QVERIFY(reply->attribute(OfflineCopy::StoredAtAttribute).toDateTime().isValid());
    QVERIFY(reply->attribute(OfflineCopy::AgeAttribute).toLongLong() >= 0);
    QVERIFY(!reply->isFinished()); // it keeps trying
    QVERIFY(reply->isWaitingForConnectivity());

    m_manager->setSimulatedOffline(false);
    QCOMPARE(waitForBody(reply.get()), QByteArray("today's list"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(OfflineCopy::IsStaleAttribute).toBool(), false);
    QCOMPARE(offered.count(), 1);
    QCOMPARE(finished.count(), 1);

    // The fresh answer is the copy from now on.
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> next(get(*m_manager, optedIn(url)));
    QSignalSpy nextOffered(next.get(), &RetryingReply::staleCopyOffered);
    QTRY_COMPARE_WITH_TIMEOUT(nextOffered.count(), 1, 1000);
    QCOMPARE(next->staleCopyBody(), QByteArray("today's list"));
}

void tst_OfflineCopies::slowAnswerOffersTheCopyAfterTheThreshold()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/1.json"));
    prime(url, "old");
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 150; // each 503 waits longer than the 50 ms threshold
    policy.maxDelayMs = 150;
    policy.jitter = Jitter::None;
    m_manager->setRetryPolicy(policy);
    const int before = m_server->requestCount();
    m_server->setHandler([&](const TestServer::Request &, int index) {
        return index - before < 2 ? TestServer::respond(503, "busy")
                                  : TestServer::respond(200, "new", wallabagCaching);
    });
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QTRY_COMPARE_WITH_TIMEOUT(offered.count(), 1, 2000);
    QCOMPARE(reply->staleCopyBody(), QByteArray("old"));
    QVERIFY(!reply->isFinished());
    QCOMPARE(waitForBody(reply.get()), QByteArray("new"));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->attribute(OfflineCopy::IsStaleAttribute).toBool(), false);
    QCOMPARE(reply->attemptCount(), 3);
    QCOMPARE(offered.count(), 1);
}

void tst_OfflineCopies::fastAnswerOffersNothing()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/2.json"));
    prime(url, "v1");
    m_body = "v2";
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QCOMPARE(waitForBody(reply.get()), QByteArray("v2"));
    QTest::qWait(100); // past the threshold: an offer now would be a bug
    QCOMPARE(offered.count(), 0);
    QVERIFY(!reply->hasStaleCopy());
    QVERIFY(!reply->attribute(OfflineCopy::IsStaleAttribute).isValid());
}

void tst_OfflineCopies::callerIgnoringTheOfferSeesAPlainReply()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/3.json"));
    prime(url, "kept");
    RetryPolicy policy = fastPolicy();
    policy.deadlineMs = 200;
    m_manager->setRetryPolicy(policy);
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 3000);
    // What a plain reply would say: the deadline passed while offline, no body.
    QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
    QCOMPARE(reply->readAll(), QByteArray());
    QVERIFY(!reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid());
    QVERIFY(reply->hasStaleCopy()); // offered all the same, for those who listen
}

void tst_OfflineCopies::notModifiedAnswersWithTheCopy()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/4.json"));
    Headers tagged = wallabagCaching;
    tagged.append(qMakePair(QByteArray("ETag"), QByteArray("\"v1\"")));
    prime(url, "the article", tagged);

    const int before = m_server->requestCount();
    m_server->setHandler([&](const TestServer::Request &request, int) {
        if (request.header("If-None-Match") == "\"v1\"")
            return TestServer::respond(304, QByteArray(), { { "ETag", "\"v1\"" } });
        return TestServer::respond(200, "should not be sent", tagged);
    });
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy metaData(reply.get(), &QNetworkReply::metaDataChanged);
    QCOMPARE(waitForBody(reply.get()), QByteArray("the article"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->attribute(QNetworkRequest::SourceIsFromCacheAttribute).toBool(), true);
    QCOMPARE(reply->rawHeader("ETag"), QByteArray("\"v1\""));
    QCOMPARE(reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(), 11);
    QCOMPARE(m_server->requestCount(), before + 1);
    QCOMPARE(m_server->requests().last().header("If-None-Match"), QByteArray("\"v1\""));
    QVERIFY(metaData.count() >= 1);
}

void tst_OfflineCopies::callersOwnConditionalGetsThe304()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/5.json"));
    Headers tagged = wallabagCaching;
    tagged.append(qMakePair(QByteArray("ETag"), QByteArray("\"v7\"")));
    prime(url, "body", tagged);
    m_server->setHandler([&](const TestServer::Request &, int) {
        return TestServer::respond(304, QByteArray(), { { "ETag", "\"v7\"" } });
    });
    QNetworkRequest request = optedIn(url);
    request.setRawHeader("If-None-Match", "\"v7\"");
    std::unique_ptr<RetryingReply> reply(get(*m_manager, request));
    QCOMPARE(waitForBody(reply.get()), QByteArray());
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 304);
}

void tst_OfflineCopies::accountsArePartitions()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries.json"));
    prime(url, "alice's articles");
    OfflineCopy::Settings settings = m_manager->offlineCopySettings();
    settings.accountKey = QStringLiteral("http://wallabag.test bob");
    m_manager->setOfflineCopySettings(settings);
    QVERIFY(!m_manager->hasOfflineCopy(url));

    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isWaitingForConnectivity(), 1000);
    QTest::qWait(100);
    QCOMPARE(offered.count(), 0); // never alice's copy to bob

    settings.accountKey = QStringLiteral("http://wallabag.test alice");
    m_manager->setOfflineCopySettings(settings);
    QVERIFY(m_manager->hasOfflineCopy(url));
}

void tst_OfflineCopies::cachingRules_data()
{
    QTest::addColumn<QByteArray>("cacheControl");
    QTest::addColumn<int>("overrides");
    QTest::addColumn<bool>("stored");
    QTest::addColumn<bool>("offered");

    QTest::newRow("no-cache, private (wallabag)")
        << QByteArray("no-cache, private") << 0 << true << true;
    QTest::newRow("no-store") << QByteArray("no-store") << 0 << false << false;
    QTest::newRow("no-store, overridden")
        << QByteArray("no-store") << int(OfflineCopy::StoreDespiteNoStore) << true << true;
    QTest::newRow("must-revalidate")
        << QByteArray("max-age=0, must-revalidate") << 0 << true << false;
    QTest::newRow("must-revalidate, overridden")
        << QByteArray("max-age=0, must-revalidate") << int(OfflineCopy::OfferDespiteMustRevalidate)
        << true << true;
}

void tst_OfflineCopies::cachingRules()
{
    QFETCH(QByteArray, cacheControl);
    QFETCH(int, overrides);
    QFETCH(bool, stored);
    QFETCH(bool, offered);

    const QUrl url = m_server->url(QStringLiteral("/api/rules.json"));
    prime(url, "copy", { { "Cache-Control", cacheControl } }, OfflineCopy::Keep,
          OfflineCopy::Overrides(overrides));
    QCOMPARE(m_manager->hasOfflineCopy(url), stored);
    offerOnlyWhenBlocked();

    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(
        get(*m_manager, optedIn(url, OfflineCopy::Keep, OfflineCopy::Overrides(overrides))));
    QSignalSpy offeredSpy(reply.get(), &RetryingReply::staleCopyOffered);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isWaitingForConnectivity(), 1000);
    QTest::qWait(100);
    QCOMPARE(offeredSpy.count(), offered ? 1 : 0);
    if (offered)
        QCOMPARE(reply->staleCopyBody(), QByteArray("copy"));
}

void tst_OfflineCopies::pinnedCopiesSurviveTheBudget()
{
    m_copies->setMaximumSize(64 * 1024);

    const QUrl saved = m_server->url(QStringLiteral("/api/entries/100.json"));
    prime(saved, QByteArray(20 * 1024, 's'), wallabagCaching, OfflineCopy::KeepPinned);
    for (int i = 0; i < 10; ++i)
        prime(m_server->url(QStringLiteral("/img/%1.png").arg(i)), QByteArray(15 * 1024, 'i'));

    QVERIFY(m_manager->hasOfflineCopy(saved));
    QVERIFY(m_manager->offlineCopiesSize() <= m_copies->maximumSize());
    QVERIFY(!m_manager->hasOfflineCopy(m_server->url(QStringLiteral("/img/0.png")))); // LRU went
    QVERIFY(m_manager->hasOfflineCopy(m_server->url(QStringLiteral("/img/9.png"))));
    QVERIFY(m_manager->pinnedOfflineCopiesSize() >= 20 * 1024);

    QVERIFY(m_manager->setOfflineCopyPinned(saved, false));
    QVERIFY(m_manager->removeOfflineCopy(saved));
    QVERIFY(!m_manager->hasOfflineCopy(saved));
}

void tst_OfflineCopies::damagedStoreIsAMiss()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries.json"));
    prime(url, "v1");
    m_manager.reset();

    // Noise where the database was: a clean miss and a working store, never a crash.
    const QStringList files = QDir(m_dir->path()).entryList({ QStringLiteral("*.sqlite*") });
    QVERIFY(!files.isEmpty());
    for (const QString &name : files) {
        QFile file(m_dir->filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QByteArray(8192, '\x5a'));
    }

    makeManager();
    QVERIFY(!m_manager->hasOfflineCopy(url));
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isWaitingForConnectivity(), 1000);
    QCOMPARE(offered.count(), 0);
    m_manager->setSimulatedOffline(false);
    QCOMPARE(waitForBody(reply.get()), QByteArray("v1"));
    QVERIFY(m_manager->hasOfflineCopy(url)); // the fresh store keeps it again
}

void tst_OfflineCopies::requestsThatDidNotOptInAreUntouched()
{
    const QUrl url = m_server->url(QStringLiteral("/api/plain.json"));
    m_body = "plain";
    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(url)));
    QCOMPARE(waitForBody(reply.get()), QByteArray("plain"));
    QVERIFY(!m_manager->hasOfflineCopy(url));
    QVERIFY(m_server->requests().last().header("If-None-Match").isEmpty());
}

void tst_OfflineCopies::answerAfterAnAccountSwitchIsNotKept()
{
    // The request starts as alice and answers after the app switched to bob: its answer is
    // alice's, so it is stored for nobody, and never offered to bob.
    const QUrl url = m_server->url(QStringLiteral("/api/entries/6.json"));
    const int before = m_server->requestCount();
    m_server->setHandler([&](const TestServer::Request &, int index) {
        return index == before ? TestServer::respond(503, "busy")
                               : TestServer::respond(200, "alice's article", wallabagCaching);
    });
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 200;
    policy.maxDelayMs = 200;
    policy.jitter = Jitter::None;
    m_manager->setRetryPolicy(policy);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isWaitingToRetry(), 2000);
    OfflineCopy::Settings settings = m_manager->offlineCopySettings();
    settings.accountKey = QStringLiteral("http://wallabag.test bob");
    m_manager->setOfflineCopySettings(settings);
    QCOMPARE(waitForBody(reply.get()), QByteArray("alice's article"));
    QVERIFY(!m_manager->hasOfflineCopy(url));
    settings.accountKey = QStringLiteral("http://wallabag.test alice");
    m_manager->setOfflineCopySettings(settings);
    QVERIFY(!m_manager->hasOfflineCopy(url));
}

void tst_OfflineCopies::redirectedGetKeepsItsOwnUrl()
{
    m_server->setHandler([&](const TestServer::Request &request, int) {
        if (request.target.startsWith("/redir"))
            return TestServer::respond(302, QByteArray(), { { "Location", "/target/x" } });
        return TestServer::respond(200, "the target", wallabagCaching);
    });
    const QUrl url = m_server->url(QStringLiteral("/redir/x"));
    std::unique_ptr<RetryingReply> first(get(*m_manager, optedIn(url)));
    QCOMPARE(waitForBody(first.get()), QByteArray("the target"));
    QVERIFY(m_manager->hasOfflineCopy(url)); // what the caller asked for
    QVERIFY(!m_manager->hasOfflineCopy(m_server->url(QStringLiteral("/target/x"))));

    offerOnlyWhenBlocked();
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QTRY_COMPARE_WITH_TIMEOUT(offered.count(), 1, 1000);
    QCOMPARE(reply->staleCopyBody(), QByteArray("the target"));
}

void tst_OfflineCopies::goneRemovesTheCopy_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("kept");
    QTest::newRow("404") << 404 << false;
    QTest::newRow("410") << 410 << false;
    QTest::newRow("403") << 403 << true; // not gone: perhaps signed out
    QTest::newRow("500 (after the retries)") << 500 << true;
}

void tst_OfflineCopies::goneRemovesTheCopy()
{
    QFETCH(int, status);
    QFETCH(bool, kept);
    const QUrl url = m_server->url(QStringLiteral("/api/entries/7.json"));
    prime(url, "deleted elsewhere");
    m_server->setHandler(
        [&](const TestServer::Request &, int) { return TestServer::respond(status, "gone"); });
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    waitForBody(reply.get());
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), status);
    QCOMPARE(m_manager->hasOfflineCopy(url), kept);
}

void tst_OfflineCopies::notModifiedForAnotherVersionAsksAgain()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries/8.json"));
    Headers tagged = wallabagCaching;
    tagged.append(qMakePair(QByteArray("ETag"), QByteArray("\"v1\"")));
    prime(url, "v1", tagged);
    const int before = m_server->requestCount();
    m_server->setHandler([&](const TestServer::Request &request, int) {
        if (!request.header("If-None-Match").isEmpty())
            return TestServer::respond(304, QByteArray(), { { "ETag", "\"other\"" } });
        return TestServer::respond(200, "v2", wallabagCaching);
    });
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QCOMPARE(waitForBody(reply.get()), QByteArray("v2"));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(m_server->requestCount(), before + 2);
    QVERIFY(m_server->requests().last().header("If-None-Match").isEmpty());
}

void tst_OfflineCopies::largeBodiesAreNotKept()
{
    m_copies->setMaximumCopySize(100 * 1024);
    const QUrl small = m_server->url(QStringLiteral("/img/small.png"));
    const QUrl large = m_server->url(QStringLiteral("/img/large.png"));
    prime(small, QByteArray(100 * 1024, 's'));
    prime(large, QByteArray(100 * 1024 + 1, 'l'));
    QVERIFY(m_manager->hasOfflineCopy(small));
    QVERIFY(!m_manager->hasOfflineCopy(large));
}

// setOfflineCopyStore() as QNetworkAccessManager::setCache(): a store without a parent
// becomes the manager's and goes when replaced; one with another owner is only forgotten.
void tst_OfflineCopies::storeOwnership()
{
    const QUrl url = m_server->url(QStringLiteral("/api/entries.json"));
    prime(url, "alice's articles");
    QPointer<AbstractOfflineCopyStore> adopted = m_copies;

    QObject owner;
    auto *own = new OfflineCopyStore(&owner);
    QVERIFY(own->open(m_dir->path())); // the same directory: the same copies
    m_manager->setOfflineCopyStore(own);
    QVERIFY(adopted.isNull()); // replaced, and it was the manager's
    QCOMPARE(own->parent(), &owner);
    QCOMPARE(m_manager->offlineCopyStore(), own);
    QVERIFY(m_manager->hasOfflineCopy(url));

    m_manager->setOfflineCopyStore(nullptr);
    QVERIFY(!m_manager->isOfflineCopyStoreOpen());
    QVERIFY(!m_manager->hasOfflineCopy(url));
    QCOMPARE(m_manager->offlineCopiesSize(), -1);
    QCOMPARE(own->parent(), &owner); // still there, still its owner's
    QVERIFY(own->contains(m_manager->offlineCopySettings().accountKey, url));

    // A store closed meanwhile: the manager works without copies.
    m_manager->setOfflineCopyStore(own);
    own->close();
    QVERIFY(!m_manager->isOfflineCopyStoreOpen());
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<RetryingReply> reply(get(*m_manager, optedIn(url)));
    QSignalSpy offered(reply.get(), &RetryingReply::staleCopyOffered);
    QTest::qWait(100);
    QCOMPARE(offered.count(), 0);
    m_manager->setOfflineCopyStore(nullptr); // before owner goes
}

QTEST_GUILESS_MAIN(tst_OfflineCopies)
#include "tst_offlinecopies.moc"
