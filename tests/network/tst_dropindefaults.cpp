// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The default policy never surprises a call site written for plain QNetworkAccessManager:
// a server that accepts and never answers ends the request as Qt does, after a bounded
// number of attempts; an offline machine is still waited out; the library prints no
// warning for the ordinary life of an outage; a connection lost on a healthy server is
// retried when announced, holding nobody else back.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testserver.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QLoggingCategory>
#include <QtCore/QScopeGuard>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

struct Message
{
    QtMsgType type;
    QByteArray category;
    QString text;
};

std::vector<Message> g_messages;
QtMessageHandler g_previous = nullptr;

void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    g_messages.push_back({ type, QByteArray(context.category), text });
    if (g_previous && type != QtDebugMsg && type != QtInfoMsg)
        g_previous(type, context, text);
}

} // namespace

class tst_DropInDefaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void silentServerEndsLikeQt();
    void silentServerEndsEveryRequestOfABurst_data();
    void silentServerEndsEveryRequestOfABurst();
    void oneAttemptReadsInTheSingular();
    void offlineRequestStillWaits();
    void breakerOpensWithoutAWarning();
    void droppedConnectionOnAHealthyServerRetriesWhenAnnounced();
    void droppedConnectionBeforeAnyAnswerSaysItWaits();
    void deadlineAttributeBoundsOneRequest();
    void typedRepliesWithoutACast();
    void maxRetriesIsMaxAttemptsLessTheFirst_data();
    void maxRetriesIsMaxAttemptsLessTheFirst();
};

void tst_DropInDefaults::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

// Plain Qt first, then ours, against the same server that accepts every connection and never
// answers: the call site set a transfer timeout, so under Qt it ends; with the default policy
// it ends too, with Qt's error, after RetryPolicy::maxTimeoutAttempts attempts.
void tst_DropInDefaults::silentServerEndsLikeQt()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    QNetworkRequest request(server.url(QStringLiteral("/api/entries")));
    request.setTransferTimeout(200);

    QNetworkAccessManager plain;
    std::unique_ptr<QNetworkReply> qtReply(plain.get(request));
    QSignalSpy qtFinished(qtReply.get(), &QNetworkReply::finished);
    QVERIFY(qtFinished.wait(5000));
    const QNetworkReply::NetworkError qtError = qtReply->error();
    const QString qtText = qtReply->errorString();
    QCOMPARE(qtError, QNetworkReply::OperationCanceledError); // what Qt 6.4 does
    const int qtRequests = server.requestCount();
    QCOMPARE(qtRequests, 1);

    RetryingNetworkAccessManager manager; // the default policy
    const RetryPolicy policy = manager.retryPolicy();
    QCOMPARE(policy.maxTimeoutAttempts, 3); // documented in retrypolicy.h and the README
    QSignalSpy waiting(&manager, &RetryingNetworkAccessManager::waitingForConnectivity);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    // Three timeouts and two backoffs of at most 200 and 400 ms; generous for a loaded box.
    QVERIFY(finished.wait(20000));
    QCOMPARE(reply->error(), qtError);
    QCOMPARE(reply->errorString(), qtText);
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), policy.maxTimeoutAttempts);
    QCOMPARE(server.requestCount() - qtRequests, policy.maxTimeoutAttempts);
    // The server accepts connections: it is found reachable (a connect proves it), never
    // waited for as if offline.
    QTRY_VERIFY_WITH_TIMEOUT(manager.reachability()->isReachable(server.url()), 5000);
    QCOMPARE(manager.reachability()->probeCount(), 0);
}

void tst_DropInDefaults::silentServerEndsEveryRequestOfABurst_data()
{
    QTest::addColumn<int>("count");
    QTest::newRow("20 requests") << 20;
    QTest::newRow("50 requests") << 50;
}

// Many requests at once to a server that accepts and never answers. Under plain Qt every one
// ends after one transfer timeout: Qt's timeout also runs while a request waits for one of
// its six connections to the host, so the queued ones end unsent. With the default policy each
// ends too, after at most maxTimeoutAttempts timeouts and the backoff between them, however
// many there are: a request that waits for the origin's window (which a timeout restarts at
// one) spends its own timeout there, counted as a timed-out attempt that was never sent.
void tst_DropInDefaults::silentServerEndsEveryRequestOfABurst()
{
    QFETCH(int, count);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    QNetworkRequest request(server.url(QStringLiteral("/api/entries")));
    constexpr int timeoutMs = 500;
    request.setTransferTimeout(timeoutMs);

    const auto startAll = [&](QNetworkAccessManager &manager, int &ended) {
        std::vector<std::unique_ptr<QNetworkReply>> replies;
        for (int i = 0; i < count; ++i) {
            replies.emplace_back(manager.get(request));
            QObject::connect(replies.back().get(), &QNetworkReply::finished, [&ended] { ++ended; });
        }
        return replies;
    };

    QNetworkAccessManager plain;
    int plainEnded = 0;
    QElapsedTimer plainClock;
    plainClock.start();
    const auto qtReplies = startAll(plain, plainEnded);
    QTRY_COMPARE_WITH_TIMEOUT(plainEnded, count, 10000);
    const qint64 plainMs = plainClock.elapsed();
    for (const auto &reply : qtReplies)
        QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError); // what Qt 6.4 does
    const int plainSent = server.requestCount(); // the others timed out in Qt's queue

    RetryingNetworkAccessManager manager; // the default policy
    const RetryPolicy policy = manager.retryPolicy();
    int ended = 0;
    QElapsedTimer clock;
    clock.start();
    const auto replies = startAll(manager, ended);
    // Each request: maxTimeoutAttempts timeouts (sent or waited) and two backoffs of at most
    // 200 and 400 ms, about 2.1 s whatever the count; a loose bound for a loaded machine,
    // far below the ~count x 1.5 s the requests took one after the other.
    QTRY_COMPARE_WITH_TIMEOUT(ended, count, 15000);
    const qint64 oursMs = clock.elapsed();
    for (const auto &reply : replies) {
        QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
        const int attempts = qobject_cast<RetryingReply *>(reply.get())->attemptCount();
        QVERIFY2(attempts <= policy.maxTimeoutAttempts, qPrintable(QString::number(attempts)));
    }
    QVERIFY(server.requestCount() - plainSent <= count * policy.maxTimeoutAttempts);
    qInfo("%d requests, transfer timeout %d ms: plain Qt ended all in %lld ms (%d sent), ours "
          "in %lld ms (%d sent)",
          count, timeoutMs, plainMs, plainSent, oursMs, server.requestCount() - plainSent);
}

// A count of one reads "1 attempt", never "1 attempts".
void tst_DropInDefaults::oneAttemptReadsInTheSingular()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = manager.retryPolicy();
    policy.deadlineMs = 300;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/slow")))));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(qobject_cast<RetryingReply *>(reply.get())->attemptCount(), 1);
    QCOMPARE(reply->error(), QNetworkReply::TimeoutError);
    QCOMPARE(reply->errorString(), QStringLiteral("The deadline of 300 ms passed after 1 attempt"));
}

// The mission stays: a request that waits because the machine is offline waits, however
// long that takes, and goes when the machine is back.
void tst_DropInDefaults::offlineRequestStillWaits()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "ok"); });
    RetryingNetworkAccessManager manager; // the default policy
    manager.reachability()->setSimulatedOffline(true);
    QNetworkRequest request(server.url(QStringLiteral("/api/entries")));
    request.setTransferTimeout(50);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    // Past anything the timeout limit would allow (3 attempts of 50 ms and their backoff).
    QTest::qWait(1000);
    QVERIFY(!reply->isFinished());
    QVERIFY(retrying->isWaitingForConnectivity());
    QCOMPARE(server.requestCount(), 0);

    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    manager.reachability()->setSimulatedOffline(false);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray("ok"));
}

// A server that fails every request opens the breaker: life as usual for a library made for
// outages, told by signals. Nothing reaches stderr unless the app opts in to the category.
void tst_DropInDefaults::breakerOpensWithoutAWarning()
{
    g_messages.clear();
    g_previous = qInstallMessageHandler(recordMessage);
    const auto restore = qScopeGuard([] { qInstallMessageHandler(g_previous); });

    for (bool optIn : { false, true }) {
        if (optIn)
            QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*.info=true"));
        TestServer server;
        QVERIFY(server.listen());
        server.setHandler(
            [](const TestServer::Request &, int) { return TestServer::respond(503, "busy"); });
        RetryingNetworkAccessManager manager; // the default policy and breaker
        QSignalSpy breaker(manager.circuitBreaker(), &CircuitBreaker::stateChanged);
        std::vector<std::unique_ptr<QNetworkReply>> replies;
        for (int i = 0; i < 12; ++i)
            replies.emplace_back(manager.get(QNetworkRequest(server.url())));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(breaker.cbegin(), breaker.cend(),
                        [](const QList<QVariant> &change) {
                            return change.at(1).value<CircuitBreaker::State>() ==
                                CircuitBreaker::Open;
                        }),
            10000);
        replies.clear();
        if (optIn)
            QLoggingCategory::setFilterRules(QString());
    }

    bool toldWhenAsked = false;
    for (const Message &m : g_messages) {
        // Nothing at warning or worse, ours or Qt's.
        QVERIFY2(m.type == QtDebugMsg || m.type == QtInfoMsg,
                 qPrintable(QString::fromLatin1(m.category) + QLatin1String(": ") + m.text));
        if (m.category == "keeptrying.breaker" && m.type == QtInfoMsg &&
            m.text.contains(QLatin1String(" open for ")))
            toldWhenAsked = true;
    }
    QVERIFY(toldWhenAsked); // the opted-in run saw it, at info
}

// A healthy server (it has just answered) drops one connection before answering: the retry
// goes when retryScheduled() said, without waiting for a reachability probe, and another
// request to the same origin goes at once.
void tst_DropInDefaults::droppedConnectionOnAHealthyServerRetriesWhenAnnounced()
{
    TestServer server;
    QVERIFY(server.listen());
    bool announced = false;
    server.setHandler([&](const TestServer::Request &request, int) {
        // Qt itself sends a request again, up to three times, when its connection closes
        // before any response: dropped until the loss reached us and a retry was announced.
        if (request.target == "/drop" && !announced)
            return TestServer::Response { QByteArray(), TestServer::Response::Abort };
        return TestServer::respond(200, "ok");
    });
    RetryingNetworkAccessManager manager; // the default policy
    QSignalSpy waiting(&manager, &RetryingNetworkAccessManager::waitingForConnectivity);

    std::unique_ptr<QNetworkReply> first(manager.get(QNetworkRequest(server.url())));
    QSignalSpy firstDone(first.get(), &QNetworkReply::finished);
    QVERIFY(firstDone.wait(5000));
    QCOMPARE(first->error(), QNetworkReply::NoError);

    std::unique_ptr<QNetworkReply> dropped(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/drop")))));
    auto *retrying = qobject_cast<RetryingReply *>(dropped.get());
    QElapsedTimer sinceAnnounced;
    qint64 announcedMs = -1;
    qint64 startedAfterMs = -1;
    std::unique_ptr<QNetworkReply> other;
    int otherAttemptsAtOnce = -1;
    connect(retrying, &RetryingReply::retryScheduled, this, [&](int, qint64 delayMs) {
        announcedMs = delayMs;
        announced = true;
        sinceAnnounced.start();
        // Another request to the same origin while this one backs off: it goes at once.
        other.reset(manager.get(QNetworkRequest(server.url(QStringLiteral("/other")))));
        otherAttemptsAtOnce = qobject_cast<RetryingReply *>(other.get())->attemptCount();
    });
    connect(retrying, &RetryingReply::attemptStarted, this, [&](int attempt) {
        if (attempt == 2)
            startedAfterMs = sinceAnnounced.elapsed();
    });
    QSignalSpy droppedDone(dropped.get(), &QNetworkReply::finished);
    QVERIFY(droppedDone.wait(10000));
    QCOMPARE(dropped->error(), QNetworkReply::NoError);
    QCOMPARE(retrying->attemptCount(), 2);
    QVERIFY(announcedMs >= 0);
    QCOMPARE(otherAttemptsAtOnce, 1);
    // Not before the announced time (a precise timer; the clocks round to the millisecond).
    QVERIFY2(startedAfterMs >= announcedMs - 1,
             qPrintable(QStringLiteral("%1 / %2").arg(startedAfterMs).arg(announcedMs)));
    // Nor held for a probe: none was sent, nothing waited for connectivity.
    QCOMPARE(manager.reachability()->probeCount(), 0);
    QCOMPARE(manager.reachability()->connectProbeCount(), 0);
    QCOMPARE(waiting.size(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(other->isFinished(), 5000);
    QCOMPARE(other->error(), QNetworkReply::NoError);
}

// The same drop with nothing answered yet: the origin may be down, so the retry waits for a
// reachability probe, and the signals say so when the announced delay ends: after
// retryScheduled(), waitingForConnectivity(true) comes before the next attempt.
void tst_DropInDefaults::droppedConnectionBeforeAnyAnswerSaysItWaits()
{
    TestServer server;
    QVERIFY(server.listen());
    bool announced = false;
    server.setHandler([&](const TestServer::Request &request, int) {
        if (request.method == "GET" && !announced)
            return TestServer::Response { QByteArray(), TestServer::Response::Abort };
        return TestServer::respond(200, "ok"); // the probe (HEAD) and the retry
    });
    RetryingNetworkAccessManager manager; // the default policy
    // The first probe goes after 0.9 to 1.8 s (the default schedule), after the first
    // backoff (at most 200 ms by default) has ended: the retry waits for it.
    QStringList events;
    connect(
        &manager, &RetryingNetworkAccessManager::attemptStarted, this,
        [&](QNetworkReply *, int attempt) { events << QStringLiteral("attempt %1").arg(attempt); });
    connect(&manager, &RetryingNetworkAccessManager::retryScheduled, this, [&] {
        announced = true;
        events << QStringLiteral("retry scheduled");
    });
    connect(&manager, &RetryingNetworkAccessManager::waitingForConnectivity, this,
            [&](QNetworkReply *, bool waiting) {
                events << (waiting ? QStringLiteral("waiting") : QStringLiteral("not waiting"));
            });
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(events,
             QStringList({ QStringLiteral("attempt 1"), QStringLiteral("retry scheduled"),
                           QStringLiteral("waiting"), QStringLiteral("not waiting"),
                           QStringLiteral("attempt 2") }));
    QVERIFY(manager.reachability()->probeCount() >= 1);
}

// One call site bounds its own request without copying the manager's policy: a server that
// keeps answering 503, a policy that would try a thousand times, and a deadline of 300 ms
// on this request alone.
void tst_DropInDefaults::deadlineAttributeBoundsOneRequest()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(503, "busy"); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = manager.retryPolicy();
    policy.maxAttempts = 1000;
    policy.initialDelayMs = 20;
    policy.maxDelayMs = 50;
    policy.deadlineMs = 0;
    manager.setRetryPolicy(policy);
    manager.setAdaptiveConcurrencyEnabled(false);
    CircuitBreaker::Settings breaker = manager.circuitBreaker()->settings();
    breaker.enabled = false;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget = manager.retryBudget()->settings();
    budget.enabled = false;
    manager.retryBudget()->setSettings(budget);

    QNetworkRequest request(server.url(QStringLiteral("/busy")));
    request.setAttribute(RequestAttributes::Deadline, qint64(300)); // typed: no cast
    std::unique_ptr<RetryingReply> reply(manager.retryingGet(request));
    QVERIFY(reply);
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    // The last answer is what the caller gets, as with the policy's own deadline.
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
    QVERIFY(reply->attemptCount() >= 2);
    QVERIFY(reply->attemptCount() < 1000);
}

// The typed helpers give the RetryingReply of an http(s) request; other schemes are Qt's.
void tst_DropInDefaults::typedRepliesWithoutACast()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.method);
    });
    RetryingNetworkAccessManager manager;
    const QNetworkRequest request(server.url(QStringLiteral("/echo")));
    const std::vector<std::pair<QByteArray, RetryingReply *>> replies = {
        { "GET", manager.retryingGet(request) },
        { "POST", manager.retryingPost(request, "x") },
        { "PUT", manager.retryingPut(request, "x") },
        { "DELETE", manager.retryingDelete(request) },
        { "PATCH", manager.retryingSend(request, "PATCH", "x") },
    };
    for (const auto &[method, reply] : replies) {
        QVERIFY2(reply, method.constData());
        std::unique_ptr<RetryingReply> owned(reply);
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            QVERIFY(finished.wait(5000));
        QCOMPARE(reply->readAll(), method);
    }
    std::unique_ptr<QNetworkReply> plain(
        manager.get(QNetworkRequest(QUrl(QStringLiteral("data:,hi")))));
    QCOMPARE(qobject_cast<RetryingReply *>(plain.get()), nullptr);
}

void tst_DropInDefaults::maxRetriesIsMaxAttemptsLessTheFirst_data()
{
    QTest::addColumn<int>("retries");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<int>("readBack");
    QTest::newRow("none") << 0 << 1 << 0;
    QTest::newRow("four") << 4 << 5 << 4;
    QTest::newRow("negative counts as none") << -3 << 1 << 0;
}

void tst_DropInDefaults::maxRetriesIsMaxAttemptsLessTheFirst()
{
    QFETCH(int, retries);
    QFETCH(int, attempts);
    QFETCH(int, readBack);
    QCOMPARE(RetryPolicy().maxRetries(), RetryPolicy().maxAttempts - 1);
    RetryPolicy policy;
    policy.setMaxRetries(retries);
    QCOMPARE(policy.maxAttempts, attempts);
    QCOMPARE(policy.maxRetries(), readBack);
}

QTEST_GUILESS_MAIN(tst_DropInDefaults)
#include "tst_dropindefaults.moc"
