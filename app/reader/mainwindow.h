// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_MAINWINDOW_H
#define KEEPTRYING_READER_MAINWINDOW_H

#include "article.h"

#include <QtWidgets/QMainWindow>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QListView;
class QNetworkReply;
QT_END_NAMESPACE

namespace KeepTrying {
class RetryBanner;
class RetryingNetworkAccessManager;
} // namespace KeepTrying

class ArticleModel;
class ImageStore;
class ReadingPane;
class WallabagClient;

/*
    The reader's window: the retry banner on top, the saved articles on the left, the
    article on the right, and a status bar. It has no retry button and shows no error for a
    slow or absent network: the manager keeps trying on its own (and waits while offline),
    and the banner says so when it takes a while.
*/
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    using FaultInjector = std::function<bool(const QString &spec, QString *errorMessage)>;

    MainWindow(KeepTrying::RetryingNetworkAccessManager *manager, WallabagClient *client,
               ImageStore *images, QWidget *parent = nullptr);
    ~MainWindow() override;

    KeepTrying::RetryBanner *banner() const { return m_banner; }
    int articleCount() const;
    /*! Describes the server in the status bar ("Built-in demo server", a host name). */
    void setServerDescription(const QString &description);
    /*! Enables Developer ▸ Inject Fault… with these calls (the built-in server only). */
    void setFaultInjector(FaultInjector addFault, std::function<void()> clearFaults);

    /*! Asks the server for the saved articles. */
    void loadLibrary();

    /*! Switches simulated offline mode as Developer ▸ Simulate Offline does. */
    void setSimulatedOffline(bool offline);

Q_SIGNALS:
    /*! The article list has been filled and its first article is in the reading pane
        (\a count may be 0). Emitted once per loadLibrary(). */
    void libraryShown(int count);
    /*! The list could not be loaded, for a reason trying again cannot fix; \a message says
        why in words, and is shown in the window. */
    void libraryFailed(const QString &message);

private:
    void buildMenus();
    void entriesLoaded(const QList<Article> &articles);
    void currentArticleChanged(const QModelIndex &current);
    void entryLoaded(const Article &article);
    void loadFailed(const QString &message);
    void entryFailed(int id, const QString &message);
    void followRetryReason(QNetworkReply *reply, const QString &reason);
    void injectFault();
    void updateCountLabel();
    void reportShown();
    void showSituation();

    KeepTrying::RetryingNetworkAccessManager *m_manager;
    WallabagClient *m_client;
    ImageStore *m_images;
    ArticleModel *m_model = nullptr;
    KeepTrying::RetryBanner *m_banner = nullptr;
    QListView *m_list = nullptr;
    ReadingPane *m_pane = nullptr;
    QLabel *m_countLabel = nullptr;
    QLabel *m_serverLabel = nullptr;
    QAction *m_simulateOffline = nullptr;
    QAction *m_injectFault = nullptr;
    QAction *m_clearFaults = nullptr;
    FaultInjector m_addFault;
    std::function<void()> m_clearFaultsCall;
    bool m_waitingForFirstArticle = false;
    bool m_offlineShown = false; // offline, or waiting for a server that does not answer
    QString m_waitingFor; // the server waited for, empty while offline
};

#endif // KEEPTRYING_READER_MAINWINDOW_H
