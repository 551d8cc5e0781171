// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_ATTEMPTOUTCOME_P_H
#define KEEPTRYING_ATTEMPTOUTCOME_P_H

#include <QtCore/QString>
#include <QtNetwork/QNetworkReply>

namespace KeepTrying {

/*
    How one attempt ended, in the terms the retry decision needs: Qt's error, corrected
    where Qt 6.4 misleads (a transfer timeout reported as a cancel, a body cut short or a
    bad framing reported as a success, an HTTP/2 stream refused unprocessed reported as a
    protocol error, a re-send we forbade).
*/
struct AttemptOutcome
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    int httpStatus = 0; // 0: no response
    bool neverProcessed = false; // HTTP/2 refused the stream unprocessed: safe to resend
    // Qt's transfer timeout cancelled it (Qt says OperationCanceledError; error says
    // TimeoutError). Qt's own error and text are kept for an end that reports them.
    bool transferTimedOut = false;
    QString qtErrorString;

    // What only the reply knows about the attempt.
    struct Facts
    {
        bool aborted = false; // we cancelled it (else a cancel is Qt's transfer timeout)
        bool oneShotBody = false; // its body could not be sent twice
        QByteArray method;
        bool forwarded = false; // its response was being forwarded to the caller
        qint64 bodyEnd = -1; // body offset its bytes reached
        qint64 expectedEnd = -1; // where its Content-Length / Content-Range said they end
        // Qt followed a redirect within it: Qt 6.4 may leave the redirect's Content-Length
        // before the final response's own in the joined header ("5, 10").
        bool redirectedByQt = false;
    };
    static AttemptOutcome of(const QNetworkReply *attempt, const Facts &facts);
    // The answer \a attempt gave: its error, text and status.
    static AttemptOutcome answerOf(const QNetworkReply *attempt);

    // The outcomes the reply produces itself (each is listed in retryingreply.h).
    static AttemptOutcome breakerOpen(const QString &origin, qint64 msUntilProbe);
    static AttemptOutcome resumeRefused(qint64 handedOver, const QNetworkReply *response);
    // \a handedOver bytes of a body of \a total (-1: unknown) reached the caller, and the
    // last resume was answered \a status \a reason: the body cannot be completed.
    static AttemptOutcome resumeAnswered(qint64 handedOver, qint64 total, int status,
                                         const QByteArray &reason);
    static AttemptOutcome simulatedOffline();
    static AttemptOutcome deadlinePassed(qint64 deadlineMs, int attempts);
    static AttemptOutcome deadlineWhileAnswering(qint64 deadlineMs, int httpStatus);
    static AttemptOutcome deadlineBeforeNextAttempt(qint64 deadlineMs, int attempts,
                                                    const QString &lastReason);
    static AttemptOutcome canceled();
    // The transfer timeout ran out while the request waited behind other attempts to its
    // origin (Qt's own runs while a request waits for a connection, and ends it canceled).
    static AttemptOutcome timedOutWaiting();

    // Whether \a error and \a text are Qt's for a stream that an HTTP/2 GOAWAY left
    // unprocessed, or that could not start because its connection had received one: that
    // connection takes no new streams.
    static bool isGoAway(QNetworkReply::NetworkError error, const QString &text);

    // The error Qt gives a finished reply with \a status, for an answer cut short by the
    // deadline before Qt could say.
    static QNetworkReply::NetworkError errorForStatus(int status);
    // A short reason for logs and retryScheduled(): "HTTP 503", "connection refused", …
    static QString describe(QNetworkReply::NetworkError error, int status, bool simulatedOffline);
};

} // namespace KeepTrying

#endif // KEEPTRYING_ATTEMPTOUTCOME_P_H
