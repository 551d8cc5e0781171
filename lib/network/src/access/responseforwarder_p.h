// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RESPONSEFORWARDER_P_H
#define KEEPTRYING_RESPONSEFORWARDER_P_H

#include <QtCore/QByteArray>
#include <QtNetwork/QNetworkReply>

#include <memory>
#include <optional>
#include <utility>

namespace KeepTrying {

class RetryingReplyPrivate;

/*
    What the caller of a RetryingReply sees of its attempts' responses: the metadata of the
    one that counts, and one body stitched from the attempts that carried it, each byte once.

    An attempt's response is held aside (a retryable error, a redirect being followed: its
    body kept up to a bound), or forwarded: its headers become the reply's and the caller
    reads its body straight from it, without a copy. Bytes announced with readyRead() are
    handed over, read or not; when an attempt fails after that, what the caller has not read
    moves into a buffer of ours, and a later attempt may only continue the same body (a
    checked 206, RFC 9110 §14.4) or the reply fails.
*/
class ResponseForwarder
{
public:
    enum class Mode {
        Undecided, // no response headers yet
        Holding, // a retryable error status: keep it aside, decide when it has finished
        Forwarding, // the caller gets this attempt's headers and body as they arrive
        Redirecting, // a redirect we follow: drain it, then go where it points
    };

    explicit ResponseForwarder(RetryingReplyPrivate &d) : d(d) { }

    // A new attempt: its body starts where the handed-over bytes end.
    void beginAttempt();
    // Connects the signals of the new \a attempt that the reply acts on or forwards. The
    // ones few callers listen to are connected only once somebody does (noteConnected(),
    // from connectNotify(), then connectOptional()): each connection costs every request.
    // The TLS signals only where TLS can happen.
    void connectAttempt(QNetworkReply *attempt);
    void connectOptional(QNetworkReply *attempt);
    // Somebody connected to the reply's \a signal: true when it is one connectOptional()
    // forwards and was not yet wanted.
    bool noteConnected(const QMetaMethod &signal);
    qint64 uploaded() const { return m_uploaded; } // body bytes the attempt has sent
    // Upload progress of the current attempt, never backwards: a retry is silent until it
    // passes what the caller saw. Qt's closing (0, 0) is kept for finishing().
    void uploadProgress(qint64 sent, qint64 total);
    // The attempt that ends the request is finishing: true when Qt closed its upload with
    // (0, 0), which the caller then gets as from a plain reply.
    bool uploadClosed() const { return m_uploadClosed; }
    // \a response's headers become the reply's; remembers what resuming and checking its
    // body needs. Emits metaDataChanged(): false when a slot deleted the reply.
    bool forward(QNetworkReply *response);
    // The response's headers were shown already (a redirect Qt refused at the end of its
    // attempt): it is the answer, forwarded from here without announcing it again.
    void forwardShown()
    {
        mode = Mode::Forwarding;
        m_metaDataForwarded = true;
    }
    // Whether \a response (to a Range request) continues the body the caller has the start
    // of; if so, it is forwarded without new headers.
    bool continueBody(QNetworkReply *response);
    // New bytes of \a response, in whatever mode: false when a slot deleted the reply.
    bool readyRead(QNetworkReply *response);
    // Progress of the forwarded attempt, never backwards.
    void downloadProgress(qint64 received, qint64 total);
    // The attempt is going: keep what was handed over (and not yet read), or drop it all
    // when nobody was told of it.
    void attemptFailed();
    // The held \a response is the answer after all (or the reply ends with a forwarded one):
    // the caller reads the rest straight from it. False when a slot deleted the reply.
    bool deliver(QNetworkReply *response, bool answered);
    // No response ended the request: the headers of one discarded on the way are not its
    // answer. False when a slot deleted the reply.
    bool clearUnanswered();
    void copyMetaData(QNetworkReply *from);
    void forget(QNetworkReply *response); // it is being deleted
    // The held response is kept as the last answer while the next attempt runs; it may
    // become the answer again (a deadline, an open breaker).
    void keepAnswer() { m_keptBody = std::exchange(heldBody, QByteArray()); }
    void restoreAnswer()
    {
        heldBody = std::exchange(m_keptBody, QByteArray());
        mode = Mode::Holding;
    }

    // Keeps a copy of the body the caller reads, up to \a maxBytes, for wholeBody().
    void keepBody(qint64 maxBytes) { m_keptLimit = maxBytes; }
    // The whole body of the answer, read or not, when keepBody() kept it all.
    std::optional<QByteArray> wholeBody() const;
    // The answer is a stored copy (\a status, \a headers, \a body) rather than an attempt's
    // response. Emits metaDataChanged() and readyRead(): false when a slot deleted the reply.
    bool deliverCopy(int status, const QList<QNetworkReply::RawHeaderPair> &headers,
                     const QByteArray &body);

    bool isResumable() const;

    // The answer of a resume (a Range request after bytes were handed over) that did not
    // continue the body: the caller's stream never gets it, RetryingReply's lastResume*()
    // accessors do. Its body is kept up to maxResumeAnswerBodyBytes.
    struct ResumeAnswer
    {
        int status = 0;
        QByteArray reason;
        QList<QNetworkReply::RawHeaderPair> headers;
        QByteArray body;
    };
    static constexpr qint64 maxResumeAnswerBodyBytes = 64 * 1024;
    // \a response answers a resume without continuing the body: it is the last resume answer.
    void recordResumeAnswer(const QNetworkReply *response);
    // Null until a resume's answer was recorded (allocated then: most requests never resume).
    const ResumeAnswer *resumeAnswer() const { return m_resumeAnswer.get(); }
    // The status of the response whose body the caller has bytes of (0 when none).
    int streamStatus() const { return delivered > 0 ? m_streamStatus : 0; }
    // The whole body's length when a response said it, else -1.
    qint64 completeLength() const { return m_completeLength; }
    qint64 handedOver() const { return delivered; }
    qint64 bodyEndOf(QNetworkReply *response) const
    {
        return delivered + response->bytesAvailable();
    }
    QByteArray validator() const { return m_validator; }

    qint64 bytesAvailable() const;
    bool canReadLine() const;
    qint64 read(char *data, qint64 maxSize);

    Mode mode = Mode::Undecided;
    qint64 attemptOffset = 0; // body offset at which the current attempt's bytes start
    qint64 attemptEnd = -1; // body offset at which the current attempt's response ends
    QByteArray heldBody; // the (bounded) body of a held response

private:
    enum ConnectedSignal {
        DownloadProgress = 1,
        UploadProgress = 2,
        RequestSent = 4,
        SocketStartedConnecting = 8,
        Redirected = 16, // Qt's own following of a redirect (RequestHop)
    };
    void connectUploadProgress(QNetworkReply *attempt);
    void clearMetaData();
    void pull();
    // The attempt the caller reads from, while it can still be read (Qt closes an attempt
    // that timed out or was aborted).
    QNetworkReply *readable() const { return m_source && m_source->isOpen() ? m_source : nullptr; }

    RetryingReplyPrivate &d;
    QNetworkReply *m_source = nullptr;
    int m_connected = 0; // ConnectedSignal bits connected for the current attempt
    int m_wanted = 0; // ConnectedSignal bits somebody listens to on the reply
    bool m_metaDataSet = false; // the reply has headers or attributes of a response
    qint64 m_keptLimit = -1; // keepBody(): -1 off, -2 the body outgrew it
    QByteArray m_kept; // what the caller read, while keepBody() applies
    qint64 m_uploaded = 0;
    qint64 m_uploadReported = -1; // the highest upload progress the caller was told
    bool m_uploadClosed = false; // the current attempt ended its upload progress with (0, 0)
    std::unique_ptr<ResumeAnswer> m_resumeAnswer;
    bool m_answersResume = false; // the current attempt's response is m_resumeAnswer
    int m_streamStatus = 0; // the status of the last forwarded response
    QByteArray m_keptBody; // the last answer's held body, while the next attempt runs
    QByteArray m_buffer; // handed-over bytes of an earlier attempt, not yet read
    qint64 m_bufferPos = 0;
    qint64 delivered = 0; // body bytes handed to the caller, across attempts
    qint64 m_completeLength = -1; // the whole body's length, when a response said it
    qint64 m_progressReported = 0;
    bool m_announced = false; // readyRead told a listener of this attempt's bytes
    bool m_metaDataForwarded = false;
    bool m_acceptRanges = false;
    bool m_identityEncoding = true;
    QByteArray m_validator; // strong ETag or Last-Modified, for If-Range
    bool m_validatorIsETag = false;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RESPONSEFORWARDER_P_H
