// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SCREENSHOTDRIVER_H
#define KEEPTRYING_READER_SCREENSHOTDRIVER_H

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QTimer>

class ImageStore;
class MainWindow;
class SyncEngine;

/*
    Reports the reader's progress on stdout for scripts and tests ("loaded N articles",
    "banner shown", "banner shown offline", "banner shown unreachable", "back online",
    "banner hidden", "failed: MESSAGE"), and with
    --screenshot saves the window as a PNG when the requested state is reached, then ends
    the application:

    - Loaded: the list is filled, its first article is in the reading pane, and the preview
      pictures asked for so far have arrived (or 2 s have passed). Exit 0 after saving.
    - Banner: the retry banner is fully open with its slow message. The screenshot is saved
      then, and the run goes on until the list has loaded and the banner has closed again,
      so one run shows both.
    - Offline: the banner is fully open with its offline message. Exit 0 after saving, or,
      with setBackOnlineAfter(), go on like Banner until the list has loaded and the banner
      has closed.

    - Unreachable: the banner is fully open saying which server does not answer. Exit 0
      after saving.
    - Failed: the list could not be loaded and the window says why. Exit 0 after saving.
    - Saved: the saved copy (the local store) is painted, before any answer of the server.
    - Waiting: once loaded, switches simulated offline on, stars two articles and archives
      one; saved when the list shows them waiting and the status bar counts them.
    - FailedChange: once loaded, stars the article shown; saved when the server has refused
      it (run with a --demo-fault that refuses PATCH) and the window says so.
    - SignIn: once loaded, opens File ▸ Sign In… and saves the dialog.
    - Developer: once loaded, opens Developer ▸ Faults and Request Log and saves it.

    "saved copy painted: N articles in MS ms" is printed when the list is first painted
    (MS from the start of main()).

    setBackOnlineAfter() switches simulated offline mode off that long after the offline
    banner has opened (so a screenshot of it is always taken first), as a user unticking
    Developer ▸ Simulate Offline would.

    When the state is not reached within quitAfterMs, it prints why on stderr and exits 1.
*/
class ScreenshotDriver : public QObject
{
    Q_OBJECT

public:
    enum class Goal {
        None,
        Loaded,
        Banner,
        Offline,
        Unreachable,
        Failed,
        Saved,
        Waiting,
        FailedChange,
        SignIn,
        Developer,
        BackOnline // the short "Back online — updated" notice (with --back-online-after)
    };

    ScreenshotDriver(MainWindow *window, ImageStore *images, SyncEngine *engine,
                     QObject *parent = nullptr);

    /*! \a file empty: only report progress. \a quitAfterMs <= 0: never give up. */
    void start(Goal goal, const QString &file, int quitAfterMs);
    /*! \a ms < 0: never (the default). */
    void setBackOnlineAfter(int ms);

private:
    void libraryShown(int count);
    void libraryFailed(const QString &message);
    void imagesSettledOrTimedOut();
    void bannerShown();
    void bannerHidden();
    void bannerLookChanged();
    void goBackOnline();
    void checkDone();
    bool save(QWidget *widget = nullptr);
    void actAfterLoaded();
    void checkWaiting();
    void timedOut();
    void finish(int exitCode);

    MainWindow *m_window;
    ImageStore *m_images;
    SyncEngine *m_engine;
    Goal m_goal = Goal::None;
    QString m_file;
    QTimer m_imageGrace;
    QTimer m_deadline;
    QTimer m_backOnline;
    int m_backOnlineMs = -1;
    QString m_bannerTextShown; // the message last reported as shown, while open
    int m_count = -1;
    bool m_listShown = false;
    bool m_refreshEnded = false; // a refresh ended before the list was first painted
    bool m_loaded = false;
    bool m_refusalSeen = false; // failed-change: the first refusal ends the run
    bool m_bannerSaved = false;
    bool m_wentBackOnline = false;
    bool m_finished = false;
};

#endif // KEEPTRYING_READER_SCREENSHOTDRIVER_H
