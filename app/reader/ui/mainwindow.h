// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_MAINWINDOW_H
#define KEEPTRYING_READER_MAINWINDOW_H

#include "library/localstore.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>
#include <QtWidgets/QMainWindow>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QLineEdit;
class QListView;
class QMenu;
class QSplitter;
QT_END_NAMESPACE

namespace KeepTrying {
class RetryBanner;
class RetryingNetworkAccessManager;
} // namespace KeepTrying

class ArticleListModel;
class ConnectivityNotice;
class DeveloperWindow;
class FilterPane;
class ImageStore;
class ReadingPane;
class RequestLog;
class SyncEngine;
class UndoNotice;

/*
    The reader's window: the banner on top; three panes below it (filters with counts, the
    list, the article); a status bar with the age of the saved copy, the changes waiting
    and the server. Everything it shows comes from the local store through models; the
    user's actions go to the SyncEngine, which applies them to the store at once. No widget
    here talks to the network, and nothing asks the user to try again: the manager keeps
    trying on its own, and the banner says so when it takes a while.
*/
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // What the Developer menu may do to the built-in server (empty functions: none).
    struct DeveloperHooks
    {
        std::function<bool(const QString &spec, QString *error)> validateFault;
        std::function<bool(const QString &spec, QString *error)> addFault;
        std::function<void()> clearFaults;
        std::function<QStringList()> faults;
        std::function<void(int ms)> goDown;
        std::function<bool()> isDown;
        /*! True while the account read is the built-in server's (empty: always). */
        std::function<bool()> isCurrent;
    };

    MainWindow(SyncEngine *engine, ImageStore *images,
               KeepTrying::RetryingNetworkAccessManager *manager, RequestLog *log,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    KeepTrying::RetryBanner *banner() const { return m_banner; }
    KeepTrying::RetryBanner *noticeBanner() const { return m_notice; }
    ArticleListModel *model() const { return m_model; }
    ReadingPane *readingPane() const { return m_pane; }
    QListView *listView() const { return m_list; }
    FilterPane *filterPane() const { return m_filters; }
    QLineEdit *searchField() const { return m_search; }
    QLabel *waitingLabel() const { return m_waitingLabel; }
    QLabel *savedCopyLabel() const { return m_savedLabel; }
    DeveloperWindow *developerWindow() const { return m_developerWindow; }
    QMenu *developerMenu() const { return m_developerMenu; }
    int articleCount() const;
    qint64 currentArticleId() const;

    /*! Describes the server in the status bar ("Built-in demo server", a host name). */
    void setServerDescription(const QString &description);
    /*! Shows the Developer menu (--developer, or Settings). */
    void setDeveloperMode(bool on);
    bool isDeveloperMode() const;
    void setDeveloperHooks(const DeveloperHooks &hooks);
    /*! The account read changed: the Developer window's faults follow. */
    void updateDeveloperTarget();
    /*! Opens Developer ▸ Faults and Request Log. */
    void showDeveloperWindow();

    /*! File ▸ Sign Out… (signOutRequested()). */
    QAction *signOutAction() const { return m_signOutAction; }
    /*! Offers what needs an account (Save a Link) only while \a signedIn, and Sign Out
        only when \a canSignOut (an account of one's own). */
    void setAccountActions(bool signedIn, bool canSignOut);
    /*! Says in the empty window that the person signed out and how to sign in again. */
    void showSignedOut();

    /*! Shows what the store has at once (the saved copy), then waits for the refresh. */
    void showLibrary();
    /*! Says in words that signing in or loading failed for a reason trying again cannot
        fix (the sync engine or the sign-in). */
    void showFailure(const QString &message);
    /*! Switches simulated offline mode as Developer ▸ Simulate Offline does. */
    void setSimulatedOffline(bool offline);
    /*! Chooses a filter as the pane or g u / g s / g a / g r do. */
    void chooseView(LocalStore::View view, const QString &tag = QString());

    /*! How links and originals are opened (QDesktopServices::openUrl by default); false
        when no browser could be started. Tests give one that opens nothing. */
    void setUrlOpener(std::function<bool(const QUrl &)> opener) { m_openUrl = std::move(opener); }
    /*! How long "Article deleted — Undo" shows (default 6 s); the delete waits as long
        before it is sent (OutboxChangeQueue::setDeleteGraceMs()), so Undo within it works. */
    void setUndoNoticeMs(int ms) { m_undoNoticeMs = ms; }
    int undoNoticeMs() const { return m_undoNoticeMs; }
    UndoNotice *undoNotice() const { return m_undoNotice; }

    /*! Starts the clock that listPainted() measures from (the process start, ideally). */
    void setLaunchTimer(const QElapsedTimer &timer) { m_launch = timer; }

Q_SIGNALS:
    /*! The server's list is in the store and the first article is in the reading pane with
        its content (\a count articles in the list; may be 0). Once per refresh. */
    void libraryShown(int count);
    /*! Loading failed for a reason trying again cannot fix; \a message says why in words. */
    void libraryFailed(const QString &message);
    /*! The list was first painted with \a rows saved articles, \a ms after the launch timer. */
    void listPainted(int rows, qint64 ms);
    /*! File ▸ Sign In… was chosen. */
    void signInRequested();
    /*! File ▸ Sign Out…: the person wants to sign out of the account read now. */
    void signOutRequested();
    /*! The window shows the short "Back online — updated" notice. */
    void backOnlineShown();

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildMenus();
    void buildDeveloperMenu();
    void currentArticleChanged(const QModelIndex &current);
    void currentRowLeft();
    void showCurrent();
    void modelReloaded();
    void articleChanged(qint64 id);
    void step(int delta);
    void toggleStar();
    void toggleArchive();
    void deleteCurrent();
    void undoDelete();
    void editTags();
    void addUrl();
    void openOriginal();
    void openLink(const QUrl &url);
    void showShortcuts();
    void showPreferences();
    void showFailedChanges();
    void setFontSize(qreal points);
    void setDark(bool dark);
    void saveScroll();
    QString missingContentText() const;
    bool isOffline() const;

    SyncEngine *m_engine;
    LocalStore *m_store;
    ImageStore *m_images;
    KeepTrying::RetryingNetworkAccessManager *m_manager;
    RequestLog *m_log;
    ArticleListModel *m_model = nullptr;
    KeepTrying::RetryBanner *m_banner = nullptr;
    KeepTrying::RetryBanner *m_notice = nullptr; // "Back online — updated"
    ConnectivityNotice *m_connectivity = nullptr;
    FilterPane *m_filters = nullptr;
    QLineEdit *m_search = nullptr;
    QListView *m_list = nullptr;
    ReadingPane *m_pane = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_countLabel = nullptr;
    QLabel *m_titleLabel = nullptr;
    QLabel *m_savedLabel = nullptr;
    QLabel *m_waitingLabel = nullptr;
    QLabel *m_serverLabel = nullptr;
    QMenu *m_developerMenu = nullptr;
    QAction *m_developerMenuAction = nullptr;
    QAction *m_simulateOffline = nullptr;
    QAction *m_starAction = nullptr;
    QAction *m_archiveAction = nullptr;
    QAction *m_darkAction = nullptr;
    DeveloperWindow *m_developerWindow = nullptr;
    DeveloperHooks m_hooks;
    std::function<bool(const QUrl &)> m_openUrl;
    UndoNotice *m_undoNotice = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_signOutAction = nullptr;
    int m_undoNoticeMs = 6000;
    struct Deleted
    {
        qint64 id = 0;
        QString title;
    } m_lastDeleted; // what Undo Delete takes back
    QTimer m_noticeTimer;
    QTimer m_searchDelay;
    QElapsedTimer m_launch;
    qint64 m_shownId = 0;
    int m_shownRow = 0; // where the next article comes when the shown one leaves the list
    int m_leavingRow = -1; // the current row, while the model removes it
    bool m_waitingForFirstArticle = false;
    bool m_painted = false;
};

#endif // KEEPTRYING_READER_MAINWINDOW_H
