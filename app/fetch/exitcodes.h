// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FETCH_EXITCODES_H
#define KEEPTRYING_FETCH_EXITCODES_H

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtNetwork/QNetworkReply>

/*!
    The exit codes of keeptrying-fetch and the mapping from a finished reply to one.

    The numbers are curl's (curl(1), "EXIT CODES"), so that a script written for
    `curl --fail` reads our results the same way. Kept apart from the executable so the
    table can be tested on its own.
*/
class ExitCodes
{
    Q_GADGET

public:
    enum Code {
        Success = 0,
        UnsupportedProtocol = 1, //!< Unknown URL scheme or an operation the scheme lacks.
        Usage = 2, //!< Bad option, missing URL, bad number or header.
        MalformedUrl = 3, //!< The URL could not be parsed.
        ProxyNotFound = 5, //!< The proxy's name did not resolve.
        HostNotFound = 6, //!< The host's name did not resolve.
        CouldNotConnect = 7, //!< Refused, unreachable, offline: no connection made.
        WeirdServerReply = 8, //!< The server's answer was not understood.
        HttpError = 22, //!< The final HTTP status was 400 or above.
        WriteError = 23, //!< Writing the body to stdout or -o FILE failed.
        ReadError = 26, //!< Reading the -d @FILE body failed.
        Timeout = 28, //!< The --deadline ran out or an attempt timed out.
        TlsHandshakeFailed = 35, //!< TLS handshake or certificate failure.
        FileNotReadable = 37, //!< A file: URL could not be read.
        TooManyRedirects = 47, //!< Too many, or less safe, redirects.
        ReceiveError = 56, //!< The connection closed while receiving.
        SendRewindFailed = 65, //!< The request body could not be sent again.
        ProxyError = 97 //!< The proxy failed otherwise.
    };
    Q_ENUM(Code)

    /*! The exit code for a reply that finished with \a error and HTTP status \a httpStatus
        (0 when no status arrived). Timeouts win over the status, then any status of 400 or
        above gives HttpError. OperationCanceledError counts as a timeout: keeptrying-fetch
        cancels nothing itself, so a cancel is a transfer timeout (see DESIGN.md). */
    static Code forReply(QNetworkReply::NetworkError error, int httpStatus);

    /*! A short description of \a code, for --help. */
    static QString description(Code code);

    /*! Every code, in ascending order. */
    static QList<Code> all();

    /*! The table of all codes with their descriptions, for the end of --help. */
    static QString helpTable();
};

#endif // KEEPTRYING_FETCH_EXITCODES_H
