// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FETCH_FETCHOPTIONS_H
#define KEEPTRYING_FETCH_FETCHOPTIONS_H

#include "exitcodes.h"

#include <KeepTrying/retrypolicy.h>

#include <QtCore/QByteArray>
#include <QtCore/QCommandLineParser>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrl>

/*!
    What one run of keeptrying-fetch is asked to do, as read from its command line.
*/
struct FetchOptions
{
    QUrl url;
    QByteArray method; //!< Empty: GET, or POST when there is a body.
    QByteArray body; //!< From -d, already read from @FILE.
    bool hasBody = false;
    QList<QPair<QByteArray, QByteArray>> headers; //!< From -H, in order.
    QString outputFile; //!< -o FILE; empty for stdout.
    KeepTrying::RetryPolicy policy;
    QString proxy; //!< -x URL; empty: the environment's or the system's (see FetchProxyFactory).
    QString noProxy; //!< --noproxy LIST, when hasNoProxy.
    bool hasNoProxy = false;
    bool simulateOffline = false;
    bool verbose = false;
};

/*!
    The command line of keeptrying-fetch: declares the options for QCommandLineParser,
    validates them and fills a FetchOptions.
*/
class FetchCommandLine
{
public:
    enum class Result { Run, ShowHelp, ShowVersion, Error };

    FetchCommandLine();

    /*! Parses \a arguments (the program name first). On Error, errorMessage() and
        errorExitCode() say what went wrong. */
    Result parse(const QStringList &arguments);

    FetchOptions options() const { return m_options; }
    QString errorMessage() const { return m_errorMessage; }
    ExitCodes::Code errorExitCode() const { return m_errorExitCode; }
    /*! The full --help text, exit code table included. */
    QString helpText() const;
    static QString versionText();

private:
    Result fail(ExitCodes::Code code, const QString &message);
    bool readMilliseconds(const QCommandLineOption &option, qint64 minimum, qint64 *value);
    bool readBody();
    bool readHeaders();

    QCommandLineParser m_parser;
    QCommandLineOption m_helpOption;
    QCommandLineOption m_versionOption;
    QCommandLineOption m_methodOption;
    QCommandLineOption m_dataOption;
    QCommandLineOption m_headerOption;
    QCommandLineOption m_outputOption;
    QCommandLineOption m_maxAttemptsOption;
    QCommandLineOption m_initialDelayOption;
    QCommandLineOption m_maxDelayOption;
    QCommandLineOption m_jitterOption;
    QCommandLineOption m_timeoutOption;
    QCommandLineOption m_deadlineOption;
    QCommandLineOption m_idempotencyKeyOption;
    QCommandLineOption m_proxyOption;
    QCommandLineOption m_noProxyOption;
    QCommandLineOption m_simulateOfflineOption;
    QCommandLineOption m_verboseOption;

    FetchOptions m_options;
    QString m_errorMessage;
    ExitCodes::Code m_errorExitCode = ExitCodes::Usage;
};

#endif // KEEPTRYING_FETCH_FETCHOPTIONS_H
