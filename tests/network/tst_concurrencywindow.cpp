// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The adaptive concurrency window per origin: scouts, slow start after an outage, halving on
// overload, slots held by shed answers and given back at deadlines.

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QThread>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_ConcurrencyWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void concurrencyWindowFollowsOverload();
    void concurrencyWindowSwitchedOffAndOn();
    void scoutGoesAloneToAnOriginNotSeenAlive_data();
    void scoutGoesAloneToAnOriginNotSeenAlive();
    void releaseAfterOutageIsPacedByAnswers_data();
    void releaseAfterOutageIsPacedByAnswers();
    void shedAnswerHoldsItsSlot_data();
    void shedAnswerHoldsItsSlot();
    void lostConnectionAmongLiveOnesIsNoOutage();
    void longResponseDoesNotHoldTheWindow();
    void longPollDoesNotStarveTheShrunkWindow_data();
    void longPollDoesNotStarveTheShrunkWindow();
    void deadlineFreesASlotGrantedBeforeItsAttempt();
};

void tst_ConcurrencyWindow::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

// A server that serves one request at a time and sheds the rest with 503: the window
// shrinks to one, so far fewer requests are shed than with every request on its own; it grows
// again with answers. Every request completes once.
void tst_ConcurrencyWindow::concurrencyWindowFollowsOverload()
{
    int rejected[2] = { 0, 0 };
    for (bool adaptive : { false, true }) {
        Demo::DemoServer server;
        QVERIFY(server.listen() != 0);
        server.setMaxConcurrent(1);
        server.setServiceTime(30);
        RetryingNetworkAccessManager manager;
        manager.setAdaptiveConcurrencyEnabled(adaptive);
        QCOMPARE(manager.isAdaptiveConcurrencyEnabled(), adaptive);
        RetryPolicy policy = fastPolicy();
        policy.maxAttempts = 1000;
        manager.setRetryPolicy(policy);
        switchOffBreakerAndBudget(manager); // the window alone
        const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
        QCOMPARE(manager.concurrencyLimit(url), 6);

        std::vector<std::unique_ptr<QNetworkReply>> replies;
        int finished = 0;
        for (int i = 0; i < 12; ++i) {
            replies.emplace_back(manager.get(QNetworkRequest(url)));
            connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, 12, 15000);
        for (const auto &reply : replies)
            QCOMPARE(reply->error(), QNetworkReply::NoError);
        rejected[adaptive] = server.stats().value(QStringLiteral("capacity_rejections")).toInt();
        if (adaptive)
            QVERIFY(manager.concurrencyLimit(url) >= 1);
    }
    QVERIFY2(rejected[1] * 2 < rejected[0],
             qPrintable(QStringLiteral("shed with the window: %1, without: %2")
                            .arg(rejected[1])
                            .arg(rejected[0])));
}

// Switching the window off lets the queue go; switching it on again starts from the truth.
void tst_ConcurrencyWindow::concurrencyWindowSwitchedOffAndOn()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setServiceTime(200);
    RetryingNetworkAccessManager manager;
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    int finished = 0;
    const auto get = [&] {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    };
    for (int i = 0; i < 10; ++i)
        get();
    QTest::qWait(50); // six in flight, four queued
    manager.setAdaptiveConcurrencyEnabled(false);
    QTRY_COMPARE_WITH_TIMEOUT(finished, 10, 10000);
    manager.setAdaptiveConcurrencyEnabled(true);
    for (int i = 0; i < 3; ++i)
        get();
    QTRY_COMPARE_WITH_TIMEOUT(finished, 13, 10000);
}

// An origin never seen alive gets one attempt, a scout, until its connection is up: a server
// that is down costs one refused connection, not one per request; a live one gets the whole
// window as soon as the scout's request went out, long before its answer.
void tst_ConcurrencyWindow::scoutGoesAloneToAnOriginNotSeenAlive_data()
{
    QTest::addColumn<bool>("serverUp");
    QTest::newRow("connections refused") << false;
    QTest::newRow("server answering slowly") << true;
}

void tst_ConcurrencyWindow::scoutGoesAloneToAnOriginNotSeenAlive()
{
    QFETCH(bool, serverUp);
    constexpr int count = 10;
    Demo::DemoServer server;
    QUrl url;
    if (serverUp) {
        QVERIFY(server.listen() != 0);
        server.setServiceTime(1000);
        url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    } else {
        url = QUrl(QStringLiteral("http://127.0.0.1/"));
        url.setPort(closedPort());
    }
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(nullptr);
    int attempts = 0;
    connect(&manager, &RetryingNetworkAccessManager::attemptStarted, this, [&] { ++attempts; });
    int finished = 0;
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < count; ++i) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QCOMPARE(attempts, 1); // the scout
    if (serverUp) {
        // Once its request is out, the window's six: all before any answer.
        QTRY_COMPARE_WITH_TIMEOUT(server.stats().value(QStringLiteral("total_requests")).toInt(), 6,
                                  900);
        QCOMPARE(finished, 0);
        QCOMPARE(attempts, 6);
        for (const auto &reply : replies)
            reply->abort();
        return;
    }
    const auto allWaiting = [&] {
        return std::all_of(replies.cbegin(), replies.cend(), [](const auto &reply) {
            return qobject_cast<RetryingReply *>(reply.get())->isWaitingForConnectivity();
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allWaiting(), 2000);
    QCOMPARE(attempts, 1);
    QCOMPARE(finished, 0);
}

// After an outage the window restarts at one, and the first answers come one at a time:
// every client that waited comes back at once, and a server fresh from a restart must not
// get their backlogs in one burst. Without the window, the backlog goes out together.
void tst_ConcurrencyWindow::releaseAfterOutageIsPacedByAnswers_data()
{
    QTest::addColumn<bool>("adaptive");
    QTest::addColumn<int>("minPeak");
    QTest::addColumn<int>("maxPeak");
    QTest::newRow("window") << true << 1 << 1;
    QTest::newRow("no window (control)") << false << 3 << 10;
}

void tst_ConcurrencyWindow::releaseAfterOutageIsPacedByAnswers()
{
    QFETCH(bool, adaptive);
    QFETCH(int, minPeak);
    QFETCH(int, maxPeak);
    constexpr int count = 10;
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setServiceTime(30);
    RetryingNetworkAccessManager manager;
    manager.setAdaptiveConcurrencyEnabled(adaptive);
    manager.reachability()->setBackend(nullptr);
    manager.reachability()->setProbeSchedule(50, 50);
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));

    server.goDown(300);
    QVERIFY(server.isDown());
    int finished = 0;
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < count; ++i) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QSignalSpy back(&server, &Demo::DemoServer::downChanged);
    QVERIFY(back.wait(5000));
    server.resetStats();
    QTRY_COMPARE_WITH_TIMEOUT(finished, count, 10000);
    for (const auto &reply : replies)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    const int peak = server.stats().value(QStringLiteral("peak_in_progress")).toInt();
    QVERIFY2(peak >= minPeak && peak <= maxPeak, qPrintable(QString::number(peak)));
}

// A server that sheds load answers 503 at once. The slot of a shed attempt stays taken for
// one smoothed round trip, so a client does not ask again and again within one round trip
// of the request the server is busy with.
void tst_ConcurrencyWindow::shedAnswerHoldsItsSlot_data()
{
    QTest::addColumn<bool>("adaptive");
    QTest::newRow("window") << true;
    QTest::newRow("no window (control)") << false;
}

void tst_ConcurrencyWindow::shedAnswerHoldsItsSlot()
{
    QFETCH(bool, adaptive);
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    server.setMaxConcurrent(1);
    server.setServiceTime(200);
    RetryingNetworkAccessManager manager;
    manager.setAdaptiveConcurrencyEnabled(adaptive);
    RetryPolicy policy;
    policy.initialDelayMs = 1;
    policy.maxDelayMs = 1;
    policy.jitter = Jitter::None;
    policy.maxAttempts = 10000;
    manager.setRetryPolicy(policy);
    switchOffBreakerAndBudget(manager); // the window alone
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));

    // One answer first: the round trip is 200 ms.
    std::unique_ptr<QNetworkReply> first(manager.get(QNetworkRequest(url)));
    QSignalSpy firstDone(first.get(), &QNetworkReply::finished);
    QVERIFY(firstDone.wait(5000));
    QCOMPARE(first->error(), QNetworkReply::NoError);

    // Two at once: one is served, the other shed until the first is done.
    server.resetStats();
    std::unique_ptr<QNetworkReply> a(manager.get(QNetworkRequest(url)));
    std::unique_ptr<QNetworkReply> b(manager.get(QNetworkRequest(url)));
    QSignalSpy aDone(a.get(), &QNetworkReply::finished);
    QSignalSpy bDone(b.get(), &QNetworkReply::finished);
    QVERIFY(aDone.wait(5000));
    QVERIFY(bDone.count() == 1 || bDone.wait(5000));
    QCOMPARE(a->error(), QNetworkReply::NoError);
    QCOMPARE(b->error(), QNetworkReply::NoError);
    const int shed = server.stats().value(QStringLiteral("capacity_rejections")).toInt();
    if (adaptive)
        QVERIFY2(shed <= 3, qPrintable(QString::number(shed))); // see the window's rules
    else
        QVERIFY2(shed >= 10, qPrintable(QString::number(shed))); // a retry every millisecond
}

// One connection lost while five others to the same origin are alive is a glitch, not an
// outage: the window restarts at one and grows back with their answers (slow start up to half
// of what was in flight), rather than sending the next requests one at a time.
void tst_ConcurrencyWindow::lostConnectionAmongLiveOnesIsNoOutage()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    // Qt itself sends a request again, up to three times, when its connection closes before
    // any response: four drops make the loss reach us.
    QVERIFY(server.addFault(QStringLiteral("route=/images/preview-02.png,drop=before-headers,"
                                           "count=4")));
    QVERIFY(server.addFault(QStringLiteral("route=/images/preview-01.png,latency=150")));
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(nullptr);
    const QUrl live = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    const QUrl lost = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-02.png")));

    std::unique_ptr<QNetworkReply> warmUp(manager.get(QNetworkRequest(live)));
    QSignalSpy warmedUp(warmUp.get(), &QNetworkReply::finished);
    QVERIFY(warmedUp.wait(5000));
    QCOMPARE(manager.concurrencyLimit(live), 6);

    // Six in flight (the lost one and five live ones), four more waiting for the window.
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    int finished = 0;
    const auto get = [&](const QUrl &url) {
        replies.emplace_back(manager.get(QNetworkRequest(url)));
        connect(replies.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    };
    get(lost);
    for (int i = 0; i < 9; ++i)
        get(live);
    // Measure the second wave: from the first answer of the first.
    connect(replies[1].get(), &QNetworkReply::finished, this, [&] { server.resetStats(); });
    QTRY_COMPARE_WITH_TIMEOUT(finished, 10, 10000);
    for (const auto &reply : replies)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    // Three at once as the live answers come (one at a time would never pass two here).
    const int peak = server.stats().value(QStringLiteral("peak_in_progress")).toInt();
    QVERIFY2(peak >= 3, qPrintable(QString::number(peak)));
}

// After a lost connection the window is one; a response that streams on and on (an event
// stream, a long download) has been answered and must not keep every other request to the
// origin waiting until it ends.
void tst_ConcurrencyWindow::longResponseDoesNotHoldTheWindow()
{
    Test::TestServer server;
    QVERIFY(server.listen());
    int streamRequests = 0;
    server.setHandler([&](const Test::TestServer::Request &request, int) {
        if (!request.target.startsWith("/stream"))
            return Test::TestServer::respond(200, "ok");
        if (++streamRequests <= 4) // Qt itself tries up to four connections per attempt
            return Test::TestServer::Response { QByteArray(), Test::TestServer::Response::Abort };
        Test::TestServer::Response endless = Test::TestServer::cutOff(200, 1000000, "data: 1\n");
        endless.ending = Test::TestServer::Response::Stall;
        return endless;
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.waitForConnectivity = false; // the lost connection is retried, not waited out
    manager.setRetryPolicy(policy);

    std::unique_ptr<QNetworkReply> stream(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/stream")))));
    QSignalSpy streaming(stream.get(), &QNetworkReply::readyRead);
    QVERIFY(streaming.wait(5000));
    QCOMPARE(manager.concurrencyLimit(server.url()), 1);
    std::vector<std::unique_ptr<QNetworkReply>> others;
    int finished = 0;
    for (int i = 0; i < 5; ++i) {
        others.emplace_back(
            manager.get(QNetworkRequest(server.url(QStringLiteral("/api/%1").arg(i)))));
        connect(others.back().get(), &QNetworkReply::finished, this, [&] { ++finished; });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, 5, 5000);
    for (const auto &reply : others)
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    QVERIFY(!stream->isFinished());
    stream->abort();
}

void tst_ConcurrencyWindow::longPollDoesNotStarveTheShrunkWindow_data()
{
    QTest::addColumn<bool>("headersFirst");
    QTest::newRow("headers, then a held body") << true;
    QTest::newRow("nothing until something happens") << false;
}

// Two 503s shrink the window to one; a long poll then goes, which the server holds until
// something happens (with its headers sent, or nothing at all yet). A normal GET to the same
// origin is served while the long poll is still open: the window limits new load on a
// struggling origin, it does not queue requests behind one the server holds on purpose.
void tst_ConcurrencyWindow::longPollDoesNotStarveTheShrunkWindow()
{
    QFETCH(bool, headersFirst);
    Test::TestServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const Test::TestServer::Request &request, int) {
        if (request.target.startsWith("/busy"))
            return Test::TestServer::respond(503, "busy");
        if (request.target.startsWith("/poll")) {
            if (!headersFirst)
                return Test::TestServer::stall();
            return Test::TestServer::Response { Test::TestServer::head(200, 100),
                                                Test::TestServer::Response::Stall };
        }
        return Test::TestServer::respond(200, "ok");
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager); // the window alone
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 2;
    manager.setRetryPolicy(policy);

    std::unique_ptr<QNetworkReply> busy(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/busy")))));
    QSignalSpy busyDone(busy.get(), &QNetworkReply::finished);
    QVERIFY(busyDone.wait(5000));
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(manager.concurrencyLimit(server.url()), 1);

    std::unique_ptr<QNetworkReply> poll(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/poll")))));
    QTRY_COMPARE_WITH_TIMEOUT(server.requestCount(), 3, 5000);
    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<QNetworkReply> get(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/entries")))));
    QSignalSpy getDone(get.get(), &QNetworkReply::finished);
    QVERIFY(getDone.wait(10000));
    QCOMPARE(get->error(), QNetworkReply::NoError);
    QVERIFY(!poll->isFinished()); // served while the long poll is still open
    qInfo("GET served after %lld ms while the long poll held the only slot", clock.elapsed());
    poll->abort();
}

// A request waiting for a slot whose deadline passes just as it is granted one (the deadline
// timer was overdue on a busy event loop, and the slot came free first) must give the slot
// back, even though it ends with its last error answer; else the origin stays a slot short
// for as long as that reply lives.
void tst_ConcurrencyWindow::deadlineFreesASlotGrantedBeforeItsAttempt()
{
    Test::TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const Test::TestServer::Request &request, int) {
        if (request.target.startsWith("/busy"))
            return Test::TestServer::respond(503, "busy");
        if (request.target.startsWith("/slow"))
            return Test::TestServer::stall();
        return Test::TestServer::respond(200, "ok");
    });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager); // the window and the deadline alone
    RetryPolicy policy;
    policy.maxAttempts = 100000;
    policy.delay = [](const RetryContext &) { return qint64(5); };
    manager.setRetryPolicy(policy);

    // 503s halve the window to one.
    RetryPolicy withDeadline = policy;
    withDeadline.deadlineMs = 400;
    QNetworkRequest busyRequest(server.url(QStringLiteral("/busy")));
    busyRequest.setAttribute(
        QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
        QVariant::fromValue(withDeadline));
    QElapsedTimer clock;
    clock.start();
    std::unique_ptr<QNetworkReply> busy(manager.get(busyRequest));
    QTRY_COMPARE_WITH_TIMEOUT(manager.concurrencyLimit(server.url()), 1, 2000);
    // The one slot goes to a request that never ends; the busy one waits for it.
    std::unique_ptr<QNetworkReply> slow(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/slow")))));
    QTRY_COMPARE_WITH_TIMEOUT(qobject_cast<RetryingReply *>(slow.get())->attemptCount(), 1, 2000);
    // A busy event loop: the deadline becomes overdue without being delivered; then the slot
    // comes free through a posted event, which runs before timers.
    QThread::msleep(std::max<qint64>(0, 400 - clock.elapsed()) + 50);
    QMetaObject::invokeMethod(
        slow.get(), [&] { slow->abort(); }, Qt::QueuedConnection);
    QTRY_VERIFY_WITH_TIMEOUT(busy->isFinished(), 2000);

    // The busy reply lives on, as finished replies often do; the origin has its slot back.
    std::unique_ptr<QNetworkReply> next(
        manager.get(QNetworkRequest(server.url(QStringLiteral("/next")))));
    QSignalSpy nextDone(next.get(), &QNetworkReply::finished);
    QVERIFY(next->isFinished() || nextDone.wait(3000));
    QCOMPARE(next->error(), QNetworkReply::NoError);
}

QTEST_GUILESS_MAIN(tst_ConcurrencyWindow)
#include "tst_concurrencywindow.moc"
