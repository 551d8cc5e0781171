// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// QML: one call routes QML's network access (Image, XMLHttpRequest) through managers that
// share the app's simulated-offline switch; the QML RetryBanner says why things wait.
// Starts offline for --offline-ms, then goes online: the image and the article load then.
//   example-qml BASE_URL [--offline-ms N] [--screenshot FILE] [--quit-after-result]

#include <KeepTrying/quick.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QTimer>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlContext>

#include <cstdio>

class Output : public QObject // what the page reports, one line each, for people and tests
{
    Q_OBJECT
public:
    Q_INVOKABLE void say(const QString &line)
    {
        std::printf("%s\n", qPrintable(line));
        std::fflush(stdout);
    }
};

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("base"),
                                 QStringLiteral("Serves image.png, article.json."));
    const QCommandLineOption offlineMs(QStringLiteral("offline-ms"),
                                       QStringLiteral("Offline first."), QStringLiteral("ms"),
                                       QStringLiteral("0"));
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window while offline."),
                                  QStringLiteral("file"));
    const QCommandLineOption quit(QStringLiteral("quit-after-result"),
                                  QStringLiteral("Exit once loaded."));
    parser.addOptions({ offlineMs, shot, quit });
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        parser.showHelp(2);

    KeepTrying::RetryingNetworkAccessManager manager;
    manager.setSimulatedOffline(parser.value(offlineMs).toInt() > 0); // QA's switch
    QTimer::singleShot(parser.value(offlineMs).toInt(), &manager,
                       [&manager] { manager.setSimulatedOffline(false); });

    QQmlApplicationEngine engine;
    KeepTrying::setUpQmlEngine(&engine, &manager); // the one call, before anything loads
    Output output;
    engine.rootContext()->setContextProperty(QStringLiteral("output"), &output);
    engine.rootContext()->setContextProperty(QStringLiteral("network"), &manager);
    engine.setInitialProperties(
        { { QStringLiteral("base"), parser.positionalArguments().constFirst() },
          { QStringLiteral("screenshot"), parser.value(shot) },
          { QStringLiteral("quitAfterResult"), parser.isSet(quit) } });
    engine.load(QUrl(QStringLiteral("qrc:/Main.qml")));
    return engine.rootObjects().isEmpty() ? 1 : app.exec();
}

#include "main.moc"
