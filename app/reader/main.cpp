// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// keeptrying-reader: reads the articles saved on a wallabag server (ReaderApp wires it).

#include "readerapp.h"
#include "readeroptions.h"
#include "readerpalette.h"
#include "screenshotdriver.h"
#include "ui/appicon.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QLibraryInfo>
#include <QtCore/QTimer>
#include <QtCore/QTranslator>
#include <QtWidgets/QApplication>

int main(int argc, char *argv[])
{
    QElapsedTimer launch; // from here to the first painted list: the figure to keep small
    launch.start();
    ReaderCommandLine::allowHelpWithoutDisplay(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("keeptrying-reader"));
    // The user's language, when the reader has it (:/i18n, built from resources/translations).
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("keeptrying-reader"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);
    // Qt's own words (Cancel, OK, Close in every dialog's buttons), where the system has them
    // (Debian: qt6-translations-l10n).
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator);
    QApplication::setApplicationDisplayName(QStringLiteral("KeepTrying Reader"));
    QApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setWindowIcon(readerIcon());

    ReaderCommandLine commandLine;
    switch (commandLine.parse(QCoreApplication::arguments())) {
    case ReaderCommandLine::Result::ShowHelp:
        commandLine.showHelp(); // exits
    case ReaderCommandLine::Result::ShowVersion:
        commandLine.showVersion(); // exits
    case ReaderCommandLine::Result::Error:
        ReaderCommandLine::printError(commandLine.errorMessage());
        return ReaderCommandLine::UsageError;
    case ReaderCommandLine::Result::Run:
        break;
    }
    const ReaderOptions options = commandLine.options();
    applyReaderPalette(options.palette);

    ReaderApp reader(options);
    reader.setLaunchTimer(launch);
    if (!reader.open()) {
        ReaderCommandLine::printError(reader.errorMessage());
        return reader.exitCode();
    }
    // A test aid, not part of the reader: progress on stdout for scripts, and --screenshot.
    ScreenshotDriver driver(reader.window(), reader.images(), reader.engine());
    driver.setBackOnlineAfter(options.backOnlineAfterMs);
    driver.start(options.screenshotGoal, options.screenshotFile, options.quitAfterMs);
    if (options.screenshotFile.isEmpty() && options.quitAfterSet)
        QTimer::singleShot(options.quitAfterMs, &app, &QCoreApplication::quit);

    reader.start();
    return QApplication::exec();
}
