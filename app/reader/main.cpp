// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "library/accountswitcher.h"
#include "library/builtinserver.h"
#include "library/credentialstore.h"
#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/readernetwork.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "screenshotdriver.h"
#include "ui/appicon.h"
#include "ui/mainwindow.h"
#include "ui/preferencesdialog.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCryptographicHash>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>
#include <QtCore/QTranslator>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleFactory>

#include <cstdio>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

namespace {

constexpr int UsageError = 2;

int usageError(const QString &message)
{
    std::fputs(qPrintable(QStringLiteral("keeptrying-reader: ") + message + QLatin1Char('\n')),
               stderr);
    return UsageError;
}

// --password shows in every user's process list (ps); the environment (readable by this
// user only) and a prompt that does not echo do not.
QString readPassword(const QString &username, const QUrl &server)
{
    if (qEnvironmentVariableIsSet("KEEPTRYING_PASSWORD")) {
        const QString password = qEnvironmentVariable("KEEPTRYING_PASSWORD");
        qunsetenv("KEEPTRYING_PASSWORD"); // nothing we start inherits it
        return password;
    }
#ifdef Q_OS_UNIX
    termios saved {};
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved) != 0)
        return QString();
    std::fputs(qPrintable(QStringLiteral("Password for %1 at %2: ").arg(username, server.host())),
               stderr);
    std::fflush(stderr);
    termios silent = saved;
    silent.c_lflag &= ~tcflag_t(ECHO);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent);
    const QString password = QTextStream(stdin).readLine();
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    std::fputc('\n', stderr);
    return password;
#else
    Q_UNUSED(username)
    Q_UNUSED(server)
    return QString();
#endif
}

// The reader's database for one account: one file per user and server, so that two
// accounts never mix their articles. The built-in demo library has one of its own.
// A dark palette of the kind desktop themes give, for looking at the reader in one.
QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor text(230, 230, 230);
    const QColor disabled(130, 130, 130);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(110, 170, 255));
    p.setColor(QPalette::Highlight, QColor(45, 110, 190));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(70, 70, 74));
    p.setColor(QPalette::Dark, QColor(20, 20, 22));
    for (const QPalette::ColorRole role :
         { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace

int main(int argc, char *argv[])
{
    QElapsedTimer launch; // from here to the first painted list: the figure to keep small
    launch.start();
    // --help and --version need no window: without a display, print them anyway instead of
    // failing to open the platform plugin.
    const bool noDisplay = qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    for (int i = 1; noDisplay && i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
            arg == "--version") {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            break;
        }
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("keeptrying-reader"));
    // The user's language, when the reader has it (:/i18n, built from resources/translations).
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("keeptrying-reader"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);
    QApplication::setApplicationDisplayName(QStringLiteral("KeepTrying Reader"));
    QApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(readerIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads the articles saved on a wallabag server, and keeps trying when the network "
        "is flaky. Without --server it starts a built-in demo server on 127.0.0.1."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption serverOption(QStringLiteral("server"),
                                          QStringLiteral("The wallabag server to use."),
                                          QStringLiteral("URL"));
    const QCommandLineOption clientIdOption(QStringLiteral("client-id"),
                                            QStringLiteral("OAuth client id (with --server)."),
                                            QStringLiteral("ID"));
    const QCommandLineOption clientSecretOption(
        QStringLiteral("client-secret"), QStringLiteral("OAuth client secret (with --server)."),
        QStringLiteral("SECRET"));
    const QCommandLineOption usernameOption(QStringLiteral("username"),
                                            QStringLiteral("User name (with --server)."),
                                            QStringLiteral("NAME"));
    const QCommandLineOption passwordOption(
        QStringLiteral("password"),
        QStringLiteral("Password (with --server). Visible to other users of this machine "
                       "(ps): prefer the environment variable KEEPTRYING_PASSWORD, or leave "
                       "both out to be asked for it on a terminal."),
        QStringLiteral("PASSWORD"));
    const QCommandLineOption faultOption(
        QStringLiteral("demo-fault"),
        QStringLiteral("A fault for the built-in server to inject, e.g. "
                       "'route=/api/entries*,status=503,count=2,retry-after=1'. "
                       "Repeatable."),
        QStringLiteral("SPEC"));
    const QCommandLineOption offlineOption(
        QStringLiteral("simulate-offline"),
        QStringLiteral("Start in simulated offline mode (Developer menu): requests wait for "
                       "the network, and the banner says you are offline."));
    const QCommandLineOption backOnlineOption(
        QStringLiteral("back-online-after"),
        QStringLiteral("Switch simulated offline mode off MS milliseconds after the offline "
                       "banner has opened, as unticking Developer ▸ Simulate Offline does."),
        QStringLiteral("MS"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the window as a PNG when --screenshot-when is reached, then "
                       "exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption whenOption(
        QStringLiteral("screenshot-when"),
        QStringLiteral("saved (the saved copy is painted), "
                       "loaded (the list and first article are shown), banner (the retry "
                       "banner is open; the run ends once it has closed), offline (the "
                       "offline banner is open; with --back-online-after the run ends once "
                       "the list has loaded and the banner has closed), unreachable (the "
                       "banner says the server does not answer) or failed (the list could "
                       "not be loaded and the window says why), waiting (changes made "
                       "offline wait to be sent), failed-change (the server refused a change), "
                       "signin (the sign-in dialog), developer (the Developer window with "
                       "the request log) or back-online (the short notice after an offline "
                       "wait; with --simulate-offline and --back-online-after). Default: "
                       "loaded."),
        QStringLiteral("STATE"), QStringLiteral("loaded"));
    const QCommandLineOption developerOption(
        QStringLiteral("developer"),
        QStringLiteral("Show the Developer menu (simulated offline, faults, request log)."));
    const QCommandLineOption quitAfterOption(
        QStringLiteral("quit-after"),
        QStringLiteral("With --screenshot: give up with exit code 1 after MS milliseconds. "
                       "Without it: quit after MS milliseconds. Default: 20000."),
        QStringLiteral("MS"), QStringLiteral("20000"));
    const QCommandLineOption paletteOption(
        QStringLiteral("palette"),
        QStringLiteral("For QA: paint with the Fusion style in a light or dark palette, as on "
                       "a desktop with that theme."),
        QStringLiteral("light|dark"));
    parser.addOptions({ serverOption, clientIdOption, clientSecretOption, usernameOption,
                        passwordOption, faultOption, offlineOption, backOnlineOption,
                        screenshotOption, whenOption, quitAfterOption, developerOption,
                        paletteOption });

    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument: %1")
                              .arg(parser.positionalArguments().constFirst()));

    if (parser.isSet(paletteOption)) {
        const QString palette = parser.value(paletteOption);
        if (palette != QLatin1String("light") && palette != QLatin1String("dark"))
            return usageError(QStringLiteral("--palette is light or dark, not %1").arg(palette));
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(palette == QLatin1String("dark")
                                     ? darkPalette()
                                     : QApplication::style()->standardPalette());
    }

    ScreenshotDriver::Goal goal = ScreenshotDriver::Goal::Loaded;
    const QString when = parser.value(whenOption);
    if (when == QLatin1String("banner"))
        goal = ScreenshotDriver::Goal::Banner;
    else if (when == QLatin1String("offline"))
        goal = ScreenshotDriver::Goal::Offline;
    else if (when == QLatin1String("unreachable"))
        goal = ScreenshotDriver::Goal::Unreachable;
    else if (when == QLatin1String("failed"))
        goal = ScreenshotDriver::Goal::Failed;
    else if (when == QLatin1String("saved"))
        goal = ScreenshotDriver::Goal::Saved;
    else if (when == QLatin1String("waiting"))
        goal = ScreenshotDriver::Goal::Waiting;
    else if (when == QLatin1String("failed-change"))
        goal = ScreenshotDriver::Goal::FailedChange;
    else if (when == QLatin1String("signin"))
        goal = ScreenshotDriver::Goal::SignIn;
    else if (when == QLatin1String("developer"))
        goal = ScreenshotDriver::Goal::Developer;
    else if (when == QLatin1String("back-online"))
        goal = ScreenshotDriver::Goal::BackOnline;
    else if (when != QLatin1String("loaded"))
        return usageError(QStringLiteral("--screenshot-when must be saved, loaded, banner, "
                                         "offline, unreachable, failed, waiting, failed-change, "
                                         "signin, developer or back-online, not %1")
                              .arg(when));
    bool ok = false;
    int backOnlineMs = -1;
    if (parser.isSet(backOnlineOption)) {
        backOnlineMs = parser.value(backOnlineOption).toInt(&ok);
        if (!ok || backOnlineMs < 0)
            return usageError(QStringLiteral("--back-online-after needs milliseconds, not %1")
                                  .arg(parser.value(backOnlineOption)));
    }
    const int quitAfterMs = parser.value(quitAfterOption).toInt(&ok);
    if (!ok || quitAfterMs < 0)
        return usageError(QStringLiteral("--quit-after needs milliseconds, not %1")
                              .arg(parser.value(quitAfterOption)));
    const QStringList faults = parser.values(faultOption);
    if (parser.isSet(serverOption) && !faults.isEmpty())
        return usageError(QStringLiteral("--demo-fault works with the built-in server only"));

    // The server: the one given, or the built-in demo server on a worker thread.
    BuiltInServer builtIn;
    QUrl server;
    WallabagClient::Credentials credentials;
    QString serverDescription;
    if (parser.isSet(serverOption)) {
        // Checked here, before any request: a typo must not turn into a name looked up on
        // the network, nor into a banner that keeps trying a URL that cannot work.
        const QString given = parser.value(serverOption);
        server = QUrl(given, QUrl::StrictMode);
        const QString scheme = server.scheme().toLower();
        if (!server.isValid())
            return usageError(QStringLiteral("--server: not a valid URL: %1 (%2)")
                                  .arg(given, server.errorString()));
        if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
            return usageError(QStringLiteral("--server needs an http:// or https:// URL, e.g. "
                                             "https://wallabag.example.org, not %1")
                                  .arg(given));
        if (server.host().isEmpty())
            return usageError(QStringLiteral("--server needs a host name, e.g. "
                                             "https://wallabag.example.org, not %1")
                                  .arg(given));
        const QString password = parser.isSet(passwordOption)
            ? parser.value(passwordOption)
            : readPassword(parser.value(usernameOption), server);
        credentials = { parser.value(clientIdOption), parser.value(clientSecretOption),
                        parser.value(usernameOption), password };
        serverDescription = server.port() == -1
            ? server.host()
            : QStringLiteral("%1:%2").arg(server.host()).arg(server.port());
    }
    // A wallabag account chosen in File ▸ Sign In…, its secrets from the keychain.
    QString savedAccountNote;
    if (!parser.isSet(serverOption) &&
        !QSettings().value(QStringLiteral("account/demo"), true).toBool()) {
        QSettings settings;
        const QUrl saved = settings.value(QStringLiteral("account/server")).toUrl();
        const QString user = settings.value(QStringLiteral("account/username")).toString();
        CredentialStore keychain(QStringLiteral("KeepTrying Reader"),
                                 !qEnvironmentVariableIsSet("KEEPTRYING_NO_KEYCHAIN"));
        bool found = false;
        CredentialStore::Secrets secretsFound;
        QEventLoop wait;
        keychain.read(user + QLatin1Char('@') + saved.toString(),
                      [&](bool ok, const CredentialStore::Secrets &s) {
                          found = ok;
                          secretsFound = s;
                          wait.quit();
                      });
        if (!found && !keychain.isSessionOnly())
            wait.exec(); // the keychain answers asynchronously
        if (found && saved.isValid()) {
            server = saved;
            credentials = { settings.value(QStringLiteral("account/clientId")).toString(),
                            secretsFound.clientSecret, user, secretsFound.password };
            serverDescription = server.host();
        } else {
            savedAccountNote = QObject::tr("Your password for %1 was kept for the last session "
                                           "only: sign in again to read that library. Showing "
                                           "the demo library meanwhile.")
                                   .arg(saved.host());
        }
    }
    if (server.isEmpty()) {
        QString error;
        // The last run's port, so that its offline copies (keyed by URL) are found again.
        const quint16 lastPort =
            quint16(QSettings().value(QStringLiteral("builtInServer/port"), 0).toUInt());
        if (!builtIn.start(lastPort, &error)) {
            std::fputs(
                qPrintable(QStringLiteral("keeptrying-reader: ") + error + QLatin1Char('\n')),
                stderr);
            return 1;
        }
        for (const QString &spec : faults) {
            if (!builtIn.addFault(spec, &error))
                return usageError(QStringLiteral("--demo-fault: %1").arg(error));
        }
        server = builtIn.baseUrl();
        QSettings().setValue(QStringLiteral("builtInServer/port"), server.port());
        // For QA scripts: where to send curl, faults and outages.
        std::printf("demo server: %s\ndemo server admin: %s\n", qPrintable(server.toString()),
                    qPrintable(builtIn.adminUrl().toString()));
        std::fflush(stdout);
        using KeepTrying::Demo::DemoServer;
        credentials = { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                        DemoServer::demoUsername(), DemoServer::demoPassword() };
        serverDescription =
            QObject::tr("Built-in demo server · %1:%2").arg(server.host()).arg(server.port());
    }

    // Every request of the reader goes through this one manager: the list, the articles,
    // the images and the writes, so that simulated offline mode applies to all of them.
    KeepTrying::RetryingNetworkAccessManager manager;
    ReaderNetwork::configure(&manager);
    if (parser.isSet(offlineOption))
        manager.setSimulatedOffline(true);

    const bool ownServer = !builtIn.baseUrl().isValid();
    const QString account = ownServer
        ? credentials.username + QLatin1Char('@') + server.toString(QUrl::RemoveUserInfo)
        : QStringLiteral("demo@built-in");
    LocalStore store;
    QString storeError;
    if (!store.open(LocalStore::defaultPath(account), &storeError)) {
        std::fputs(
            qPrintable(QStringLiteral("keeptrying-reader: ") + storeError + QLatin1Char('\n')),
            stderr);
        return 1;
    }

    store.setServer(server);
    // The manager keeps offline copies of what the reader opts in (an article's content
    // and pictures pinned, previews evictable) in the cache directory, per account. The
    // built-in server takes the last run's port when it is free, so its copies are found
    // again; on another port they are not (they are keyed by URL).
    KeepTrying::OfflineCopy::Settings copies;
    copies.directory = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
        QStringLiteral("/offline-copies");
    copies.accountKey =
        server.toString(QUrl::RemoveUserInfo) + QLatin1Char(' ') + credentials.username;
    copies.maximumSizeBytes = PreferencesDialog::offlineBudgetBytes();
    if (!manager.setOfflineCopySettings(copies))
        std::fputs("keeptrying-reader: offline copies cannot be kept in the cache directory; "
                   "articles not read yet will need the network\n",
                   stderr);
    WallabagClient client(&manager);
    client.setServer(server, credentials);
    ImageStore images(&client);
    // The user's changes, durable: one outbox per account. The built-in server starts afresh
    // on a new port every run, so what an earlier run queued for it points at a server that
    // is gone: start its outbox empty, and the store's pending fields are queued again for
    // this run's server (SyncEngine::start).
    const QString outboxPath = LocalStore::defaultPath(account, QStringLiteral("outbox"));
    if (!ownServer) {
        for (const QString &suffix :
             { QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".lock") })
            QFile::remove(outboxPath + suffix);
    }
    OutboxChangeQueue queue(&client, &manager, outboxPath);
    SyncEngine engine(&client, &store, &queue);
    RequestLog requestLog(&manager);
    CredentialStore secrets(QStringLiteral("KeepTrying Reader"),
                            !qEnvironmentVariableIsSet("KEEPTRYING_NO_KEYCHAIN"));

    MainWindow window(&engine, &images, &manager, &requestLog);
    window.setLaunchTimer(launch);
    window.setServerDescription(serverDescription);
    window.setDeveloperMode(parser.isSet(developerOption) ||
                            QSettings().value(QStringLiteral("developer/enabled")).toBool());
    if (!savedAccountNote.isEmpty())
        window.statusBar()->showMessage(savedAccountNote);
    const auto setBuiltInHooks = [&] {
        MainWindow::DeveloperHooks hooks;
        hooks.validateFault = [](const QString &spec, QString *error) {
            return BuiltInServer::isValidFault(spec, error);
        };
        hooks.addFault = [&builtIn](const QString &spec, QString *error) {
            return builtIn.addFault(spec, error);
        };
        hooks.clearFaults = [&builtIn] { builtIn.clearFaults(); };
        hooks.faults = [&builtIn] { return builtIn.faults(); };
        hooks.goDown = [&builtIn](int ms) { builtIn.goDown(ms); };
        hooks.isDown = [&builtIn] { return builtIn.isDown(); };
        window.setDeveloperHooks(hooks);
    };
    if (!ownServer)
        setBuiltInHooks();

    // File ▸ Sign In…: a wallabag account of one's own, or the demo library, applied at once
    // (AccountSwitcher): the client, the library file, the outbox and the offline copies of
    // the new account, then a refresh. Changes still waiting for the account left behind go
    // to that account's server with its credentials (or stay in its files until it is back).
    AccountSwitcher switcher(&manager, &client, &store, &queue, &engine,
                             { account, server, credentials });
    // -> QString: with QT_USE_QSTRINGBUILDER a deduced return type is the unevaluated
    // QStringBuilder, holding references to this call's temporaries, which dangle once it
    // returns (every sign-in read freed memory here).
    const auto keychainKey = [](const QString &user, const QUrl &at) -> QString {
        return user + QLatin1Char('@') + at.toString();
    };
    QObject::connect(&window, &MainWindow::signInRequested, &window, [&] {
        SignInDialog dialog(&window);
        dialog.setStorageNote(secrets.isSessionOnly());
        QObject::connect(&secrets, &CredentialStore::sessionOnlyChanged, &dialog,
                         &SignInDialog::setStorageNote);
        QSettings settings;
        SignInDialog::Account current;
        current.demo = !ownServer && settings.value(QStringLiteral("account/demo"), true).toBool();
        current.server = settings.value(QStringLiteral("account/server")).toUrl();
        current.clientId = settings.value(QStringLiteral("account/clientId")).toString();
        current.username = settings.value(QStringLiteral("account/username")).toString();
        dialog.setAccount(current);
        const auto signedIn = [&](const SignInDialog::Account &chosen, const QString &description) {
            QSettings saved;
            const bool wasOwn = !saved.value(QStringLiteral("account/demo"), true).toBool();
            const QString previousKey =
                keychainKey(saved.value(QStringLiteral("account/username")).toString(),
                            saved.value(QStringLiteral("account/server")).toUrl());
            saved.setValue(QStringLiteral("account/demo"), chosen.demo);
            if (chosen.demo) {
                // Signing out: the account's secrets leave the keychain (the changes it
                // still sends keep them in memory until they are sent).
                if (wasOwn)
                    secrets.remove(previousKey);
            } else {
                // Only what is not secret goes to the settings file.
                if (wasOwn && previousKey != keychainKey(chosen.username, chosen.server))
                    secrets.remove(previousKey);
                saved.setValue(QStringLiteral("account/server"), chosen.server);
                saved.setValue(QStringLiteral("account/clientId"), chosen.clientId);
                saved.setValue(QStringLiteral("account/username"), chosen.username);
                secrets.write(keychainKey(chosen.username, chosen.server),
                              { chosen.clientSecret, chosen.password });
            }
            window.setServerDescription(description);
            window.showLibrary();
            window.statusBar()->showMessage(
                QObject::tr("Signed in as %1.")
                    .arg(chosen.demo ? QObject::tr("the demo user") : chosen.username),
                8000);
            dialog.accept();
        };
        QObject::connect(
            &dialog, &SignInDialog::accountSubmitted, &dialog,
            [&](const SignInDialog::Account &chosen) {
                if (chosen.demo) {
                    QString error;
                    if (!builtIn.baseUrl().isValid()) {
                        if (!builtIn.start(0, &error)) {
                            dialog.setError(error);
                            return;
                        }
                        setBuiltInHooks();
                    }
                    // As at a start: the built-in server is new, so is its outbox (the
                    // library's pending fields are queued again for it).
                    const QString demoOutbox = LocalStore::defaultPath(
                        QStringLiteral("demo@built-in"), QStringLiteral("outbox"));
                    if (switcher.current().key != QStringLiteral("demo@built-in")) {
                        for (const QString &suffix :
                             { QString(), QStringLiteral("-wal"), QStringLiteral("-shm"),
                               QStringLiteral(".lock") })
                            QFile::remove(demoOutbox + suffix);
                    }
                    using KeepTrying::Demo::DemoServer;
                    if (!switcher.switchTo(
                            { QStringLiteral("demo@built-in"),
                              builtIn.baseUrl(),
                              { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                                DemoServer::demoUsername(), DemoServer::demoPassword() } },
                            &error)) {
                        dialog.setError(error);
                        return;
                    }
                    signedIn(chosen,
                             QObject::tr("Built-in demo server · %1:%2")
                                 .arg(builtIn.baseUrl().host())
                                 .arg(builtIn.baseUrl().port()));
                    return;
                }
                const AccountSwitcher::Account next {
                    chosen.username + QLatin1Char('@') +
                        chosen.server.toString(QUrl::RemoveUserInfo),
                    chosen.server,
                    { chosen.clientId, chosen.clientSecret, chosen.username, chosen.password }
                };
                switcher.signIn(next, [&, chosen](bool ok, const QString &message) {
                    if (!ok) {
                        dialog.setError(message); // a wrong password, in words
                        return;
                    }
                    signedIn(chosen, chosen.server.host());
                });
            });
        dialog.exec();
        switcher.cancelSignIn(); // closed while signing in: nothing follows
    });

    // Changes on the server arrive by themselves: every few minutes, and as soon as the
    // network or the server is back.
    QTimer periodic;
    periodic.setInterval(5 * 60 * 1000);
    QObject::connect(&periodic, &QTimer::timeout, &engine, &SyncEngine::refresh);
    periodic.start();
    QObject::connect(&manager, &KeepTrying::RetryingNetworkAccessManager::simulatedOfflineChanged,
                     &engine, [&engine](bool offline) {
                         if (!offline)
                             engine.refresh();
                     });

    const QString screenshot = parser.value(screenshotOption);
    ScreenshotDriver driver(&window, &images, &engine);
    driver.setBackOnlineAfter(backOnlineMs);
    driver.start(goal, screenshot, quitAfterMs);
    if (screenshot.isEmpty() && parser.isSet(quitAfterOption))
        QTimer::singleShot(quitAfterMs, &app, &QCoreApplication::quit);

    window.show();
    window.showLibrary(); // the saved copy, at once
    engine.start(); // then what changed on the server
    return app.exec();
}
