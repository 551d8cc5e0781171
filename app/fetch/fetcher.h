#ifndef KEEPTRYING_FETCH_FETCHER_H
#define KEEPTRYING_FETCH_FETCHER_H

#include "exitcodes.h"
#include "fetchoptions.h"

#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSaveFile>

#include <memory>

/*!
    Runs one keeptrying-fetch request: sends it through a RetryingNetworkAccessManager,
    streams the body to stdout or a QSaveFile as it arrives, reports retries on stderr and
    ends with the exit code the reply deserves.
*/
class Fetcher : public QObject
{
    Q_OBJECT

public:
    explicit Fetcher(const FetchOptions &options, QObject *parent = nullptr);
    ~Fetcher() override;

    /*! Opens the output and sends the request. Returns false (and sets exitCode()) when
        nothing could be started; otherwise finished() follows. */
    bool start();
    ExitCodes::Code exitCode() const { return m_exitCode; }

Q_SIGNALS:
    /*! The request has ended; \a exitCode is the process's exit code. */
    void finished(int exitCode);

private:
    void onAttemptStarted(QNetworkReply *reply, int attempt);
    void onRetryScheduled(QNetworkReply *reply, int attempt, qint64 delayMs, const QString &reason);
    void onGaveUp(QNetworkReply *reply, const QString &reason);
    void onMetaDataChanged();
    void onReadyRead();
    void onFinished();

    QNetworkReply *send(const QNetworkRequest &request);
    bool openOutput();
    bool consumeBody();
    void printResponseHead();
    QString failureMessage(ExitCodes::Code code) const;
    void end(ExitCodes::Code code, const QString &message = QString());

    FetchOptions m_options;
    KeepTrying::RetryingNetworkAccessManager m_manager;
    QPointer<QNetworkReply> m_reply;
    QFile m_stdout;
    std::unique_ptr<QSaveFile> m_saveFile;
    QIODevice *m_output = nullptr;
    QElapsedTimer m_elapsed;
    QString m_writeError;
    QString m_gaveUpReason;
    QString m_lastRetryReason;
    qint64 m_bytesWritten = 0;
    int m_attempts = 0;
    bool m_headPrinted = false;
    bool m_ended = false;
    ExitCodes::Code m_exitCode = ExitCodes::Success;
};

#endif // KEEPTRYING_FETCH_FETCHER_H
