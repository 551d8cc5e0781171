// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Retries in a widgets app: a window that GETs the URL given on the command line through
// the retrying manager, with a policy of its own, and shows what came back.
//   example-retries URL [--quit-after-result]

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>
#include <KeepTrying/retrypolicy.h>

#include <QtCore/QCommandLineParser>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>

#include <cstdio>

static void say(QLabel &window, const QString &line)
{
    window.setText(line);
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("url"), QStringLiteral("The URL to GET."));
    const QCommandLineOption quit(QStringLiteral("quit-after-result"),
                                  QStringLiteral("Exit once the result is shown."));
    parser.addOption(quit);
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        parser.showHelp(2);
    const QUrl url = QUrl::fromUserInput(parser.positionalArguments().constFirst());

    KeepTrying::RetryingNetworkAccessManager manager; // instead of QNetworkAccessManager
    KeepTrying::RetryPolicy policy; // 408, 429 and 5xx: retried with backoff and jitter
    policy.maxAttempts = 4; // the first attempt included
    policy.initialDelayMs = 250; // then about 500 ms, 1 s (full jitter: up to these)
    policy.deadlineMs = 20000; // all attempts and waits together
    manager.setRetryPolicy(policy);

    QLabel window;
    window.setWordWrap(true);
    window.resize(480, 160);
    window.show();
    say(window, QStringLiteral("GET %1").arg(url.toDisplayString()));

    KeepTrying::RetryingReply *reply = manager.retryingGet(QNetworkRequest(url));
    QObject::connect(reply, &KeepTrying::RetryingReply::retryScheduled, &window,
                     [&](int attempt, qint64 delayMs, const QString &reason) {
                         say(window,
                             QStringLiteral("attempt %1 failed (%2), next in %3 ms")
                                 .arg(attempt)
                                 .arg(reason)
                                 .arg(delayMs));
                     });
    QObject::connect(reply, &QNetworkReply::finished, &window, [&] {
        const bool ok = reply->error() == QNetworkReply::NoError;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        say(window,
            ok ? QStringLiteral("result: HTTP %1 after %2 attempts: %3")
                     .arg(status)
                     .arg(reply->attemptCount())
                     .arg(QString::fromUtf8(reply->readAll()).trimmed())
               : QStringLiteral("result: failed after %1 attempts: %2")
                     .arg(reply->attemptCount())
                     .arg(reply->errorString()));
        reply->deleteLater();
        if (parser.isSet(quit))
            QCoreApplication::exit(ok ? 0 : 1);
    });
    return app.exec();
}
