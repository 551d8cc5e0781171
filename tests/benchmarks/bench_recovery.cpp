// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// How fast do waiting requests recover when the network or the server comes back, and how
// much do they send while it is away? 100 GETs wait through an outage of the demo server;
// KeepTrying (library defaults) is compared in the same run with plain QNetworkAccessManager
// loops that follow common retry schedules:
//
//   (a) signal: a reachability backend says offline at the start and online when the server
//       is back (KeepTrying only; the plain loops do not listen to any signal);
//   (b) probe:  no backend at all, so only probes and request outcomes tell.
//
//   fetchWithRetry  1 s doubling, 5 s cap, no jitter, forever
//   retryRequest    2 s, 4 s, 8 s … capped at 32 s, forever
//   Apollo          RetryLink defaults: 300 ms doubling, full jitter, 5 attempts in all
//
// The GETs are made at random times in the first half of the outage. Every outage is real
// time; KeepTrying runs alone, the plain loops in parallel with each other. "Sent" counts the
// HTTP requests the client started while the server was down (they are refused, so the server
// itself sees none): first attempts, then repeats (retries and HTTP probes); KeepTrying's
// connect probes (a connection opened and closed, no HTTP) are counted apart, per second.
//
// Then a fresh process, as a user would start one: the demo server goes down for 3 s (as
// POST /_admin/down?seconds=3 does: its listener closes, connections are refused), a new
// keeptrying-fetch makes one GET at once, and the time from the server's return to the
// process's exit is measured, five times. curl (--retry 30 --retry-connrefused), when
// installed, runs through the same outages as a peer; without --quick both also run through
// one outage of 6 s and one of 12 s.
//
//   bench_recovery [--quick] [--repeat N] [--fresh-runs N] [--fresh-only]
//       --quick: outages of 1, 2 and 5 s only; --repeat: KeepTrying runs per outage (3);
//       --fresh-runs: 3 s outages per peer in the fresh-process scenario (5, 0: none);
//       --fresh-only: the fresh-process scenario alone

#include <KeepTrying/reachability.h>
#include <KeepTrying/reachabilitybackend.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QLoggingCategory>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QStandardPaths>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

using namespace KeepTrying;
using KeepTrying::Demo::DemoServer;

namespace {

constexpr int waitingRequests = 100;

enum class Strategy { KeepTryingSignal, KeepTryingProbe, FetchWithRetry, RetryRequest, Apollo };

const char *nameOf(Strategy strategy)
{
    switch (strategy) {
    case Strategy::KeepTryingSignal:
        return "KeepTrying (a) signal";
    case Strategy::KeepTryingProbe:
        return "KeepTrying (b) probe";
    case Strategy::FetchWithRetry:
        return "fetchWithRetry";
    case Strategy::RetryRequest:
        return "retryRequest";
    case Strategy::Apollo:
        return "Apollo RetryLink";
    }
    return "";
}

class SwitchBackend : public ReachabilityBackend
{
public:
    State state() const override { return m_state; }
    QString name() const override { return QStringLiteral("bench"); }
    void setState(State state)
    {
        if (state == m_state)
            return;
        m_state = state;
        Q_EMIT stateChanged(state);
    }

private:
    State m_state = Online;
};

// The delay before retry number \a retry (from 1) of a plain loop, or -1 to give up.
qint64 seedDelay(Strategy strategy, int retry)
{
    switch (strategy) {
    case Strategy::FetchWithRetry:
        return std::min<qint64>(5000, qint64(1000) << std::min(retry - 1, 10));
    case Strategy::RetryRequest:
        return std::min<qint64>(32000, qint64(2000) << std::min(retry - 1, 10));
    case Strategy::Apollo: {
        // apollo-link-retry: max 5 attempts, the first included; with jitter the delay is
        // random in [0, initial * 2^count).
        if (retry >= 5)
            return -1;
        const double base = 300.0 * std::pow(2.0, retry);
        return qint64(QRandomGenerator::global()->generateDouble() * base);
    }
    case Strategy::KeepTryingSignal:
    case Strategy::KeepTryingProbe:
        break;
    }
    return -1;
}

// One strategy through one outage: its own server, its own client.
class Run : public QObject
{
public:
    Run(Strategy strategy, int outageMs) : m_strategy(strategy), m_outageMs(outageMs) { }

    Strategy strategy() const { return m_strategy; }
    int outageMs() const { return m_outageMs; }
    bool isDone() const { return m_succeeded + m_failed == waitingRequests; }
    qint64 recoveryMs() const { return m_recoveryMs; }
    int failed() const { return m_failed; }
    int firstSentWhileDown() const { return m_firstWhileDown; }
    int repeatsSentWhileDown() const { return m_repeatsWhileDown; }
    qint64 connectProbesWhileDown() const { return m_connectsWhileDown; }

    bool start()
    {
        if (m_server.listen() == 0)
            return false;
        connect(&m_server, &DemoServer::downChanged, this, [this](bool down) {
            if (down)
                return;
            m_sinceBack.start();
            if (m_backend)
                m_backend->setState(ReachabilityBackend::Online);
            if (m_retrying) {
                m_repeatsWhileDown +=
                    int(m_retrying->reachability()->probeCount() - m_probesAtDown);
                m_connectsWhileDown =
                    m_retrying->reachability()->connectProbeCount() - m_connectsAtDown;
            }
        });
        if (m_strategy == Strategy::KeepTryingSignal || m_strategy == Strategy::KeepTryingProbe) {
            auto *manager = new RetryingNetworkAccessManager(this);
            m_retrying = manager;
            m_manager = manager;
            if (m_strategy == Strategy::KeepTryingSignal) {
                m_backend = new SwitchBackend;
                m_backend->setParent(this);
                manager->reachability()->setBackend(m_backend);
            } else {
                manager->reachability()->setBackend(nullptr);
            }
            connect(manager, &RetryingNetworkAccessManager::attemptStarted, this,
                    [this](QNetworkReply *, int attempt) { countSent(attempt == 1); });
        } else {
            m_manager = new QNetworkAccessManager(this);
        }

        m_server.goDown(m_outageMs);
        if (m_backend)
            m_backend->setState(ReachabilityBackend::Offline);
        if (m_retrying) {
            m_probesAtDown = m_retrying->reachability()->probeCount();
            m_connectsAtDown = m_retrying->reachability()->connectProbeCount();
        }
        // The GETs are made at random times in the first half of the outage, as users would
        // make them; all at the same instant would let a fixed schedule line up with the
        // server's return by luck.
        for (int i = 0; i < waitingRequests; ++i) {
            const int at = int(QRandomGenerator::global()->bounded(m_outageMs / 2));
            QTimer::singleShot(at, this, [this, i] { send(i, 1); });
        }
        return true;
    }

private:
    QUrl url(int index) const
    {
        QUrl url = m_server.baseUrl();
        url.setPath(QStringLiteral("/images/preview-01.png"));
        url.setQuery(QStringLiteral("n=") + QString::number(index));
        return url;
    }

    void countSent(bool first)
    {
        if (!m_server.isDown())
            return;
        first ? ++m_firstWhileDown : ++m_repeatsWhileDown;
    }

    void send(int index, int attempt)
    {
        QNetworkReply *reply = m_manager->get(QNetworkRequest(url(index)));
        if (!m_retrying)
            countSent(attempt == 1);
        connect(reply, &QNetworkReply::finished, this, [this, reply, index, attempt] {
            reply->deleteLater();
            const bool answered =
                reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0;
            if (reply->error() == QNetworkReply::NoError) {
                ++m_succeeded;
            } else if (!m_retrying && !answered) {
                const qint64 delay = seedDelay(m_strategy, attempt);
                if (delay >= 0) {
                    QTimer::singleShot(delay, this,
                                       [this, index, attempt] { send(index, attempt + 1); });
                    return;
                }
                ++m_failed;
            } else {
                ++m_failed;
            }
            if (m_sinceBack.isValid() && reply->error() == QNetworkReply::NoError)
                m_recoveryMs = m_sinceBack.elapsed();
        });
    }

    Strategy m_strategy;
    int m_outageMs;
    DemoServer m_server;
    QNetworkAccessManager *m_manager = nullptr;
    RetryingNetworkAccessManager *m_retrying = nullptr;
    SwitchBackend *m_backend = nullptr;
    QElapsedTimer m_sinceBack;
    qint64 m_probesAtDown = 0;
    qint64 m_connectsAtDown = 0;
    qint64 m_connectsWhileDown = 0;
    qint64 m_recoveryMs = -1; // "back" to the last success
    int m_succeeded = 0;
    int m_failed = 0;
    int m_firstWhileDown = 0;
    int m_repeatsWhileDown = 0;
};

// Starts the runs together and returns when all are done.
void runAll(const std::vector<Run *> &runs)
{
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (std::all_of(runs.begin(), runs.end(), [](Run *run) { return run->isDone(); }))
            loop.quit();
    });
    for (Run *run : runs) {
        if (!run->start())
            qFatal("cannot listen on loopback");
    }
    poll.start();
    loop.exec();
}

// One fresh client process through one outage of the demo server: the time from the
// server's return to the process's exit, or -1 when it failed.
struct FreshRun
{
    QString peer;
    int outageMs = 0;
    qint64 catchUpMs = -1;
    int exitCode = -1;
    qint64 httpWhileDown = 0; // requests the server received while down (refused: 0)
};

FreshRun runFreshProcess(const QString &peer, const QString &program, const QStringList &arguments,
                         int outageMs)
{
    FreshRun result;
    result.peer = peer;
    result.outageMs = outageMs;
    DemoServer server;
    if (server.listen() == 0)
        qFatal("cannot listen on loopback");
    QUrl url = server.baseUrl();
    url.setPath(QStringLiteral("/images/preview-01.png"));
    QElapsedTimer sinceBack;
    QObject::connect(&server, &DemoServer::downChanged, &server, [&](bool down) {
        if (!down)
            sinceBack.start();
    });
    QObject::connect(&server, &DemoServer::requestReceived, &server, [&] {
        if (server.isDown())
            ++result.httpWhileDown;
    });

    QProcess process;
    process.setProgram(program);
    process.setArguments(arguments + QStringList { url.toString() });
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    process.setProcessEnvironment(environment);
    QEventLoop loop;
    qint64 endedAfterBack = -1;
    QObject::connect(&process, &QProcess::finished, &loop, [&] {
        endedAfterBack = sinceBack.isValid() ? sinceBack.elapsed() : -1;
        loop.quit();
    });
    QObject::connect(&process, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            loop.quit();
    });
    // As on the demo server's admin API: down first, then one GET from a new process.
    server.goDown(outageMs);
    process.start();
    QTimer::singleShot(outageMs + 120000, &loop, &QEventLoop::quit);
    loop.exec();
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5000);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    if (result.exitCode == 0)
        result.catchUpMs = endedAfterBack;
    return result;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? -1 : (n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Recovery after an outage: KeepTrying against plain retry loops."));
    parser.addHelpOption();
    const QCommandLineOption quickOption(QStringLiteral("quick"),
                                         QStringLiteral("Outages of 1, 2 and 5 s only."));
    const QCommandLineOption repeatOption(
        QStringLiteral("repeat"),
        QStringLiteral("Runs of KeepTrying per outage length (the medians are over all)."),
        QStringLiteral("N"), QStringLiteral("3"));
    const QCommandLineOption freshRunsOption(
        QStringLiteral("fresh-runs"),
        QStringLiteral("3 s outages per peer in the fresh-process scenario (0: none)."),
        QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption freshOnlyOption(QStringLiteral("fresh-only"),
                                             QStringLiteral("The fresh-process scenario alone."));
    const QCommandLineOption fetchOption(QStringLiteral("fetch"),
                                         QStringLiteral("The keeptrying-fetch executable to run."),
                                         QStringLiteral("PATH"),
#ifdef KEEPTRYING_FETCH_EXECUTABLE
                                         QStringLiteral(KEEPTRYING_FETCH_EXECUTABLE)
#else
                                         QString()
#endif
    );
    parser.addOptions({ quickOption, repeatOption, freshRunsOption, freshOnlyOption, fetchOption });
    parser.process(app);
    // The breaker's trip warnings are expected here; the table says what happened.
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*.warning=false"));

    const bool freshOnly = parser.isSet(freshOnlyOption);
    const std::vector<int> outages = freshOnly ? std::vector<int> {}
        : parser.isSet(quickOption)            ? std::vector<int> { 1000, 2000, 5000 }
                                    : std::vector<int> { 1000, 2000, 5000, 10000, 20000 };
    std::vector<std::unique_ptr<Run>> runs;

    // KeepTrying alone, one outage at a time, so that nothing else shares the event loop.
    // Where a server's return falls between two probes is chance: several runs per length
    // make the medians a measurement rather than a draw.
    const int repeats = std::max(1, parser.value(repeatOption).toInt());
    for (int outage : outages) {
        for (int r = 0; r < repeats; ++r) {
            for (Strategy strategy : { Strategy::KeepTryingSignal, Strategy::KeepTryingProbe }) {
                std::fprintf(stderr, "%s, outage %d s, run %d...\n", nameOf(strategy),
                             outage / 1000, r + 1);
                runs.push_back(std::make_unique<Run>(strategy, outage));
                runAll({ runs.back().get() });
            }
        }
    }
    // The plain loops recover in seconds: run them all at once.
    std::vector<Run *> seeds;
    for (int outage : outages) {
        for (Strategy strategy :
             { Strategy::FetchWithRetry, Strategy::RetryRequest, Strategy::Apollo }) {
            runs.push_back(std::make_unique<Run>(strategy, outage));
            seeds.push_back(runs.back().get());
        }
    }
    if (!seeds.empty()) {
        std::fprintf(stderr, "plain QNetworkAccessManager loops, all outages at once...\n");
        runAll(seeds);
    }

    std::vector<double> signalRecovery, probeRecovery, probeRate, connectRate;
    if (!outages.empty()) {
        std::printf("%d GETs made during the first half of an outage of the server; recovery = "
                    "from the server's return to the last success.\nSent = HTTP requests "
                    "started while the server was down: first attempts + repeats (retries, "
                    "HTTP probes); connects/s: connect probes (no HTTP) per second.\n\n",
                    waitingRequests);
        std::printf("%-9s %-24s %12s %10s %10s %12s %11s %8s\n", "outage s", "strategy",
                    "recovery ms", "first", "repeats", "repeats/s", "connects/s", "gave up");
    }
    for (int outage : outages) {
        for (const auto &run : runs) {
            if (run->outageMs() != outage)
                continue;
            const double rate = run->repeatsSentWhileDown() / (outage / 1000.0);
            const double connects = double(run->connectProbesWhileDown()) / (outage / 1000.0);
            char recovery[32];
            if (run->recoveryMs() >= 0)
                std::snprintf(recovery, sizeof recovery, "%lld", run->recoveryMs());
            else
                std::snprintf(recovery, sizeof recovery, "-");
            std::printf("%-9d %-24s %12s %10d %10d %12.2f %11.2f %8d\n", outage / 1000,
                        nameOf(run->strategy()), recovery, run->firstSentWhileDown(),
                        run->repeatsSentWhileDown(), rate, connects, run->failed());
            if (run->strategy() == Strategy::KeepTryingSignal)
                signalRecovery.push_back(double(run->recoveryMs()));
            if (run->strategy() == Strategy::KeepTryingProbe) {
                probeRecovery.push_back(double(run->recoveryMs()));
                probeRate.push_back(rate);
                connectRate.push_back(connects);
            }
        }
        std::printf("\n");
    }
    if (!outages.empty()) {
        std::printf("(medians over all %zu KeepTrying probe runs; outage_requests_per_s counts "
                    "HTTP repeats per origin, the first attempt of each GET excluded; connect "
                    "probes apart)\n",
                    probeRecovery.size());
        std::printf("RESULT recovery_signal_median_ms %.0f\n", median(signalRecovery));
        std::printf("RESULT recovery_probe_median_ms %.0f\n", median(probeRecovery));
        std::printf("RESULT outage_requests_per_s %.2f\n", median(probeRate));
        std::printf("RESULT outage_connect_probes_per_s %.2f\n", median(connectRate));
    }

    // A fresh process per outage: keeptrying-fetch, and curl beside it when installed.
    const int freshRuns = std::max(0, parser.value(freshRunsOption).toInt());
    const QString fetch = parser.value(fetchOption);
    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    if (freshRuns == 0)
        return 0;
    if (fetch.isEmpty())
        qFatal("no keeptrying-fetch to run: pass --fetch PATH");
    struct Peer
    {
        QString name;
        QString program;
        QStringList arguments;
    };
    std::vector<Peer> peers = { { QStringLiteral("keeptrying-fetch"),
                                  fetch,
                                  { QStringLiteral("-o"), QProcess::nullDevice() } } };
    if (!curl.isEmpty()) {
        // Without --retry-max-time curl's delays double from 1 s; --max-time bounds the run.
        peers.push_back({ QStringLiteral("curl --retry 30 --retry-connrefused"),
                          curl,
                          { QStringLiteral("-sS"), QStringLiteral("-o"), QProcess::nullDevice(),
                            QStringLiteral("--retry"), QStringLiteral("30"),
                            QStringLiteral("--retry-connrefused") } });
    }
    std::vector<int> freshOutages(size_t(freshRuns), 3000);
    if (!parser.isSet(quickOption)) {
        freshOutages.push_back(6000);
        freshOutages.push_back(12000);
    }
    std::vector<FreshRun> fresh;
    for (const Peer &peer : peers) {
        for (int outage : freshOutages) {
            std::fprintf(stderr, "fresh process: %s, outage %d s...\n", qPrintable(peer.name),
                         outage / 1000);
            fresh.push_back(runFreshProcess(peer.name, peer.program, peer.arguments, outage));
        }
    }
    std::printf("\nA fresh process makes one GET during an outage of the demo server (listener "
                "closed: connections refused); catch-up = from the server's return to the "
                "process's exit.\n\n");
    std::printf("%-40s %9s %14s %10s %12s\n", "peer", "outage s", "catch-up ms", "exit",
                "HTTP in outage");
    std::vector<double> oursAt3, curlAt3;
    for (const FreshRun &run : fresh) {
        char catchUp[32];
        if (run.catchUpMs >= 0)
            std::snprintf(catchUp, sizeof catchUp, "%lld", run.catchUpMs);
        else
            std::snprintf(catchUp, sizeof catchUp, "-");
        std::printf("%-40s %9d %14s %10d %12lld\n", qPrintable(run.peer), run.outageMs / 1000,
                    catchUp, run.exitCode, run.httpWhileDown);
        if (run.outageMs == 3000) {
            auto &values = run.peer == peers.front().name ? oursAt3 : curlAt3;
            values.push_back(run.catchUpMs >= 0 ? double(run.catchUpMs) : 1e9);
        }
    }
    std::printf("\n(medians over the 3 s outages)\n");
    std::printf("RESULT fresh_process_catchup_median_ms %.0f\n", median(oursAt3));
    if (!curlAt3.empty())
        std::printf("RESULT fresh_process_curl_catchup_median_ms %.0f\n", median(curlAt3));
    else
        std::printf("(curl is not installed: no peer figures)\n");
    return 0;
}
