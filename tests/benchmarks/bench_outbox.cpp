// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What the Outbox's durability costs:
//
//   enqueue   latency of enqueue() (a committed write) with synchronous=FULL, the default,
//             and with NORMAL (safe against a crash, not against power loss), p50 and p99;
//   replay    writes per second drained to the demo server on loopback, over 20 resources
//             and over one (strictly one after another);
//   cold open constructing an Outbox on a database with 10 000 queued items (open, the
//             quick_check, the counts), median of 5.
//
// The databases go to a temporary directory under the current one (or --dir), so that the
// disk measured is that one's: /tmp may be a tmpfs.
//
//   bench_outbox [--quick] [--dir PATH]
//       --quick: fewer writes (for a smoke run)

#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "demoserverthread.h"
#include "demotoken.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFileInfo>
#include <QtCore/QLoggingCategory>
#include <QtCore/QStorageInfo>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <unistd.h>
#include <vector>

using namespace KeepTrying;

namespace {

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values.at(index);
}

QNetworkRequest entryRequest(const QUrl &base, int entry)
{
    QNetworkRequest request(base.resolved(QUrl(QStringLiteral("/api/entries/%1.json").arg(entry))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return request;
}

OutboxEnqueueResult enqueueWrite(Outbox &outbox, const QUrl &base, int n, int resources)
{
    const int entry = 1 + n % resources;
    OutboxEnqueueOptions options;
    options.resourceKey = QStringLiteral("entry/%1").arg(entry);
    return outbox.enqueue("PATCH", entryRequest(base, entry),
                          "{\"title\":\"write " + QByteArray::number(n) + "\"}", options);
}

std::unique_ptr<RetryingNetworkAccessManager> offlineManager()
{
    auto manager = std::make_unique<RetryingNetworkAccessManager>();
    manager->setProxy(QNetworkProxy::NoProxy);
    manager->setSimulatedOffline(true);
    return manager;
}

// Enqueue latencies in milliseconds, the outbox offline so that nothing else runs.
std::vector<double> enqueueLatencies(const QString &path, bool fullSync, int count,
                                     const QUrl &base)
{
    auto manager = offlineManager();
    Outbox outbox(path, manager.get());
    Outbox::Settings settings = outbox.settings();
    settings.fullSync = fullSync;
    outbox.setSettings(settings);
    std::vector<double> latencies;
    latencies.reserve(size_t(count));
    QElapsedTimer timer;
    for (int n = 0; n < count; ++n) {
        timer.start();
        const OutboxEnqueueResult result = enqueueWrite(outbox, base, n, 20);
        latencies.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (!result.ok()) {
            std::fprintf(stderr, "enqueue failed: %s\n", qPrintable(result.errorString));
            break;
        }
    }
    return latencies;
}

// Writes per second drained to the server.
double replayRate(const QString &path, int count, int resources, const QUrl &base,
                  const QByteArray &token)
{
    auto manager = offlineManager();
    Outbox outbox(path, manager.get());
    outbox.setSigner([token](QNetworkRequest &request) {
        request.setRawHeader("Authorization", "Bearer " + token);
    });
    for (int n = 0; n < count; ++n) {
        if (!enqueueWrite(outbox, base, n, resources).ok())
            return 0;
    }
    QEventLoop loop;
    QObject::connect(&outbox, &Outbox::pendingCountChanged, &loop, [&](int pending) {
        if (pending == 0)
            loop.quit();
    });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    QElapsedTimer timer;
    timer.start();
    manager->setSimulatedOffline(false);
    loop.exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (outbox.pendingCount() != 0) {
        std::fprintf(stderr, "replay did not finish: %d pending, %d dead\n", outbox.pendingCount(),
                     outbox.deadLetterCount());
        return 0;
    }
    return count / seconds;
}

// The disk's own floor: latencies of a 4 KiB write followed by fdatasync(), the least one
// durable commit costs (SQLite's WAL commit with FULL is one such sync).
std::vector<double> syncLatencies(const QString &path, int count)
{
    std::vector<double> latencies;
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite | QIODevice::Truncate))
        return latencies;
    const QByteArray page(4096, 'x');
    QElapsedTimer timer;
    for (int n = 0; n < count; ++n) {
        timer.start();
        file.write(page);
        file.flush();
        ::fdatasync(file.handle());
        latencies.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return latencies;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption quickOption(QStringLiteral("quick"), QStringLiteral("fewer writes"));
    const QCommandLineOption dirOption(QStringLiteral("dir"),
                                       QStringLiteral("where the databases go"),
                                       QStringLiteral("path"), QDir::currentPath());
    parser.addOptions({ quickOption, dirOption });
    parser.process(app);
    const bool quick = parser.isSet(quickOption);
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*.warning=false"));

    QTemporaryDir dir(
        QDir(parser.value(dirOption)).filePath(QStringLiteral("bench_outbox-XXXXXX")));
    if (!dir.isValid()) {
        std::fprintf(stderr, "cannot make a directory under %s\n",
                     qPrintable(parser.value(dirOption)));
        return 1;
    }
    const QStorageInfo storage(dir.path());
    std::printf("databases in %s (%s on %s)\n", qPrintable(dir.path()),
                storage.fileSystemType().constData(), storage.device().constData());

    Test::DemoServerThread server;
    if (server.listen() == 0)
        return 1;
    server->setIdempotencyKeysHonoured(true); // the outbox's keys; wallabag has none
    const QUrl base = server->baseUrl();
    const QByteArray token = Test::demoToken(*server.server());
    if (token.isEmpty())
        return 1;

    // Enqueue latency.
    const int enqueues = quick ? 200 : 2000;
    const std::vector<double> syncs = syncLatencies(dir.filePath(QStringLiteral("sync.bin")), 200);
    std::printf("the disk: write 4 KiB + fdatasync p50 %.3f ms p99 %.3f ms\n",
                percentile(syncs, 0.5), percentile(syncs, 0.99));
    const std::vector<double> full =
        enqueueLatencies(dir.filePath(QStringLiteral("full.db")), true, enqueues, base);
    const std::vector<double> normal =
        enqueueLatencies(dir.filePath(QStringLiteral("normal.db")), false, enqueues, base);
    std::printf("enqueue, %d writes: FULL p50 %.3f ms p99 %.3f ms max %.3f ms; NORMAL p50 %.3f "
                "ms p99 %.3f ms max %.3f ms\n",
                enqueues, percentile(full, 0.5), percentile(full, 0.99), percentile(full, 1.0),
                percentile(normal, 0.5), percentile(normal, 0.99), percentile(normal, 1.0));

    // Replay throughput.
    const int replays = quick ? 200 : 1000;
    const double spread =
        replayRate(dir.filePath(QStringLiteral("replay-20.db")), replays, 20, base, token);
    const double single =
        replayRate(dir.filePath(QStringLiteral("replay-1.db")), replays / 2, 1, base, token);
    std::printf("replay: %d writes over 20 resources %.0f writes/s; %d writes to one resource "
                "%.0f writes/s\n",
                replays, spread, replays / 2, single);

    // Cold open with 10 000 queued items.
    const int queued = quick ? 2000 : 10000;
    const QString coldPath = dir.filePath(QStringLiteral("cold.db"));
    {
        auto manager = offlineManager();
        Outbox outbox(coldPath, manager.get());
        Outbox::Settings settings = outbox.settings();
        settings.fullSync = false; // only to fill it faster
        outbox.setSettings(settings);
        for (int n = 0; n < queued; ++n) {
            if (!enqueueWrite(outbox, base, n, 20).ok())
                return 1;
        }
    }
    std::vector<double> opens;
    int pendingSeen = 0;
    for (int round = 0; round < 5; ++round) {
        auto manager = offlineManager();
        QElapsedTimer timer;
        timer.start();
        Outbox outbox(coldPath, manager.get());
        pendingSeen = outbox.pendingCount();
        opens.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double coldOpen = percentile(opens, 0.5);
    std::printf("cold open with %d queued items (%d seen): median %.1f ms, max %.1f ms, database "
                "%lld KiB\n",
                queued, pendingSeen, coldOpen, percentile(opens, 1.0),
                QFileInfo(coldPath).size() / 1024);

    std::printf("RESULT outbox_disk_fdatasync_p50_ms %.3f\n", percentile(syncs, 0.5));
    std::printf("RESULT outbox_enqueue_p50_ms %.3f\n", percentile(full, 0.5));
    std::printf("RESULT outbox_enqueue_p99_ms %.3f\n", percentile(full, 0.99));
    std::printf("RESULT outbox_enqueue_normal_p99_ms %.3f\n", percentile(normal, 0.99));
    std::printf("RESULT outbox_replay_writes_per_s %.0f\n", spread);
    std::printf("RESULT outbox_replay_one_resource_writes_per_s %.0f\n", single);
    std::printf("RESULT outbox_cold_open_ms %.1f\n", coldOpen);
    return 0;
}
