// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The outbox: a write that must not be lost. With a TEXT, POSTs it to URL through an
// Outbox in DATABASE: once enqueue() returns, the write is on disk and survives a crash or
// a restart. Every run delivers what is waiting as soon as the server can be reached.
//   example-outbox DATABASE URL [TEXT] [--quit-after-result]
// --quit-after-result exits once TEXT is queued, or else once an item is delivered.

#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>

#include <cstdio>

static void say(const QString &line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("database"), QStringLiteral("The outbox file."));
    parser.addPositionalArgument(QStringLiteral("url"), QStringLiteral("Where to POST."));
    parser.addPositionalArgument(QStringLiteral("text"), QStringLiteral("What to POST."));
    const QCommandLineOption quit(QStringLiteral("quit-after-result"),
                                  QStringLiteral("Exit once queued, or once delivered."));
    parser.addOption(quit);
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() < 2 || args.size() > 3)
        parser.showHelp(2);

    KeepTrying::RetryingNetworkAccessManager manager;
    KeepTrying::Outbox outbox(args.at(0), &manager); // replays what an earlier run left
    QObject::connect(&outbox, &KeepTrying::Outbox::itemDelivered, &app,
                     [&](qint64 id, int status, const QByteArray &body) {
                         say(QStringLiteral("delivered #%1: HTTP %2 %3")
                                 .arg(id)
                                 .arg(status)
                                 .arg(QString::fromUtf8(body)));
                         if (parser.isSet(quit))
                             QCoreApplication::exit(0);
                     });
    QObject::connect(
        &outbox, &KeepTrying::Outbox::itemDeadLettered, &app,
        [&](qint64 id, int status, const QString &reason) {
            say(QStringLiteral("refused #%1: HTTP %2 %3").arg(id).arg(status).arg(reason));
            if (parser.isSet(quit))
                QCoreApplication::exit(1);
        });

    if (args.size() == 3) {
        QNetworkRequest request(QUrl::fromUserInput(args.at(1)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("text/plain"));
        const KeepTrying::OutboxEnqueueResult queued =
            outbox.enqueue("POST", request, args.at(2).toUtf8());
        if (!queued) {
            say(QStringLiteral("not queued: ") + queued.errorString);
            return 1;
        }
        say(QStringLiteral("queued #%1, %2 waiting").arg(queued.id).arg(outbox.pendingCount()));
        if (parser.isSet(quit))
            return 0; // committed: the next run sends it
    } else {
        say(QStringLiteral("%1 waiting").arg(outbox.pendingCount()));
        if (parser.isSet(quit) && outbox.pendingCount() == 0)
            return 0;
    }
    return app.exec();
}
