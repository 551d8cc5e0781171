// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The thundering herd (issue 4). N logical GETs from many clients (one manager each) hit a
// demo server that is down for a while and then serves at most C requests at a time, 503
// above. Each retry strategy runs in turn against a fresh server:
//   - plain exponential backoff with no, full, equal and decorrelated jitter (the AWS
//     "Exponential Backoff and Jitter" strategies): breaker, budget and concurrency window off,
//     no waiting for connectivity, so every request and retry goes to the network;
//   - KeepTrying's default: full jitter + circuit breaker + retry budget + reachability
//     parking.
// Every strategy uses the same backoff numbers and no attempt limit, so that all requests
// complete and only the mechanisms differ.
//
//   bench_herd [--requests N] [--clients M] [--capacity C] [--service-ms S] [--down-ms D]
//              [--ablation]

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "demoserverthread.h"
#include "demotoken.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QMutex>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <vector>

using namespace KeepTrying;
using KeepTrying::Demo::DemoServer;

namespace {

struct Config
{
    int requests = 500;
    int clients = 50;
    int capacity = 50;
    int serviceMs = 100;
    int downMs = 5000;
    qint64 timeoutMs = 180000; // a strategy that has not finished by then is reported so
};

struct Strategy
{
    const char *name;
    Jitter jitter;
    bool keepTrying; // breaker, budget and reachability parking as the defaults have them
    bool breaker = true;
    bool budget = true;
    bool parking = true;
};

struct Figures
{
    qint64 outageTries = 0; // attempts and reachability probes made while the server was down
    qint64 outageFirstAttempts = 0; // of which first attempts
    qint64 outageProbes = 0; // of which reachability probes (HTTP)
    qint64 outageConnects = 0; // reachability's connect probes (no HTTP), not in outageTries
    double peakRps = 0; // most arrivals in 100 ms, times 10, in the first second after recovery
    double peakRpsAfter = 0; // the same over everything after recovery
    qint64 capacityRejections = 0;
    qint64 serverRequests = 0;
    double completionS = -1; // from the first request to the last completion; -1: unfinished
    double afterRecoveryS = -1;
    int failed = 0;
    int breakerTrips = 0;
    std::vector<int> arrivalsPerSecond; // server arrivals in each second after recovery
    std::vector<int> arrivalsFirstSecond; // the same, per 100 ms of the first second
    std::vector<int> firstAttemptsFirstSecond; // client side: first attempts per 100 ms
    std::vector<int> retriesFirstSecond; // client side: later attempts per 100 ms
    std::vector<int> returnsFirstSecond; // clients that saw the origin reachable again
};

Figures run(const Config &config, const Strategy &strategy)
{
    // The server on its own thread, as a real one would be: the clients' work does not slow it.
    Test::DemoServerThread host;
    DemoServer *server = host.server();
    server->setMaxConcurrent(config.capacity);
    server->setServiceTime(config.serviceMs);
    if (host.listen() == 0)
        qFatal("cannot listen");
    const QUrl base = server->baseUrl();
    const QByteArray token = Test::demoToken(base, nullptr, 0);
    if (token.isEmpty())
        qFatal("no token");
    const QByteArray bearer = "Bearer " + token;
    server->resetStats();

    QElapsedTimer clock;
    QMutex arrivalsMutex;
    std::vector<qint64> arrivals; // server thread writes, ms on `clock`
    std::atomic<qint64> recoveredAt { -1 };
    QObject::connect(
        server, &DemoServer::requestReceived, server,
        [&](const QByteArray &, const QString &) {
            const qint64 now = clock.elapsed();
            QMutexLocker locker(&arrivalsMutex);
            arrivals.push_back(now);
        },
        Qt::DirectConnection);
    QObject::connect(
        server, &DemoServer::downChanged, server,
        [&](bool down) {
            if (!down)
                recoveredAt = clock.elapsed();
        },
        Qt::DirectConnection);

    RetryPolicy policy;
    policy.jitter = strategy.jitter;
    policy.initialDelayMs = 100;
    policy.multiplier = 2;
    policy.maxDelayMs = 2000;
    policy.maxAttempts = 1000000; // no limit: every request completes, only time differs
    policy.maxConnectivityAttempts = 0;
    policy.waitForConnectivity = strategy.keepTrying && strategy.parking;

    Figures figures;
    std::vector<std::unique_ptr<RetryingNetworkAccessManager>> managers;
    std::vector<std::pair<qint64, int>> attempts; // main thread: (ms on `clock`, attempt)
    std::vector<qint64> returns; // main thread: when a client saw its origin reachable again
    for (int i = 0; i < config.clients; ++i) {
        auto manager = std::make_unique<RetryingNetworkAccessManager>();
        manager->setProxy(QNetworkProxy::NoProxy);
        manager->setRetryPolicy(policy);
        // The plain strategies are plain: no window either, every request goes at once.
        manager->setAdaptiveConcurrencyEnabled(strategy.keepTrying);
        CircuitBreaker::Settings breaker;
        breaker.enabled = strategy.keepTrying && strategy.breaker;
        manager->circuitBreaker()->setSettings(breaker);
        RetryBudget::Settings budget;
        budget.enabled = strategy.keepTrying && strategy.budget;
        manager->retryBudget()->setSettings(budget);
        QObject::connect(
            manager.get(), &RetryingNetworkAccessManager::attemptStarted,
            [&](QNetworkReply *, int attempt) { attempts.emplace_back(clock.elapsed(), attempt); });
        QObject::connect(manager->reachability(), &Reachability::originReachabilityChanged,
                         [&](const QString &, bool reachable) {
                             if (reachable)
                                 returns.push_back(clock.elapsed());
                         });
        QObject::connect(manager->circuitBreaker(), &CircuitBreaker::stateChanged,
                         [&](const QString &, CircuitBreaker::State state) {
                             figures.breakerTrips += state == CircuitBreaker::Open ? 1 : 0;
                         });
        managers.push_back(std::move(manager));
    }

    // The outage starts; the herd arrives at once.
    server->goDown(config.downMs);
    while (!server->isDown())
        QThread::msleep(1);
    qint64 probesAtRecovery = -1;
    qint64 connectsAtRecovery = 0;
    QObject::connect(server, &DemoServer::downChanged, server, [&](bool down) {
        QMetaObject::invokeMethod(QCoreApplication::instance(), [&, down] {
            if (down)
                return;
            probesAtRecovery = 0;
            for (const auto &manager : managers) {
                probesAtRecovery += manager->reachability()->probeCount();
                connectsAtRecovery += manager->reachability()->connectProbeCount();
            }
        });
    });
    clock.start();

    QEventLoop loop;
    int done = 0;
    QNetworkRequest request(QUrl(base.toString() + QStringLiteral("/api/version")));
    request.setRawHeader("Authorization", bearer);
    for (int i = 0; i < config.requests; ++i) {
        QNetworkReply *reply = managers[size_t(i % config.clients)]->get(request);
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply] {
            if (reply->error() != QNetworkReply::NoError)
                ++figures.failed;
            reply->deleteLater();
            if (++done == config.requests) {
                figures.completionS = double(clock.elapsed()) / 1000.0;
                loop.quit();
            }
        });
    }
    QTimer::singleShot(config.timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QCoreApplication::processEvents(); // the queued probe count, if recovery came last

    const qint64 recovered = recoveredAt;
    if (figures.completionS >= 0 && recovered >= 0)
        figures.afterRecoveryS = figures.completionS - double(recovered) / 1000.0;
    for (const auto &[t, attempt] : attempts) {
        if (recovered < 0 || t < recovered) {
            ++figures.outageTries;
            figures.outageFirstAttempts += attempt == 1 ? 1 : 0;
        }
    }
    // Counts per 100 ms of the first second after recovery.
    const auto firstSecond = [recovered](std::vector<int> &bins, qint64 t) {
        bins.resize(10, 0);
        if (recovered >= 0 && t >= recovered && t < recovered + 1000)
            ++bins[size_t((t - recovered) / 100)];
    };
    for (const auto &[t, attempt] : attempts)
        firstSecond(attempt == 1 ? figures.firstAttemptsFirstSecond : figures.retriesFirstSecond,
                    t);
    for (const qint64 t : returns)
        firstSecond(figures.returnsFirstSecond, t);
    figures.outageProbes = std::max<qint64>(0, probesAtRecovery);
    figures.outageConnects = connectsAtRecovery;
    figures.outageTries += figures.outageProbes;
    {
        QMutexLocker locker(&arrivalsMutex);
        std::vector<int> &bins = figures.arrivalsFirstSecond;
        bins.resize(10, 0);
        for (const qint64 t : arrivals)
            firstSecond(bins, t);
        figures.peakRps = 10.0 * *std::max_element(bins.cbegin(), bins.cend());
        std::vector<int> allBins;
        for (const qint64 t : arrivals) {
            if (recovered < 0 || t < recovered)
                continue;
            const size_t second = size_t((t - recovered) / 1000);
            if (figures.arrivalsPerSecond.size() <= second)
                figures.arrivalsPerSecond.resize(second + 1, 0);
            ++figures.arrivalsPerSecond[second];
            const size_t bin = size_t((t - recovered) / 100);
            if (allBins.size() <= bin)
                allBins.resize(bin + 1, 0);
            ++allBins[bin];
        }
        if (!allBins.empty())
            figures.peakRpsAfter = 10.0 * *std::max_element(allBins.cbegin(), allBins.cend());
    }
    const QJsonObject stats = server->stats();
    figures.capacityRejections = stats.value(QLatin1String("capacity_rejections")).toInteger();
    figures.serverRequests = stats.value(QLatin1String("total_requests")).toInteger();

    // Abort what is left (only after a timeout) before the managers go.
    for (const auto &manager : managers) {
        const QList<QNetworkReply *> left = manager->findChildren<QNetworkReply *>();
        for (QNetworkReply *reply : left) {
            QObject::disconnect(reply, nullptr, &loop, nullptr);
            reply->abort();
        }
    }
    managers.clear();
    return figures;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Thundering herd after an outage: plain jittered backoff against "
                       "KeepTrying's breaker, budget and reachability parking"));
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"),
                                            QStringLiteral("Logical GETs (N)."),
                                            QStringLiteral("N"), QStringLiteral("500"));
    const QCommandLineOption clientsOption(QStringLiteral("clients"),
                                           QStringLiteral("Managers the GETs are spread over."),
                                           QStringLiteral("M"), QStringLiteral("50"));
    const QCommandLineOption capacityOption(
        QStringLiteral("capacity"), QStringLiteral("Requests the server serves at once (C)."),
        QStringLiteral("C"), QStringLiteral("50"));
    const QCommandLineOption serviceOption(QStringLiteral("service-ms"),
                                           QStringLiteral("Time the server takes per request."),
                                           QStringLiteral("MS"), QStringLiteral("100"));
    const QCommandLineOption downOption(QStringLiteral("down-ms"),
                                        QStringLiteral("Length of the outage."),
                                        QStringLiteral("MS"), QStringLiteral("5000"));
    const QCommandLineOption timelineOption(
        QStringLiteral("timeline"),
        QStringLiteral("Print the requests the server received per second after recovery."));
    const QCommandLineOption ablationOption(
        QStringLiteral("ablation"),
        QStringLiteral("Also run KeepTrying with one mechanism switched off at a time."));
    parser.addOptions({ requestsOption, clientsOption, capacityOption, serviceOption, downOption,
                        ablationOption, timelineOption });
    parser.process(app);
    Config config;
    config.requests = std::max(1, parser.value(requestsOption).toInt());
    config.clients = std::max(1, parser.value(clientsOption).toInt());
    config.capacity = std::max(1, parser.value(capacityOption).toInt());
    config.serviceMs = std::max(1, parser.value(serviceOption).toInt());
    config.downMs = std::max(0, parser.value(downOption).toInt());
    const bool timeline = parser.isSet(timelineOption);
    // Trips, parked requests and shed requests are the point here, not news.
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*.warning=false"));

    std::vector<Strategy> strategies = {
        { "no jitter", Jitter::None, false },
        { "full jitter", Jitter::Full, false },
        { "equal jitter", Jitter::Equal, false },
        { "decorrelated jitter", Jitter::Decorrelated, false },
        { "KeepTrying default", Jitter::Full, true },
    };
    const size_t plainCount = 4;
    const size_t keepTryingIndex = 4;
    if (parser.isSet(ablationOption)) {
        strategies.push_back({ "KeepTrying -breaker", Jitter::Full, true, false, true, true });
        strategies.push_back({ "KeepTrying -budget", Jitter::Full, true, true, false, true });
        // Not waiting also means failing at once while a breaker is open (by design).
        strategies.push_back({ "KeepTrying -parking", Jitter::Full, true, true, true, false });
        strategies.push_back({ "KeepTrying parking only", Jitter::Full, true, false, false, true });
    }

    const double capacityRps = 1000.0 * config.capacity / config.serviceMs;
    std::printf("N=%d GETs over %d clients; server down %d ms, then at most C=%d at a time, "
                "%d ms each\n",
                config.requests, config.clients, config.downMs, config.capacity, config.serviceMs);
    std::printf("backoff: 100 ms doubling to 2000 ms, no attempt limit\n\n");
    std::printf("%-24s %12s %14s %9s %12s %10s %11s %11s %11s %10s %6s %7s\n", "strategy",
                "outage tries", "first/probes", "connects", "peak rps 1s", "peak later",
                "shed (503)", "server reqs", "complete s", "after rec.", "trips", "failed");
    std::fflush(stdout);
    std::vector<Figures> results;
    for (const Strategy &strategy : strategies) {
        const Figures f = run(config, strategy);
        results.push_back(f);
        const QByteArray split =
            QByteArray::number(f.outageFirstAttempts) + '/' + QByteArray::number(f.outageProbes);
        std::printf("%-24s %12lld %14s %9lld %12.0f %10.0f %11lld %11lld %11.2f %10.2f %6d %7d\n",
                    strategy.name, f.outageTries, split.constData(), f.outageConnects, f.peakRps,
                    f.peakRpsAfter, f.capacityRejections, f.serverRequests, f.completionS,
                    f.afterRecoveryS, f.breakerTrips, f.failed);
        if (timeline) {
            const auto print = [](const char *title, const std::vector<int> &counts) {
                QByteArray line = title;
                for (const int n : counts)
                    line += ' ' + QByteArray::number(n);
                std::printf("%s\n", line.constData());
            };
            print("    arrivals per second after recovery:", f.arrivalsPerSecond);
            print("    per 100 ms in the first second:  arrivals", f.arrivalsFirstSecond);
            print("                                first attempts", f.firstAttemptsFirstSecond);
            print("                                       retries", f.retriesFirstSecond);
            print("                 clients seeing the origin back", f.returnsFirstSecond);
        }
        std::fflush(stdout);
    }

    std::printf("\noutage tries: HTTP attempts started plus reachability HTTP probes sent while "
                "the server was down (connections refused); first/probes: of which first "
                "attempts and HTTP probes; connects: reachability's connect probes (a connection "
                "opened and closed, no HTTP), all clients, not in outage tries\n");
    std::printf("trips: circuit breaker openings, all clients\n");
    std::printf("peak rps 1s: most requests the server received in one 100 ms bin of the "
                "first second after recovery, times 10; peak later: the same over all the time "
                "after recovery\n");
    std::printf("capacity: C / service time = %d / %d ms = %.0f requests per second\n",
                config.capacity, config.serviceMs, capacityRps);
    std::printf("complete s: from the first request to the last completion (-1: not within "
                "%lld s); after rec.: the part after recovery\n",
                config.timeoutMs / 1000);

    const Figures &keep = results[keepTryingIndex];
    double bestPlain = -1;
    for (size_t i = 0; i < plainCount; ++i) {
        if (results[i].completionS > 0 && (bestPlain < 0 || results[i].completionS < bestPlain))
            bestPlain = results[i].completionS;
    }
    const double outageShare =
        results[0].outageTries > 0 ? double(keep.outageTries) / double(results[0].outageTries) : 0;
    std::printf("targets: outage requests <= 10 %% of no jitter's (%.1f %%), peak/capacity <= 1.5, "
                "completion / best plain <= 1.2\n",
                100.0 * outageShare);
    std::printf("RESULT herd_outage_requests %lld\n", keep.outageTries);
    std::printf("RESULT herd_outage_connect_probes %lld\n", keep.outageConnects);
    std::printf("RESULT herd_peak_rps_ratio %.2f\n", keep.peakRps / capacityRps);
    std::printf("RESULT herd_completion_ratio %.2f\n",
                keep.completionS > 0 && bestPlain > 0 ? keep.completionS / bestPlain : -1.0);
    return 0;
}
