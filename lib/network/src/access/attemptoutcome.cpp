// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "attemptoutcome_p.h"

#include <QtCore/QCoreApplication>

#include <algorithm>

namespace KeepTrying {

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("KeepTrying::RetryingReply", text, disambiguation, n);
}

// RFC 9112 §6.3: Content-Length is one non-negative decimal number; copies of one field
// (Qt joins them with ", ") must agree. Absent is valid. One pass over the headers, and no
// copy of them: this runs for every response forwarded. \a lastOnly: only the last copy is
// the response's (Qt followed a redirect, see Facts::redirectedByQt).
bool hasValidContentLength(const QNetworkReply *reply, bool lastOnly)
{
    constexpr QByteArrayView name = "Content-Length";
    for (const auto &[header, value] : reply->rawHeaderPairs()) {
        if (header.size() != name.size() || header.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        QByteArrayView first;
        QByteArrayView rest = value;
        if (lastOnly && rest.lastIndexOf(',') >= 0)
            rest = rest.sliced(rest.lastIndexOf(',') + 1);
        for (;;) {
            const qsizetype comma = rest.indexOf(',');
            const QByteArrayView copy = (comma < 0 ? rest : rest.first(comma)).trimmed();
            if (copy.isEmpty() || copy.size() > 18 ||
                !std::all_of(copy.cbegin(), copy.cend(),
                             [](char c) { return c >= '0' && c <= '9'; }))
                return false;
            if (!first.isEmpty() && copy != first)
                return false;
            if (comma < 0)
                return true;
            first = copy;
            rest = rest.sliced(comma + 1);
        }
    }
    return true;
}

// Qt 6.4 tells these two HTTP/2 cases apart from others by their text alone: a stream above
// a GOAWAY's last-stream-id (RFC 9113 §6.8), and RST_STREAM with REFUSED_STREAM (§8.7). The
// server did not process either.
bool isNeverProcessed(QNetworkReply::NetworkError error, const QString &text)
{
    return (error == QNetworkReply::ContentReSendError &&
            text.contains(QLatin1String("before this stream was established"))) ||
        (error == QNetworkReply::ProtocolFailure &&
         text == QLatin1String("Server refused a stream"));
}

} // namespace

bool AttemptOutcome::isGoAway(QNetworkReply::NetworkError error, const QString &text)
{
    return error == QNetworkReply::ContentReSendError &&
        text.contains(QLatin1String("stopped accepting new streams"));
}

AttemptOutcome AttemptOutcome::of(const QNetworkReply *attempt, const Facts &facts)
{
    AttemptOutcome outcome;
    outcome.error = attempt->error();
    // Without an error the text is only Qt's "Unknown error", translated on each call.
    if (outcome.error != QNetworkReply::NoError)
        outcome.errorString = attempt->errorString();
    outcome.httpStatus = attempt->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (outcome.error == QNetworkReply::OperationCanceledError && !facts.aborted) {
        // Qt reports a transfer timeout as a cancel; we did not cancel, so it timed out.
        outcome.error = QNetworkReply::TimeoutError;
        outcome.transferTimedOut = true;
        outcome.qtErrorString = outcome.errorString;
        const int timeout = attempt->request().transferTimeout();
        outcome.errorString = timeout > 0 ? tr("No data was received for %1 ms").arg(timeout)
                                          : tr("The attempt timed out");
    } else if (isNeverProcessed(outcome.error, outcome.errorString)) {
        outcome.neverProcessed = true;
    } else if (facts.oneShotBody && outcome.error == QNetworkReply::ContentReSendError) {
        // Qt wanted to send the request again by itself (its connection closed before a
        // response) and could not, as intended: the server may have acted on it.
        outcome.error = QNetworkReply::RemoteHostClosedError;
        outcome.errorString =
            tr("The connection closed before the server answered; the %1 request was not "
               "sent again because the server may have acted on it (an Idempotency-Key "
               "makes it safe to retry)")
                .arg(QString::fromLatin1(facts.method));
    }
    if (outcome.error != QNetworkReply::NoError || !facts.forwarded)
        return outcome;
    if (outcome.httpStatus < 200 || !hasValidContentLength(attempt, facts.redirectedByQt)) {
        // Qt 6.4 takes an informational response (103 Early Hints) for the answer, losing
        // the real one, and reads a Content-Length that is not one number as none. Both are
        // framing errors a retry does not mend (RFC 9112 §6.3): never a success.
        outcome.error = QNetworkReply::ProtocolFailure;
        outcome.errorString = outcome.httpStatus < 200
            ? tr("The server sent only an informational response (%1)").arg(outcome.httpStatus)
            : tr("The response's Content-Length is not valid: %1")
                  .arg(QString::fromLatin1(attempt->rawHeader("Content-Length")));
    } else if (facts.expectedEnd >= 0 && facts.bodyEnd < facts.expectedEnd) {
        // Qt can end a body cut short without an error (on a kept-alive connection reset
        // mid-body): a body shorter than its Content-Length or Content-Range is a broken
        // connection, never a success.
        outcome.error = QNetworkReply::RemoteHostClosedError;
        outcome.errorString = tr("The connection closed after %1 of %2 bytes of the body")
                                  .arg(facts.bodyEnd)
                                  .arg(facts.expectedEnd);
    }
    return outcome;
}

QNetworkReply::NetworkError AttemptOutcome::errorForStatus(int status)
{
    switch (status) {
    case 500:
        return QNetworkReply::InternalServerError;
    case 501:
        return QNetworkReply::OperationNotImplementedError;
    case 503:
        return QNetworkReply::ServiceUnavailableError;
    default:
        return status >= 500 ? QNetworkReply::UnknownServerError
                             : QNetworkReply::UnknownContentError;
    }
}

QString AttemptOutcome::describe(QNetworkReply::NetworkError error, int status,
                                 bool simulatedOffline)
{
    // A transport error after a good status line (a body cut off) is named by the error.
    if (status >= 400 || (status > 0 && error == QNetworkReply::NoError))
        return QStringLiteral("HTTP %1").arg(status);
    switch (error) {
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("host not found");
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("connection refused");
    case QNetworkReply::RemoteHostClosedError:
        return QStringLiteral("connection closed");
    case QNetworkReply::TimeoutError:
        return QStringLiteral("timeout");
    case QNetworkReply::TemporaryNetworkFailureError:
        return simulatedOffline ? QStringLiteral("offline (simulated)")
                                : QStringLiteral("network unavailable");
    default:
        return QStringLiteral("network error %1").arg(int(error));
    }
}

AttemptOutcome AttemptOutcome::answerOf(const QNetworkReply *attempt)
{
    AttemptOutcome outcome;
    outcome.error = attempt->error();
    outcome.errorString = attempt->errorString();
    outcome.httpStatus = attempt->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    return outcome;
}

AttemptOutcome AttemptOutcome::breakerOpen(const QString &origin, qint64 msUntilProbe)
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::ServiceUnavailableError;
    outcome.errorString = tr("The circuit breaker for %1 is open after repeated failures; it "
                             "lets a request through again in %2 ms")
                              .arg(origin)
                              .arg(msUntilProbe);
    return outcome;
}

AttemptOutcome AttemptOutcome::resumeRefused(qint64 handedOver, const QNetworkReply *response)
{
    // The caller has the first bytes of the body already: nothing else can follow them.
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::RemoteHostClosedError;
    const QByteArray range = response->rawHeader("Content-Range");
    outcome.errorString =
        tr("The connection broke off after %1 bytes and the server could not resume the "
           "download (it answered %2%3)")
            .arg(handedOver)
            .arg(response->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt())
            .arg(range.isEmpty() ? QString()
                                 : QStringLiteral(", Content-Range ") + QString::fromLatin1(range));
    return outcome;
}

AttemptOutcome AttemptOutcome::resumeAnswered(qint64 handedOver, qint64 total, int status,
                                              const QByteArray &reason)
{
    // The caller's bytes are the start of one body: the resume's own answer is not appended
    // to them, and the reply keeps their response's status and headers.
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::RemoteHostClosedError;
    const QString answer = reason.isEmpty()
        ? QString::number(status)
        : QStringLiteral("%1 %2").arg(status).arg(QString::fromLatin1(reason));
    outcome.errorString = total >= 0
        ? tr("The connection closed after %1 of %2 bytes; resuming got %3")
              .arg(handedOver)
              .arg(total)
              .arg(answer)
        : tr("The connection closed after %1 bytes; resuming got %2").arg(handedOver).arg(answer);
    return outcome;
}

AttemptOutcome AttemptOutcome::simulatedOffline()
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::TemporaryNetworkFailureError;
    outcome.errorString = tr("The network is offline (simulated)");
    return outcome;
}

AttemptOutcome AttemptOutcome::deadlinePassed(qint64 deadlineMs, int attempts)
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::TimeoutError;
    outcome.errorString = attempts == 1
        ? tr("The deadline of %1 ms passed after %n attempt", nullptr, attempts).arg(deadlineMs)
        : tr("The deadline of %1 ms passed after %n attempts", nullptr, attempts).arg(deadlineMs);
    return outcome;
}

AttemptOutcome AttemptOutcome::deadlineWhileAnswering(qint64 deadlineMs, int httpStatus)
{
    AttemptOutcome outcome;
    outcome.httpStatus = httpStatus;
    outcome.error = errorForStatus(httpStatus);
    outcome.errorString = tr("The deadline of %1 ms passed while the server answered %2")
                              .arg(deadlineMs)
                              .arg(httpStatus);
    return outcome;
}

AttemptOutcome AttemptOutcome::deadlineBeforeNextAttempt(qint64 deadlineMs, int attempts,
                                                         const QString &lastReason)
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::TimeoutError;
    outcome.errorString = (attempts == 1 ? tr("Gave up after %n attempt: the deadline of %1 ms "
                                              "would pass before the next one (last error: %2)",
                                              nullptr, attempts)
                                         : tr("Gave up after %n attempts: the deadline of %1 ms "
                                              "would pass before the next one (last error: %2)",
                                              nullptr, attempts))
                              .arg(deadlineMs)
                              .arg(lastReason);
    return outcome;
}

AttemptOutcome AttemptOutcome::canceled()
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::OperationCanceledError;
    outcome.errorString = tr("Operation canceled");
    return outcome;
}

AttemptOutcome AttemptOutcome::timedOutWaiting()
{
    AttemptOutcome outcome;
    outcome.error = QNetworkReply::TimeoutError;
    outcome.errorString = tr("No attempt could be sent before the transfer timeout");
    // What Qt says when its transfer timeout ends a request waiting for a connection.
    outcome.transferTimedOut = true;
    outcome.qtErrorString =
        QCoreApplication::translate("QNetworkReplyHttpImpl", "Operation canceled");
    return outcome;
}

} // namespace KeepTrying
