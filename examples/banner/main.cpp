// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The banner: a window whose RetryBanner is bound to the manager with one call. It shows
// itself while a request keeps the user waiting (over a second: retried, waiting for the
// server or simply slow) and hides when the request has finished.
//   example-banner URL [--quit-after-result]

#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QCommandLineParser>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QVBoxLayout>

#include <cstdio>

static void say(const QString &line)
{
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

    KeepTrying::RetryingNetworkAccessManager manager;
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *banner = new KeepTrying::RetryBanner(&window); // hidden until it has a reason
    auto *content = new QLabel(QStringLiteral("Loading…"), &window);
    layout->addWidget(banner);
    layout->addWidget(content, 1);
    window.resize(480, 240);
    window.show();

    KeepTrying::RetryBannerController *controller = banner->bind(&manager); // the one call
    QObject::connect(controller, &KeepTrying::RetryBannerController::shouldShowChanged, banner,
                     [banner](bool show) {
                         say(show ? QStringLiteral("banner: ") + banner->currentText()
                                  : QStringLiteral("banner hidden"));
                     });

    const QUrl url = QUrl::fromUserInput(parser.positionalArguments().constFirst());
    KeepTrying::RetryingReply *reply = manager.retryingGet(QNetworkRequest(url));
    QObject::connect(reply, &QNetworkReply::finished, content, [&] {
        const QString text = reply->error() == QNetworkReply::NoError
            ? QString::fromUtf8(reply->readAll()).trimmed()
            : reply->errorString();
        content->setText(text);
        say(QStringLiteral("result: ") + text);
        reply->deleteLater();
        if (parser.isSet(quit))
            QCoreApplication::exit(reply->error() == QNetworkReply::NoError ? 0 : 1);
    });
    return app.exec();
}
