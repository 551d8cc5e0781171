// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Offline-aware waiting (issue 3): requests park instead of spending attempts while the
// network or their origin cannot be reached, and go exactly once when it can.

#include <KeepTrying/reachability.h>
#include <KeepTrying/reachabilitybackend.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>
#include <QtCore/QProcess>
#include <QtCore/QScopeGuard>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

#include <unistd.h>

using namespace KeepTrying;
using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::TestServer;

namespace {

// A reachability source the test switches by hand.
class FakeBackend : public ReachabilityBackend
{
public:
    explicit FakeBackend(State state) : m_state(state) { }
    State state() const override { return m_state; }
    QString name() const override { return QStringLiteral("fake"); }
    void setState(State state)
    {
        if (state == m_state)
            return;
        m_state = state;
        Q_EMIT stateChanged(state);
    }
    void toggle() { setState(m_state == Online ? Offline : Online); }

private:
    State m_state;
};

// Replies of one batch, with how often each emitted finished(). Declare it after the
// manager: it deletes its replies before the manager goes.
struct Batch
{
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    QHash<const QNetworkReply *, int> finishedCount;
    int finishedTotal = 0;
    std::function<void()> onAllFinished;

    void add(QNetworkReply *reply)
    {
        replies.emplace_back(reply);
        QObject::connect(reply, &QNetworkReply::finished, reply, [this, reply] {
            ++finishedCount[reply];
            if (++finishedTotal == int(replies.size()) && onAllFinished)
                onAllFinished();
        });
    }
    RetryingReply *at(size_t i) const { return qobject_cast<RetryingReply *>(replies[i].get()); }
    int size() const { return int(replies.size()); }
    bool allFinishedOnce() const
    {
        for (const auto &reply : replies) {
            if (finishedCount.value(reply.get()) != 1)
                return false;
        }
        return true;
    }
};

QUrl withIndex(QUrl url, int index)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("n"), QString::number(index));
    url.setQuery(query);
    return url;
}

QUrl demoImageUrl(const DemoServer &server, int index)
{
    QUrl url = server.baseUrl();
    url.setPath(QStringLiteral("/images/preview-01.png"));
    return withIndex(url, index);
}

// How many requests with \a method reached \a path, per value of the "n" query item.
QHash<QString, int> hitsByIndex(const DemoServer &server, const QByteArray &method,
                                const QString &path)
{
    QHash<QString, int> hits;
    const QList<Demo::RecordedRequest> recorded = server.recordedRequests();
    for (const Demo::RecordedRequest &request : recorded) {
        if (request.method == method && request.path == path)
            ++hits[QUrlQuery(request.query).queryItemValue(QStringLiteral("n"))];
    }
    return hits;
}

// Every index 0..count-1 exactly once.
bool eachOnce(const QHash<QString, int> &hits, int count)
{
    if (hits.size() != count)
        return false;
    for (int i = 0; i < count; ++i) {
        if (hits.value(QString::number(i)) != 1)
            return false;
    }
    return true;
}

QHash<QByteArray, int> targetsOf(const TestServer &server)
{
    QHash<QByteArray, int> hits;
    const QList<TestServer::Request> requests = server.requests();
    for (const TestServer::Request &request : requests)
        ++hits[request.method + ' ' + request.target];
    return hits;
}

// Runs `ip ARGS`; returns the exit code (-1 when it could not run) and its stderr.
int runIp(const QStringList &arguments, QString *errorOutput = nullptr)
{
    QProcess ip;
    ip.start(QStringLiteral("ip"), arguments);
    if (!ip.waitForFinished(10000)) {
        ip.kill();
        ip.waitForFinished(1000);
        return -1;
    }
    if (errorOutput)
        *errorOutput = QString::fromLocal8Bit(ip.readAllStandardError()).trimmed();
    return ip.exitStatus() == QProcess::NormalExit ? ip.exitCode() : -1;
}

// Two namespaces joined by a veth pair; everything goes away with the object, whatever
// happened in between.
class NetnsPair
{
public:
    NetnsPair()
    {
        const QString pid = QString::number(QCoreApplication::applicationPid());
        client = QStringLiteral("kt-client-") + pid;
        server = QStringLiteral("kt-server-") + pid;
        clientLink = QStringLiteral("ktc") + pid;
        serverLink = QStringLiteral("kts") + pid;
    }
    ~NetnsPair()
    {
        for (QProcess *process : processes) {
            if (process->state() != QProcess::NotRunning) {
                process->kill();
                process->waitForFinished(3000);
            }
        }
        qDeleteAll(processes);
        // Deleting a namespace deletes the veth end inside it, and with it the pair.
        if (clientCreated)
            runIp({ QStringLiteral("netns"), QStringLiteral("del"), client });
        if (serverCreated)
            runIp({ QStringLiteral("netns"), QStringLiteral("del"), server });
    }

    // Empty on success, else what failed.
    QString setUp()
    {
        QString error;
        if (runIp({ QStringLiteral("netns"), QStringLiteral("add"), server }, &error) != 0)
            return QStringLiteral("ip netns add: ") + error;
        serverCreated = true;
        if (runIp({ QStringLiteral("netns"), QStringLiteral("add"), client }, &error) != 0)
            return QStringLiteral("ip netns add: ") + error;
        clientCreated = true;
        // Both ends are born inside their namespaces: nothing is ever in the host's.
        const QList<QStringList> steps = {
            { QStringLiteral("link"), QStringLiteral("add"), clientLink, QStringLiteral("netns"),
              client, QStringLiteral("type"), QStringLiteral("veth"), QStringLiteral("peer"),
              QStringLiteral("name"), serverLink, QStringLiteral("netns"), server },
            { QStringLiteral("-n"), server, QStringLiteral("addr"), QStringLiteral("add"),
              serverAddress + QStringLiteral("/30"), QStringLiteral("dev"), serverLink },
            { QStringLiteral("-n"), client, QStringLiteral("addr"), QStringLiteral("add"),
              clientAddress + QStringLiteral("/30"), QStringLiteral("dev"), clientLink },
            { QStringLiteral("-n"), server, QStringLiteral("link"), QStringLiteral("set"),
              QStringLiteral("lo"), QStringLiteral("up") },
            { QStringLiteral("-n"), client, QStringLiteral("link"), QStringLiteral("set"),
              QStringLiteral("lo"), QStringLiteral("up") },
            { QStringLiteral("-n"), server, QStringLiteral("link"), QStringLiteral("set"),
              serverLink, QStringLiteral("up") },
        };
        for (const QStringList &step : steps) {
            if (runIp(step, &error) != 0)
                return QStringLiteral("ip ") + step.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                    error;
        }
        return QString();
    }

    bool setClientLinkUp(bool up)
    {
        return runIp({ QStringLiteral("-n"), client, QStringLiteral("link"), QStringLiteral("set"),
                       clientLink, up ? QStringLiteral("up") : QStringLiteral("down") }) == 0;
    }

    // The routes of the client namespace, one a line.
    QString clientRoutes() const
    {
        QProcess ip;
        ip.start(QStringLiteral("ip"),
                 { QStringLiteral("-n"), client, QStringLiteral("route"), QStringLiteral("show"),
                   QStringLiteral("table"), QStringLiteral("all") });
        ip.waitForFinished(10000);
        return QString::fromLocal8Bit(ip.readAllStandardOutput());
    }

    // Starts \a program with \a arguments inside namespace \a ns (owned by this object).
    QProcess *
    start(const QString &ns, const QString &program, const QStringList &arguments,
          const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment())
    {
        auto *process = new QProcess;
        processes.append(process);
        process->setProcessEnvironment(environment);
        process->start(
            QStringLiteral("ip"),
            QStringList { QStringLiteral("netns"), QStringLiteral("exec"), ns, program } +
                arguments);
        return process;
    }

    QString client, server, clientLink, serverLink;
    const QString serverAddress = QStringLiteral("10.213.0.1");
    const QString clientAddress = QStringLiteral("10.213.0.2");

private:
    bool clientCreated = false;
    bool serverCreated = false;
    QList<QProcess *> processes;
};

// Lines of the demo server's -v log that record a request ("GET /images/...").
int requestLines(const QByteArray &log, const QByteArray &method)
{
    int count = 0;
    const QList<QByteArray> lines = log.split('\n');
    for (const QByteArray &line : lines) {
        const QByteArray request = method + QByteArray(" /");
        if (line.contains(QByteArray(' ' + request)) || line.startsWith(request))
            ++count;
    }
    return count;
}

const char netnsClientUrl[] = "KEEPTRYING_TEST_NETNS_URL";
const char netnsClientOutput[] = "KEEPTRYING_TEST_NETNS_OUTPUT";

} // namespace

class tst_Reachability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void parkedWhileOfflineThenEachOnce_data();
    void parkedWhileOfflineThenEachOnce();
    void issuedWhileOriginUnreachable();
    void flappingNeverDuplicates();
    void deadlineAndAbortWhileParked_data();
    void deadlineAndAbortWhileParked();
    void waitingCanBeSwitchedOff();
    void backendOfflineIsCheckedAfterGrace();
    void backendBlipDuringGrace();
    void serverDownNoBackend();
    void probeSchedule();
    void simulatedOffline_data();
    void simulatedOffline();
    void realLinkDown_data();
    void realLinkDown();
    void netnsClient();
};

void tst_Reachability::initTestCase()
{
    // The machine's own QNetworkInformation backend must not decide anything here.
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

void tst_Reachability::parkedWhileOfflineThenEachOnce_data()
{
    QTest::addColumn<qint64>("staggerMs");
    QTest::newRow("stagger 0") << qint64(0);
    QTest::newRow("default stagger") << RetryPolicy().reconnectStaggerMs;
}

void tst_Reachability::parkedWhileOfflineThenEachOnce()
{
    QFETCH(qint64, staggerMs);
    constexpr int count = 50;
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.target);
    });
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    QCOMPARE(manager.reachability()->state(), ReachabilityBackend::Offline);
    RetryPolicy policy;
    policy.reconnectStaggerMs = staggerMs;
    manager.setRetryPolicy(policy);
    QSignalSpy waiting(&manager, &RetryingNetworkAccessManager::waitingForConnectivity);
    int attemptsStarted = 0;
    QList<int> startedAtFinish; // attempts started when each reply finished, in order
    connect(&manager, &RetryingNetworkAccessManager::attemptStarted, this,
            [&] { ++attemptsStarted; });

    Batch batch;
    for (int i = 0; i < count; ++i)
        batch.add(manager.get(QNetworkRequest(server.url(QStringLiteral("/r/%1").arg(i)))));
    for (const auto &reply : batch.replies) {
        connect(reply.get(), &QNetworkReply::finished, this,
                [&] { startedAtFinish << attemptsStarted; });
    }

    // Parked at once, announced once each, nothing sent.
    QCOMPARE(waiting.size(), count);
    for (int i = 0; i < count; ++i) {
        QVERIFY(batch.at(i)->isWaitingForConnectivity());
        QCOMPARE(batch.at(i)->attemptCount(), 0);
        QCOMPARE(waiting.at(i).at(0).value<QNetworkReply *>(), batch.replies[i].get());
        QCOMPARE(waiting.at(i).at(1).toBool(), true);
    }
    QTest::qWait(200);
    QCOMPARE(server.connectionCount(), 0);
    QCOMPARE(attemptsStarted, 0);
    QCOMPARE(batch.finishedTotal, 0);

    backend.setState(ReachabilityBackend::Online);
    QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, count, 10000);
    QTest::qWait(100); // a duplicate finished() or a late attempt would show up now
    QVERIFY(batch.allFinishedOnce());
    // Requests, not connections: Qt may open a connection it then finds no use for.
    QCOMPARE(server.requestCount(), count);
    const QHash<QByteArray, int> hits = targetsOf(server);
    for (int i = 0; i < count; ++i) {
        const QByteArray target = "/r/" + QByteArray::number(i);
        QCOMPARE(hits.value("GET " + target), 1);
        QNetworkReply *reply = batch.replies[i].get();
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->readAll(), target);
        QVERIFY(!batch.at(i)->isWaitingForConnectivity());
        QCOMPARE(batch.at(i)->attemptCount(), 1);
    }
    QCOMPARE(attemptsStarted, count);
    // Each reply announced the end of its wait once, after its start.
    QCOMPARE(waiting.size(), 2 * count);
    QSet<QNetworkReply *> ended;
    for (int i = count; i < 2 * count; ++i) {
        QCOMPARE(waiting.at(i).at(1).toBool(), false);
        ended.insert(waiting.at(i).at(0).value<QNetworkReply *>());
    }
    QCOMPARE(ended.size(), count);
    if (staggerMs == 0) {
        // No stagger: once the scout's connection is up, the rest of the concurrency
        // limiter's initial window (six, Qt's own connections per host) goes in one pass of
        // the event loop. Under load the scout's own answer can come before that pass, and
        // its success has grown the window (slow start) by then, by one or, on a loaded
        // machine where more answers come first, by more: at least the six went together.
        // The first reply to finish may be one of the six, seen after answers grew the window
        // further (8 were seen): what matters is that they did not go one by one.
        const int first = startedAtFinish.at(0) == 1 ? 1 : 0;
        QVERIFY2(startedAtFinish.at(first) >= 6,
                 qPrintable(QString::number(startedAtFinish.at(first))));
    }
}

void tst_Reachability::issuedWhileOriginUnreachable()
{
    // A port with nothing behind it (for now).
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port);
    url.setPath(QStringLiteral("/first"));

    FakeBackend backend(ReachabilityBackend::Online);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    manager.reachability()->setProbeSchedule(50, 200);
    RetryPolicy policy;
    policy.initialDelayMs = 20;
    policy.maxDelayMs = 50;
    manager.setRetryPolicy(policy);
    QSignalSpy origins(manager.reachability(), &Reachability::originReachabilityChanged);

    Batch batch;
    batch.add(manager.get(QNetworkRequest(url)));
    // Refused: the origin is known unreachable now, and the first request waits for it.
    QTRY_VERIFY_WITH_TIMEOUT(!manager.reachability()->isReachable(url), 5000);
    QCOMPARE(origins.size(), 1);
    QCOMPARE(origins.at(0).at(0).toString(), Reachability::originOf(url));
    QCOMPARE(origins.at(0).at(1).toBool(), false);
    QTRY_VERIFY_WITH_TIMEOUT(batch.at(0)->isWaitingForConnectivity(), 5000);
    QCOMPARE(batch.at(0)->attemptCount(), 1);

    // Issued now: parked without an attempt.
    url.setPath(QStringLiteral("/second"));
    QSignalSpy started(&manager, &RetryingNetworkAccessManager::attemptStarted);
    batch.add(manager.get(QNetworkRequest(url)));
    QVERIFY(batch.at(1)->isWaitingForConnectivity());
    QCOMPARE(batch.at(1)->attemptCount(), 0);
    QTest::qWait(150);
    QCOMPARE(batch.at(1)->attemptCount(), 0);
    QCOMPARE(batch.at(0)->attemptCount(), 1); // the wait spends no attempts either
    QCOMPARE(started.size(), 0);
    // Refused: bare connects probe it, no HTTP request.
    QVERIFY(manager.reachability()->connectProbeCount() >= 1);
    QCOMPARE(manager.reachability()->probeCount(), 0);

    // The server appears: a probe finds it, and both requests go, once each.
    TestServer server;
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.target);
    });
    QVERIFY(server.listen(port));
    QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, 2, 10000);
    QTest::qWait(50);
    QVERIFY(batch.allFinishedOnce());
    QCOMPARE(batch.replies[0]->readAll(), QByteArray("/first"));
    QCOMPARE(batch.replies[1]->readAll(), QByteArray("/second"));
    QCOMPARE(batch.at(0)->attemptCount(), 2);
    QCOMPARE(batch.at(1)->attemptCount(), 1);
    const QHash<QByteArray, int> hits = targetsOf(server);
    QCOMPARE(hits.value("GET /first"), 1);
    QCOMPARE(hits.value("GET /second"), 1);
    QVERIFY(hits.value("HEAD /") >= 1);
    QVERIFY(manager.reachability()->isReachable(url));
    QCOMPARE(origins.size(), 2);
    QCOMPARE(origins.at(1).at(1).toBool(), true);
}

void tst_Reachability::flappingNeverDuplicates()
{
    constexpr int count = 20;
    constexpr int toggles = 40; // offline → online → offline … twenty times, every 50 ms
    DemoServer server;
    QVERIFY(server.listen() != 0);
    // Slow answers, so that some requests are in flight when the network "goes".
    QVERIFY(server.addFault(QStringLiteral("route=/images/*,latency=30")));
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    QHash<QNetworkReply *, QList<bool>> waitingSignals;
    connect(&manager, &RetryingNetworkAccessManager::waitingForConnectivity, this,
            [&](QNetworkReply *reply, bool waiting) { waitingSignals[reply].append(waiting); });

    Batch batch;
    for (int i = 0; i < count; ++i)
        batch.add(manager.get(QNetworkRequest(demoImageUrl(server, i))));
    for (int i = 0; i < count; ++i)
        QVERIFY(batch.at(i)->isWaitingForConnectivity());

    int toggled = 0;
    QTimer flapper;
    flapper.setInterval(50);
    connect(&flapper, &QTimer::timeout, this, [&] {
        backend.toggle();
        if (++toggled == toggles)
            flapper.stop();
    });
    flapper.start();
    QTRY_COMPARE_WITH_TIMEOUT(toggled, toggles, 10000);
    QCOMPARE(backend.state(), ReachabilityBackend::Offline);
    backend.setState(ReachabilityBackend::Online);
    QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, count, 10000);
    QTest::qWait(200);

    QVERIFY(batch.allFinishedOnce());
    QVERIFY(eachOnce(hitsByIndex(server, "GET", QStringLiteral("/images/preview-01.png")), count));
    QCOMPARE(server.totalRequests(), qint64(count));
    for (int i = 0; i < count; ++i) {
        RetryingReply *reply = batch.at(i);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attemptCount(), 1);
        QVERIFY(!reply->isWaitingForConnectivity());
        QVERIFY(reply->readAll().startsWith("\x89PNG"));
        // Waits announced as true, false, true, false … ending with false.
        const QList<bool> signals_ = waitingSignals.value(reply);
        QVERIFY(!signals_.isEmpty());
        for (int k = 0; k < signals_.size(); ++k)
            QCOMPARE(signals_.at(k), k % 2 == 0);
        QCOMPARE(signals_.size() % 2, 0);
    }
}

void tst_Reachability::deadlineAndAbortWhileParked_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("expectedError");
    QTest::newRow("deadline") << QStringLiteral("deadline") << int(QNetworkReply::TimeoutError);
    QTest::newRow("abort") << QStringLiteral("abort") << int(QNetworkReply::OperationCanceledError);
    QTest::newRow("abort during stagger")
        << QStringLiteral("stagger") << int(QNetworkReply::OperationCanceledError);
    QTest::newRow("deadline during stagger")
        << QStringLiteral("deadline stagger") << int(QNetworkReply::TimeoutError);
}

void tst_Reachability::deadlineAndAbortWhileParked()
{
    QFETCH(QString, how);
    QFETCH(int, expectedError);
    TestServer server;
    QVERIFY(server.listen());
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    RetryPolicy policy;
    if (how.startsWith(QLatin1String("deadline")))
        policy.deadlineMs = 150;
    if (how.endsWith(QLatin1String("stagger")))
        policy.reconnectStaggerMs = 0; // below: replaced by a stagger that cannot end in time
    manager.setRetryPolicy(policy);
    QSignalSpy waiting(&manager, &RetryingNetworkAccessManager::waitingForConnectivity);
    QSignalSpy gaveUp(&manager, &RetryingNetworkAccessManager::gaveUp);

    QNetworkRequest request(server.url());
    if (how.endsWith(QLatin1String("stagger"))) {
        manager.setAdaptiveConcurrencyEnabled(false); // the stagger paces only without it
        RetryPolicy slow = policy;
        // A stagger of up to 11 days: still running below, bar odds of one in millions.
        slow.reconnectStaggerMs = 1000000000;
        request.setAttribute(
            QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
            QVariant::fromValue(slow));
    }
    Batch batch;
    batch.add(manager.get(request));
    RetryingReply *reply = batch.at(0);
    QVERIFY(reply->isWaitingForConnectivity());
    QCOMPARE(waiting.size(), 1);

    if (how.endsWith(QLatin1String("stagger")))
        backend.setState(ReachabilityBackend::Online);
    if (how == QLatin1String("abort") || how == QLatin1String("stagger")) {
        QTest::qWait(20);
        QVERIFY(reply->isWaitingForConnectivity());
        reply->abort();
        QCOMPARE(batch.finishedTotal, 1); // synchronously, like Qt's replies
    } else {
        QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, 1, 5000);
        QCOMPARE(gaveUp.size(), 1);
    }
    QCOMPARE(int(reply->error()), expectedError);
    QVERIFY(reply->isFinished());
    QVERIFY(!reply->isWaitingForConnectivity());
    QCOMPARE(reply->attemptCount(), 0);
    QCOMPARE(waiting.size(), 2);
    QCOMPARE(waiting.at(1).at(1).toBool(), false);

    // Nothing comes back to life when the network does.
    backend.setState(ReachabilityBackend::Offline);
    backend.setState(ReachabilityBackend::Online);
    QTest::qWait(150);
    QCOMPARE(batch.finishedTotal, 1);
    QCOMPARE(server.connectionCount(), 0);
    QCOMPARE(reply->attemptCount(), 0);
    QCOMPARE(waiting.size(), 2);
}

void tst_Reachability::waitingCanBeSwitchedOff()
{
    // waitForConnectivity off (per request): an offline backend does not hold the request.
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "ok"); });
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    QNetworkRequest request(server.url());
    request.setAttribute(
        QNetworkRequest::Attribute(RetryingNetworkAccessManager::WaitForConnectivityAttribute),
        false);
    Batch batch;
    batch.add(manager.get(request));
    QVERIFY(!batch.at(0)->isWaitingForConnectivity());
    QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, 1, 5000);
    QCOMPARE(batch.replies[0]->readAll(), QByteArray("ok"));
    QCOMPARE(server.requestCount(), 1);
}

void tst_Reachability::serverDownNoBackend()
{
    constexpr int count = 100;
    constexpr int outageMs = 2000;
    DemoServer server;
    QVERIFY(server.listen() != 0);
    RetryingNetworkAccessManager manager;
    // No backend: only probes and request outcomes say when the server is back.
    manager.reachability()->setBackend(nullptr);
    constexpr int probeIntervalMs = 100;
    manager.reachability()->setProbeSchedule(probeIntervalMs, 300);
    QCOMPARE(manager.reachability()->state(), ReachabilityBackend::Unknown);

    int attemptsWhileDown = 0;
    int requestsWhileDown = 0;
    connect(&manager, &RetryingNetworkAccessManager::attemptStarted, this, [&] {
        if (server.isDown())
            ++attemptsWhileDown;
    });
    connect(&server, &DemoServer::requestReceived, this, [&] {
        if (server.isDown())
            ++requestsWhileDown;
    });
    QElapsedTimer sinceBack;
    qint64 recoveryMs = -1;
    qint64 probesAtDown = 0;
    qint64 probesAtUp = -1;
    qint64 connectsAtDown = 0;
    qint64 connectsAtUp = -1;
    connect(&server, &DemoServer::downChanged, this, [&](bool down) {
        if (down) {
            probesAtDown = manager.reachability()->probeCount();
            connectsAtDown = manager.reachability()->connectProbeCount();
        } else {
            probesAtUp = manager.reachability()->probeCount();
            connectsAtUp = manager.reachability()->connectProbeCount();
            sinceBack.start();
        }
    });

    server.goDown(outageMs);
    QVERIFY(server.isDown());
    Batch batch;
    // A real event loop, not QTRY_*: QTest::qWait() handles events only every 10 ms, which
    // would stretch each round trip of the recovery to 10 ms or more.
    QEventLoop loop;
    batch.onAllFinished = [&] {
        recoveryMs = sinceBack.isValid() ? sinceBack.elapsed() : -1;
        loop.quit();
    };
    for (int i = 0; i < count; ++i)
        batch.add(manager.get(QNetworkRequest(demoImageUrl(server, i))));
    QTimer::singleShot(outageMs + 10000, &loop, &QEventLoop::quit);
    loop.exec();
    QCOMPARE(batch.finishedTotal, count);
    QVERIFY(probesAtUp >= 0);
    QTest::qWait(100);

    QVERIFY(batch.allFinishedOnce());
    for (int i = 0; i < count; ++i) {
        QCOMPARE(batch.replies[i]->error(), QNetworkReply::NoError);
        QCOMPARE(batch.replies[i]->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                 200);
    }
    const qint64 probesDuringOutage = probesAtUp - probesAtDown;
    const qint64 connectsDuringOutage = connectsAtUp - connectsAtDown;
    qInfo("back -> %d completed: %lld ms; probes during the %d ms outage: %lld HTTP, %lld "
          "connects; attempts while down: %d",
          count, recoveryMs, outageMs, probesDuringOutage, connectsDuringOutage, attemptsWhileDown);
    // The figure: every waiting GET completes within 600 ms of the server's return.
    QVERIFY2(recoveryMs >= 0 && recoveryMs <= 600,
             qPrintable(QStringLiteral("recovery took %1 ms").arg(recoveryMs)));
    // The listener is closed, connections refused: connect probes only, no HTTP probe.
    QCOMPARE(probesDuringOutage, 0);
    // One probe stream for the origin, however many requests wait behind it: at most one
    // connect per 150 ms (the first after 50 ms at least; timers may be 5 % early).
    QVERIFY(connectsDuringOutage >= 1);
    QVERIFY2(connectsDuringOutage <= 1 + (outageMs - 50) / 140,
             qPrintable(QStringLiteral("%1 connect probes").arg(connectsDuringOutage)));
    // One request tried, found the server down; the others waited behind it (the window
    // sends one scout to an origin not seen alive) and then for the probes, without attempts.
    QCOMPARE(attemptsWhileDown, 1);
    QCOMPARE(requestsWhileDown, 0);
    QVERIFY(eachOnce(hitsByIndex(server, "GET", QStringLiteral("/images/preview-01.png")), count));
}

// The probes' rhythm, seen from a port that answers every connection with something that
// is not HTTP (so every probe fails and the next follows). Qt itself connects again at once,
// up to three times, when a connection ends without a response: connections within 5 ms of
// the one before belong to the same probe: the first after one to two intervals, then one per
// interval ±20 % while the outage is young, then doubling up to the cap. Only lower bounds
// on the gaps are checked (a timer may be late on a busy machine, never much early).
namespace {
// When each HTTP probe starts, as the reachability monitor logs it: the monitor's own clock,
// immune to how late a busy test process notices a connection at its server.
QElapsedTimer *probeClock = nullptr;
std::vector<qint64> *probeStarts = nullptr;
QtMessageHandler previousHandler = nullptr;
void recordProbeStart(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    if (probeClock && qstrcmp(context.category, "keeptrying.reachability") == 0) {
        if (text.startsWith(QLatin1String("probing")))
            probeStarts->push_back(probeClock->elapsed());
        return;
    }
    previousHandler(type, context, text);
}
} // namespace

void tst_Reachability::probeSchedule()
{
    constexpr qint64 intervalMs = 40;
    constexpr qint64 maxMs = 160;
    constexpr qint64 steadyMs = 300;
    QTcpServer port;
    QVERIFY(port.listen(QHostAddress::LocalHost));
    QElapsedTimer clock;
    std::vector<qint64> probes;
    probeClock = &clock;
    probeStarts = &probes;
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.reachability.debug=true"));
    previousHandler = qInstallMessageHandler(recordProbeStart);
    const auto restore = qScopeGuard([] {
        qInstallMessageHandler(previousHandler);
        QLoggingCategory::setFilterRules(QString());
        probeClock = nullptr;
        probeStarts = nullptr;
    });
    connect(&port, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket *socket = port.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, socket, [socket] {
                socket->readAll();
                socket->write("SSH-2.0-nothing-to-see\r\n\r\n");
                socket->disconnectFromHost();
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
    Reachability reachability;
    reachability.setBackend(nullptr);
    reachability.setProbeSchedule(intervalMs, maxMs, steadyMs);
    QUrl url(QStringLiteral("http://127.0.0.1/"));
    url.setPort(port.serverPort());
    clock.start();
    reachability.reportFailure(url);
    QVERIFY(!reachability.isReachable(url));
    QEventLoop loop;
    connect(&port, &QTcpServer::newConnection, &loop, [&] {
        if (probes.size() >= 12)
            loop.quit();
    });
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    loop.exec();
    QVERIFY(probes.size() >= 12);

    // QTimer's coarse timers may fire up to 5 % early; a probe's own connect takes a little.
    const auto atLeast = [](qint64 ms) { return ms * 95 / 100 - 2; };
    QVERIFY2(probes[0] >= atLeast(intervalMs), qPrintable(QString::number(probes[0])));
    int backoffGaps = 0;
    for (size_t i = 1; i < probes.size(); ++i) {
        const qint64 gap = probes[i] - probes[i - 1];
        // The delay is chosen when the previous probe has failed, a moment after it arrived.
        const bool old = probes[i - 1] >= steadyMs + 5;
        const QString what = QStringLiteral("probe %1 at %2 ms, %3 ms after the one before")
                                 .arg(i)
                                 .arg(probes[i])
                                 .arg(gap);
        if (!old) {
            QVERIFY2(gap >= atLeast(intervalMs * 8 / 10), qPrintable(what));
        } else {
            ++backoffGaps;
            QVERIFY2(gap >= atLeast(std::min(maxMs, intervalMs * 2) * 8 / 10), qPrintable(what));
            if (backoffGaps >= 2)
                QVERIFY2(gap >= atLeast(maxMs * 8 / 10), qPrintable(what)); // 80, then 160
        }
    }
    QVERIFY(backoffGaps >= 2);
    // While young, about one per interval.
    const auto youngProbes =
        std::count_if(probes.cbegin(), probes.cend(), [](qint64 t) { return t < steadyMs; });
    QVERIFY2(youngProbes >= 3, qPrintable(QString::number(youngProbes)));
}

void tst_Reachability::simulatedOffline_data()
{
    QTest::addColumn<bool>("fromEnvironment");
    QTest::newRow("KEEPTRYING_SIMULATE_OFFLINE=1") << true;
    QTest::newRow("setSimulatedOffline") << false;
}

void tst_Reachability::simulatedOffline()
{
    QFETCH(bool, fromEnvironment);
    constexpr int count = 10;
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return TestServer::respond(200, request.target);
    });
    FakeBackend backend(ReachabilityBackend::Online);
    std::unique_ptr<RetryingNetworkAccessManager> manager;
    if (fromEnvironment) {
        qputenv("KEEPTRYING_SIMULATE_OFFLINE", "1");
        manager = std::make_unique<RetryingNetworkAccessManager>();
        qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
    } else {
        manager = std::make_unique<RetryingNetworkAccessManager>();
        QVERIFY(!manager->isSimulatedOffline());
        manager->setSimulatedOffline(true);
    }
    manager->reachability()->setBackend(&backend);
    QVERIFY(manager->isSimulatedOffline());
    QVERIFY(manager->reachability()->isSimulatedOffline());
    QCOMPARE(manager->reachability()->state(), ReachabilityBackend::Offline);
    QSignalSpy changed(manager.get(), &RetryingNetworkAccessManager::simulatedOfflineChanged);
    QSignalSpy waiting(manager.get(), &RetryingNetworkAccessManager::waitingForConnectivity);

    {
        Batch batch;
        for (int i = 0; i < count; ++i)
            batch.add(manager->get(QNetworkRequest(server.url(QStringLiteral("/s/%1").arg(i)))));
        QCOMPARE(waiting.size(), count);
        QTest::qWait(200);
        for (int i = 0; i < count; ++i) {
            QVERIFY(batch.at(i)->isWaitingForConnectivity());
            QCOMPARE(batch.at(i)->attemptCount(), 0);
        }
        QCOMPARE(server.connectionCount(), 0);
        QCOMPARE(manager->reachability()->probeCount(), 0);

        manager->setSimulatedOffline(false);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toBool(), false);
        QCOMPARE(manager->reachability()->state(), ReachabilityBackend::Online);
        QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, count, 10000);
        QTest::qWait(50);
        QVERIFY(batch.allFinishedOnce());
        QCOMPARE(server.requestCount(), count);
        const QHash<QByteArray, int> hits = targetsOf(server);
        for (int i = 0; i < count; ++i) {
            QCOMPARE(hits.value("GET /s/" + QByteArray::number(i)), 1);
            QCOMPARE(batch.replies[i]->error(), QNetworkReply::NoError);
        }
    }
    // The environment only sets the start: a new manager is online again.
    QVERIFY(!RetryingNetworkAccessManager().isSimulatedOffline());
}

void tst_Reachability::realLinkDown_data()
{
    QTest::addColumn<QString>("client");
    QTest::newRow("library, no backend") << QStringLiteral("library");
    QTest::newRow("keeptrying-fetch") << QStringLiteral("fetch");
}

void tst_Reachability::realLinkDown()
{
    QFETCH(QString, client);
#ifndef KEEPTRYING_DEMO_SERVER_EXECUTABLE
    QSKIP("the keeptrying-demo-server target is not part of this build");
#else
    QString program;
    if (client == QLatin1String("fetch")) {
#ifdef KEEPTRYING_FETCH_EXECUTABLE
        program = QStringLiteral(KEEPTRYING_FETCH_EXECUTABLE);
#else
        QSKIP("the keeptrying-fetch target is not part of this build");
#endif
    } else {
        // This test executable again, running netnsClient() inside the client namespace.
        program = QCoreApplication::applicationFilePath();
    }
    if (::geteuid() != 0)
        QSKIP("network namespaces need root (CI runs as root)");
    NetnsPair netns;
    const QString error = netns.setUp();
    if (error.startsWith(QLatin1String("ip netns add")))
        QSKIP(qPrintable(QStringLiteral("network namespaces are not permitted here: ") + error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The client's only route is the veth's own /30: no default route, nothing can leave.
    const QString routes = netns.clientRoutes();
    QVERIFY2(!routes.contains(QLatin1String("default")), qPrintable(routes));

    QProcess *server =
        netns.start(netns.server, QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                    { QStringLiteral("--host"), netns.serverAddress, QStringLiteral("--port"),
                      QStringLiteral("8080"), QStringLiteral("-v") });
    QVERIFY(server->waitForStarted(5000));
    QByteArray serverLog;
    QByteArray serverOutput;
    connect(server, &QProcess::readyReadStandardError, this,
            [&] { serverLog += server->readAllStandardError(); });
    connect(server, &QProcess::readyReadStandardOutput, this,
            [&] { serverOutput += server->readAllStandardOutput(); });
    QTRY_VERIFY_WITH_TIMEOUT(
        serverOutput.contains("listening on") || server->state() == QProcess::NotRunning, 10000);
    QVERIFY2(server->state() == QProcess::Running, serverLog.constData());

    QVERIFY(netns.setClientLinkUp(false));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString output = dir.filePath(QStringLiteral("preview.png"));
    const QString url = QStringLiteral("http://") + netns.serverAddress +
        QStringLiteral(":8080/images/preview-01.png");
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    environment.insert(QStringLiteral("QT_LOGGING_RULES"),
                       QStringLiteral("keeptrying.reachability.info=true"));
    QStringList arguments;
    if (client == QLatin1String("fetch")) {
        arguments = { QStringLiteral("--deadline"), QStringLiteral("20000"), QStringLiteral("-o"),
                      output, url };
    } else {
        arguments = { QStringLiteral("netnsClient") };
        environment.insert(QLatin1String(netnsClientUrl), url);
        environment.insert(QLatin1String(netnsClientOutput), output);
    }
    QProcess *fetch = netns.start(netns.client, program, arguments, environment);
    QVERIFY(fetch->waitForStarted(5000));
    QByteArray fetchLog;
    connect(fetch, &QProcess::readyReadStandardError, this,
            [&] { fetchLog += fetch->readAllStandardError(); });
    connect(fetch, &QProcess::readyReadStandardOutput, this,
            [&] { fetchLog += fetch->readAllStandardOutput(); });

    // The link is down for a second: the client waits, and nothing reaches the server.
    QTest::qWait(1000);
    QVERIFY2(fetch->state() == QProcess::Running, fetchLog.constData());
    serverLog += server->readAllStandardError();
    QCOMPARE(requestLines(serverLog, "GET"), 0);
    QCOMPARE(requestLines(serverLog, "HEAD"), 0);

    QVERIFY(netns.setClientLinkUp(true));
    const bool done = QTest::qWaitFor([&] { return fetch->state() == QProcess::NotRunning; }, 8000);
    fetchLog += fetch->readAllStandardError() + fetch->readAllStandardOutput();
    serverLog += server->readAllStandardError();
    // keeptrying-fetch keeps the machine's backend, which may call this namespace (no default
    // route) offline: after its grace period the origin is probed, and the probe wins.
    QVERIFY2(done, fetchLog.constData());
    QCOMPARE(fetch->exitStatus(), QProcess::NormalExit);
    QVERIFY2(fetch->exitCode() == 0, fetchLog.constData());

    // The body arrived, whole, through exactly one GET.
    QFile body(output);
    QVERIFY(body.open(QIODevice::ReadOnly));
    const QByteArray bytes = body.readAll();
    DemoServer resources; // registers the sample library's resources
    QFile expected(QStringLiteral(":/demo/images/preview-01.png"));
    QVERIFY(expected.open(QIODevice::ReadOnly));
    QCOMPARE(bytes.size(), expected.size());
    QVERIFY(bytes == expected.readAll());
    QCOMPARE(requestLines(serverLog, "GET"), 1);
#endif
}

// A backend that says Offline while the server answers (a link without a default route):
// believed for the grace period, then a probe shows the origin answering and the request goes.
void tst_Reachability::backendOfflineIsCheckedAfterGrace()
{
    TestServer server;
    QVERIFY(server.listen());
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    manager.reachability()->setBackendOfflineGrace(300);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying->isWaitingForConnectivity());
    QTest::qWait(150); // within the grace: the backend is believed, nothing is sent
    QCOMPARE(server.requestCount(), 0);

    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(server.requests().first().method, QByteArray("HEAD")); // the probe came first
    QCOMPARE(server.requests().last().method, QByteArray("GET"));
    QCOMPARE(retrying->attemptCount(), 1);
    QVERIFY(manager.reachability()->isReachable(server.url()));
    QCOMPARE(manager.reachability()->state(), ReachabilityBackend::Offline);

    // The backend says Offline anew: that is news, and is believed again for a while.
    backend.setState(ReachabilityBackend::Online);
    backend.setState(ReachabilityBackend::Offline);
    QVERIFY(!manager.reachability()->isReachable(server.url()));
}

// The backend says Online for a few milliseconds and Offline again while requests wait:
// the grace check still happens, and every request goes once a probe gets through.
void tst_Reachability::backendBlipDuringGrace()
{
    TestServer server;
    QVERIFY(server.listen());
    FakeBackend backend(ReachabilityBackend::Offline);
    RetryingNetworkAccessManager manager;
    manager.reachability()->setBackend(&backend);
    manager.reachability()->setBackendOfflineGrace(300);
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < 5; ++i)
        replies.emplace_back(manager.get(QNetworkRequest(server.url())));
    backend.setState(ReachabilityBackend::Online);
    QTest::qWait(5);
    backend.setState(ReachabilityBackend::Offline);
    for (const auto &reply : replies) {
        if (!reply->isFinished()) {
            QSignalSpy finished(reply.get(), &QNetworkReply::finished);
            QVERIFY(finished.wait(5000));
        }
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    }
}

void tst_Reachability::netnsClient()
{
    // The client side of realLinkDown(), run in its namespace by that test.
    const QUrl url(qEnvironmentVariable(netnsClientUrl));
    if (url.isEmpty())
        QSKIP("only runs inside realLinkDown()'s client namespace");
    RetryingNetworkAccessManager manager;
    // This namespace has no default route, which the machine's backend may call "offline"
    // whatever the origin: decide from probes and request outcomes alone.
    manager.reachability()->setBackend(nullptr);
    RetryPolicy policy;
    policy.deadlineMs = 20000;
    manager.setRetryPolicy(policy);
    Batch batch;
    batch.add(manager.get(QNetworkRequest(url)));
    QTRY_COMPARE_WITH_TIMEOUT(batch.finishedTotal, 1, 10000);
    QNetworkReply *reply = batch.replies[0].get();
    QVERIFY2(reply->error() == QNetworkReply::NoError, qPrintable(reply->errorString()));
    QVERIFY(batch.at(0)->attemptCount() >= 2); // the first met the link down
    QVERIFY(manager.reachability()->probeCount() >= 1);
    QFile file(qEnvironmentVariable(netnsClientOutput));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.write(reply->readAll()) > 0);
}

QTEST_GUILESS_MAIN(tst_Reachability)
#include "tst_reachability.moc"
