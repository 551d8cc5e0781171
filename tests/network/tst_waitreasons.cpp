// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Why a request waits and why it gave up, as typed values: one test per kind, each
// checking that the value is true (the origin, the announced end, the fault).

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/giveupreason.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>
#include <KeepTrying/waitreason.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

RetryingReply *getFrom(RetryingNetworkAccessManager &manager, const QUrl &url,
                       const RetryPolicy *policy = nullptr)
{
    QNetworkRequest request(url);
    if (policy) {
        request.setAttribute(
            QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
            QVariant::fromValue(*policy));
    }
    return qobject_cast<RetryingReply *>(manager.get(request));
}

// Every reason a reply announced, and when the attempts started.
struct Recorder
{
    explicit Recorder(RetryingReply *reply)
    {
        QObject::connect(reply, &RetryingReply::waitReasonChanged, reply,
                         [this](const WaitReason &reason) { reasons.append(reason); });
        QObject::connect(reply, &RetryingReply::attemptStarted, reply, [this, reply](int attempt) {
            // Whatever the reply waited for has ended when an attempt starts.
            if (!reasons.isEmpty() && reasons.last().remainingMs() > 0)
                startedEarly = true;
            attempts.append(attempt);
            QVERIFY(!reply->waitReason().isWaiting());
        });
    }
    QList<WaitReason> reasons;
    QList<int> attempts;
    bool startedEarly = false;
    QList<WaitReason::Kind> kinds() const
    {
        QList<WaitReason::Kind> list;
        for (const WaitReason &r : reasons)
            list.append(r.kind());
        return list;
    }
};

} // namespace

class tst_WaitReasons : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0"); }
    void valueType();
    void backoff_data();
    void backoff();
    void offline();
    void unreachableThenOfflineThenUnreachable();
    void breakerOpen();
    void budgetExhausted();
    void windowFull();
    void giveUp_data();
    void giveUp();
    void deadlineWhileOffline();
    void notRetryableIsNoGiveUp();
    void outboxItemWaitReason();
};

void tst_WaitReasons::valueType()
{
    const WaitReason none;
    QCOMPARE(none.kind(), WaitReason::None);
    QVERIFY(!none.isWaiting());
    QCOMPARE(none.remainingMs(), -1);
    QVERIFY(!none.until().isValid());

    const QUrl url(QStringLiteral("https://user:pw@example.org:8443/path?q=1#f"));
    const WaitReason backoff =
        WaitReason::backoff(url, 5000).withFault(503, QNetworkReply::NoError);
    QCOMPARE(backoff.origin(), QUrl(QStringLiteral("https://example.org:8443")));
    QVERIFY(backoff.remainingMs() > 4000 && backoff.remainingMs() <= 5000);
    QCOMPARE(backoff.until().timeSpec(), Qt::UTC);
    QVERIFY(qAbs(QDateTime::currentDateTimeUtc().msecsTo(backoff.until()) - 5000) < 1000);
    QCOMPARE(backoff.httpStatus(), 503);
    QVERIFY(backoff.hasFault());
    QVERIFY(backoff != none);
    const WaitReason copy = backoff;
    QCOMPARE(copy, backoff);

    // Readable from QML: a gadget with properties.
    const QVariant variant = QVariant::fromValue(backoff);
    const QMetaObject &meta = WaitReason::staticMetaObject;
    QCOMPARE(meta.property(meta.indexOfProperty("kind")).readOnGadget(&backoff).toInt(),
             int(WaitReason::Backoff));
    QCOMPARE(meta.property(meta.indexOfProperty("httpStatus")).readOnGadget(&backoff).toInt(), 503);
    QVERIFY(
        meta.property(meta.indexOfProperty("until")).readOnGadget(&backoff).toDateTime().isValid());
    QCOMPARE(variant.value<WaitReason>(), backoff);

    const WaitReason window = WaitReason::windowFull(url, 3);
    QCOMPARE(window.queuedBehind(), 3);
    QCOMPARE(window.remainingMs(), -1);
}

// A 503 with Retry-After waits RetryAfter until the server's time (capped by the policy);
// one without waits Backoff for the policy's delay. The next attempt starts no earlier.
void tst_WaitReasons::backoff_data()
{
    QTest::addColumn<bool>("retryAfter");
    QTest::newRow("Retry-After") << true;
    QTest::newRow("backoff") << false;
}

void tst_WaitReasons::backoff()
{
    QFETCH(bool, retryAfter);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([retryAfter](const TestServer::Request &, int index) {
        if (index > 0)
            return TestServer::respond(200, "ok");
        Headers headers;
        if (retryAfter)
            headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("1")));
        return TestServer::respond(503, "busy", headers);
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 200;
    policy.maxDelayMs = 1000;
    policy.maxRetryAfterMs = 300; // Retry-After: 1 capped to 300 ms: the test stays short
    manager.setRetryPolicy(policy);
    QSignalSpy managerSpy(&manager, &RetryingNetworkAccessManager::waitReasonChanged);
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/r"))));
    Recorder recorder(reply.get());
    QSignalSpy scheduled(reply.get(), &RetryingReply::retryScheduled);
    QElapsedTimer clock;
    clock.start();
    // The reason is current when the string signal comes.
    WaitReason atSchedule;
    connect(reply.get(), &RetryingReply::retryScheduled, this,
            [&] { atSchedule = reply->waitReason(); });
    QCOMPARE(waitForBody(reply.get()), QByteArray("ok"));

    QCOMPARE(scheduled.size(), 1); // the log form still comes
    QCOMPARE(recorder.kinds(),
             (QList<WaitReason::Kind> { retryAfter ? WaitReason::RetryAfter : WaitReason::Backoff,
                                        WaitReason::None }));
    const WaitReason waited = recorder.reasons.first();
    QCOMPARE(atSchedule, waited);
    QCOMPARE(waited.httpStatus(), 503);
    QCOMPARE(waited.origin(), WaitReason::originOf(server.url(QString())));
    QVERIFY(waited.until().isValid());
    // The announced end is the delay the policy or the server chose.
    const qint64 announced = scheduled.first().at(1).toLongLong();
    QCOMPARE(announced, retryAfter ? 300 : 200);
    QVERIFY(waited.deadline().hasExpired());
    QVERIFY2(!recorder.startedEarly, "the retry started before the announced end");
    QCOMPARE(recorder.attempts, QList<int> { 2 }); // the first started inside get()
    QVERIFY(clock.elapsed() >= announced);
    QCOMPARE(reply->waitReason().kind(), WaitReason::None);
    // The manager forwards each change with its reply.
    QCOMPARE(managerSpy.size(), 2);
    QCOMPARE(managerSpy.first().at(0).value<QNetworkReply *>(), reply.get());
    QCOMPARE(managerSpy.first().at(1).value<WaitReason>(), waited);
}

// Simulated offline: the request waits Offline (for its origin), and the switch is on
// whenever that is announced.
void tst_WaitReasons::offline()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "ok"); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    manager.setSimulatedOffline(true);
    QList<bool> offlineWhenAnnounced;
    connect(&manager, &RetryingNetworkAccessManager::waitReasonChanged, this,
            [&](QNetworkReply *, const WaitReason &reason) {
                if (reason.kind() == WaitReason::Offline)
                    offlineWhenAnnounced.append(manager.isSimulatedOffline());
            });
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/o"))));
    QTRY_COMPARE_WITH_TIMEOUT(reply->waitReason().kind(), WaitReason::Offline, 2000);
    QCOMPARE(reply->waitReason().origin(), WaitReason::originOf(server.url(QString())));
    QCOMPARE(reply->waitReason().remainingMs(), -1); // ends when the network is back
    QCOMPARE(server.requestCount(), 0);
    Recorder recorder(reply.get());
    manager.setSimulatedOffline(false);
    QCOMPARE(waitForBody(reply.get()), QByteArray("ok"));
    QVERIFY(!offlineWhenAnnounced.isEmpty());
    QVERIFY(!offlineWhenAnnounced.contains(false));
    QCOMPARE(recorder.kinds().last(), WaitReason::None);
}

// A refused connection: the origin is away, not the network. Going offline while it waits
// changes the reason to Offline, and back.
void tst_WaitReasons::unreachableThenOfflineThenUnreachable()
{
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    manager.reachability()->setBackend(nullptr);
    manager.reachability()->setProbeSchedule(60000, 60000); // no probe ends the wait here
    manager.reachability()->setConnectProbeSchedule(60000);
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(closedPort());
    url.setPath(QStringLiteral("/u"));
    std::unique_ptr<RetryingReply> reply(getFrom(manager, url));
    QTRY_COMPARE_WITH_TIMEOUT(reply->waitReason().kind(), WaitReason::Unreachable, 5000);
    QCOMPARE(reply->waitReason().origin(), WaitReason::originOf(url));
    QCOMPARE(reply->waitReason().networkError(), QNetworkReply::ConnectionRefusedError);
    QCOMPARE(reply->waitReason().httpStatus(), 0);
    QVERIFY(reply->isWaitingForConnectivity());

    QSignalSpy changed(reply.get(), &RetryingReply::waitReasonChanged);
    manager.setSimulatedOffline(true);
    QCOMPARE(reply->waitReason().kind(), WaitReason::Offline);
    manager.setSimulatedOffline(false);
    QCOMPARE(reply->waitReason().kind(), WaitReason::Unreachable);
    QCOMPARE(changed.size(), 2);
    reply->abort();
    QCOMPARE(reply->waitReason().kind(), WaitReason::None);
}

// After repeated failures the breaker opens: the retry waits BreakerOpen with the origin
// and the time the next probe may go.
void tst_WaitReasons::breakerOpen()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    CircuitBreaker::Settings breaker;
    breaker.consecutiveFailures = 1;
    breaker.breakDurationMs = 400;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget;
    budget.enabled = false;
    manager.retryBudget()->setSettings(budget);
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 10;
    manager.setRetryPolicy(policy);
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/b"))));
    Recorder recorder(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(recorder.kinds().contains(WaitReason::BreakerOpen), 3000);
    const WaitReason waited =
        recorder.reasons.at(recorder.kinds().indexOf(WaitReason::BreakerOpen));
    QCOMPARE(waited.origin(), WaitReason::originOf(server.url(QString())));
    QVERIFY(waited.until().isValid());
    QVERIFY2(waited.remainingMs() <= 400, qPrintable(QString::number(waited.remainingMs())));
    QCOMPARE(waited.httpStatus(), 503);
    QCOMPARE(manager.circuitBreaker()->state(server.url(QString())) == CircuitBreaker::Closed,
             false);
    reply->abort();
    QCOMPARE(reply->waitReason().kind(), WaitReason::None);
}

// A spent retry budget: the retry waits BudgetExhausted until a token comes.
void tst_WaitReasons::budgetExhausted()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    CircuitBreaker::Settings breaker;
    breaker.enabled = false;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget;
    budget.maxTokens = 2;
    budget.tokenRatio = 0;
    budget.minRetriesPerSecond = 1;
    manager.retryBudget()->setSettings(budget);
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 10;
    manager.setRetryPolicy(policy);
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/t"))));
    Recorder recorder(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(recorder.kinds().contains(WaitReason::BudgetExhausted), 3000);
    const WaitReason waited =
        recorder.reasons.at(recorder.kinds().indexOf(WaitReason::BudgetExhausted));
    QCOMPARE(waited.origin(), WaitReason::originOf(server.url(QString())));
    QVERIFY(waited.until().isValid());
    QVERIFY(waited.remainingMs() <= 1000);
    QCOMPARE(waited.httpStatus(), 503);
    QVERIFY(reply->isWaitingToRetry());
    reply->abort();
}

// Beyond the origin's concurrency window (one scout for an origin not seen alive yet), the
// others wait WindowFull, each with the number queued ahead of it.
void tst_WaitReasons::windowFull()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "ok"); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    const QUrl url = server.url(QStringLiteral("/w"));
    std::unique_ptr<RetryingReply> first(getFrom(manager, url));
    std::unique_ptr<RetryingReply> second(getFrom(manager, url));
    std::unique_ptr<RetryingReply> third(getFrom(manager, url));
    QCOMPARE(first->waitReason().kind(), WaitReason::None); // the scout goes
    QCOMPARE(second->waitReason().kind(), WaitReason::WindowFull);
    QCOMPARE(second->waitReason().queuedBehind(), 0);
    QCOMPARE(second->waitReason().origin(), WaitReason::originOf(url));
    QCOMPARE(third->waitReason().kind(), WaitReason::WindowFull);
    QCOMPARE(third->waitReason().queuedBehind(), 1);
    QVERIFY(!third->waitReason().hasFault());
    QSignalSpy changed(third.get(), &RetryingReply::waitReasonChanged);
    for (auto *reply : { first.get(), second.get(), third.get() })
        QCOMPARE(waitForBody(reply), QByteArray("ok"));
    QVERIFY(!changed.isEmpty());
    QCOMPARE(changed.last().at(0).value<WaitReason>().kind(), WaitReason::None);
}

void tst_WaitReasons::giveUp_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("expected"); // GiveUpReason::Kind
    QTest::addColumn<int>("status");
    QTest::newRow("attempts") << QStringLiteral("attempts") << int(GiveUpReason::AttemptsExhausted)
                              << 503;
    QTest::newRow("deadline") << QStringLiteral("deadline") << int(GiveUpReason::DeadlineExceeded)
                              << 503;
    QTest::newRow("timeouts") << QStringLiteral("timeouts") << int(GiveUpReason::TimeoutsExhausted)
                              << 0;
}

void tst_WaitReasons::giveUp()
{
    QFETCH(QString, scenario);
    QFETCH(int, expected);
    QFETCH(int, status);
    TestServer server;
    QVERIFY(server.listen());
    const bool stall = scenario == QLatin1String("timeouts");
    server.setHandler([stall](const TestServer::Request &, int) {
        return stall ? TestServer::stall() : TestServer::respond(503, "busy");
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    RetryPolicy policy = fastPolicy();
    if (scenario == QLatin1String("attempts")) {
        policy.maxAttempts = 2;
    } else if (scenario == QLatin1String("deadline")) {
        policy.maxAttempts = 1000;
        policy.deadlineMs = 300;
    } else {
        policy.attemptTimeoutMs = 100;
        policy.maxTimeoutAttempts = 2;
    }
    manager.setRetryPolicy(policy);
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/g"))));
    GiveUpReason atSignal;
    QSignalSpy managerGaveUp(&manager, &RetryingNetworkAccessManager::gaveUp);
    connect(reply.get(), &RetryingReply::gaveUp, this, [&] { atSignal = reply->giveUpReason(); });
    QCOMPARE(reply->giveUpReason().kind(), GiveUpReason::None);
    waitForBody(reply.get(), 5000);
    QVERIFY(reply->isFinished());
    const GiveUpReason reason = reply->giveUpReason();
    QCOMPARE(int(reason.kind()), expected);
    QCOMPARE(atSignal, reason); // set before the log-form signal
    QCOMPARE(managerGaveUp.size(), 1);
    QCOMPARE(reason.httpStatus(), status);
    QCOMPARE(reason.attempts(), reply->attemptCount());
    if (scenario == QLatin1String("attempts"))
        QCOMPARE(reason.attempts(), 2);
    if (stall)
        QVERIFY(reason.networkError() != QNetworkReply::NoError);
    QCOMPARE(reply->waitReason().kind(), WaitReason::None);
}

// The deadline strikes while the request waits for the network: DeadlineExceeded, and what
// it was waiting for.
void tst_WaitReasons::deadlineWhileOffline()
{
    RetryingNetworkAccessManager manager;
    manager.setSimulatedOffline(true);
    RetryPolicy policy = fastPolicy();
    policy.deadlineMs = 150;
    std::unique_ptr<RetryingReply> reply(
        getFrom(manager, QUrl(QStringLiteral("http://127.0.0.1:9/x")), &policy));
    QTRY_COMPARE_WITH_TIMEOUT(reply->waitReason().kind(), WaitReason::Offline, 1000);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 3000);
    QCOMPARE(reply->giveUpReason().kind(), GiveUpReason::DeadlineExceeded);
    QCOMPARE(reply->giveUpReason().waitingFor(), WaitReason::Offline);
}

void tst_WaitReasons::notRetryableIsNoGiveUp()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(404); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<RetryingReply> reply(getFrom(manager, server.url(QStringLiteral("/n"))));
    QSignalSpy changed(reply.get(), &RetryingReply::waitReasonChanged);
    waitForBody(reply.get());
    QCOMPARE(reply->giveUpReason().kind(), GiveUpReason::None);
    QCOMPARE(changed.size(), 0); // it never waited
}

// An outbox item says why it waits too: Offline while the network is down, Backoff until
// its next replay after a failed one.
void tst_WaitReasons::outboxItemWaitReason()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 1; // each replay ends at once; the outbox schedules the next
    manager.setRetryPolicy(policy);
    manager.setSimulatedOffline(true);
    Outbox outbox(dir.filePath(QStringLiteral("outbox.db")), &manager);
    Outbox::Settings settings = outbox.settings();
    settings.initialRetryDelayMs = 5000;
    settings.maxRetryDelayMs = 5000;
    outbox.setSettings(settings);
    QVERIFY(outbox.isUsable());

    QNetworkRequest request(server.url(QStringLiteral("/items")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    const OutboxEnqueueResult added = outbox.enqueue("POST", request, "{}");
    QVERIFY(added.ok());
    QTRY_COMPARE_WITH_TIMEOUT(outbox.waitReason(added.id).kind(), WaitReason::Offline, 2000);
    QCOMPARE(outbox.waitReason(added.id).origin(), WaitReason::originOf(server.url(QString())));
    QCOMPARE(server.requestCount(), 0);

    manager.setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox.item(added.id).state, OutboxItem::State::WaitingToRetry, 5000);
    const WaitReason waiting = outbox.waitReason(added.id);
    QCOMPARE(waiting.kind(), WaitReason::Backoff);
    QVERIFY(waiting.remainingMs() > 0);
    QVERIFY(qAbs(waiting.until().msecsTo(outbox.item(added.id).nextAttemptAt)) < 100);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(outbox.waitReason(424242).kind(), WaitReason::None); // unknown id
}

QTEST_GUILESS_MAIN(tst_WaitReasons)
#include "tst_waitreasons.moc"
