// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What does keeping trying cost when nothing fails, counted in instructions rather than
// time (issue 9)? Wall-time ratios on shared machines swing by several per cent; the number
// of instructions a client executes for the same work barely moves. The same workloads as
// bench_overhead, each through a plain QNetworkAccessManager and through
// RetryingNetworkAccessManager (default policy), the client alone under
// valgrind --tool=callgrind, the server in a process of its own so that its instructions are
// not counted. Only the measured loop is instrumented (CALLGRIND_START_INSTRUMENTATION /
// CALLGRIND_STOP_INSTRUMENTATION around it, after a warm-up): start-up, the warm-up and
// shutdown cost nothing. Each client runs in 3 rounds, interleaved, and counts as the median.
// Prints the instructions (callgrind's Ir) per request, the ratio ours/plain per scenario,
// and last `RESULT overhead_instructions_ratio X` (the worst).
//
// A third client, PassThroughManager, wraps Qt's reply in one of its own and does nothing
// else: its ratio is the floor of any design that retries behind one outer QNetworkReply,
// printed as `RESULT wrapper_floor_ratio X` (the worst) before the last line. The engine's own
// cost, ours over that floor, is printed per scenario as `RESULT engine_over_floor_ratio X
// SCENARIO`, then the worst as `RESULT engine_over_floor_ratio_worst X`.
//
//   bench_instructions [--quick] [--rounds N] [--requests N] [--download-mib N]
//                      [--keep DIR] [--valgrind PATH]
//
// The same executable plays the other roles, started by the driver above:
//   bench_instructions --server        the loopback BenchServer; first line "listening on URL";
//                                      exits when its stdin closes
//   bench_instructions --client sequential|parallel|download --manager plain|wrapper|retrying
//                      --url URL [--requests N] [--bytes N]
//                                      the measured client; last line "ok ..."

#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "benchserver.h"
#include "benchworkloads.h"
#include "passthroughmanager.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QSocketNotifier>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>

#include <valgrind/callgrind.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Bench;

namespace {

constexpr int kParallel = 64;

// ---- the server role --------------------------------------------------------------------

int runServer(QCoreApplication &app)
{
    BenchServer server; // answers on its own thread
    std::printf("listening on %s\n", qPrintable(server.url(QString()).toString()));
    std::fflush(stdout);
    // The driver closes our stdin when it is done (or dies): then we go.
    QSocketNotifier stdinNotifier(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&stdinNotifier, &QSocketNotifier::activated, &app, [&] {
        char buffer[256];
        if (::read(STDIN_FILENO, buffer, sizeof buffer) <= 0)
            app.quit();
    });
    return app.exec();
}

// ---- the client role (the one that is measured) -----------------------------------------

int runClient(const QString &scenario, const QString &managerName, const QUrl &base, int requests,
              qint64 bytes)
{
    std::unique_ptr<QNetworkAccessManager> manager;
    if (managerName == QLatin1String("plain"))
        manager = std::make_unique<QNetworkAccessManager>();
    else if (managerName == QLatin1String("wrapper"))
        manager = std::make_unique<PassThroughManager>();
    else if (managerName == QLatin1String("retrying"))
        manager = std::make_unique<RetryingNetworkAccessManager>(); // default policy
    else
        qFatal("--manager must be plain, wrapper or retrying");

    QUrl small = base;
    small.setPath(QStringLiteral("/small"));
    QUrl stream = base;
    stream.setPath(QStringLiteral("/stream"));
    stream.setQuery(QStringLiteral("bytes=%1").arg(bytes));
    QUrl warmUpStream = stream;
    warmUpStream.setQuery(QStringLiteral("bytes=%1").arg(1024 * 1024));

    std::function<void()> warmUp;
    std::function<void()> measured;
    if (scenario == QLatin1String("sequential")) {
        warmUp = [&] { sequentialGets(*manager, small, 16); };
        measured = [&] { sequentialGets(*manager, small, requests); };
    } else if (scenario == QLatin1String("parallel")) {
        // Opens every connection the manager will use and lets the retrying manager's
        // concurrency window grow to where it stays.
        warmUp = [&] { concurrentGets(*manager, small, 4 * kParallel, kParallel); };
        measured = [&] { concurrentGets(*manager, small, requests, kParallel); };
    } else if (scenario == QLatin1String("download")) {
        warmUp = [&] { streamedDownload(*manager, warmUpStream, 1024 * 1024); };
        measured = [&] { streamedDownload(*manager, stream, bytes); };
    } else {
        qFatal("--client must be sequential, parallel or download");
    }

    warmUp();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    CALLGRIND_START_INSTRUMENTATION;
    measured();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the last replies
    CALLGRIND_STOP_INSTRUMENTATION;
    std::printf("ok %s %s valgrind=%d\n", qPrintable(scenario), qPrintable(managerName),
                int(RUNNING_ON_VALGRIND));
    return 0;
}

// ---- the driver -------------------------------------------------------------------------

// The instructions a callgrind output file counted: the first event (Ir) of its "totals:"
// line, or of "summary:" when an older callgrind wrote only that.
qint64 instructionsIn(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    qint64 summary = -1;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        for (const char *key : { "totals:", "summary:" }) {
            if (line.startsWith(key)) {
                bool ok = false;
                const qint64 ir =
                    line.mid(qstrlen(key)).trimmed().split(' ').value(0).toLongLong(&ok);
                if (ok && qstrcmp(key, "totals:") == 0)
                    return ir;
                if (ok)
                    summary = ir;
            }
        }
    }
    return summary;
}

struct Scenario
{
    QString key; // the client's --client argument
    QString title; // what the table says
    int requests; // per run (the divisor)
    qint64 bytes; // of the download, else 0
    std::vector<qint64> plainIr = {}; // one count per round
    std::vector<qint64> wrapperIr = {};
    std::vector<qint64> retryingIr = {};
};

qint64 median(std::vector<qint64> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct DriverOptions
{
    int requests = 500;
    qint64 mib = 64;
    int rounds = 3;
    QString keepDir; // empty: a temporary directory
    QString valgrind; // empty: from PATH
};

int runDriver(const DriverOptions &options)
{
    const int requests = options.requests;
    const qint64 mib = options.mib;
    const QString valgrind = !options.valgrind.isEmpty()
        ? options.valgrind
        : QStandardPaths::findExecutable(QStringLiteral("valgrind"));
    if (valgrind.isEmpty()) {
        std::fprintf(stderr,
                     "bench_instructions: valgrind not found (Debian: apt install "
                     "valgrind), or give --valgrind PATH\n");
        return 1;
    }

    QTemporaryDir temporary;
    const QString outDir = !options.keepDir.isEmpty() ? options.keepDir : temporary.path();
    if (!QDir().mkpath(outDir)) {
        std::fprintf(stderr, "bench_instructions: cannot create %s\n", qPrintable(outDir));
        return 1;
    }

    const QString self = QCoreApplication::applicationFilePath();
    QProcess server;
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server.start(self, { QStringLiteral("--server") });
    if (!server.waitForStarted() || !server.waitForReadyRead(10000)) {
        std::fprintf(stderr, "bench_instructions: the server did not start\n");
        return 1;
    }
    const QByteArray greeting = server.readLine().trimmed();
    if (!greeting.startsWith("listening on ")) {
        std::fprintf(stderr, "bench_instructions: unexpected server output: %s\n",
                     greeting.constData());
        return 1;
    }
    const QString url = QString::fromLatin1(greeting.mid(13));

    std::vector<Scenario> scenarios = {
        { QStringLiteral("sequential"), QStringLiteral("%1 sequential GETs").arg(requests),
          requests, 0 },
        { QStringLiteral("parallel"),
          QStringLiteral("%1 GETs, %2 in flight").arg(requests).arg(kParallel), requests, 0 },
        { QStringLiteral("download"), QStringLiteral("%1 MiB download").arg(mib), 1,
          mib * 1024 * 1024 },
    };

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE")); // would wait forever

    int failures = 0;
    // Rounds interleave the runs; each count is the median of its rounds. A count moves by
    // about half a per cent from run to run: how Qt's network thread and the event loop
    // interleave under valgrind, and so how many wake-ups and queued calls a reply takes,
    // still depends on timing.
    for (int round = 0; round < options.rounds; ++round) {
        for (Scenario &s : scenarios) {
            for (const QString &manager : { QStringLiteral("plain"), QStringLiteral("wrapper"),
                                            QStringLiteral("retrying") }) {
                const QString outFile = QDir(outDir).filePath(
                    QStringLiteral("callgrind.%1.%2.%3.out").arg(s.key, manager).arg(round + 1));
                QFile::remove(outFile);
                QStringList arguments = { QStringLiteral("--tool=callgrind"),
                                          QStringLiteral("-q"),
                                          QStringLiteral("--instr-atstart=no"),
                                          QStringLiteral("--callgrind-out-file=") + outFile,
                                          self,
                                          QStringLiteral("--client"),
                                          s.key,
                                          QStringLiteral("--manager"),
                                          manager,
                                          QStringLiteral("--url"),
                                          url,
                                          QStringLiteral("--requests"),
                                          QString::number(s.requests),
                                          QStringLiteral("--bytes"),
                                          QString::number(s.bytes) };
                std::fprintf(stderr, "round %d of %d: %s, %s ...\n", round + 1, options.rounds,
                             qPrintable(s.title), qPrintable(manager));
                QProcess client;
                client.setProcessEnvironment(environment);
                client.setProcessChannelMode(QProcess::ForwardedErrorChannel);
                client.start(valgrind, arguments);
                const bool finished = client.waitForFinished(20 * 60 * 1000);
                const QByteArray output = client.readAllStandardOutput();
                if (!finished || client.exitStatus() != QProcess::NormalExit ||
                    client.exitCode() != 0 || !output.contains("ok ")) {
                    std::fprintf(stderr, "bench_instructions: the %s client of %s failed\n",
                                 qPrintable(manager), qPrintable(s.key));
                    client.kill();
                    client.waitForFinished();
                    ++failures;
                    continue;
                }
                const qint64 ir = instructionsIn(outFile);
                if (ir <= 0) {
                    std::fprintf(stderr, "bench_instructions: no instruction count in %s\n",
                                 qPrintable(outFile));
                    ++failures;
                    continue;
                }
                (manager == QLatin1String("plain")         ? s.plainIr
                     : manager == QLatin1String("wrapper") ? s.wrapperIr
                                                           : s.retryingIr)
                    .push_back(ir);
            }
        }
    }

    server.closeWriteChannel();
    if (!server.waitForFinished(5000)) {
        server.kill();
        server.waitForFinished();
    }
    if (failures > 0)
        return 1;

    std::printf("%-26s %10s %14s %14s %14s %8s %8s %8s\n", "scenario", "requests", "Qt Ir/request",
                "wrap Ir/req", "KT Ir/request", "floor", "ratio", "spread");
    double worst = 0;
    double worstFloor = 0;
    for (const Scenario &s : scenarios) {
        const double plain = double(median(s.plainIr)) / s.requests;
        const double wrapper = double(median(s.wrapperIr)) / s.requests;
        const double retrying = double(median(s.retryingIr)) / s.requests;
        const double ratio = retrying / plain;
        const double floor = wrapper / plain;
        worst = std::max(worst, ratio);
        worstFloor = std::max(worstFloor, floor);
        // The widest range of one manager's rounds, relative to its median.
        double spread = 0;
        for (const std::vector<qint64> *counts : { &s.plainIr, &s.wrapperIr, &s.retryingIr }) {
            const auto [low, high] = std::minmax_element(counts->begin(), counts->end());
            spread = std::max(spread, double(*high - *low) / double(median(*counts)));
        }
        std::printf("%-26s %10d %14.0f %14.0f %14.0f %8.3f %8.3f %7.1f%%\n", qPrintable(s.title),
                    s.requests, plain, wrapper, retrying, floor, ratio, 100 * spread);
    }
    std::printf("instructions counted by callgrind in the client only, measured loop only "
                "(after a warm-up); %d in flight for the parallel GETs; median of %d rounds, "
                "spread: (max - min) / median of a manager's rounds\n",
                kParallel, options.rounds);
    if (!options.keepDir.isEmpty())
        std::printf("callgrind output kept in %s\n", qPrintable(outDir));
    std::printf("floor: a pass-through reply around Qt's (no retry logic), over plain Qt\n");
    // The engine's own cost: ours over the pass-through reply, per scenario (target <= 1.02).
    double worstOverFloor = 0;
    for (const Scenario &s : scenarios) {
        const double overFloor = double(median(s.retryingIr)) / double(median(s.wrapperIr));
        worstOverFloor = std::max(worstOverFloor, overFloor);
        std::printf("RESULT engine_over_floor_ratio %.3f %s\n", overFloor, qPrintable(s.key));
    }
    std::printf("RESULT engine_over_floor_ratio_worst %.3f\n", worstOverFloor);
    std::printf("RESULT wrapper_floor_ratio %.3f\n", worstFloor);
    std::printf("RESULT overhead_instructions_ratio %.3f\n", worst);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Overhead of RetryingNetworkAccessManager in instructions (callgrind)"));
    parser.addHelpOption();
    QCommandLineOption quickOption(QStringLiteral("quick"),
                                   QStringLiteral("100 requests, an 8 MiB download, one round."));
    QCommandLineOption roundsOption(QStringLiteral("rounds"),
                                    QStringLiteral("Runs of each client, median (default 3)."),
                                    QStringLiteral("N"));
    QCommandLineOption requestsOption(QStringLiteral("requests"),
                                      QStringLiteral("GETs per scenario (default 500)."),
                                      QStringLiteral("N"));
    QCommandLineOption mibOption(QStringLiteral("download-mib"),
                                 QStringLiteral("Size of the download (default 64)."),
                                 QStringLiteral("N"));
    QCommandLineOption keepOption(QStringLiteral("keep"),
                                  QStringLiteral("Keep the callgrind output files in DIR."),
                                  QStringLiteral("DIR"));
    QCommandLineOption valgrindOption(QStringLiteral("valgrind"),
                                      QStringLiteral("The valgrind to run (default: from PATH)."),
                                      QStringLiteral("PATH"));
    QCommandLineOption serverOption(QStringLiteral("server"),
                                    QStringLiteral("Role: the loopback server."));
    QCommandLineOption clientOption(QStringLiteral("client"),
                                    QStringLiteral("Role: the measured client "
                                                   "(sequential, parallel or download)."),
                                    QStringLiteral("SCENARIO"));
    QCommandLineOption managerOption(QStringLiteral("manager"),
                                     QStringLiteral("The client's manager: plain or retrying."),
                                     QStringLiteral("MANAGER"));
    QCommandLineOption urlOption(QStringLiteral("url"), QStringLiteral("The server's URL."),
                                 QStringLiteral("URL"));
    QCommandLineOption bytesOption(QStringLiteral("bytes"),
                                   QStringLiteral("The client's download size."),
                                   QStringLiteral("N"));
    parser.addOptions({ quickOption, roundsOption, requestsOption, mibOption, keepOption,
                        valgrindOption, serverOption, clientOption, managerOption, urlOption,
                        bytesOption });
    parser.process(app);

    if (parser.isSet(serverOption))
        return runServer(app);
    if (parser.isSet(clientOption)) {
        const QUrl url(parser.value(urlOption));
        if (!url.isValid() || url.host() != QLatin1String("127.0.0.1"))
            qFatal("--url must be a loopback URL (http://127.0.0.1:PORT)");
        return runClient(parser.value(clientOption), parser.value(managerOption), url,
                         std::max(1, parser.value(requestsOption).toInt()),
                         parser.value(bytesOption).toLongLong());
    }
    const bool quick = parser.isSet(quickOption);
    DriverOptions options;
    options.requests = parser.isSet(requestsOption)
        ? std::max(1, parser.value(requestsOption).toInt())
        : (quick ? 100 : 500);
    options.mib =
        parser.isSet(mibOption) ? std::max(1, parser.value(mibOption).toInt()) : (quick ? 8 : 64);
    options.rounds = parser.isSet(roundsOption) ? std::max(1, parser.value(roundsOption).toInt())
                                                : (quick ? 1 : 3);
    options.keepDir = parser.value(keepOption);
    options.valgrind = parser.value(valgrindOption);
    return runDriver(options);
}
