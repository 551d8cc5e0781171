// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FETCH_FETCHER_H
#define KEEPTRYING_FETCH_FETCHER_H

#include "exitcodes.h"
#include "fetchoptions.h"
#include "fetchproxy.h"
#include "proxycheck.h"

#include <KeepTrying/giveupreason.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QSaveFile>

#include <functional>
#include <memory>
#include <optional>

/*!
    Runs one keeptrying-fetch request: sends it through a RetryingNetworkAccessManager,
    streams the body to stdout or a QSaveFile as it arrives, reports retries and waits on
    stderr and ends with the exit code the reply deserves.

    What it reports never holds a credential: URLs and header values go through
    KeepTrying/redaction.h.
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

    /*! The manager the request goes through, to share or tune its monitors (circuit
        breaker, reachability) before start(). */
    KeepTrying::RetryingNetworkAccessManager *manager() { return &m_manager; }
    /*! Where the lines for stderr go, one line at a time without its newline; by default
        stderr itself. */
    void setLineHandler(std::function<void(const QString &line)> handler);

Q_SIGNALS:
    /*! The request has ended; \a exitCode is the process's exit code. */
    void finished(int exitCode);

private:
    void onAttemptStarted(QNetworkReply *reply, int attempt);
    void onRetryScheduled(QNetworkReply *reply, int attempt, qint64 delayMs, const QString &reason);
    void onGaveUp(QNetworkReply *reply, const QString &reason);
    void onWaitReasonChanged(QNetworkReply *reply, const KeepTrying::WaitReason &reason);
    void checkProxy(const QUrl &url);
    void onProxyChecked(bool accepted, ExitCodes::Code code, const QString &reason);
    void onRedirected(const QUrl &url);
    void onMetaDataChanged();
    void onReadyRead();
    void onFinished();

    QNetworkReply *send(const QNetworkRequest &request);
    bool openOutput();
    bool consumeBody();
    void printResponseHead();
    QString failureMessage(ExitCodes::Code code) const;
    void end(ExitCodes::Code code, const QString &message = QString());
    void say(const QString &line) const;
    QString withoutCredentials(QString text) const;

    FetchOptions m_options;
    KeepTrying::RetryingNetworkAccessManager m_manager;
    FetchProxyFactory *m_proxies = nullptr; //!< owned by m_manager
    ProxyCheck m_proxyCheck; //!< after a connectivity fault: is it the proxy that failed?
    QPointer<QNetworkReply> m_reply;
    QFile m_stdout;
    std::unique_ptr<QSaveFile> m_saveFile;
    QIODevice *m_output = nullptr;
    QElapsedTimer m_elapsed;
    QUrl m_checkedUrl; //!< the URL whose proxy m_proxyCheck asks
    bool m_proxyChecked = false; //!< a check has answered (the proxy was there, or not)
    //! The run's end, held while the proxy is checked after the last attempt.
    std::optional<QPair<ExitCodes::Code, QString>> m_pendingEnd;
    QString m_writeError;
    KeepTrying::GiveUpReason m_giveUp;
    QString m_lastRetryReason;
    std::function<void(const QString &)> m_lineHandler;
    /*! Said with the next attempt's number (%1) when a wait has ended, e.g. "127.0.0.1:8080
        answers again, attempt %1". */
    QString m_resumeLine;
    KeepTrying::WaitReason::Kind m_lastWait = KeepTrying::WaitReason::None;
    QString m_lastWaitServer; //!< host:port of the last wait
    qint64 m_bytesWritten = 0;
    int m_attempts = 0;
    bool m_headPrinted = false;
    bool m_ended = false;
    ExitCodes::Code m_exitCode = ExitCodes::Success;
};

#endif // KEEPTRYING_FETCH_FETCHER_H
