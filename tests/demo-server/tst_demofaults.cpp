// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The demo server's faults (specs, drops, outages, capacity), its admin API on its own port
// and the executable, through a plain QNetworkAccessManager on loopback.

#include "demoserverfixture.h"

#include "demotoken.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

class tst_DemoFaults : public QObject, DemoServerFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { startServer(); }
    void cleanup() { stopServer(); }

    void faultStatusAndCount();
    void faultRetryAfter_data();
    void faultRetryAfter();
    void faultLatencyDoesNotBlock();
    void faultRateIsSeeded();
    void faultMethod();
    void dropBeforeHeaders();
    void dropMidBody();
    void dropMidBodyAfterWriteIsApplied();
    void goDownRefusesThenRecovers();
    void capacityShedsAboveMaxConcurrent();
    void stats();
    void badFaultSpecs_data();
    void badFaultSpecs();
    void goodFaultSpecs_data();
    void goodFaultSpecs();
    void adminFaults();
    void adminDownAndStats();
    void adminNotOnApiPort();
    void runsInWorkerThread();
    void executable();
    void executableAdminStaysUpWhileDown();
    void executableRejectsBadFault();
    void executableRejectsBadCapacity_data();
    void executableRejectsBadCapacity();
};

void tst_DemoFaults::faultStatusAndCount()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/entries*,status=503,count=2")));
    QCOMPARE(m_server->faults(),
             QStringList { QStringLiteral("route=/api/entries*,status=503,count=2 (2 left)") });
    const QByteArray accessToken = token(); // the token route does not match
    Q_UNUSED(accessToken)

    const Result first = get(QStringLiteral("/api/entries.json"));
    QCOMPARE(first.status, 503);
    QCOMPARE(first.error, QNetworkReply::ServiceUnavailableError);
    QVERIFY(first.headers.value("retry-after").isEmpty());
    QCOMPARE(get(QStringLiteral("/api/entries/7.json")).status, 503);
    QCOMPARE(get(QStringLiteral("/api/entries.json")).status, 200);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
    QCOMPARE(m_server->stats().value(QLatin1String("faults_injected")).toInt(), 2);

    m_server->clearFaults();
    QVERIFY(m_server->faults().isEmpty());
}

void tst_DemoFaults::faultRetryAfter_data()
{
    QTest::addColumn<QString>("retryAfter");
    QTest::newRow("seconds") << QStringLiteral("7");
    QTest::newRow("IMF-fixdate") << QStringLiteral("Wed, 21 Oct 2015 07:28:00 GMT");
    QTest::newRow("RFC 850") << QStringLiteral("Wednesday, 21-Oct-15 07:28:00 GMT");
    QTest::newRow("asctime") << QStringLiteral("Wed Oct 21 07:28:00 2015");
}

void tst_DemoFaults::faultRetryAfter()
{
    QFETCH(QString, retryAfter);
    QString errorMessage;
    QVERIFY2(m_server->addFault(QStringLiteral("route=/api/version,status=429,retry-after=") +
                                    retryAfter,
                                &errorMessage),
             qPrintable(errorMessage));
    const Result result = get(QStringLiteral("/api/version"));
    QCOMPARE(result.status, 429);
    QCOMPARE(result.headers.value("retry-after"), retryAfter.toLatin1());
}

void tst_DemoFaults::faultLatencyDoesNotBlock()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/version,latency=1000")));
    QNetworkRequest slowRequest(
        QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/version")));
    slowRequest.setRawHeader("Authorization", "Bearer " + token());
    std::unique_ptr<QNetworkReply> slow(m_nam->get(slowRequest));

    // While the slow answer waits, the server keeps serving others.
    QTRY_VERIFY_WITH_TIMEOUT(m_server->totalRequests() == 2, 5000);
    const Result quick = get(QStringLiteral("/api/entries/1.json"));
    QCOMPARE(quick.status, 200);
    QVERIFY(!slow->isFinished());

    QTRY_VERIFY_WITH_TIMEOUT(slow->isFinished(), 10000);
    QCOMPARE(slow->error(), QNetworkReply::NoError);
    QCOMPARE(slow->readAll(), QByteArray("\"2.6.14\""));
}

void tst_DemoFaults::faultRateIsSeeded()
{
    const auto run = [this](quint32 seed) {
        DemoServer server;
        server.listen();
        server.setSeed(seed);
        server.addFault(QStringLiteral("route=/images/*,status=500,rate=0.5"));
        QString statuses;
        for (int i = 0; i < 24; ++i)
            statuses +=
                send("GET", QStringLiteral("/images/preview-01.png"), {}, {}, &server).status == 500
                ? QLatin1Char('x')
                : QLatin1Char('.');
        return statuses;
    };
    const QString first = run(42);
    QCOMPARE(run(42), first);
    QVERIFY2(first.contains(QLatin1Char('x')) && first.contains(QLatin1Char('.')),
             qPrintable(first));
    QVERIFY(run(7) != first);
}

void tst_DemoFaults::faultMethod()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/entries/*,method=patch,status=500")));
    QCOMPARE(get(QStringLiteral("/api/entries/4.json")).status, 200);
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/4.json"), R"({"starred":1})", auth()).status,
        500);
    // A faulted write is not applied.
    QCOMPARE(get(QStringLiteral("/api/entries/4.json"))
                 .json()
                 .value(QLatin1String("is_starred"))
                 .toInt(),
             0);
    QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 0);
}

void tst_DemoFaults::dropBeforeHeaders()
{
    // Unlimited: QNetworkAccessManager itself resends once or twice when a connection closes
    // before any byte of the answer.
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/version,drop=before-headers")));
    const Result result = get(QStringLiteral("/api/version"));
    QCOMPARE(result.error, QNetworkReply::RemoteHostClosedError);
    QCOMPARE(result.status, 0);
    QVERIFY(result.body.isEmpty());

    m_server->clearFaults();
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
}

void tst_DemoFaults::dropMidBody()
{
    const Result whole = send("GET", QStringLiteral("/images/preview-02.png"));
    QCOMPARE(whole.status, 200);

    QVERIFY(
        m_server->addFault(QStringLiteral("route=/images/preview-02.png,drop=mid-body,count=1")));
    const Result cut = send("GET", QStringLiteral("/images/preview-02.png"));
    QCOMPARE(cut.error, QNetworkReply::RemoteHostClosedError);
    QCOMPARE(cut.status, 200);
    QCOMPARE(cut.headers.value("content-length"), QByteArray::number(whole.body.size()));
    QCOMPARE(cut.body, whole.body.left(whole.body.size() / 2));

    // The rest can be fetched with a Range request validated by the ETag.
    const Result rest = send("GET", QStringLiteral("/images/preview-02.png"), {},
                             { { "Range", "bytes=" + QByteArray::number(cut.body.size()) + '-' },
                               { "If-Range", cut.headers.value("etag") } });
    QCOMPARE(rest.status, 206);
    QCOMPARE(cut.body + rest.body, whole.body);
}

void tst_DemoFaults::dropMidBodyAfterWriteIsApplied()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    QVERIFY(m_server->addFault(
        QStringLiteral("route=/api/entries/*,method=PATCH,drop=mid-body,count=1")));
    Headers headers = auth();
    headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("lost-answer")));
    const QByteArray body = R"({"archive": 1})";
    const Result lost = send("PATCH", QStringLiteral("/api/entries/6.json"), body, headers);
    QCOMPARE(lost.error, QNetworkReply::RemoteHostClosedError);

    const Result retry = send("PATCH", QStringLiteral("/api/entries/6.json"), body, headers);
    QCOMPARE(retry.status, 200);
    QCOMPARE(retry.json().value(QLatin1String("is_archived")).toInt(), 1);
    QVERIFY(retry.body.startsWith(lost.body));
    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 1);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 1);
}

void tst_DemoFaults::goDownRefusesThenRecovers()
{
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200); // leaves a kept-alive connection
    const QUrl before = m_server->baseUrl();
    QSignalSpy downChanged(m_server.get(), &DemoServer::downChanged);

    m_server->goDown(300);
    QVERIFY(m_server->isDown());
    QCOMPARE(downChanged.size(), 1);
    QCOMPARE(downChanged.at(0).at(0).toBool(), true);
    const qint64 requestsBefore = m_server->totalRequests();
    QCOMPARE(get(QStringLiteral("/api/version")).error, QNetworkReply::ConnectionRefusedError);
    QCOMPARE(m_server->totalRequests(), requestsBefore);

    QTRY_VERIFY_WITH_TIMEOUT(!m_server->isDown(), 5000);
    QCOMPARE(downChanged.size(), 2);
    QCOMPARE(downChanged.at(1).at(0).toBool(), false);
    QCOMPARE(m_server->baseUrl(), before);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
}

void tst_DemoFaults::capacityShedsAboveMaxConcurrent()
{
    QCOMPARE(m_server->maxConcurrent(), 0);
    QCOMPARE(m_server->serviceTime(), 0);
    const QByteArray bearer = "Bearer " + token();
    m_server->resetStats();
    m_server->setServiceTime(400);
    m_server->setMaxConcurrent(2);
    QCOMPARE(m_server->maxConcurrent(), 2);
    QCOMPARE(m_server->serviceTime(), 400);

    // Five at once (Qt opens up to six connections per host): two are served, three shed.
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < 5; ++i) {
        QNetworkRequest request(
            QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/version")));
        request.setRawHeader("Authorization", bearer);
        replies.emplace_back(m_nam->get(request));
    }
    const auto statusOf = [](const std::unique_ptr<QNetworkReply> &reply) {
        return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    };
    const auto count = [&](int status) {
        return std::count_if(replies.cbegin(), replies.cend(), [&](const auto &reply) {
            return reply->isFinished() && statusOf(reply) == status;
        });
    };
    // Shedding is immediate: the 503s are back while the served two are still being worked on.
    QTRY_COMPARE_WITH_TIMEOUT(count(503), 3, 10000);
    QCOMPARE(count(200), 0);
    // Admin requests are never limited.
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(count(200), 2, 10000);
    for (const auto &reply : replies) {
        if (statusOf(reply) == 503) {
            QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
            QVERIFY(reply->rawHeader("Retry-After").isEmpty());
            QVERIFY(reply->readAll().contains("at most 2 requests at a time"));
        } else {
            QCOMPARE(reply->readAll(), QByteArray("\"2.6.14\""));
        }
    }
    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("total_requests")).toInt(), 5);
    QCOMPARE(stats.value(QLatin1String("capacity_rejections")).toInt(), 3);
    QCOMPARE(stats.value(QLatin1String("peak_in_progress")).toInt(), 2);
    QCOMPARE(stats.value(QLatin1String("faults_injected")).toInt(), 0);

    // The slots are free again; a fault applies only to requests that are served.
    QVERIFY(m_server->addFault(QStringLiteral("status=500,count=1")));
    m_server->setServiceTime(0);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 500);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
    m_server->setMaxConcurrent(-1); // counts as no limit
    QCOMPARE(m_server->maxConcurrent(), 0);
}

void tst_DemoFaults::stats()
{
    QSignalSpy received(m_server.get(), &DemoServer::requestReceived);
    token();
    get(QStringLiteral("/api/entries.json"));
    get(QStringLiteral("/api/entries.json?page=2"));
    get(QStringLiteral("/api/entries/9.json"));
    send("GET", QStringLiteral("/nowhere"));
    admin("GET", QStringLiteral("/_admin/stats")); // admin requests are not counted

    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("total_requests")).toInt(), 5);
    QCOMPARE(m_server->totalRequests(), 5);
    const QJsonObject routes = stats.value(QLatin1String("requests_per_route")).toObject();
    QCOMPARE(routes.value(QLatin1String("POST /oauth/v2/token")).toInt(), 1);
    QCOMPARE(routes.value(QLatin1String("GET /api/entries.json")).toInt(), 2);
    QCOMPARE(routes.value(QLatin1String("GET /api/entries/{id}.json")).toInt(), 1);
    QCOMPARE(routes.value(QLatin1String("GET /nowhere")).toInt(), 1);
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 0);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 0);

    QCOMPARE(received.size(), 5);
    QCOMPARE(received.at(1).at(0).toByteArray(), QByteArray("GET"));
    QCOMPARE(received.at(1).at(1).toString(), QStringLiteral("/api/entries.json"));

    const QList<KeepTrying::Demo::RecordedRequest> recorded = m_server->recordedRequests();
    QCOMPARE(recorded.size(), 5);
    QCOMPARE(recorded.at(0).method, QByteArray("POST"));
    QVERIFY(recorded.at(0).body.contains("grant_type=password"));
    QCOMPARE(recorded.at(2).query, QStringLiteral("page=2"));
    const auto hasAuthorization = [](const KeepTrying::Demo::RecordedRequest &request) {
        return std::any_of(
            request.headers.cbegin(), request.headers.cend(), [](const auto &header) {
                return header.first.compare("authorization", Qt::CaseInsensitive) == 0;
            });
    };
    QVERIFY(hasAuthorization(recorded.at(3)));

    m_server->resetStats();
    QCOMPARE(m_server->totalRequests(), 0);
    QVERIFY(m_server->recordedRequests().isEmpty());
    QVERIFY(m_server->stats().value(QLatin1String("requests_per_route")).toObject().isEmpty());
}

void tst_DemoFaults::badFaultSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::newRow("empty") << QString();
    QTest::newRow("no value") << QStringLiteral("status");
    QTest::newRow("unknown key") << QStringLiteral("status=503,colour=red");
    QTest::newRow("status not a number") << QStringLiteral("status=bad");
    QTest::newRow("status too low") << QStringLiteral("status=99");
    QTest::newRow("status too high") << QStringLiteral("status=600");
    QTest::newRow("nothing to inject") << QStringLiteral("route=/api/*");
    QTest::newRow("status and drop") << QStringLiteral("status=503,drop=mid-body");
    QTest::newRow("retry-after without status") << QStringLiteral("latency=5,retry-after=5");
    QTest::newRow("retry-after garbage") << QStringLiteral("status=503,retry-after=soon");
    QTest::newRow("retry-after negative") << QStringLiteral("status=503,retry-after=-1");
    QTest::newRow("rate above 1") << QStringLiteral("status=503,rate=1.5");
    QTest::newRow("rate not a number") << QStringLiteral("status=503,rate=often");
    QTest::newRow("count 0") << QStringLiteral("status=503,count=0");
    QTest::newRow("negative latency") << QStringLiteral("latency=-1");
    QTest::newRow("unknown drop") << QStringLiteral("drop=sideways");
    QTest::newRow("key twice") << QStringLiteral("status=503,status=500");
    QTest::newRow("bad method") << QStringLiteral("method=GE T,status=500");
    QTest::newRow("stray piece") << QStringLiteral("status=503,oops");
}

void tst_DemoFaults::badFaultSpecs()
{
    QFETCH(QString, spec);
    QString errorMessage;
    QVERIFY(!m_server->addFault(spec, &errorMessage));
    QVERIFY2(errorMessage.startsWith(QLatin1String("invalid fault spec")),
             qPrintable(errorMessage));
    QVERIFY(m_server->faults().isEmpty());
}

void tst_DemoFaults::goodFaultSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::newRow("status") << QStringLiteral("status=503");
    QTest::newRow("everything") << QStringLiteral(
        "route=/api/entries*,method=GET,status=429,count=3,"
        "rate=0.5,retry-after=2,latency=10");
    QTest::newRow("http-date with comma")
        << QStringLiteral("route=/api/*,status=503,retry-after=Wed, 21 Oct 2015 07:28:00 GMT");
    QTest::newRow("http-date last but one")
        << QStringLiteral("status=503,retry-after=Sunday, 06-Nov-94 08:49:37 GMT,count=1");
    QTest::newRow("asctime") << QStringLiteral("status=503,retry-after=Sun Nov  6 08:49:37 1994");
    QTest::newRow("latency only") << QStringLiteral("latency=0");
    QTest::newRow("drop") << QStringLiteral("drop=mid-body,count=1");
    QTest::newRow("spaces") << QStringLiteral(" route = /images/* , drop = before-headers ");
}

void tst_DemoFaults::goodFaultSpecs()
{
    QFETCH(QString, spec);
    QString errorMessage;
    QVERIFY2(m_server->addFault(spec, &errorMessage), qPrintable(errorMessage));
    QCOMPARE(m_server->faults().size(), 1);
}

void tst_DemoFaults::adminFaults()
{
    const QByteArray replace =
        R"({"faults":["route=/api/version,status=500,count=1"],"replace":true})";
    Result result = admin("POST", QStringLiteral("/_admin/faults"), replace);
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json().value(QLatin1String("faults")).toArray().size(), 1);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 500);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);

    result = admin("POST", QStringLiteral("/_admin/faults"),
                   R"(["route=/images/*,status=404","drop=mid-body"])");
    QCOMPARE(result.status, 200);
    QCOMPARE(m_server->faults().size(), 3);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/faults"))
                 .json()
                 .value(QLatin1String("faults"))
                 .toArray()
                 .size(),
             3);

    // One bad spec rejects the whole request.
    result = admin("POST", QStringLiteral("/_admin/faults"),
                   R"({"faults":["status=503","status=nope"],"replace":true})");
    QCOMPARE(result.status, 400);
    QVERIFY(result.body.contains("status must be"));
    QCOMPARE(m_server->faults().size(), 3);
    QCOMPARE(admin("POST", QStringLiteral("/_admin/faults"), "not json").status, 400);

    result = admin("DELETE", QStringLiteral("/_admin/faults"));
    QCOMPARE(result.status, 200);
    QVERIFY(m_server->faults().isEmpty());
    QCOMPARE(send("GET", QStringLiteral("/images/preview-01.png")).status, 200);
}

void tst_DemoFaults::adminDownAndStats()
{
    get(QStringLiteral("/api/entries.json"));
    const qint64 total = m_server->totalRequests();
    QCOMPARE(total, 2);
    QVERIFY(!m_server->adminUrl().isEmpty());
    QVERIFY(m_server->adminUrl().port() != m_server->baseUrl().port());

    const Result stats = admin("GET", QStringLiteral("/_admin/stats"));
    QCOMPARE(stats.status, 200);
    QCOMPARE(stats.json(), m_server->stats());
    QCOMPARE(admin("POST", QStringLiteral("/_admin/down?seconds=-1")).status, 400);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/up")).status, 405);

    // A long outage: the API refuses connections, the admin API keeps answering.
    QSignalSpy downChanged(m_server.get(), &DemoServer::downChanged);
    const Result down = admin("POST", QStringLiteral("/_admin/down?seconds=600"));
    QCOMPARE(down.status, 200);
    QCOMPARE(down.json().value(QLatin1String("down_ms")).toInt(), 600000);
    QTRY_VERIFY_WITH_TIMEOUT(m_server->isDown(), 2000);
    QCOMPARE(send("GET", QStringLiteral("/api/version")).error,
             QNetworkReply::ConnectionRefusedError);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/faults")).status, 200);
    // Down again while down only restarts the wait; the admin API still answers.
    QCOMPARE(admin("POST", QStringLiteral("/_admin/down?seconds=0.5")).status, 200);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);

    // Up ends it at once, not when the time is over.
    const Result up = admin("POST", QStringLiteral("/_admin/up"));
    QCOMPARE(up.status, 200);
    QCOMPARE(up.json().value(QLatin1String("down")).toBool(true), false);
    QVERIFY(!m_server->isDown());
    QCOMPARE(downChanged.size(), 2);
    QCOMPARE(send("GET", QStringLiteral("/api/version")).status, 200);
    // Up while up changes nothing.
    QCOMPARE(admin("POST", QStringLiteral("/_admin/up")).status, 200);
    QCOMPARE(downChanged.size(), 2);

    // The C++ API does the same.
    m_server->goDown(600000);
    QVERIFY(m_server->isDown());
    m_server->comeUp();
    QVERIFY(!m_server->isDown());
    QCOMPARE(send("GET", QStringLiteral("/api/version")).status, 200);

    const Result reset = admin("POST", QStringLiteral("/_admin/stats/reset"));
    QCOMPARE(reset.status, 200);
    QCOMPARE(reset.json().value(QLatin1String("total_requests")).toInt(), 0);
    QCOMPARE(m_server->totalRequests(), 0);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/nothing")).status, 404);
}

void tst_DemoFaults::adminNotOnApiPort()
{
    // The API port is wallabag's alone; a script that still uses it is told where to go.
    const Result result = send("POST", QStringLiteral("/_admin/down?seconds=5"));
    QCOMPARE(result.status, 404);
    QVERIFY2(result.body.contains(m_server->adminUrl().toString().toUtf8()), result.body);
    QVERIFY(!m_server->isDown());
}

void tst_DemoFaults::runsInWorkerThread()
{
    QThread thread;
    thread.start();
    QObject context;
    context.moveToThread(&thread);
    DemoServer *server = nullptr;
    QMetaObject::invokeMethod(
        &context,
        [&server] {
            server = new DemoServer;
            server->listen();
        },
        Qt::BlockingQueuedConnection);
    QVERIFY(server);
    QCOMPARE(server->thread(), &thread);
    QVERIFY(!server->baseUrl().isEmpty());

    QVERIFY(server->addFault(QStringLiteral("route=/api/version,status=503,count=1")));
    QCOMPARE(send("GET", QStringLiteral("/api/version"), {}, {}, server).status, 503);
    const QByteArray accessToken = token(server);
    QCOMPARE(send("GET", QStringLiteral("/api/entries.json"), {},
                  { { "Authorization", "Bearer " + accessToken } }, server)
                 .status,
             200);
    QCOMPARE(server->totalRequests(), 3);

    server->goDown(200); // queued to the server's thread
    QTRY_VERIFY_WITH_TIMEOUT(server->isDown(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(!server->isDown(), 5000);
    QCOMPARE(send("GET", QStringLiteral("/api/entries.json"), {}, {}, server).status, 401);
    server->goDown(600000);
    QTRY_VERIFY_WITH_TIMEOUT(server->isDown(), 2000);
    server->comeUp(); // queued as well
    QTRY_VERIFY_WITH_TIMEOUT(!server->isDown(), 2000);
    QVERIFY(!server->adminUrl().isEmpty());

    QMetaObject::invokeMethod(
        &context, [server] { delete server; }, Qt::BlockingQueuedConnection);
    thread.quit();
    QVERIFY(thread.wait(5000));
}

void tst_DemoFaults::executable()
{
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--seed"),
                    QStringLiteral("1"), QStringLiteral("--fault"),
                    QStringLiteral("route=/api/version,status=503,count=1,retry-after=3") });
    QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QString firstLine = QString::fromUtf8(process.readLine()).trimmed();
    static const QRegularExpression expected(
        QStringLiteral("^listening on http://127\\.0\\.0\\.1:([0-9]+)$"));
    const QRegularExpressionMatch match = expected.match(firstLine);
    QVERIFY2(match.hasMatch(), qPrintable(firstLine));
    QVERIFY(match.captured(1).toInt() > 0);

    const QUrl url(firstLine.mid(int(qstrlen("listening on "))) + QStringLiteral("/api/version"));
    QNetworkReply *reply = m_nam->get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
    QCOMPARE(reply->rawHeader("Retry-After"), QByteArray("3"));
    reply->deleteLater();

    // The fault is spent; /api/version needs no token, as in wallabag.
    reply = m_nam->get(QNetworkRequest(url));
    QSignalSpy finishedAgain(reply, &QNetworkReply::finished);
    QVERIFY(finishedAgain.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->readAll(), QByteArray("\"2.6.14\""));
    reply->deleteLater();

    process.kill();
    QVERIFY(process.waitForFinished(5000));
}

void tst_DemoFaults::executableAdminStaysUpWhileDown()
{
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--port"), QStringLiteral("0") });
    QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).count('\n') >= 2, 10000);
    const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    static const QRegularExpression listening(
        QStringLiteral("^listening on (http://127\\.0\\.0\\.1:[0-9]+)$"));
    static const QRegularExpression adminLine(
        QStringLiteral("^admin on (http://127\\.0\\.0\\.1:[0-9]+)$"));
    QVERIFY2(listening.match(lines.at(0)).hasMatch(), qPrintable(lines.at(0)));
    QVERIFY2(adminLine.match(lines.at(1)).hasMatch(), qPrintable(lines.at(1)));
    const QString api = listening.match(lines.at(0)).captured(1);
    const QString adminBase = adminLine.match(lines.at(1)).captured(1);
    QVERIFY(api != adminBase);

    const auto call = [this](const QByteArray &method, const QString &url) {
        QNetworkReply *reply =
            m_nam->sendCustomRequest(QNetworkRequest(QUrl(url)), method, QByteArray());
        QSignalSpy finished(reply, &QNetworkReply::finished);
        Result result;
        result.error = finished.wait(10000) ? reply->error() : QNetworkReply::TimeoutError;
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.body = reply->readAll();
        reply->deleteLater();
        return result;
    };
    QCOMPARE(call("POST", adminBase + QStringLiteral("/_admin/down?seconds=600")).status, 200);
    QCOMPARE(call("GET", api + QStringLiteral("/api/version")).error,
             QNetworkReply::ConnectionRefusedError);
    const Result stats = call("GET", adminBase + QStringLiteral("/_admin/stats"));
    QCOMPARE(stats.status, 200);
    QVERIFY(stats.json().contains(QLatin1String("total_requests")));
    QCOMPARE(call("POST", adminBase + QStringLiteral("/_admin/up")).status, 200);
    QCOMPARE(call("GET", api + QStringLiteral("/api/version")).status, 200);

    process.kill();
    QVERIFY(process.waitForFinished(5000));
}

void tst_DemoFaults::executableRejectsBadFault()
{
    QProcess process;
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--fault"), QStringLiteral("status=700") });
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardOutput().isEmpty());
    QVERIFY(process.readAllStandardError().contains("invalid fault spec 'status=700'"));
}

void tst_DemoFaults::executableRejectsBadCapacity_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("negative max-concurrent")
        << QStringList { QStringLiteral("--max-concurrent"), QStringLiteral("-1") }
        << QByteArray("--max-concurrent must be a non-negative integer");
    QTest::newRow("word max-concurrent")
        << QStringList { QStringLiteral("--max-concurrent"), QStringLiteral("many") }
        << QByteArray("--max-concurrent must be a non-negative integer");
    QTest::newRow("service-time too long")
        << QStringList { QStringLiteral("--service-time"), QStringLiteral("600001") }
        << QByteArray("--service-time must be milliseconds from 0 to 600000");
}

void tst_DemoFaults::executableRejectsBadCapacity()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, message);
    QProcess process;
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE), arguments);
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains(message));
}

QTEST_GUILESS_MAIN(tst_DemoFaults)

#include "tst_demofaults.moc"
