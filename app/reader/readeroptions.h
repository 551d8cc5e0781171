// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READEROPTIONS_H
#define KEEPTRYING_READER_READEROPTIONS_H

#include "library/wallabagclient.h"
#include "screenshotdriver.h"

#include <QtCore/QCommandLineOption>
#include <QtCore/QCommandLineParser>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

/*!
    What one run of keeptrying-reader is asked to do, as read from its command line. A test
    fills one itself to build the reader (ReaderApp) without a command line.
*/
struct ReaderOptions
{
    /*! --server, checked (http or https, with a host); empty: the saved account, or the
        built-in demo server. */
    QUrl server;
    /*! With --server: the client id and secret, user name and password (from --password,
        KEEPTRYING_PASSWORD or a prompt on the terminal). */
    WallabagClient::Credentials credentials;
    QStringList demoFaults; //!< --demo-fault specs, for the built-in server.
    bool simulateOffline = false;
    int backOnlineAfterMs = -1; //!< < 0: never.
    QString screenshotFile; //!< Empty: no screenshot, progress is only reported.
    ScreenshotDriver::Goal screenshotGoal = ScreenshotDriver::Goal::Loaded;
    int quitAfterMs = 20000;
    bool quitAfterSet = false; //!< --quit-after given (quits a run without --screenshot).
    bool developer = false;
    QString palette; //!< "light", "dark" or empty (the platform's).
};

/*!
    The command line of keeptrying-reader: declares the options, checks them and fills a
    ReaderOptions. Usage errors exit with code 2.
*/
class ReaderCommandLine
{
public:
    enum class Result { Run, ShowHelp, ShowVersion, Error };
    static constexpr int UsageError = 2;

    ReaderCommandLine();

    /*! Without a display, --help and --version are printed anyway: call before the
        QApplication is made, so that it opens the offscreen platform for them. */
    static void allowHelpWithoutDisplay(int argc, char *argv[]);

    /*! Parses \a arguments (the program name first). May ask for the password on the
        terminal (--server without --password or KEEPTRYING_PASSWORD). */
    Result parse(const QStringList &arguments);

    ReaderOptions options() const { return m_options; }
    QString errorMessage() const { return m_errorMessage; }
    /*! Prints \a message as "keeptrying-reader: MESSAGE" on stderr. */
    static void printError(const QString &message);
    [[noreturn]] void showHelp() { m_parser.showHelp(0); }
    [[noreturn]] void showVersion() { m_parser.showVersion(); }

private:
    Result fail(const QString &message);
    bool readServer();

    QCommandLineParser m_parser;
    QCommandLineOption m_server;
    QCommandLineOption m_clientId;
    QCommandLineOption m_clientSecret;
    QCommandLineOption m_username;
    QCommandLineOption m_password;
    QCommandLineOption m_fault;
    QCommandLineOption m_offline;
    QCommandLineOption m_backOnline;
    QCommandLineOption m_screenshot;
    QCommandLineOption m_when;
    QCommandLineOption m_developer;
    QCommandLineOption m_quitAfter;
    QCommandLineOption m_palette;
    ReaderOptions m_options;
    QString m_errorMessage;
};

#endif // KEEPTRYING_READER_READEROPTIONS_H
