// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Offline copies: stale now, fresh later. GETs URL keeping its last good answer in
// CACHE_DIR. When the fresh answer is slow (offline, the server retrying, or over a
// second), the stored copy is offered at once; the same reply then delivers the fresh one.
//   example-offline CACHE_DIR URL [--quit-after-result]

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

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
    parser.addPositionalArgument(QStringLiteral("cache"), QStringLiteral("Where copies are kept."));
    parser.addPositionalArgument(QStringLiteral("url"), QStringLiteral("The URL to GET."));
    const QCommandLineOption quit(
        QStringLiteral("quit-after-result"),
        QStringLiteral("Exit once the fresh answer (or an error) is in."));
    parser.addOption(quit);
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2)
        parser.showHelp(2);

    KeepTrying::RetryingNetworkAccessManager manager;
    auto *copies = new KeepTrying::OfflineCopyStore; // the manager's: it has no parent
    copies->open(args.at(0));
    manager.setOfflineCopyStore(copies);
    manager.setOfflineCopySettings({ QStringLiteral("example") }); // whose copies

    QNetworkRequest request(QUrl::fromUserInput(args.at(1)));
    request.setAttribute(KeepTrying::OfflineCopy::ModeAttribute, KeepTrying::OfflineCopy::Keep);
    KeepTrying::RetryingReply *reply = manager.retryingGet(request);
    QObject::connect(reply, &KeepTrying::RetryingReply::staleCopyOffered, &app,
                     [reply](qint64 ageSeconds) {
                         say(QStringLiteral("stale (%1 s old): %2")
                                 .arg(ageSeconds)
                                 .arg(QString::fromUtf8(reply->staleCopyBody()).trimmed()));
                     });
    QObject::connect(reply, &QNetworkReply::finished, &app, [&] {
        const bool ok = reply->error() == QNetworkReply::NoError;
        say(ok ? QStringLiteral("fresh: ") + QString::fromUtf8(reply->readAll()).trimmed()
               : QStringLiteral("failed: ") + reply->errorString());
        reply->deleteLater();
        if (parser.isSet(quit))
            QCoreApplication::exit(ok ? 0 : 1);
    });
    return app.exec();
}
