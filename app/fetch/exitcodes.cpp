// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "exitcodes.h"

ExitCodes::Code ExitCodes::forReply(QNetworkReply::NetworkError error, int httpStatus)
{
    switch (error) {
    case QNetworkReply::TimeoutError:
    case QNetworkReply::OperationCanceledError:
    case QNetworkReply::ProxyTimeoutError:
        return Timeout;
    default:
        break;
    }
    if (httpStatus >= 400)
        return HttpError;

    // No default: the compiler then warns when Qt adds an error we have not mapped.
    switch (error) {
    case QNetworkReply::NoError:
        return Success;
    case QNetworkReply::HostNotFoundError:
        return HostNotFound;
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::BackgroundRequestNotAllowedError:
    case QNetworkReply::UnknownNetworkError: // e.g. "network unreachable" while connecting
    case QNetworkReply::ProxyConnectionRefusedError:
        return CouldNotConnect;
    case QNetworkReply::TimeoutError:
    case QNetworkReply::OperationCanceledError:
    case QNetworkReply::ProxyTimeoutError:
        return Timeout;
    case QNetworkReply::RemoteHostClosedError:
        return ReceiveError;
    case QNetworkReply::SslHandshakeFailedError:
        return TlsHandshakeFailed;
    case QNetworkReply::TooManyRedirectsError:
    case QNetworkReply::InsecureRedirectError:
        return TooManyRedirects;
    case QNetworkReply::ProxyNotFoundError:
        return ProxyNotFound;
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyAuthenticationRequiredError:
    case QNetworkReply::UnknownProxyError:
        return ProxyError;
    // Content errors without an HTTP status come from file: and similar schemes.
    case QNetworkReply::ContentAccessDenied:
    case QNetworkReply::ContentOperationNotPermittedError:
    case QNetworkReply::ContentNotFoundError:
    case QNetworkReply::ContentGoneError:
        return FileNotReadable;
    case QNetworkReply::ContentReSendError:
        return SendRewindFailed;
    case QNetworkReply::ProtocolUnknownError:
    case QNetworkReply::ProtocolInvalidOperationError:
        return UnsupportedProtocol;
    case QNetworkReply::AuthenticationRequiredError:
    case QNetworkReply::ContentConflictError:
    case QNetworkReply::InternalServerError:
    case QNetworkReply::OperationNotImplementedError:
    case QNetworkReply::ServiceUnavailableError:
        // These come with a status; without one the server said something odd.
    case QNetworkReply::UnknownContentError:
    case QNetworkReply::UnknownServerError:
    case QNetworkReply::ProtocolFailure:
        return WeirdServerReply;
    }
    return WeirdServerReply;
}

QString ExitCodes::description(Code code)
{
    switch (code) {
    case Success:
        return QStringLiteral("success");
    case UnsupportedProtocol:
        return QStringLiteral("unsupported protocol or operation");
    case Usage:
        return QStringLiteral("usage error: bad option, missing URL, bad number or header");
    case MalformedUrl:
        return QStringLiteral("malformed URL");
    case ProxyNotFound:
        return QStringLiteral("proxy host not found");
    case HostNotFound:
        return QStringLiteral("host not found");
    case CouldNotConnect:
        return QStringLiteral("could not connect (refused, unreachable, offline)");
    case WeirdServerReply:
        return QStringLiteral("unexpected reply from the server");
    case HttpError:
        return QStringLiteral("final HTTP status 400 or above (the body is not written)");
    case WriteError:
        return QStringLiteral("could not write the body to stdout or the -o file");
    case ReadError:
        return QStringLiteral("could not read the -d @FILE");
    case Timeout:
        return QStringLiteral("timeout: --deadline reached or an attempt timed out");
    case TlsHandshakeFailed:
        return QStringLiteral("TLS handshake or certificate failure");
    case FileNotReadable:
        return QStringLiteral("could not read a file: URL");
    case TooManyRedirects:
        return QStringLiteral("too many or less safe redirects");
    case ReceiveError:
        return QStringLiteral("connection closed while receiving");
    case SendRewindFailed:
        return QStringLiteral("the request body could not be sent again");
    case ProxyError:
        return QStringLiteral("proxy error");
    }
    return QString();
}

QList<ExitCodes::Code> ExitCodes::all()
{
    return { Success,
             UnsupportedProtocol,
             Usage,
             MalformedUrl,
             ProxyNotFound,
             HostNotFound,
             CouldNotConnect,
             WeirdServerReply,
             HttpError,
             WriteError,
             ReadError,
             Timeout,
             TlsHandshakeFailed,
             FileNotReadable,
             TooManyRedirects,
             ReceiveError,
             SendRewindFailed,
             ProxyError };
}

QString ExitCodes::helpTable()
{
    QString table = QStringLiteral("Exit codes (as curl's):\n");
    const QList<Code> codes = all();
    for (Code code : codes)
        table += QStringLiteral("  %1  %2\n").arg(int(code), 2).arg(description(code));
    return table;
}
