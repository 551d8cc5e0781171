// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// How fast is an offline copy there when the network is not? A store filled with 1 000
// responses shaped like a wallabag reader's (entry lists, entries with their article HTML,
// preview images, photos; 1 KB to 100 KB), then:
//   - lookups of random stored URLs, each timed from the call to having the body (p50, p99);
//   - cold opens: a new store instance on the directory, open() and the first lookup.
//   - end to end: a RetryingNetworkAccessManager on such a store, simulated offline, a GET
//     that opts in, timed from get() to its staleCopyOffered() (p50, p99; the issue's
//     target is 50 ms). Simulated offline sends nothing; the URLs are on loopback anyway.
//
//   bench_offline_copy [--copies N] [--lookups N] [--opens N] [--seed N]

#include "offlinecopydatabase_p.h"

#include <KeepTrying/offlinecopystore.h>

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using KeepTrying::OfflineCopyDatabase;
using Headers = QList<OfflineCopyDatabase::RawHeaderPair>;

namespace {

struct Response
{
    QUrl url;
    Headers headers;
    QByteArray body;
};

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, size_t(p / 100.0 * double(values.size())));
    return values[index];
}

QByteArray readResource(const QString &relative)
{
    QFile file(QStringLiteral(KEEPTRYING_RESOURCES_DIR "/") + relative);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(file.fileName()));
        return {};
    }
    return file.readAll();
}

Headers wallabagHeaders(const char *contentType, int i)
{
    // What a wallabag (Symfony) server answers, give or take the server's own fields.
    return { { "Server", "nginx" },
             { "Content-Type", contentType },
             { "Cache-Control", "no-cache, private" },
             { "Date", "Fri, 01 Mar 2024 09:00:00 GMT" },
             { "ETag", QByteArray("\"" + QByteArray::number(i, 16) + "\"") },
             { "Vary", "Authorization" },
             { "X-Debug-Token", QByteArray::number(1000000 + i) } };
}

// 1 in 10 an entry list (the demo library's own, ~65 KB), 4 in 10 an entry with its
// article HTML (3 to 40 KB), 3 in 10 a preview image (~8 KB, the demo's PNGs), 2 in 10 a
// photo (30 to 100 KB).
std::vector<Response> responses(int count, QRandomGenerator &random)
{
    const QByteArray list = readResource(QStringLiteral("articles/articles.json"));
    const QJsonArray articles = QJsonDocument::fromJson(list).object().value(u"articles").toArray();
    QList<QByteArray> previews;
    for (const QString &name :
         QDir(QStringLiteral(KEEPTRYING_RESOURCES_DIR "/images")).entryList(QDir::Files))
        previews.append(readResource(QStringLiteral("images/") + name));
    if (list.isEmpty() || articles.isEmpty() || previews.isEmpty())
        return {};

    const QString base = QStringLiteral("https://wallabag.example");
    std::vector<Response> out;
    out.reserve(size_t(count));
    for (int i = 0; i < count; ++i) {
        Response r;
        switch (i % 10) {
        case 0:
            r.url = QUrl(base + QStringLiteral("/api/entries.json?page=%1&perPage=30").arg(i / 10));
            r.headers = wallabagHeaders("application/json", i);
            r.body = list;
            break;
        case 1:
        case 2:
        case 3:
        case 4: {
            QJsonObject article = articles.at(i % articles.size()).toObject();
            const QString content = article.value(u"content").toString();
            const int target = random.bounded(3000, 40000);
            QString html;
            while (html.size() < target)
                html += content;
            article.insert(u"content", html);
            article.insert(u"id", i);
            r.url = QUrl(base + QStringLiteral("/api/entries/%1.json").arg(i));
            r.headers = wallabagHeaders("application/json", i);
            r.body = QJsonDocument(article).toJson(QJsonDocument::Compact);
            break;
        }
        case 5:
        case 6:
        case 7:
            r.url = QUrl(base + QStringLiteral("/assets/images/%1.png").arg(i));
            r.headers = wallabagHeaders("image/png", i);
            r.body = previews.at(i % previews.size());
            break;
        default: {
            r.url = QUrl(base + QStringLiteral("/assets/images/%1.jpg").arg(i));
            r.headers = wallabagHeaders("image/jpeg", i);
            QByteArray photo(random.bounded(30000, 100000), Qt::Uninitialized);
            for (char &c : photo)
                c = char(random.bounded(256));
            r.body = photo;
            break;
        }
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption copiesOption(QStringLiteral("copies"),
                                          QStringLiteral("Responses stored (1000)."),
                                          QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption lookupsOption(QStringLiteral("lookups"),
                                           QStringLiteral("Timed lookups (5000)."),
                                           QStringLiteral("N"), QStringLiteral("5000"));
    const QCommandLineOption opensOption(QStringLiteral("opens"),
                                         QStringLiteral("Timed cold opens (30)."),
                                         QStringLiteral("N"), QStringLiteral("30"));
    const QCommandLineOption seedOption(QStringLiteral("seed"), QStringLiteral("Seed (1)."),
                                        QStringLiteral("N"), QStringLiteral("1"));
    parser.addOptions({ copiesOption, lookupsOption, opensOption, seedOption });
    parser.process(app);
    const int copies = qMax(1, parser.value(copiesOption).toInt());
    const int lookups = qMax(1, parser.value(lookupsOption).toInt());
    const int opens = qMax(1, parser.value(opensOption).toInt());
    const quint32 seed = parser.value(seedOption).toUInt();

    QRandomGenerator random(seed);
    const std::vector<Response> data = responses(copies, random);
    if (data.empty())
        return 1;
    QTemporaryDir dir;
    if (!dir.isValid())
        return 1;
    const QString account = QStringLiteral("https://wallabag.example|alice");

    qint64 bodyBytes = 0;
    std::vector<double> storeMs;
    {
        OfflineCopyDatabase store;
        if (!store.open(dir.path()))
            return 1;
        store.setAccountKey(account);
        for (const Response &r : data) {
            QElapsedTimer timer;
            timer.start();
            if (store.store(r.url, 200, r.headers, r.body) !=
                OfflineCopyDatabase::StoreResult::Stored) {
                std::fprintf(stderr, "store failed for %s\n", qPrintable(r.url.toString()));
                return 1;
            }
            storeMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            bodyBytes += r.body.size();
        }
        std::printf("stored %d copies, %.1f MiB of bodies, store size %.1f MiB, file %.1f MiB\n",
                    store.count(), double(bodyBytes) / 1048576.0, double(store.size()) / 1048576.0,
                    double(QFileInfo(dir.filePath(OfflineCopyDatabase::fileName())).size()) /
                        1048576.0);
    }
    std::printf("store: p50 %.3f ms, p99 %.3f ms\n", percentile(storeMs, 50),
                percentile(storeMs, 99));

    // Warm lookups, random stored URLs, each checked against what was stored.
    std::vector<double> lookupMs;
    lookupMs.reserve(size_t(lookups));
    {
        OfflineCopyDatabase store;
        if (!store.open(dir.path()))
            return 1;
        store.setAccountKey(account);
        for (int i = 0; i < lookups; ++i) {
            const Response &r = data[size_t(random.bounded(int(data.size())))];
            QElapsedTimer timer;
            timer.start();
            const std::optional<OfflineCopyDatabase::Copy> copy = store.lookup(r.url);
            const qsizetype size = copy ? copy->body.size() : -1;
            lookupMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            if (size != r.body.size() || copy->body != r.body) {
                std::fprintf(stderr, "lookup %d: wrong copy for %s\n", i,
                             qPrintable(r.url.toString()));
                return 1;
            }
        }
    }
    std::printf("lookup (%d): p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", lookups,
                percentile(lookupMs, 50), percentile(lookupMs, 99), percentile(lookupMs, 100));

    // Cold opens: a new instance (new connection, schema checks, statements prepared) and its
    // first lookup, as a manager made at start-up would do. The file system cache is warm.
    std::vector<double> openMs;
    for (int i = 0; i < opens; ++i) {
        const Response &r = data[size_t(random.bounded(int(data.size())))];
        QElapsedTimer timer;
        timer.start();
        OfflineCopyDatabase store;
        if (!store.open(dir.path()))
            return 1;
        store.setAccountKey(account);
        const std::optional<OfflineCopyDatabase::Copy> copy = store.lookup(r.url);
        openMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (!copy || copy->body != r.body)
            return 1;
    }
    std::printf("cold open + first lookup (%d): p50 %.3f ms, max %.3f ms\n", opens,
                percentile(openMs, 50), percentile(openMs, 100));

    // End to end, through the manager: the same responses under loopback URLs.
    QTemporaryDir managerDir;
    std::vector<QUrl> urls;
    {
        OfflineCopyDatabase store;
        if (!managerDir.isValid() || !store.open(managerDir.path()))
            return 1;
        store.setAccountKey(account);
        for (const Response &r : data) {
            QUrl url = r.url;
            url.setScheme(QStringLiteral("http"));
            url.setHost(QStringLiteral("127.0.0.1"));
            url.setPort(9);
            if (store.store(url, 200, r.headers, r.body) !=
                OfflineCopyDatabase::StoreResult::Stored)
                return 1;
            urls.push_back(url);
        }
    }
    std::vector<double> staleMs;
    {
        KeepTrying::RetryingNetworkAccessManager manager;
        auto *copies = new KeepTrying::OfflineCopyStore(&manager);
        if (!copies->open(managerDir.path()))
            return 1;
        manager.setOfflineCopyStore(copies);
        manager.setOfflineCopySettings({ account });
        manager.setSimulatedOffline(true);
        const int requests = std::min(lookups, 500);
        for (int i = 0; i < requests; ++i) {
            QNetworkRequest request(urls[size_t(random.bounded(int(urls.size())))]);
            request.setAttribute(KeepTrying::OfflineCopy::ModeAttribute,
                                 int(KeepTrying::OfflineCopy::Keep));
            QElapsedTimer timer;
            timer.start();
            auto *reply = qobject_cast<KeepTrying::RetryingReply *>(manager.get(request));
            QEventLoop loop;
            QObject::connect(reply, &KeepTrying::RetryingReply::staleCopyOffered, &loop,
                             &QEventLoop::quit);
            QTimer::singleShot(5000, &loop, &QEventLoop::quit);
            if (!reply->hasStaleCopy())
                loop.exec();
            staleMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            const bool offered = reply->hasStaleCopy();
            delete reply;
            if (!offered) {
                std::fprintf(stderr, "request %d: no stale copy offered\n", i);
                return 1;
            }
        }
    }
    std::printf("request to stale copy (%zu, offline, through the manager): p50 %.3f ms, "
                "p99 %.3f ms, max %.3f ms\n",
                staleMs.size(), percentile(staleMs, 50), percentile(staleMs, 99),
                percentile(staleMs, 100));

    std::printf("RESULT offline_copy_store_p50_ms %.3f\n", percentile(storeMs, 50));
    std::printf("RESULT offline_copy_lookup_p50_ms %.3f\n", percentile(lookupMs, 50));
    std::printf("RESULT offline_copy_lookup_p99_ms %.3f\n", percentile(lookupMs, 99));
    std::printf("RESULT offline_copy_cold_open_ms %.3f\n", percentile(openMs, 50));
    std::printf("RESULT offline_copy_request_to_stale_p50_ms %.3f\n", percentile(staleMs, 50));
    std::printf("RESULT offline_copy_request_to_stale_p99_ms %.3f\n", percentile(staleMs, 99));
    return 0;
}
