// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "screenshotdriver.h"

#include "scriptoutput.h"

#include "library/changequeue.h"
#include "library/imagestore.h"
#include "library/syncengine.h"
#include "ui/articlelistmodel.h"
#include "ui/developerwindow.h"
#include "ui/filterpane.h"
#include "ui/mainwindow.h"

#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QSaveFile>
#include <QtGui/QImageWriter>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialog>

#include <cstdio>

namespace {

constexpr int ImageGraceMs = 2000;

// Progress for scripts on stdout, timestamped; complaints on stderr as they are.
void printLine(FILE *stream, const QString &line)
{
    if (stream == stdout) {
        ScriptOutput::print(line);
        return;
    }
    std::fputs(qPrintable(line + QLatin1Char('\n')), stream);
    std::fflush(stream);
}

} // namespace

ScreenshotDriver::ScreenshotDriver(MainWindow *window, ImageStore *images, SyncEngine *engine,
                                   QObject *parent)
    : QObject(parent), m_window(window), m_images(images), m_engine(engine)
{
    // Painted before any refresh ended: the rows are the copy saved on this computer.
    // After one (a first start), they came from the server, and the line says so.
    connect(engine, &SyncEngine::refreshed, this, [this] { m_refreshEnded = true; });
    connect(window, &MainWindow::listPainted, this, [this](int rows, qint64 ms) {
        printLine(stdout,
                  (m_refreshEnded ? QStringLiteral("list painted: %1 articles in %2 ms")
                                  : QStringLiteral("saved copy painted: %1 articles in "
                                                   "%2 ms"))
                      .arg(rows)
                      .arg(ms));
        if (m_goal == Goal::Saved && !m_finished)
            finish(save() ? 0 : 1);
    });
    connect(window, &MainWindow::backOnlineShown, this,
            [] { printLine(stdout, QStringLiteral("back online notice shown")); });
    connect(window->noticeBanner(), &KeepTrying::RetryBanner::showAnimationFinished, this, [this] {
        if (m_goal == Goal::BackOnline && !m_finished)
            finish(save() ? 0 : 1);
    });
    connect(engine->queue(), &ChangeQueue::waitingCountChanged, this,
            [](int count) { printLine(stdout, QStringLiteral("changes waiting: %1").arg(count)); });
    connect(engine->store(), &LocalStore::articleChanged, this, [this](qint64) {
        // Once: every later change of the article (its row, the dialog's count) says the same.
        if (m_goal == Goal::FailedChange && !m_finished && !m_refusalSeen &&
            !m_engine->store()->failedArticles().isEmpty()) {
            m_refusalSeen = true;
            printLine(stdout,
                      QStringLiteral("change refused: %1")
                          .arg(m_engine->store()->failedArticles().constFirst().syncError));
            QTimer::singleShot(300, this, [this] { finish(save() ? 0 : 1); });
        }
    });
    m_imageGrace.setSingleShot(true);
    m_imageGrace.setInterval(ImageGraceMs);
    connect(&m_imageGrace, &QTimer::timeout, this, &ScreenshotDriver::imagesSettledOrTimedOut);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &ScreenshotDriver::timedOut);
    m_backOnline.setSingleShot(true);
    connect(&m_backOnline, &QTimer::timeout, this, &ScreenshotDriver::goBackOnline);

    connect(window, &MainWindow::libraryShown, this, &ScreenshotDriver::libraryShown);
    connect(window, &MainWindow::libraryFailed, this, &ScreenshotDriver::libraryFailed);
    connect(images, &ImageStore::pendingCountChanged, this, [this](int pending) {
        if (pending == 0 && m_listShown)
            imagesSettledOrTimedOut();
    });
    connect(window->banner(), &KeepTrying::RetryBanner::showAnimationFinished, this,
            &ScreenshotDriver::bannerShown);
    connect(window->banner(), &KeepTrying::RetryBanner::hideAnimationFinished, this,
            &ScreenshotDriver::bannerHidden);
    connect(window->banner(), &KeepTrying::RetryBanner::currentTextChanged, this,
            &ScreenshotDriver::bannerLookChanged);
}

void ScreenshotDriver::start(Goal goal, const QString &file, int quitAfterMs)
{
    m_goal = file.isEmpty() ? Goal::None : goal;
    m_file = file;
    if (m_goal != Goal::None && quitAfterMs > 0)
        m_deadline.start(quitAfterMs);
}

void ScreenshotDriver::setBackOnlineAfter(int ms)
{
    m_backOnlineMs = ms;
}

void ScreenshotDriver::libraryShown(int count)
{
    m_count = count;
    m_listShown = true;
    if (m_images->pendingCount() == 0)
        imagesSettledOrTimedOut();
    else
        m_imageGrace.start();
}

void ScreenshotDriver::libraryFailed(const QString &message)
{
    printLine(stdout, QStringLiteral("failed: %1").arg(message));
    if (m_goal == Goal::Failed && !m_finished)
        finish(save() ? 0 : 1);
}

void ScreenshotDriver::imagesSettledOrTimedOut()
{
    m_imageGrace.stop();
    if (m_loaded || !m_listShown)
        return;
    m_loaded = true;
    // What the list shows now: it may have settled since libraryShown() counted it.
    m_count = m_window->articleCount();
    printLine(stdout, QStringLiteral("loaded %1 articles").arg(m_count));
    actAfterLoaded();
    checkDone();
}

void ScreenshotDriver::actAfterLoaded()
{
    switch (m_goal) {
    case Goal::Waiting: {
        m_window->setSimulatedOffline(true);
        QList<Article> rows;
        for (int row = 0; row < qMin(3, m_window->articleCount()); ++row)
            rows << m_window->model()->article(row);
        if (rows.size() < 3) {
            finish(1);
            return;
        }
        m_engine->setStarred(rows.at(0).id, !rows.at(0).starred);
        m_engine->setStarred(rows.at(1).id, !rows.at(1).starred);
        m_engine->setArchived(rows.at(2).id, true);
        QTimer::singleShot(600, this, [this] { finish(save() ? 0 : 1); });
        return;
    }
    case Goal::FailedChange: {
        const qint64 id = m_window->currentArticleId();
        m_engine->setStarred(id, !m_engine->store()->article(id).starred);
        return;
    }
    case Goal::SignIn:
        QTimer::singleShot(400, this, [this] {
            const QWidgetList widgets = QApplication::topLevelWidgets();
            for (QWidget *widget : widgets) {
                if (widget->objectName() == QLatin1String("signInDialog") && widget->isVisible()) {
                    finish(save(widget) ? 0 : 1);
                    return;
                }
            }
            finish(1);
        });
        Q_EMIT m_window->signInRequested(); // modal: the timer above runs inside it
        return;
    case Goal::Developer:
        m_window->showDeveloperWindow();
        QTimer::singleShot(700, this,
                           [this] { finish(save(m_window->developerWindow()) ? 0 : 1); });
        return;
    default:
        return;
    }
}

void ScreenshotDriver::bannerShown()
{
    KeepTrying::RetryBanner *banner = m_window->banner();
    const bool offline = banner->isOffline();
    const bool unreachable = !offline && banner->controller() &&
        banner->controller()->situation() == KeepTrying::RetryBannerController::Unreachable;
    const QString text = banner->currentText();
    if (text == m_bannerTextShown)
        return; // the same message again: nothing new to report
    m_bannerTextShown = text;
    printLine(stdout,
              offline           ? QStringLiteral("banner shown offline")
                  : unreachable ? QStringLiteral("banner shown unreachable")
                                : QStringLiteral("banner shown"));
    const Goal shownGoal = offline ? Goal::Offline : unreachable ? Goal::Unreachable : Goal::Banner;
    if (m_goal == shownGoal && !m_bannerSaved && !m_finished) {
        if (!save()) {
            finish(1);
            return;
        }
        m_bannerSaved = true;
    }
    if (offline && !m_wentBackOnline && m_backOnlineMs >= 0 && !m_backOnline.isActive())
        m_backOnline.start(m_backOnlineMs);
    checkDone();
}

void ScreenshotDriver::bannerLookChanged()
{
    // A banner that switches message while fully open counts as shown again.
    KeepTrying::RetryBanner *banner = m_window->banner();
    if (banner->isVisible() && !banner->isShowAnimationRunning() &&
        !banner->isHideAnimationRunning())
        bannerShown();
}

void ScreenshotDriver::goBackOnline()
{
    m_wentBackOnline = true;
    printLine(stdout, QStringLiteral("back online"));
    m_window->setSimulatedOffline(false);
}

void ScreenshotDriver::bannerHidden()
{
    m_bannerTextShown.clear();
    printLine(stdout, QStringLiteral("banner hidden"));
    checkDone();
}

void ScreenshotDriver::checkDone()
{
    if (m_finished)
        return;
    switch (m_goal) {
    case Goal::None:
    case Goal::Failed:
    case Goal::Saved:
    case Goal::Waiting:
    case Goal::FailedChange:
    case Goal::SignIn:
    case Goal::Developer:
    case Goal::BackOnline:
        return;
    case Goal::Unreachable:
        if (m_bannerSaved)
            finish(0);
        return;
    case Goal::Loaded:
        // A banner still closing after a slow load would be caught half-way: wait for it.
        if (m_loaded && m_window->banner()->isHidden())
            finish(save() ? 0 : 1);
        return;
    case Goal::Offline:
        // Nothing more happens while offline: done, unless asked to come back online.
        if (m_bannerSaved && m_backOnlineMs < 0) {
            finish(0);
            return;
        }
        Q_FALLTHROUGH();
    case Goal::Banner:
        // Done once the banner has been seen and has gone again with the list loaded.
        if (m_bannerSaved && m_loaded && m_window->banner()->isHidden())
            finish(0);
        return;
    }
}

bool ScreenshotDriver::save(QWidget *widget)
{
    // Apply pending layout changes (the banner's last animation step) before grabbing.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const QImage image = (widget ? widget : static_cast<QWidget *>(m_window))->grab().toImage();
    QSaveFile file(m_file);
    QImageWriter writer(&file, "png");
    if (image.isNull() || !file.open(QIODevice::WriteOnly) || !writer.write(image) ||
        !file.commit()) {
        printLine(stderr,
                  QStringLiteral("keeptrying-reader: cannot save the screenshot to %1: %2")
                      .arg(m_file,
                           writer.error() != QImageWriter::UnknownError ? writer.errorString()
                                                                        : file.errorString()));
        return false;
    }
    printLine(stdout, QStringLiteral("screenshot: %1").arg(m_file));
    // What the filter pane showed in it, for tests that check the counts beside the list.
    QStringList counts;
    const QList<QPair<QString, int>> shown = m_window->filterPane()->shownCounts();
    for (const auto &[name, count] : shown)
        counts << QStringLiteral("%1=%2").arg(name).arg(count);
    printLine(stdout, QStringLiteral("filters: %1").arg(counts.join(QStringLiteral("; "))));
    return true;
}

void ScreenshotDriver::timedOut()
{
    if (m_finished)
        return;
    QString what;
    if (m_goal == Goal::Banner && !m_bannerSaved)
        what = QStringLiteral("the retry banner did not show");
    else if (m_goal == Goal::Offline && !m_bannerSaved)
        what = QStringLiteral("the offline banner did not show");
    else if (m_goal == Goal::Unreachable && !m_bannerSaved)
        what = QStringLiteral("the banner did not say that the server is unreachable");
    else if (m_goal == Goal::Failed)
        what = QStringLiteral("the list did not fail");
    else if (m_goal == Goal::Saved)
        what = QStringLiteral("no saved copy was painted");
    else if (m_goal == Goal::FailedChange && m_loaded)
        what = QStringLiteral("the server did not refuse the change (failed-change needs a "
                              "fault that refuses one, e.g. --demo-fault "
                              "method=PATCH,status=403)");
    else if (!m_loaded)
        what = QStringLiteral("the library did not load");
    else
        what = QStringLiteral("the retry banner did not hide");
    printLine(
        stderr,
        QStringLiteral("keeptrying-reader: %1 within %2 ms").arg(what).arg(m_deadline.interval()));
    finish(1);
}

void ScreenshotDriver::finish(int exitCode)
{
    m_finished = true;
    m_deadline.stop();
    // Also when reached before the event loop runs.
    QTimer::singleShot(0, qApp, [exitCode] { QCoreApplication::exit(exitCode); });
}
