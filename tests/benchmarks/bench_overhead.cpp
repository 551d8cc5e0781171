// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What does keeping trying cost when nothing fails? The same loopback workloads through a
// plain QNetworkAccessManager and through RetryingNetworkAccessManager, interleaved, several
// rounds; prints median times, their ratios and peak-memory ratios.
//
//   bench_overhead [--rounds N] [--download-mib N]

#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "benchserver.h"
#include "benchworkloads.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Bench;

namespace {

struct Sample
{
    double ms = 0;
    qint64 peakGrowth = 0; // bytes above the resident size at the start of the run
};

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? 0 : (n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2);
}

Sample measure(const std::function<void(QNetworkAccessManager &)> &work, bool retrying)
{
    std::unique_ptr<QNetworkAccessManager> manager(retrying ? new RetryingNetworkAccessManager
                                                            : new QNetworkAccessManager);
    const qint64 base = residentBytes();
    resetPeakResident();
    QElapsedTimer timer;
    timer.start();
    work(*manager);
    Sample s;
    s.ms = timer.nsecsElapsed() / 1e6;
    s.peakGrowth = std::max<qint64>(0, peakResidentBytes() - base);
    return s;
}

// A server that answers 503 with a large body three times, then 200. KeepTrying retries by
// itself; the plain manager is driven by the naive loop an app would write, reading and
// dropping each error body as it comes.
void errorBodiesThenSuccess(QNetworkAccessManager &manager, const BenchServer &server, qint64 bytes,
                            int round)
{
    const QUrl url = server.url(QStringLiteral("/flaky?bytes=%1&fails=3&key=%2-%3")
                                    .arg(bytes)
                                    .arg(qobject_cast<RetryingNetworkAccessManager *>(&manager)
                                             ? QStringLiteral("kt")
                                             : QStringLiteral("qt"))
                                    .arg(round));
    if (auto *retrying = qobject_cast<RetryingNetworkAccessManager *>(&manager)) {
        RetryPolicy policy;
        policy.initialDelayMs = 1;
        policy.maxDelayMs = 1;
        retrying->setRetryPolicy(policy);
    }
    for (;;) {
        std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
        QEventLoop loop;
        QObject::connect(reply.get(), &QIODevice::readyRead, reply.get(),
                         [&] { reply->skip(reply->bytesAvailable()); });
        QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200)
            return;
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Overhead of RetryingNetworkAccessManager"));
    parser.addHelpOption();
    QCommandLineOption roundsOption(QStringLiteral("rounds"), QStringLiteral("Rounds (default 5)."),
                                    QStringLiteral("N"), QStringLiteral("5"));
    QCommandLineOption mibOption(QStringLiteral("download-mib"),
                                 QStringLiteral("Size of the streamed download (default 256)."),
                                 QStringLiteral("N"), QStringLiteral("256"));
    parser.addOptions({ roundsOption, mibOption });
    parser.process(app);
    const int rounds = std::max(1, parser.value(roundsOption).toInt());
    const qint64 downloadBytes = std::max(1, parser.value(mibOption).toInt()) * qint64(1024 * 1024);

    BenchServer server;
    const QUrl small = server.url(QStringLiteral("/small"));
    const QUrl stream = server.url(QStringLiteral("/stream?bytes=%1").arg(downloadBytes));

    struct Scenario
    {
        Scenario(const char *n, std::function<void(QNetworkAccessManager &)> w)
            : name(n), work(std::move(w))
        {
        }
        const char *name;
        std::function<void(QNetworkAccessManager &)> work;
        std::vector<double> plainMs, retryingMs;
        qint64 plainPeak = 0, retryingPeak = 0;
    };
    std::vector<Scenario> scenarios;
    scenarios.emplace_back("2000 sequential GETs",
                           [&](QNetworkAccessManager &m) { sequentialGets(m, small, 2000); });
    scenarios.emplace_back("2000 GETs, 64 in flight",
                           [&](QNetworkAccessManager &m) { concurrentGets(m, small, 2000, 64); });
    scenarios.emplace_back("streamed download", [&](QNetworkAccessManager &m) {
        streamedDownload(m, stream, downloadBytes);
    });
    int flakyRound = 0;
    scenarios.emplace_back("3x503 of 64 MiB, then 200", [&](QNetworkAccessManager &m) {
        errorBodiesThenSuccess(m, server, 64 * 1024 * 1024, flakyRound++);
    });

    // Warm up both paths once (connections, allocator, plugin loading).
    for (Scenario &s : scenarios) {
        if (std::string(s.name) != "streamed download" &&
            std::string(s.name).find("503") == std::string::npos) {
            measure(s.work, false);
            measure(s.work, true);
        }
    }

    for (int round = 0; round < rounds; ++round) {
        for (Scenario &s : scenarios) {
            // Alternate which goes first so neither always gets the warmer machine.
            const bool retryingFirst = round % 2 == 1;
            for (int i = 0; i < 2; ++i) {
                const bool retrying = (i == 0) == retryingFirst;
                const Sample sample = measure(s.work, retrying);
                (retrying ? s.retryingMs : s.plainMs).push_back(sample.ms);
                qint64 &peak = retrying ? s.retryingPeak : s.plainPeak;
                peak = std::max(peak, sample.peakGrowth);
            }
        }
    }

    std::printf("%-26s %12s %12s %8s %14s %14s %8s\n", "scenario", "Qt ms", "KeepTrying", "ratio",
                "Qt peak KiB", "KT peak KiB", "ratio");
    double worst = 0;
    for (const Scenario &s : scenarios) {
        const double plain = median(s.plainMs);
        const double retrying = median(s.retryingMs);
        const double ratio = plain > 0 ? retrying / plain : 0;
        // The error-body scenario is there for its memory; its time is the retry policy's.
        if (std::string(s.name).find("503") == std::string::npos)
            worst = std::max(worst, ratio);
        const double memRatio = s.plainPeak > 0 ? double(s.retryingPeak) / double(s.plainPeak) : 0;
        std::printf("%-26s %12.1f %12.1f %8.3f %14lld %14lld %8.2f\n", s.name, plain, retrying,
                    ratio, s.plainPeak / 1024, s.retryingPeak / 1024, memRatio);
    }
    std::printf("download size %lld MiB; rounds %d (medians)\n", downloadBytes / (1024 * 1024),
                rounds);
    std::printf("RESULT overhead_ratio %.3f\n", worst);
    return 0;
}
