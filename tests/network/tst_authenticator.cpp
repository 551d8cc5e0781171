// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Credentials that expire: one renewal per account, the requests that got a 401 meanwhile
// sent again once, no renewal loop, writes that must not go twice not re-sent, the
// outbox's order kept, and one renewal across two holders of one credential store.

#include <KeepTrying/authenticator.h>
#include <KeepTrying/credentialstorelock.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkProxy>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace KeepTrying;
using KeepTrying::Test::TestServer;

namespace {

// The token server and the API in one: /token issues a new access token for the current
// refresh token (which then stops working), anything else answers 200 to the current
// access token and 401 to any other.
class TokenServer
{
public:
    enum class TokenFault { None, Drop, Reject };

    TokenServer()
    {
        server.setHandler([this](const TestServer::Request &request, int) {
            if (request.target.startsWith("/token")) {
                ++tokenRequests;
                if (dropsLeft > 0) {
                    --dropsLeft;
                    return TestServer::Response { QByteArray(), TestServer::Response::Abort };
                }
                if (reject || request.body != "refresh=" + refresh)
                    return TestServer::respond(400, "{\"error\":\"invalid_grant\"}");
                ++issued;
                access = "a" + QByteArray::number(issued);
                refresh = "r" + QByteArray::number(issued);
                return TestServer::respond(200, access + ' ' + refresh);
            }
            const QByteArray authorization = request.header("Authorization");
            if (acceptNone || authorization != "Bearer " + access) {
                ++refused;
                return TestServer::respond(401, "expired");
            }
            applied << request.method + ' ' + request.target + ' ' + request.body;
            return TestServer::respond(200, "ok " + request.target);
        });
    }

    TestServer server;
    QByteArray access = "a0";
    QByteArray refresh = "r0";
    int issued = 0;
    int tokenRequests = 0;
    int refused = 0;
    int dropsLeft = 0;
    bool reject = false;
    bool acceptNone = false;
    QList<QByteArray> applied;
};

// Keeps its tokens in memory, or in a file shared with other holders under a
// CredentialStoreLock (read again once the lock is held).
class TokenAuthenticator : public Authenticator
{
public:
    TokenAuthenticator(QNetworkAccessManager *manager, const QUrl &tokenUrl,
                       const QString &storePath = QString())
        : m_manager(manager), m_tokenUrl(tokenUrl), m_storePath(storePath)
    {
        if (!storePath.isEmpty()) {
            m_lock = std::make_unique<CredentialStoreLock>(storePath);
            m_lock->setPollIntervalMs(5);
            readStore();
        }
        setRenewalRetryDelays(20, 100);
    }

    void sign(const QString &, QNetworkRequest &request) const override
    {
        request.setRawHeader("Authorization", "Bearer " + access);
    }

    QByteArray access = "stale";
    QByteArray refresh = "r0";
    int renewals = 0;
    int tokenRequests = 0;

protected:
    void renew(const QString &key) override
    {
        ++renewals;
        if (!m_lock) {
            post(key);
            return;
        }
        const QByteArray had = access;
        m_lock->acquire([this, key, had] {
            readStore();
            if (access != had) {
                // Another holder of the store renewed while this one waited.
                m_lock->release();
                finishRenewal(key, Renewed);
                return;
            }
            post(key);
        });
    }

private:
    void readStore()
    {
        QFile file(m_storePath);
        if (file.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> parts = file.readAll().split(' ');
            if (parts.size() == 2) {
                access = parts.at(0);
                refresh = parts.at(1);
            }
        }
    }
    void writeStore()
    {
        QFile file(m_storePath);
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(access + ' ' + refresh);
    }
    void post(const QString &key)
    {
        ++tokenRequests;
        QNetworkRequest request(m_tokenUrl);
        excludeRequest(request); // the renewal never waits for itself
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
        QNetworkReply *reply = m_manager->post(request, "refresh=" + refresh);
        QObject::connect(reply, &QNetworkReply::finished, this, [this, reply, key] {
            reply->deleteLater();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            Result result = Unavailable;
            if (status == 200) {
                const QList<QByteArray> parts = reply->readAll().split(' ');
                access = parts.value(0);
                refresh = parts.value(1);
                result = Renewed;
                if (m_lock)
                    writeStore();
            } else if (status >= 400 && status < 500) {
                result = Rejected;
            }
            if (m_lock)
                m_lock->release();
            finishRenewal(key, result);
        });
    }

    QNetworkAccessManager *m_manager;
    QUrl m_tokenUrl;
    QString m_storePath;
    std::unique_ptr<CredentialStoreLock> m_lock;
};

} // namespace

class tst_Authenticator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void concurrentRequestsAtExpiryRenewOnce_data();
    void concurrentRequestsAtExpiryRenewOnce();
    void unavailableRenewalKeepsCredentialsAndRetries();
    void renewalAskedDuringBackoffStartsNow();
    void rejectedRenewalDeliversTheCallers401();
    void secondRefusalAfterRenewalIsDelivered();
    void writeWithoutKeyIsNotSentAgain();
    void requestsBeforeARenewalWaitForIt();
    void outboxKeepsOrderPerResource();
    void outboxItemWaitsForSignInAfterRefusal();
    void redirectElsewhereIsNotSignedOrRenewed();
    void twoHoldersOfOneStoreRenewOnce();

private:
    std::unique_ptr<RetryingNetworkAccessManager> makeManager() const;
    QUrl url(const QString &path) const { return m_server->server.url(path); }

    std::unique_ptr<TokenServer> m_server;
};

void tst_Authenticator::init()
{
    m_server = std::make_unique<TokenServer>();
    QVERIFY(m_server->server.listen());
}

void tst_Authenticator::cleanup()
{
    m_server.reset();
}

std::unique_ptr<RetryingNetworkAccessManager> tst_Authenticator::makeManager() const
{
    auto manager = std::make_unique<RetryingNetworkAccessManager>();
    manager->setProxy(QNetworkProxy::NoProxy);
    manager->setRetryPolicy(Test::fastPolicy());
    Test::switchOffBreakerAndBudget(*manager);
    return manager;
}

void tst_Authenticator::concurrentRequestsAtExpiryRenewOnce_data()
{
    QTest::addColumn<bool>("window");
    // Without the window all fifty meet the 401 at once; with it, the first ones do and the
    // rest wait for the renewal before their attempt.
    QTest::newRow("all at once") << false;
    QTest::newRow("adaptive window") << true;
}

void tst_Authenticator::concurrentRequestsAtExpiryRenewOnce()
{
    QFETCH(bool, window);
    auto manager = makeManager();
    manager->setAdaptiveConcurrencyEnabled(window);
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);

    constexpr int count = 50;
    int succeeded = 0;
    int finished = 0;
    int sawAuthenticating = 0;
    for (int i = 0; i < count; ++i) {
        RetryingReply *reply =
            manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/%1").arg(i))));
        QVERIFY(reply);
        connect(reply, &RetryingReply::waitReasonChanged, this, [&](const WaitReason &reason) {
            sawAuthenticating += reason.kind() == WaitReason::Authenticating;
        });
        connect(reply, &QNetworkReply::finished, this, [&, reply, i] {
            ++finished;
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            succeeded += status == 200 && reply->readAll() == "ok /data/" + QByteArray::number(i);
            reply->deleteLater();
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, count, 10000);
    QCOMPARE(succeeded, count);
    QCOMPARE(m_server->tokenRequests, 1);
    QCOMPARE(auth.renewals, 1);
    QVERIFY(m_server->refused >= 1 && m_server->refused <= count);
    QVERIFY(sawAuthenticating >= 1);
    if (!window)
        QCOMPARE(m_server->refused, count); // each one refused once, none twice
}

void tst_Authenticator::unavailableRenewalKeepsCredentialsAndRetries()
{
    // The token server drops the first two renewals (no answer): nothing says the
    // credentials are wrong, so they are kept, the requests wait, and the renewal is tried
    // again after a backoff until it gets through.
    m_server->dropsLeft = 2;
    auto manager = makeManager();
    manager->setAdaptiveConcurrencyEnabled(false); // all five meet the 401 (else some wait)
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    QSignalSpy ended(&auth, &Authenticator::renewalFinished);

    QList<RetryingReply *> replies;
    for (int i = 0; i < 5; ++i)
        replies << manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/%1").arg(i))));
    QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 5000);
    QCOMPARE(ended.first().at(1).value<Authenticator::Result>(), Authenticator::Unavailable);
    QCOMPARE(auth.refresh, QByteArray("r0")); // kept
    QVERIFY(!auth.isRejected(ended.first().at(0).toString()));
    for (RetryingReply *reply : std::as_const(replies)) {
        QVERIFY(!reply->isFinished());
        QCOMPARE(reply->waitReason().kind(), WaitReason::Authenticating);
        QCOMPARE(reply->waitReason().httpStatus(), 401);
    }
    for (RetryingReply *reply : std::as_const(replies))
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    for (RetryingReply *reply : std::as_const(replies)) {
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    }
    QCOMPARE(m_server->tokenRequests, 3);
    QCOMPARE(auth.renewals, 3);
    QCOMPARE(ended.size(), 3);
    QCOMPARE(ended.last().at(1).value<Authenticator::Result>(), Authenticator::Renewed);
}

void tst_Authenticator::renewalAskedDuringBackoffStartsNow()
{
    // After Unavailable the renewal waits to try again; asked for meanwhile (the user
    // pressed Sign In), it tries now rather than after the backoff.
    m_server->dropsLeft = 1;
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    auth.setRenewalRetryDelays(600000, 600000);
    manager->setAuthenticator(&auth);
    QSignalSpy ended(&auth, &Authenticator::renewalFinished);
    RetryingReply *reply = manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/1"))));
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 5000);
    const QString key = ended.first().at(0).toString();
    QVERIFY(auth.isRenewing(key));
    auth.requestRenewal(key);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(m_server->tokenRequests, 2);
    auth.requestRenewal(QString()); // no account: nothing
    QCOMPARE(m_server->tokenRequests, 2);
}

void tst_Authenticator::rejectedRenewalDeliversTheCallers401()
{
    m_server->reject = true;
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    QList<RetryingReply *> replies;
    for (int i = 0; i < 5; ++i)
        replies << manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/%1").arg(i))));
    for (RetryingReply *reply : std::as_const(replies))
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    for (RetryingReply *reply : std::as_const(replies)) {
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
        QCOMPARE(reply->error(), QNetworkReply::AuthenticationRequiredError);
        QCOMPARE(reply->readAll(), QByteArray("expired"));
    }
    QCOMPARE(m_server->tokenRequests, 1);
    // Signed out: the next request gets its 401 without another renewal.
    RetryingReply *later = manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/x"))));
    QTRY_VERIFY_WITH_TIMEOUT(later->isFinished(), 5000);
    QCOMPARE(later->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
    QCOMPARE(m_server->tokenRequests, 1);
    QCOMPARE(auth.renewals, 1);
}

void tst_Authenticator::secondRefusalAfterRenewalIsDelivered()
{
    // The server refuses even the new token: each request is sent again once, then its 401
    // is the answer. No loop of renewals.
    m_server->acceptNone = true;
    auto manager = makeManager();
    manager->setAdaptiveConcurrencyEnabled(false);
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    QList<RetryingReply *> replies;
    for (int i = 0; i < 4; ++i)
        replies << manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/%1").arg(i))));
    for (RetryingReply *reply : std::as_const(replies))
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    for (RetryingReply *reply : std::as_const(replies)) {
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
        QCOMPARE(reply->attemptCount(), 2);
    }
    QCOMPARE(m_server->tokenRequests, 1);
    QCOMPARE(m_server->refused, 8);
}

void tst_Authenticator::writeWithoutKeyIsNotSentAgain()
{
    // A POST without an Idempotency-Key is not sent twice, 401 or not: its 401 is the
    // answer; the renewal still runs, for the requests that follow. A POST with a key is
    // sent again with the new token.
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    QNetworkRequest keyless(url(QStringLiteral("/data/post")));
    keyless.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    RetryingReply *post = manager->retryingPost(keyless, "once");
    QTRY_VERIFY_WITH_TIMEOUT(post->isFinished(), 5000);
    QCOMPARE(post->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
    QCOMPARE(post->attemptCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_server->tokenRequests, 1, 5000);
    int posts = 0;
    for (const TestServer::Request &r : m_server->server.requests())
        posts += r.target == "/data/post";
    QCOMPARE(posts, 1);

    m_server->access = "a-next"; // expires again
    QNetworkRequest keyed = keyless;
    keyed.setRawHeader("Idempotency-Key", "k1");
    RetryingReply *again = manager->retryingPost(keyed, "twice");
    QTRY_VERIFY_WITH_TIMEOUT(again->isFinished(), 5000);
    QCOMPARE(again->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(again->attemptCount(), 2);
    QCOMPARE(m_server->applied, QList<QByteArray> { "POST /data/post twice" });
}

void tst_Authenticator::requestsBeforeARenewalWaitForIt()
{
    // A renewal the app starts (a first sign-in): requests made meanwhile wait for it
    // (WaitReason::Authenticating) and go once, with the new token.
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    const QString key = auth.accountKey(QNetworkRequest(url(QStringLiteral("/data/1"))));
    auth.requestRenewal(key);
    QVERIFY(auth.isRenewing(key));
    RetryingReply *reply = manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/1"))));
    QCOMPARE(reply->waitReason().kind(), WaitReason::Authenticating);
    QCOMPARE(reply->attemptCount(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->attemptCount(), 1);
    QCOMPARE(m_server->refused, 0);
    QCOMPARE(m_server->tokenRequests, 1);
}

void tst_Authenticator::outboxKeepsOrderPerResource()
{
    // Writes queued with an expired token: one renewal, every write delivered (none a dead
    // letter), the writes to each resource applied in the order they were queued.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto manager = makeManager();
    manager->setAdaptiveConcurrencyEnabled(false);
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    Outbox outbox(dir.filePath(QStringLiteral("outbox.db")), manager.get());
    Outbox::Settings settings = outbox.settings();
    settings.initialRetryDelayMs = 20;
    settings.maxRetryDelayMs = 100;
    settings.lockRetryMs = 20;
    settings.maxConcurrentReplays = 4;
    outbox.setSettings(settings);
    QSignalSpy dead(&outbox, &Outbox::itemDeadLettered);
    QList<QByteArray> expected;
    for (int step = 0; step < 3; ++step) {
        for (int resource = 0; resource < 4; ++resource) {
            QNetworkRequest request(url(QStringLiteral("/data/r%1").arg(resource)));
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
            OutboxEnqueueOptions options;
            options.resourceKey = QStringLiteral("r%1").arg(resource);
            const QByteArray body = "step" + QByteArray::number(step);
            QVERIFY(outbox.enqueue("PATCH", request, body, options).ok());
            expected << "PATCH /data/r" + QByteArray::number(resource) + ' ' + body;
        }
    }
    QTRY_COMPARE_WITH_TIMEOUT(outbox.pendingCount(), 0, 10000);
    QCOMPARE(dead.size(), 0);
    QCOMPARE(m_server->tokenRequests, 1);
    QCOMPARE(m_server->applied.size(), expected.size());
    for (int resource = 0; resource < 4; ++resource) {
        const QByteArray prefix = "PATCH /data/r" + QByteArray::number(resource) + ' ';
        QList<QByteArray> order;
        for (const QByteArray &line : std::as_const(m_server->applied)) {
            if (line.startsWith(prefix))
                order << line;
        }
        QCOMPARE(order,
                 (QList<QByteArray> { prefix + "step0", prefix + "step1", prefix + "step2" }));
    }
}

void tst_Authenticator::outboxItemWaitsForSignInAfterRefusal()
{
    // The renewal is refused (signed out): the write is not a dead letter; it waits in its
    // place, and goes as soon as the credentials are renewed again (the user signed in),
    // without waiting out its backoff.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    m_server->reject = true;
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    manager->setAuthenticator(&auth);
    Outbox outbox(dir.filePath(QStringLiteral("outbox.db")), manager.get());
    Outbox::Settings settings = outbox.settings();
    settings.initialRetryDelayMs = 600000; // only a renewal can make it go within the test
    settings.maxRetryDelayMs = 600000;
    outbox.setSettings(settings);
    QSignalSpy dead(&outbox, &Outbox::itemDeadLettered);
    QSignalSpy ended(&auth, &Authenticator::renewalFinished);
    QNetworkRequest request(url(QStringLiteral("/data/w")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    QVERIFY(outbox.enqueue("PUT", request, "kept").ok());
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 5000);
    QCOMPARE(ended.first().at(1).value<Authenticator::Result>(), Authenticator::Rejected);
    QTRY_COMPARE_WITH_TIMEOUT(outbox.items().value(0).state, OutboxItem::State::WaitingToRetry,
                              5000);
    QCOMPARE(outbox.pendingCount(), 1);
    QCOMPARE(dead.size(), 0);

    m_server->reject = false; // the user signs in again
    auth.requestRenewal(ended.first().at(0).toString());
    QTRY_COMPARE_WITH_TIMEOUT(outbox.pendingCount(), 0, 5000);
    QCOMPARE(dead.size(), 0);
    QCOMPARE(m_server->applied, QList<QByteArray> { "PUT /data/w kept" });
}

void tst_Authenticator::redirectElsewhereIsNotSignedOrRenewed()
{
    // A redirect to another origin: the token stays behind, and that origin's 401 is the
    // caller's answer, not a reason to renew this account's token.
    TestServer other;
    QVERIFY(other.listen());
    other.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(401, "not yours"); });
    const QByteArray target = other.url(QStringLiteral("/elsewhere")).toEncoded();
    m_server->server.setHandler([target](const TestServer::Request &, int) {
        return TestServer::respond(302, QByteArray(), { { "Location", target } });
    });
    auto manager = makeManager();
    TokenAuthenticator auth(manager.get(), url(QStringLiteral("/token")));
    auth.access = "a0";
    manager->setAuthenticator(&auth);
    RetryingReply *reply = manager->retryingGet(QNetworkRequest(url(QStringLiteral("/go"))));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 401);
    QCOMPARE(reply->readAll(), QByteArray("not yours"));
    QCOMPARE(auth.renewals, 0);
    QCOMPARE(other.requestCount(), 1);
    QVERIFY(other.requests().first().header("Authorization").isEmpty());
    QCOMPARE(m_server->server.requests().first().header("Authorization"), QByteArray("Bearer a0"));
}

void tst_Authenticator::twoHoldersOfOneStoreRenewOnce()
{
    // Two managers (standing in for two processes) share one credential file, and the
    // server's refresh tokens work once: the two renewals take turns under the lock beside
    // the file, and the second finds the first one's token there: one token request.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(QStringLiteral("credentials"));
    {
        QFile file(store);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("stale r0");
    }
    auto first = makeManager();
    auto second = makeManager();
    first->setAdaptiveConcurrencyEnabled(false);
    second->setAdaptiveConcurrencyEnabled(false);
    TokenAuthenticator authFirst(first.get(), url(QStringLiteral("/token")), store);
    TokenAuthenticator authSecond(second.get(), url(QStringLiteral("/token")), store);
    first->setAuthenticator(&authFirst);
    second->setAuthenticator(&authSecond);

    QList<RetryingReply *> replies;
    for (int i = 0; i < 10; ++i) {
        RetryingNetworkAccessManager *manager = i % 2 ? second.get() : first.get();
        replies << manager->retryingGet(QNetworkRequest(url(QStringLiteral("/data/%1").arg(i))));
    }
    for (RetryingReply *reply : std::as_const(replies))
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    for (RetryingReply *reply : std::as_const(replies))
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(authFirst.renewals, 1);
    QCOMPARE(authSecond.renewals, 1);
    QCOMPARE(authFirst.tokenRequests + authSecond.tokenRequests, 1);
    QCOMPARE(m_server->tokenRequests, 1);
    QCOMPARE(authFirst.access, authSecond.access);
    QVERIFY(!QFile::exists(store + QStringLiteral(".lock")));
}

QTEST_GUILESS_MAIN(tst_Authenticator)
#include "tst_authenticator.moc"
