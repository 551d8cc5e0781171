// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Which probe finds an origin's return (issue 13): a refused origin is probed with bare TCP
// connects (no HTTP reaches it) and, once one is accepted, with one HTTP probe; an origin
// that accepts connections and then fails is probed over HTTP only; and probes go through
// the manager's proxy the way its requests go.

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "socks5testproxy.h"
#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace KeepTrying;
using KeepTrying::Test::closedPort;
using KeepTrying::Test::Socks5TestProxy;
using KeepTrying::Test::TestServer;

namespace {

QUrl loopbackUrl(quint16 port, const QString &path = QStringLiteral("/"))
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port);
    url.setPath(path);
    return url;
}

int countOf(const TestServer &server, const QByteArray &method)
{
    const QList<TestServer::Request> requests = server.requests();
    return int(std::count_if(requests.cbegin(), requests.cend(),
                             [&](const TestServer::Request &r) { return r.method == method; }));
}

// While broken, every request is answered with a reset (no bytes): connections are accepted,
// HTTP fails, as behind a proxy whose backend is dead.
TestServer::Handler resettingUntil(const bool &healthy)
{
    return [&healthy](const TestServer::Request &request, int) {
        if (!healthy)
            return TestServer::Response { QByteArray(), TestServer::Response::Abort };
        return TestServer::respond(200, request.target);
    };
}

// A manager that decides from probes and outcomes only, with no breaker or budget in the way.
std::unique_ptr<RetryingNetworkAccessManager> probingManager()
{
    auto manager = std::make_unique<RetryingNetworkAccessManager>();
    manager->reachability()->setBackend(nullptr);
    manager->setRetryPolicy(Test::fastPolicy());
    Test::switchOffBreakerAndBudget(*manager);
    return manager;
}

} // namespace

class tst_Probes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusedOriginGetsConnectProbes();
    void connectProbeSchedule();
    void acceptedButFailingOriginGetsHttpProbes();
    void acceptedConnectThenFailingHttpSwitchesToHttpProbes();
    void probesGoThroughSocksProxy_data();
    void probesGoThroughSocksProxy();
    void probesGoThroughHttpProxy();
};

void tst_Probes::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

// The server restarts: while its port refuses, only connects go out (no HTTP request, none
// of the waiting request's attempts); the connect that is accepted is followed by one HEAD,
// and the request goes.
void tst_Probes::refusedOriginGetsConnectProbes()
{
    const quint16 port = closedPort();
    auto manager = probingManager();
    Reachability *reachability = manager->reachability();
    std::unique_ptr<QNetworkReply> reply(
        manager->get(QNetworkRequest(loopbackUrl(port, QStringLiteral("/first")))));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(reachability->connectProbeCount() >= 3, 5000);
    QCOMPARE(reachability->probeCount(), 0); // no HTTP probe while the port refuses
    QCOMPARE(retrying->attemptCount(), 1); // and no attempt

    TestServer server;
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.target);
    });
    const qint64 connectsBeforeListen = reachability->connectProbeCount();
    QVERIFY(server.listen(port));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray("/first"));
    QCOMPARE(retrying->attemptCount(), 2);
    // One connect found it listening; then the HEAD, then the request.
    QVERIFY(reachability->connectProbeCount() - connectsBeforeListen <= 1);
    QCOMPARE(reachability->probeCount(), 1);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(server.requests().at(0).method, QByteArray("HEAD"));
    QCOMPARE(server.requests().at(0).target, QByteArray("/"));
    QCOMPARE(server.requests().at(1).method, QByteArray("GET"));
    // The connect probe's connection carried no request.
    QVERIFY2(server.connectionCount() >= server.requestCount() + 1,
             qPrintable(QString::number(server.connectionCount())));
    QVERIFY(reachability->isReachable(loopbackUrl(port)));
}

// The connect probes' rhythm: the first within half an interval, then one per interval
// ±25 % while the outage is young, then the HTTP schedule's backoff. Seen through the
// probe counter, polled every millisecond; only lower bounds on the gaps are checked.
void tst_Probes::connectProbeSchedule()
{
    constexpr qint64 intervalMs = 40;
    constexpr qint64 steadyMs = 300;
    constexpr qint64 backoffMs = 40; // the HTTP schedule's interval, doubling up to…
    constexpr qint64 maxMs = 160;
    Reachability reachability;
    reachability.setBackend(nullptr);
    reachability.setConnectProbeSchedule(intervalMs, steadyMs);
    reachability.setProbeSchedule(backoffMs, maxMs, steadyMs);
    const QUrl url = loopbackUrl(closedPort());
    QElapsedTimer clock;
    // Probe i started after before[i] and at or before probes[i] (the polls around it). On
    // a loaded machine a poll comes late: then only the latest start is known, and a gap is
    // checked as the longest it can have been (probes[i] - before[i - 1]), never shorter.
    std::vector<qint64> probes;
    std::vector<qint64> before;
    qint64 seen = 0;
    qint64 lastPoll = 0;
    QEventLoop loop;
    QTimer poll;
    poll.setTimerType(Qt::PreciseTimer);
    poll.setInterval(1);
    connect(&poll, &QTimer::timeout, &loop, [&] {
        const qint64 now = clock.elapsed();
        const qint64 count = reachability.connectProbeCount();
        for (; seen < count; ++seen) {
            probes.push_back(now);
            before.push_back(lastPoll);
        }
        lastPoll = now;
        if (probes.size() >= 14)
            loop.quit();
    });
    clock.start();
    reachability.reportFailure(url, QNetworkReply::ConnectionRefusedError, nullptr);
    // The schedule's own clock started inside reportFailure(), at most this late.
    const qint64 scheduleStartedBy = clock.elapsed();
    QVERIFY(!reachability.isReachable(url));
    poll.start();
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    loop.exec();
    QVERIFY(probes.size() >= 14);
    QCOMPARE(reachability.probeCount(), 0);

    // QTimer's coarse timers may fire up to 5 % early; the poll sees a probe up to 1 ms late.
    const auto atLeast = [](qint64 ms) { return ms * 95 / 100 - 2; };
    QVERIFY2(probes[0] >= atLeast(intervalMs / 4), qPrintable(QString::number(probes[0])));
    int backoffGaps = 0;
    for (size_t i = 1; i < probes.size(); ++i) {
        const qint64 gap = probes[i] - before[i - 1];
        const QString what = QStringLiteral("connect probe %1 at %2 ms, %3 ms after the one "
                                            "before")
                                 .arg(i)
                                 .arg(probes[i])
                                 .arg(gap);
        // Surely past the young phase only when the previous probe started steadyMs after the
        // latest moment the schedule can have started; else checked as a young gap.
        if (before[i - 1] - scheduleStartedBy < steadyMs) {
            QVERIFY2(gap >= atLeast(intervalMs * 3 / 4), qPrintable(what));
        } else {
            ++backoffGaps;
            QVERIFY2(gap >= atLeast(backoffMs * 2 * 8 / 10), qPrintable(what));
            if (backoffGaps >= 2)
                QVERIFY2(gap >= atLeast(maxMs * 8 / 10), qPrintable(what)); // 80, then 160
        }
    }
    QVERIFY(backoffGaps >= 2);
    const auto young =
        std::count_if(before.cbegin(), before.cend(), [](qint64 t) { return t < steadyMs; });
    QVERIFY2(young >= 4, qPrintable(QString::number(young)));
}

// Connections are accepted and reset (a proxy in front of a dead backend): a connect would
// prove nothing, so only HTTP probes go, and the request goes when one gets an answer.
void tst_Probes::acceptedButFailingOriginGetsHttpProbes()
{
    bool healthy = false;
    TestServer server;
    server.setHandler(resettingUntil(healthy));
    QVERIFY(server.listen());
    auto manager = probingManager();
    Reachability *reachability = manager->reachability();
    reachability->setProbeSchedule(50, 200);
    std::unique_ptr<QNetworkReply> reply(
        manager->get(QNetworkRequest(server.url(QStringLiteral("/first")))));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(countOf(server, "HEAD") >= 2, 5000);
    QCOMPARE(reachability->connectProbeCount(), 0);
    QCOMPARE(countOf(server, "GET") >= 1, true);
    const int getsWhileBroken = countOf(server, "GET");

    healthy = true;
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray("/first"));
    QCOMPARE(reachability->connectProbeCount(), 0);
    QCOMPARE(countOf(server, "GET"), getsWhileBroken + 1);
    // At least one that failed and the one that was answered (Qt itself sends a HEAD again
    // when its connection closes before any response).
    QVERIFY(reachability->probeCount() >= 2);
}

// The port refused, then something accepts connections but fails HTTP: after the connect
// that was accepted and the HEAD that failed, the stream goes on with HTTP probes only.
void tst_Probes::acceptedConnectThenFailingHttpSwitchesToHttpProbes()
{
    const quint16 port = closedPort();
    const QUrl url = loopbackUrl(port);
    Reachability reachability;
    reachability.setBackend(nullptr);
    reachability.setProbeSchedule(50, 200);
    QSignalSpy origins(&reachability, &Reachability::originReachabilityChanged);
    reachability.reportFailure(url, QNetworkReply::ConnectionRefusedError, nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(reachability.connectProbeCount() >= 2, 5000);
    QCOMPARE(reachability.probeCount(), 0);

    bool healthy = false;
    TestServer server;
    server.setHandler(resettingUntil(healthy));
    QVERIFY(server.listen(port));
    QTRY_VERIFY_WITH_TIMEOUT(countOf(server, "HEAD") >= 1, 5000);
    const qint64 connects = reachability.connectProbeCount();
    QTRY_VERIFY_WITH_TIMEOUT(countOf(server, "HEAD") >= 3, 5000);
    QCOMPARE(reachability.connectProbeCount(), connects);
    QVERIFY(!reachability.isReachable(url));

    healthy = true;
    QTRY_VERIFY_WITH_TIMEOUT(reachability.isReachable(url), 5000);
    QCOMPARE(reachability.connectProbeCount(), connects);
    QCOMPARE(origins.size(), 2);
    QCOMPARE(origins.at(1).at(1).toBool(), true);
}

void tst_Probes::probesGoThroughSocksProxy_data()
{
    QTest::addColumn<bool>("refused");
    QTest::newRow("origin refuses: connect probes through the proxy") << true;
    QTest::newRow("origin resets: HTTP probes through the proxy") << false;
}

// A SOCKS5 proxy between the manager and the origin: every probe, connect or HTTP, goes
// through it to the origin, and the origin never sees a connection that did not.
void tst_Probes::probesGoThroughSocksProxy()
{
    QFETCH(bool, refused);
    Socks5TestProxy proxy;
    QVERIFY(proxy.listen());
    auto manager = probingManager();
    manager->setProxy(proxy.proxy());
    Reachability *reachability = manager->reachability();
    reachability->setProbeSchedule(50, 200);
    bool healthy = false;
    TestServer origin;
    origin.setHandler(resettingUntil(healthy));
    const quint16 port = refused ? closedPort() : (origin.listen() ? origin.port() : 0);
    QVERIFY(port != 0);
    const QUrl url = loopbackUrl(port, QStringLiteral("/first"));

    std::unique_ptr<QNetworkReply> reply(manager->get(QNetworkRequest(url)));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    if (refused) {
        QTRY_VERIFY_WITH_TIMEOUT(reachability->connectProbeCount() >= 3, 5000);
        QCOMPARE(reachability->probeCount(), 0);
        // Each connect probe was a CONNECT the proxy tried and the origin refused.
        QVERIFY2(proxy.refused() >= reachability->connectProbeCount(),
                 qPrintable(QStringLiteral("%1 refused, %2 connect probes")
                                .arg(proxy.refused())
                                .arg(reachability->connectProbeCount())));
        QVERIFY(origin.listen(port));
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(countOf(origin, "HEAD") >= 2, 5000);
        QCOMPARE(reachability->connectProbeCount(), 0);
    }
    healthy = true;
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArray("/first"));
    QVERIFY(countOf(origin, "HEAD") >= 1);

    // Everything went through the proxy, to the origin and nowhere else.
    const QList<QPair<QString, quint16>> requests = proxy.connectRequests();
    QVERIFY(!requests.isEmpty());
    for (const auto &[host, targetPort] : requests) {
        QCOMPARE(host, QStringLiteral("127.0.0.1"));
        QCOMPARE(targetPort, port);
    }
    QCOMPARE(origin.connectionCount(), proxy.tunnels());
}

// An HTTP proxy for a plain http origin: requests go to the proxy itself, so the connect
// probes go to the proxy (it is what refused) and the HEAD goes through it to the origin's
// URL. The "proxy" here answers for the origin, which never listens.
void tst_Probes::probesGoThroughHttpProxy()
{
    const quint16 proxyPort = closedPort();
    const quint16 originPort = closedPort();
    auto manager = probingManager();
    manager->setProxy(
        QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("127.0.0.1"), proxyPort));
    Reachability *reachability = manager->reachability();
    const QUrl url = loopbackUrl(originPort, QStringLiteral("/first"));
    std::unique_ptr<QNetworkReply> reply(manager->get(QNetworkRequest(url)));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(reachability->connectProbeCount() >= 2, 5000);
    QCOMPARE(reachability->probeCount(), 0);

    TestServer proxy;
    proxy.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.target);
    });
    QVERIFY(proxy.listen(proxyPort));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    const QByteArray origin = "http://127.0.0.1:" + QByteArray::number(originPort);
    QCOMPARE(reply->readAll(), origin + "/first");
    QCOMPARE(proxy.requestCount(), 2);
    QCOMPARE(proxy.requests().at(0).method, QByteArray("HEAD"));
    QCOMPARE(proxy.requests().at(0).target, origin + '/');
    QCOMPARE(proxy.requests().at(1).method, QByteArray("GET"));
    QCOMPARE(reachability->probeCount(), 1);
}

QTEST_GUILESS_MAIN(tst_Probes)
#include "tst_probes.moc"
