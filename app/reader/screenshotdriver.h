#ifndef KEEPTRYING_READER_SCREENSHOTDRIVER_H
#define KEEPTRYING_READER_SCREENSHOTDRIVER_H

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QTimer>

class ImageStore;
class MainWindow;

/*
    Reports the reader's progress on stdout for scripts and tests ("loaded N articles",
    "banner shown", "banner hidden"), and with --screenshot saves the window as a PNG when
    the requested state is reached, then ends the application:

    - Loaded: the list is filled, its first article is in the reading pane, and the preview
      pictures asked for so far have arrived (or 2 s have passed). Exit 0 after saving.
    - Banner: the retry banner is fully open. The screenshot is saved then, and the run goes
      on until the list has loaded and the banner has closed again, so one run shows both.

    When the state is not reached within quitAfterMs, it prints why on stderr and exits 1.
*/
class ScreenshotDriver : public QObject
{
    Q_OBJECT

public:
    enum class Goal { None, Loaded, Banner };

    ScreenshotDriver(MainWindow *window, ImageStore *images, QObject *parent = nullptr);

    /*! \a file empty: only report progress. \a quitAfterMs <= 0: never give up. */
    void start(Goal goal, const QString &file, int quitAfterMs);

private:
    void libraryShown(int count);
    void imagesSettledOrTimedOut();
    void bannerShown();
    void bannerHidden();
    void checkDone();
    bool save();
    void timedOut();
    void finish(int exitCode);

    MainWindow *m_window;
    ImageStore *m_images;
    Goal m_goal = Goal::None;
    QString m_file;
    QTimer m_imageGrace;
    QTimer m_deadline;
    int m_count = -1;
    bool m_listShown = false;
    bool m_loaded = false;
    bool m_bannerSaved = false;
    bool m_finished = false;
};

#endif // KEEPTRYING_READER_SCREENSHOTDRIVER_H
