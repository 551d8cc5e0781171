// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readeroptions.h"

#include <QtCore/QTextStream>

#include <algorithm>

#include <cstdio>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

namespace {

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

struct GoalName
{
    const char *name;
    ScreenshotDriver::Goal goal;
};

constexpr GoalName goalNames[] = {
    { "loaded", ScreenshotDriver::Goal::Loaded },
    { "banner", ScreenshotDriver::Goal::Banner },
    { "offline", ScreenshotDriver::Goal::Offline },
    { "unreachable", ScreenshotDriver::Goal::Unreachable },
    { "failed", ScreenshotDriver::Goal::Failed },
    { "saved", ScreenshotDriver::Goal::Saved },
    { "waiting", ScreenshotDriver::Goal::Waiting },
    { "failed-change", ScreenshotDriver::Goal::FailedChange },
    { "signin", ScreenshotDriver::Goal::SignIn },
    { "developer", ScreenshotDriver::Goal::Developer },
    { "back-online", ScreenshotDriver::Goal::BackOnline },
};

} // namespace

ReaderCommandLine::ReaderCommandLine()
    : m_server(QStringLiteral("server"), QStringLiteral("The wallabag server to use."),
               QStringLiteral("URL")),
      m_clientId(QStringLiteral("client-id"), QStringLiteral("OAuth client id (with --server)."),
                 QStringLiteral("ID")),
      m_clientSecret(QStringLiteral("client-secret"),
                     QStringLiteral("OAuth client secret (with --server)."),
                     QStringLiteral("SECRET")),
      m_username(QStringLiteral("username"), QStringLiteral("User name (with --server)."),
                 QStringLiteral("NAME")),
      m_password(QStringLiteral("password"),
                 QStringLiteral("Password (with --server). Visible to other users of this "
                                "machine (ps): prefer the environment variable "
                                "KEEPTRYING_PASSWORD, or leave both out to be asked for it on "
                                "a terminal."),
                 QStringLiteral("PASSWORD")),
      m_fault(QStringLiteral("demo-fault"),
              QStringLiteral("A fault for the built-in server to inject, e.g. "
                             "'route=/api/entries*,status=503,count=2,retry-after=1'. "
                             "Repeatable."),
              QStringLiteral("SPEC")),
      m_offline(QStringLiteral("simulate-offline"),
                QStringLiteral("Start in simulated offline mode (Developer menu): requests wait "
                               "for the network, and the banner says you are offline.")),
      m_backOnline(QStringLiteral("back-online-after"),
                   QStringLiteral("Switch simulated offline mode off MS milliseconds after the "
                                  "offline banner has opened, as unticking Developer ▸ Simulate "
                                  "Offline does."),
                   QStringLiteral("MS")),
      m_screenshot(QStringLiteral("screenshot"),
                   QStringLiteral("Save the window as a PNG when --screenshot-when is reached, "
                                  "then exit."),
                   QStringLiteral("FILE")),
      m_when(
          QStringLiteral("screenshot-when"),
          QStringLiteral("saved (the saved copy is painted), "
                         "loaded (the list and first article are shown), banner (the retry "
                         "banner is open; the run ends once it has closed), offline (the "
                         "offline banner is open; with --back-online-after the run ends once "
                         "the list has loaded and the banner has closed), unreachable (the "
                         "banner says the server does not answer) or failed (the list could "
                         "not be loaded and the window says why), waiting (changes made "
                         "offline wait to be sent), failed-change (the server refused a "
                         "change; needs a fault injected that refuses one, e.g. "
                         "--demo-fault method=PATCH,status=403, or it ends with exit code 1 "
                         "at --quit-after), signin (the sign-in dialog), developer (the Developer "
                         "window with the request log) or back-online (the short notice "
                         "after an offline wait; with --simulate-offline and "
                         "--back-online-after). Default: loaded."),
          QStringLiteral("STATE"), QStringLiteral("loaded")),
      m_developer(QStringLiteral("developer"),
                  QStringLiteral("Show the Developer menu (simulated offline, faults, request "
                                 "log).")),
      m_quitAfter(QStringLiteral("quit-after"),
                  QStringLiteral("With --screenshot: give up with exit code 1 after MS "
                                 "milliseconds (default 20000). Without --screenshot: quit "
                                 "after MS milliseconds; not given, the reader runs until "
                                 "you quit it."),
                  QStringLiteral("MS"), QStringLiteral("20000")),
      m_palette(QStringLiteral("palette"),
                QStringLiteral("For QA: paint with the Fusion style in a light or dark palette, "
                               "as on a desktop with that theme."),
                QStringLiteral("light|dark"))
{
    m_parser.setApplicationDescription(QStringLiteral(
        "Reads the articles saved on a wallabag server, and keeps trying when the network "
        "is flaky. Without --server it starts a built-in demo server on 127.0.0.1."));
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions({ m_server, m_clientId, m_clientSecret, m_username, m_password, m_fault,
                          m_offline, m_backOnline, m_screenshot, m_when, m_quitAfter, m_developer,
                          m_palette });
}

void ReaderCommandLine::allowHelpWithoutDisplay(int argc, char *argv[])
{
    if (!qEnvironmentVariableIsEmpty("DISPLAY") ||
        !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
        !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
            arg == "--version") {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

void ReaderCommandLine::printError(const QString &message)
{
    std::fputs(qPrintable(QStringLiteral("keeptrying-reader: ") + message + QLatin1Char('\n')),
               stderr);
}

ReaderCommandLine::Result ReaderCommandLine::fail(const QString &message)
{
    m_errorMessage = message;
    return Result::Error;
}

ReaderCommandLine::Result ReaderCommandLine::parse(const QStringList &arguments)
{
    if (!m_parser.parse(arguments))
        return fail(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help")))
        return Result::ShowHelp;
    if (m_parser.isSet(QStringLiteral("version")))
        return Result::ShowVersion;
    if (!m_parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument: %1")
                        .arg(m_parser.positionalArguments().constFirst()));

    if (m_parser.isSet(m_palette)) {
        m_options.palette = m_parser.value(m_palette);
        if (m_options.palette != QLatin1String("light") &&
            m_options.palette != QLatin1String("dark"))
            return fail(
                QStringLiteral("--palette is light or dark, not %1").arg(m_options.palette));
    }
    const QString when = m_parser.value(m_when);
    const auto goal =
        std::find_if(std::begin(goalNames), std::end(goalNames),
                     [&when](const GoalName &g) { return when == QLatin1String(g.name); });
    if (goal == std::end(goalNames))
        return fail(QStringLiteral("--screenshot-when must be saved, loaded, banner, "
                                   "offline, unreachable, failed, waiting, failed-change, "
                                   "signin, developer or back-online, not %1")
                        .arg(when));
    m_options.screenshotGoal = goal->goal;
    bool ok = false;
    if (m_parser.isSet(m_backOnline)) {
        m_options.backOnlineAfterMs = m_parser.value(m_backOnline).toInt(&ok);
        if (!ok || m_options.backOnlineAfterMs < 0)
            return fail(QStringLiteral("--back-online-after needs milliseconds, not %1")
                            .arg(m_parser.value(m_backOnline)));
    }
    m_options.quitAfterMs = m_parser.value(m_quitAfter).toInt(&ok);
    if (!ok || m_options.quitAfterMs < 0)
        return fail(QStringLiteral("--quit-after needs milliseconds, not %1")
                        .arg(m_parser.value(m_quitAfter)));
    m_options.quitAfterSet = m_parser.isSet(m_quitAfter);
    m_options.demoFaults = m_parser.values(m_fault);
    if (m_parser.isSet(m_server) && !m_options.demoFaults.isEmpty())
        return fail(QStringLiteral("--demo-fault works with the built-in server only"));
    if (m_parser.isSet(m_server) && !readServer())
        return Result::Error;
    m_options.simulateOffline = m_parser.isSet(m_offline);
    m_options.developer = m_parser.isSet(m_developer);
    m_options.screenshotFile = m_parser.value(m_screenshot);
    return Result::Run;
}

bool ReaderCommandLine::readServer()
{
    // Checked here, before any request: a typo must not turn into a name looked up on the
    // network, nor into a banner that keeps trying a URL that cannot work.
    const QString given = m_parser.value(m_server);
    // "127.0.0.1:18080" or "wallabag.example.org": the scheme is missing, and Qt's parser
    // would say so in words of its own (or take the host for a scheme).
    if (!given.contains(QLatin1String("://"))) {
        fail(QStringLiteral("--server needs http:// or https:// in front of the address: "
                            "https://%1 or http://%1")
                 .arg(given));
        return false;
    }
    const QUrl server(given, QUrl::StrictMode);
    const QString scheme = server.scheme().toLower();
    if (!server.isValid()) {
        fail(QStringLiteral("--server: not a valid URL: %1 (%2)").arg(given, server.errorString()));
        return false;
    }
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https")) {
        fail(QStringLiteral("--server needs an http:// or https:// URL, e.g. "
                            "https://wallabag.example.org, not %1")
                 .arg(given));
        return false;
    }
    if (server.host().isEmpty()) {
        fail(QStringLiteral("--server needs a host name, e.g. https://wallabag.example.org, "
                            "not %1")
                 .arg(given));
        return false;
    }
    const QString password = m_parser.isSet(m_password)
        ? m_parser.value(m_password)
        : readPassword(m_parser.value(m_username), server);
    m_options.server = server;
    m_options.credentials = { m_parser.value(m_clientId), m_parser.value(m_clientSecret),
                              m_parser.value(m_username), password };
    return true;
}
