#ifndef KEEPTRYING_RETRYINGREPLY_P_H
#define KEEPTRYING_RETRYINGREPLY_P_H

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QBasicTimer>
#include <QtCore/QElapsedTimer>
#include <QtCore/QPointer>

#if QT_CONFIG(ssl)
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslError>
#endif

namespace KeepTrying {

class ConcurrencyLimiter;

class RetryingReplyPrivate
{
public:
    // What the outer reply does with the current attempt's response.
    enum class Mode {
        Undecided, // no response headers yet
        Holding, // a retryable error status: keep it aside, decide when it has finished
        Forwarding, // the caller gets this attempt's headers and body as they arrive
        Redirecting, // a redirect we follow: drain it, then go where it points
    };

    explicit RetryingReplyPrivate(RetryingReply *q) : q_ptr(q) { }

    void startAttempt();
    enum class ParkReason { Connectivity, Breaker, Limit };
    bool park(ParkReason reason); // false when a slot deleted the reply
    bool unpark();
    void checkParked();
    bool mayGo() const;
    void slotGranted(); // the concurrency limiter reserved an attempt slot for this request
    void releaseSlot(int outcome);
    ConcurrencyLimiter *limiter() const;
    void onMetaDataChanged();
    void onReadyRead();
    void onFinished();
    void onDeadline();
    void onSimulatedOfflineAttempt();

    struct Outcome
    {
        QNetworkReply::NetworkError error = QNetworkReply::NoError;
        QString errorString;
        int httpStatus = 0;
        bool neverProcessed = false; // HTTP/2 refused the stream unprocessed: safe to resend
    };
    void attemptEnded(const Outcome &outcome);
    void teachMonitors(const Outcome &outcome, FaultClass fault);
    void followRedirect();
    void goToRedirect();
    void clearMetaData();
    bool startForwarding(); // false when the response cannot continue the body
    static bool isNeverProcessed(QNetworkReply::NetworkError error, const QString &text);
    bool mayRetry(FaultClass fault, QNetworkReply::NetworkError error,
                  bool neverProcessed = false) const;
    void scheduleRetry(const RetryContext &context);
    void finish(const Outcome &outcome, bool gaveUp, const QString &reason);
    void finishWithLastAnswer(Outcome outcome, const QString &reason);

    void connectAttempt(QNetworkReply *attempt);
    void connectOptional(QNetworkReply *attempt);
    int connectUploadProgress(QNetworkReply *attempt);
    enum ForwardedSignal {
        DownloadProgress = 1,
        UploadProgress = 2,
        RequestSent = 4,
        SocketStartedConnecting = 8
    };
    int forwarded = 0; // ForwardedSignal bits connected for the current attempt
    void releaseAttempt(QNetworkReply *&attempt);
    void copyMetaData(QNetworkReply *from);
    bool forwardMetaData(QNetworkReply *from);
    void pull();
    // The attempt the caller reads from, while it can still be read (Qt closes an attempt
    // that timed out or was aborted).
    QNetworkReply *readable() const { return source && source->isOpen() ? source : nullptr; }
    bool isResumable() const;
    QString describe(QNetworkReply::NetworkError error, int status) const;
    bool setWaiting(bool waiting); // false when a slot deleted the reply

    RetryingReply *q_ptr;
    QPointer<RetryingNetworkAccessManager> manager;
    QNetworkAccessManager::Operation operation = QNetworkAccessManager::GetOperation;
    QNetworkRequest request;
    QByteArray method;
    RetryPolicy policy;

    // The request body: kept in memory when small enough, else re-read from the caller's
    // device by seeking (when it can), else sent once.
    QByteArray body;
    bool bodyBuffered = false;
    QPointer<QIODevice> bodyDevice;
    qint64 bodyDeviceStart = 0;
    qint64 bytesSentThisAttempt = 0;
    QByteArray idempotencyKey;
    bool oneShotBody = false; // this attempt's body cannot be sent twice (see OneShotBody)

    // Redirects are followed here, not by Qt, so that a retry goes to the hop that failed
    // and credentials stay with their origin.
    QNetworkRequest::RedirectPolicy redirectPolicy = QNetworkRequest::NoLessSafeRedirectPolicy;
    int maxRedirects = 50;
    int redirectsFollowed = 0;
    bool keepCredentials = false;
    bool awaitingRedirectApproval = false; // UserVerifiedRedirectPolicy: redirectAllowed()
    QUrl redirectTarget;
    int redirectStatus = 0;

    int attempt = 0;
    int serverFaultAttempts = 0;
    int connectivityFaultAttempts = 0;
    qint64 previousDelayMs = 0;
    QElapsedTimer elapsed;
    QBasicTimer retryTimer;
    QBasicTimer deadlineTimer;
    QBasicTimer offlineTimer;
    QBasicTimer staggerTimer;
    QPointer<Reachability> reachability;
    QPointer<CircuitBreaker> breaker;
    QPointer<RetryBudget> budget;
    bool parked = false;
    ParkReason parkReason = ParkReason::Connectivity;
    QMetaObject::Connection parkConnections[7];
    bool holdsProbe = false; // this attempt is the breaker's half-open probe
    bool holdsSlot = false; // an attempt slot of the concurrency limiter
    QElapsedTimer attemptClock; // since the current attempt started
    QString originKey;
    bool pendingServerRetry = false; // the next attempt retries a server fault
    bool deadlineReached = false;
    bool done = false;
    bool waiting = false;

    QNetworkReply *current = nullptr; // the running attempt, child of q
    QNetworkReply *held = nullptr; // a failed attempt kept while waiting to retry
    QNetworkReply *lastAttempt = nullptr; // kept after finish: its data, sslConfiguration()
    QNetworkReply *source = nullptr; // the attempt whose body the caller reads directly
    Mode mode = Mode::Undecided;
    bool abortingCurrent = false;

    // Body bytes handed to the caller (read, or saved in buffer from a failed attempt),
    // across attempts; never handed twice.
    QByteArray buffer;
    QByteArray heldBody; // the body of a held response, read as it arrives
    qint64 bufferPos = 0;
    qint64 delivered = 0;
    qint64 attemptOffset = 0; // body offset at which the current attempt's bytes start
    qint64 attemptEnd = -1; // body offset at which the current attempt's response ends
    qint64 completeLength = -1; // the whole body's length, when a response said it
    qint64 progressReported = 0; // downloadProgress never goes back
    bool announced = false; // readyRead told a listener of this attempt's bytes
    qint64 readBufferSize = 0;
    bool metaDataForwarded = false;
    bool acceptRanges = false;
    bool identityEncoding = true;
    QByteArray validator; // strong ETag or Last-Modified, for If-Range
    bool validatorIsETag = false;

#if QT_CONFIG(ssl)
    bool ignoreAllSslErrors = false;
    QList<QSslError> ignoredSslErrors;
#endif

    Q_DECLARE_PUBLIC(RetryingReply)
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYINGREPLY_P_H
