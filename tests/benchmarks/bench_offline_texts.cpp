// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Time until every unread text is offline: the reader's sync engine against a running
// keeptrying-demo-server (e.g. --articles 10000), from the first refresh of an empty store
// to the moment every unread article has its text; the requests it took, from the
// server's admin stats. Run by hand:
//   keeptrying-demo-server --articles 10000 &   # prints its URL and admin URL
//   bench_offline_texts --server http://127.0.0.1:PORT --admin http://127.0.0.1:ADMIN

#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>

#include <cstdio>

using KeepTrying::Demo::DemoServer;

namespace {

QJsonObject adminCall(const QUrl &admin, const QByteArray &method, const QString &path)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkReply *reply =
        nam.sendCustomRequest(QNetworkRequest(admin.resolved(QUrl(path))), method);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
    delete reply;
    return answer;
}

int unreadWithoutText(const LocalStore &store, int *unread)
{
    const QList<Article> list = store.articles({ LocalStore::View::Unread, {}, {} });
    *unread = int(list.size());
    return int(
        std::count_if(list.cbegin(), list.cend(), [](const Article &a) { return !a.hasContent; }));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption serverOption(
        QStringLiteral("server"), QStringLiteral("The demo server's URL."), QStringLiteral("URL"));
    const QCommandLineOption adminOption(QStringLiteral("admin"),
                                         QStringLiteral("Its admin URL (for the request count)."),
                                         QStringLiteral("URL"));
    const QCommandLineOption limitOption(QStringLiteral("limit"),
                                         QStringLiteral("Give up after S seconds (default 1800)."),
                                         QStringLiteral("S"), QStringLiteral("1800"));
    parser.addOptions({ serverOption, adminOption, limitOption });
    parser.process(app);
    const QUrl server(parser.value(serverOption));
    const QUrl admin(parser.value(adminOption));
    if (!server.isValid() || server.isEmpty() || admin.isEmpty()) {
        std::fprintf(stderr, "bench_offline_texts: --server and --admin are needed\n");
        return 2;
    }

    QTemporaryDir dir;
    LocalStore store;
    if (!store.open(dir.filePath(QStringLiteral("library.sqlite"))))
        return 1;
    KeepTrying::RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    WallabagClient client(&manager);
    client.setServer(server,
                     { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                       DemoServer::demoUsername(), DemoServer::demoPassword() });
    OutboxChangeQueue queue(&client, &manager, dir.filePath(QStringLiteral("outbox.sqlite")));
    SyncEngine engine(&client, &store, &queue);

    adminCall(admin, "POST", QStringLiteral("/_admin/stats/reset"));
    QElapsedTimer clock;
    qint64 listedMs = -1;
    QObject::connect(&engine, &SyncEngine::refreshed, &app, [&] {
        if (listedMs < 0)
            listedMs = clock.elapsed();
    });
    QObject::connect(&engine, &SyncEngine::refreshFailed, &app, [](const QString &message) {
        std::fprintf(stderr, "refresh failed: %s\n", qPrintable(message));
        QCoreApplication::exit(1);
    });
    int unread = 0;
    int missing = -1;
    QTimer poll;
    poll.setInterval(250); // each look reads the unread list: not too often
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (listedMs < 0)
            return;
        missing = unreadWithoutText(store, &unread);
        if (missing == 0 || clock.elapsed() > parser.value(limitOption).toLongLong() * 1000)
            QCoreApplication::quit();
    });
    clock.start();
    engine.refresh();
    poll.start();
    const int rc = app.exec();
    const qint64 doneMs = clock.elapsed();
    const QJsonObject stats = adminCall(admin, "GET", QStringLiteral("/_admin/stats"));
    const QJsonObject routes = stats.value(QLatin1String("requests_per_route")).toObject();
    std::printf("articles listed: %d, unread: %d, unread without text at the end: %d\n",
                store.articleCount(), unread, missing);
    std::printf("list complete after %.2f s; every unread text offline after %.2f s\n",
                listedMs / 1000.0, doneMs / 1000.0);
    std::printf("requests: %lld in all; GET /api/entries.json %lld, GET /api/entries/{id}.json "
                "%lld, token %lld\n",
                stats.value(QLatin1String("total_requests")).toInteger(),
                routes.value(QLatin1String("GET /api/entries.json")).toInteger(),
                routes.value(QLatin1String("GET /api/entries/{id}.json")).toInteger(),
                routes.value(QLatin1String("POST /oauth/v2/token")).toInteger());
    return rc == 0 && missing == 0 ? 0 : 1;
}
