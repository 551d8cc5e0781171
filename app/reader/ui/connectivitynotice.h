// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CONNECTIVITYNOTICE_H
#define KEEPTRYING_READER_CONNECTIVITYNOTICE_H

#include <QtCore/QObject>
#include <QtCore/QTimer>

QT_BEGIN_NAMESPACE
class QLabel;
class QNetworkReply;
class QStatusBar;
class QWidget;
QT_END_NAMESPACE

namespace KeepTrying {
class RetryBanner;
class RetryingNetworkAccessManager;
class WaitReason;
} // namespace KeepTrying

class ArticleListModel;
class LocalStore;
class ReadingPane;
class RequestLog;
class SyncEngine;

/*
    What the main window says about the connection and the list: the banner and the short
    "Back online — updated" notice, the status bar's messages while requests wait or retry,
    the age of the saved copy, the changes waiting, and the list's placeholder while it
    waits or when it could not be loaded. It owns the two banners (the window lays them
    out) and writes to the window's labels and reading pane; it holds no layout of its own.
*/
class ConnectivityNotice : public QObject
{
    Q_OBJECT

public:
    // The window's parts the notice writes to.
    struct Views
    {
        QStatusBar *statusBar = nullptr;
        QLabel *countLabel = nullptr;
        QLabel *savedLabel = nullptr;
        QLabel *waitingLabel = nullptr;
        ReadingPane *pane = nullptr;
        ArticleListModel *model = nullptr;
    };

    /*! Creates the banners as children of \a window and binds the main one to \a manager. */
    ConnectivityNotice(SyncEngine *engine, KeepTrying::RetryingNetworkAccessManager *manager,
                       RequestLog *log, QWidget *window);
    ~ConnectivityNotice() override;

    KeepTrying::RetryBanner *banner() const { return m_banner; }
    KeepTrying::RetryBanner *noticeBanner() const { return m_notice; }

    /*! Starts writing to \a views and following the engine, the queue and the manager. */
    void watch(const Views &views);

    /*! The list is about to be shown from the saved copy: libraryShown() follows once the
        first article is in the reading pane. */
    void expectFirstArticle();
    /*! The reading pane now shows an article with its content. */
    void articleShown();
    void showFailure(const QString &message);
    void updateWaiting();
    void updateSavedCopyLabel();
    /*! Offline, simulated offline, or waiting for a server that cannot be reached. */
    bool isOffline() const;

    /*! What a request the user waits for is waiting for, in the reader's words. */
    enum class WaitCause {
        Slow, //!< Nothing known yet, or simply slow.
        NoNetwork, //!< This machine's network is down (or simulated offline).
        ServerTrouble, //!< The server answered with an error of its own (a 503 storm).
        ConnectionDropped, //!< The connection broke off or timed out.
        CannotConnect, //!< Nothing answered at the address.
        NameNotFound, //!< The server's name could not be found (DNS): a misspelled address?
        ProxyTrouble //!< The proxy the requests go through does not answer.
    };
    /*! The one place that maps why a request waits to a WaitCause: the typed reason the
        manager gives (its kind, and the fault of the last failed attempt); never text. */
    static WaitCause waitCauseOf(const KeepTrying::WaitReason &reason);
    /*! The words for a retry of a request the user waits for, for the status bar; \a server
        is the host name. */
    static QString retryText(WaitCause cause, const QString &server);

Q_SIGNALS:
    void libraryShown(int count);
    void libraryFailed(const QString &message);
    void backOnlineShown();
    /*! Whether an article missing its content can load now changed: show it again. */
    void missingContentChanged();
    /*! The person chose "Sign In…" offered in place of the list (File ▸ Sign In…). */
    void signInRequested();

private:
    void refreshed();
    void refreshFailed(const QString &message);
    void contentFailed(qint64 id, const QString &message);
    void reportShown();
    void updateOfflineText();
    static QString slowText();
    void waitReasonChanged(QNetworkReply *reply, const KeepTrying::WaitReason &reason);
    void showSituation();
    void updateUnreachableText();

    SyncEngine *m_engine;
    LocalStore *m_store;
    KeepTrying::RetryingNetworkAccessManager *m_manager;
    RequestLog *m_log;
    Views m_views;
    KeepTrying::RetryBanner *m_banner = nullptr;
    KeepTrying::RetryBanner *m_notice = nullptr; // "Back online — updated"
    QTimer m_noticeTimer;
    bool m_waitingForFirstArticle = false;
    bool m_refreshDone = false; // a refresh has ended since the start
    bool m_offlineShown = false; // offline, or waiting for a server that does not answer
    bool m_wasWaiting = false; // the banner said offline/unreachable since the last refresh
    bool m_proxyFailed = false; // what the status bar and pane say: the proxy is waited for
    bool m_waitedForNetwork = false; // ...and offline among them: "back online", else the server
    QString m_waitingFor;
    bool m_nameNotFound = false; // the server waited for is a name that could not be found
};

#endif // KEEPTRYING_READER_CONNECTIVITYNOTICE_H
