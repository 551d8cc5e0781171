// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// keeptrying-fetch: a curl-like client built on KeepTrying::RetryingNetworkAccessManager.

#include "fetcher.h"
#include "fetchoptions.h"

#include <QtCore/QCoreApplication>
#include <QtNetwork/QNetworkProxyFactory>

#include <csignal>
#include <cstdio>

int main(int argc, char *argv[])
{
#ifdef Q_OS_UNIX
    // A closed pipe then fails the write (exit code 23, as curl) instead of killing us.
    std::signal(SIGPIPE, SIG_IGN);
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("keeptrying-fetch"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KEEPTRYING_VERSION_STRING));

    FetchCommandLine commandLine;
    switch (commandLine.parse(QCoreApplication::arguments())) {
    case FetchCommandLine::Result::ShowHelp:
        std::fputs(commandLine.helpText().toLocal8Bit().constData(), stdout);
        return ExitCodes::Success;
    case FetchCommandLine::Result::ShowVersion:
        std::fputs(FetchCommandLine::versionText().toLocal8Bit().constData(), stdout);
        return ExitCodes::Success;
    case FetchCommandLine::Result::Error: {
        const QString line =
            QStringLiteral("keeptrying-fetch: %1\n").arg(commandLine.errorMessage());
        std::fputs(line.toLocal8Bit().constData(), stderr);
        return commandLine.errorExitCode();
    }
    case FetchCommandLine::Result::Run:
        break;
    }

    // The system's proxy settings where the command line and the environment name none.
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    Fetcher fetcher(commandLine.options());
    // Queued: the reply may finish before exec() runs.
    QObject::connect(&fetcher, &Fetcher::finished, &app, &QCoreApplication::exit,
                     Qt::QueuedConnection);
    if (!fetcher.start())
        return fetcher.exitCode();
    return QCoreApplication::exec();
}
