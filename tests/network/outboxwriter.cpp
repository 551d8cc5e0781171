// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// A small app that writes through an Outbox, for tst_outboxdurability: it enqueues the
// writes FROM..COUNT-1 (PATCH /api/entries/ID.json, a title per write, Idempotency-Key
// PREFIX-N, one resource per entry), announcing each one the outbox acknowledged, then waits
// until the outbox is empty. The test kills it with SIGKILL at random moments and starts it
// again from the first write it has not seen acknowledged.
//
// stdout, one line each, written straight to the descriptor so a kill loses none:
//   READY        the outbox is open
//   ACK N        write N is committed
//   EMPTY        nothing is pending any more (then it exits 0)
//   ERROR text   enqueue refused a write (exit 2)
//   FULL N       with --retry-when-full: the database was full for write N (not
//                acknowledged); it is tried again 20 ms later
//
// --max-db-bytes bounds the database (Outbox::Settings::maxDatabaseBytes, SQLite's
// max_page_count: a disk that fills up); --pad-bytes makes each write that much larger.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>

#include <unistd.h>

using namespace KeepTrying;

namespace {

void say(const QByteArray &line)
{
    const QByteArray text = line + '\n';
    qint64 written = 0;
    while (written < text.size()) {
        const ssize_t n =
            ::write(STDOUT_FILENO, text.constData() + written, size_t(text.size() - written));
        if (n <= 0)
            return;
        written += n;
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption dbOption(QStringLiteral("db"), QStringLiteral("database"),
                                      QStringLiteral("path"));
    const QCommandLineOption urlOption(QStringLiteral("url"), QStringLiteral("API base URL"),
                                       QStringLiteral("url"));
    const QCommandLineOption tokenOption(QStringLiteral("token"), QStringLiteral("access token"),
                                         QStringLiteral("token"));
    const QCommandLineOption prefixOption(QStringLiteral("prefix"), QStringLiteral("key prefix"),
                                          QStringLiteral("prefix"), QStringLiteral("w"));
    const QCommandLineOption fromOption(QStringLiteral("from"), QStringLiteral("first write"),
                                        QStringLiteral("n"), QStringLiteral("0"));
    const QCommandLineOption countOption(QStringLiteral("count"), QStringLiteral("writes"),
                                         QStringLiteral("n"), QStringLiteral("100"));
    const QCommandLineOption entriesOption(QStringLiteral("entries"),
                                           QStringLiteral("entry ids, comma-separated"),
                                           QStringLiteral("ids"), QStringLiteral("1,2,3,4,5"));
    const QCommandLineOption intervalOption(QStringLiteral("interval-ms"),
                                            QStringLiteral("time between two enqueues"),
                                            QStringLiteral("ms"), QStringLiteral("0"));
    const QCommandLineOption maxDbOption(QStringLiteral("max-db-bytes"),
                                         QStringLiteral("database size bound"),
                                         QStringLiteral("bytes"), QStringLiteral("0"));
    const QCommandLineOption padOption(QStringLiteral("pad-bytes"),
                                       QStringLiteral("extra bytes per write"),
                                       QStringLiteral("bytes"), QStringLiteral("0"));
    const QCommandLineOption retryFullOption(QStringLiteral("retry-when-full"),
                                             QStringLiteral("a full database is not an error"));
    parser.addOptions({ dbOption, urlOption, tokenOption, prefixOption, fromOption, countOption,
                        entriesOption, intervalOption, maxDbOption, padOption, retryFullOption });
    parser.process(app);

    const QUrl base(parser.value(urlOption));
    const QByteArray token = parser.value(tokenOption).toLatin1();
    const QByteArray prefix = parser.value(prefixOption).toLatin1();
    const int count = parser.value(countOption).toInt();
    QList<int> entries;
    for (const QString &id : parser.value(entriesOption).split(QLatin1Char(',')))
        entries.append(id.toInt());

    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    RetryPolicy policy;
    policy.initialDelayMs = 10;
    policy.maxDelayMs = 50;
    manager.setRetryPolicy(policy);
    CircuitBreaker::Settings breaker;
    breaker.enabled = false;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget;
    budget.enabled = false;
    manager.retryBudget()->setSettings(budget);

    Outbox outbox(parser.value(dbOption), &manager);
    Outbox::Settings settings = outbox.settings();
    settings.initialRetryDelayMs = 20;
    settings.maxRetryDelayMs = 100;
    settings.lockRetryMs = 20;
    settings.maxDatabaseBytes = parser.value(maxDbOption).toLongLong();
    const QByteArray pad(parser.value(padOption).toInt(), 'p');
    const bool retryWhenFull = parser.isSet(retryFullOption);
    outbox.setSettings(settings);
    outbox.setSigner([token](QNetworkRequest &request) {
        request.setRawHeader("Authorization", "Bearer " + token);
    });
    if (!outbox.isUsable()) {
        say("ERROR the outbox is not usable");
        return 2;
    }
    say("READY");

    bool allEnqueued = false;
    const auto maybeDone = [&] {
        if (allEnqueued && outbox.pendingCount() == 0) {
            say("EMPTY");
            app.exit(0);
        }
    };
    QObject::connect(&outbox, &Outbox::pendingCountChanged, &app, maybeDone);

    // One write per turn of the event loop (or per interval), so that replays run between the
    // enqueues.
    int next = parser.value(fromOption).toInt();
    QTimer writer;
    writer.setInterval(parser.value(intervalOption).toInt());
    QObject::connect(&writer, &QTimer::timeout, &app, [&] {
        if (next >= count) {
            writer.stop();
            allEnqueued = true;
            maybeDone();
            return;
        }
        const int entry = entries.at(next % entries.size());
        QNetworkRequest request(
            base.resolved(QUrl(QStringLiteral("/api/entries/%1.json").arg(entry))));
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
        request.setRawHeader("Idempotency-Key", prefix + '-' + QByteArray::number(next));
        OutboxEnqueueOptions options;
        options.resourceKey = QStringLiteral("entry/%1").arg(entry);
        const OutboxEnqueueResult result = outbox.enqueue(
            "PATCH", request,
            "{\"title\":\"" + prefix + ' ' + QByteArray::number(next) + pad + "\"}", options);
        if (!result.ok() && retryWhenFull && result.error == OutboxError::DiskFull) {
            say("FULL " + QByteArray::number(next));
            writer.setInterval(20); // the replays free pages meanwhile
            return;
        }
        writer.setInterval(parser.value(intervalOption).toInt());
        if (!result.ok()) {
            say("ERROR " + result.errorString.toUtf8());
            app.exit(2);
            return;
        }
        say("ACK " + QByteArray::number(next));
        ++next;
    });
    writer.start();
    return app.exec();
}
