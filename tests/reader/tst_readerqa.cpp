// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "testhelpers.h"

#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/requestlog.h"
#include "library/searchfold.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "ui/articledelegate.h"
#include "ui/articlelistmodel.h"
#include "ui/developerwindow.h"
#include "ui/filterpane.h"
#include "ui/mainwindow.h"
#include "ui/readingpane.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QTemporaryDir>
#include <QtGui/QAction>
#include <QtGui/QClipboard>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>

#include <memory>

using KeepTrying::Demo::DemoServer;

/*
    What QA and a reader meet in the real window, driven with keys and clicks: Simulate
    Offline from the Developer window and the indicator it leaves in the main window, the
    request log's columns, Save a Link (wide enough, and no stray request for the server's
    root), Esc and accents in the search, `o` without a browser, Star and Archive in the
    reading pane, and metadata that fits. Set KEEPTRYING_QA_SHOTS to a directory to keep
    PNGs of the window in these states.
*/
class tst_ReaderQa : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void simulateOfflineFromDeveloperWindow();
    void requestLogColumns();
    void saveLinkIsWideAndAsksNothingOfTheRoot();
    void escClearsSearchAndAccentsFold();
    void openOriginalWithoutBrowserSaysSo();
    void readingPaneStarAndArchive();
    void metadataLeavesPartsOutWhole();
    void longTagLeavesRoomForItsCount();
    void bannerMovesNothing();

private:
    QAction *action(const QString &text) const;
    void activate();
    void shoot(QWidget *widget, const QString &name);
    int logColumn(const QString &header) const;

    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    std::unique_ptr<SyncEngine> m_engine;
    std::unique_ptr<ImageStore> m_images;
    std::unique_ptr<RequestLog> m_log;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
    QList<QUrl> m_opened;
    bool m_browser = false;
};

void tst_ReaderQa::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    m_manager->setRetryPolicy(KeepTrying::Test::fastPolicy());
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer((*m_server)->baseUrl(),
                        { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                          DemoServer::demoUsername(), DemoServer::demoPassword() });
    m_store = std::make_unique<LocalStore>();
    QVERIFY(m_store->open(m_dir.filePath(QStringLiteral("library.sqlite"))));
    m_store->setServer((*m_server)->baseUrl());
    m_queue = std::make_unique<OutboxChangeQueue>(m_client.get(), m_manager.get(),
                                                  m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    m_engine->setPrefetchContent(false);
    m_images = std::make_unique<ImageStore>(m_client.get());
    m_log = std::make_unique<RequestLog>(m_manager.get());
    m_window =
        std::make_unique<MainWindow>(m_engine.get(), m_images.get(), m_manager.get(), m_log.get());
    // Never a real browser from a test: links go to this list.
    m_window->setUrlOpener([this](const QUrl &url) {
        m_opened << url;
        return m_browser;
    });
    m_window->setDeveloperMode(true);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->showLibrary();
    QSignalSpy refreshed(m_engine.get(), &SyncEngine::refreshed);
    m_engine->start();
    QVERIFY(refreshed.wait(10000));
    QTRY_VERIFY(m_window->articleCount() > 10);
}

void tst_ReaderQa::cleanupTestCase()
{
    m_window.reset();
    m_log.reset();
    m_images.reset();
    m_engine.reset();
    m_queue.reset();
    m_client.reset();
    m_manager.reset();
    m_store.reset();
    m_server.reset();
}

QAction *tst_ReaderQa::action(const QString &text) const
{
    const QList<QAction *> actions = m_window->findChildren<QAction *>();
    for (QAction *a : actions) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

// Shortcuts reach the active window only.
void tst_ReaderQa::activate()
{
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_ReaderQa::shoot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("KEEPTRYING_QA_SHOTS");
    if (dir.isEmpty())
        return;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY(widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

int tst_ReaderQa::logColumn(const QString &header) const
{
    for (int c = 0; c < m_log->columnCount(); ++c) {
        if (m_log->headerData(c, Qt::Horizontal).toString() == header)
            return c;
    }
    return -1;
}

// The Developer window has the menu's Simulate Offline switch, in step with it both ways,
// and the main window says "Offline (simulated)" from the moment it is on, before any
// request waits, until it is off.
void tst_ReaderQa::simulateOfflineFromDeveloperWindow()
{
    QAction *menu = action(QStringLiteral("Simulate &Offline"));
    QVERIFY(menu);
    QVERIFY(!menu->isChecked());
    auto *indicator = m_window->findChild<QLabel *>(QStringLiteral("simulatedOfflineIndicator"));
    QVERIFY2(indicator, "no indicator of simulated offline in the main window");
    QVERIFY(!indicator->isVisible());

    m_window->showDeveloperWindow();
    DeveloperWindow *developer = m_window->developerWindow();
    QVERIFY(QTest::qWaitForWindowExposed(developer));
    auto *box = developer->findChild<QCheckBox *>(QStringLiteral("simulateOfflineBox"));
    QVERIFY2(box, "no Simulate Offline in the Developer window");
    auto *state = developer->findChild<QLabel *>(QStringLiteral("networkState"));
    QVERIFY(state);
    QVERIFY(!box->isChecked());

    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
    QVERIFY(box->isChecked());
    QVERIFY(m_manager->isSimulatedOffline());
    QVERIFY(menu->isChecked());
    QVERIFY(indicator->isVisible()); // at once: nothing had to wait first
    QCOMPARE(indicator->text(), QStringLiteral("Offline (simulated)"));
    QVERIFY2(state->text().contains(QLatin1String("offline")), qPrintable(state->text()));
    shoot(m_window.get(), QStringLiteral("simulated-offline-main"));
    shoot(developer, QStringLiteral("simulated-offline-developer"));

    // The menu's shortcut, in the main window: the box follows.
    activate();
    QTest::keyClick(m_window.get(), Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(!m_manager->isSimulatedOffline());
    QVERIFY(!box->isChecked());
    QVERIFY(!indicator->isVisible());
    QVERIFY2(!state->text().contains(QLatin1String("offline")), qPrintable(state->text()));

    // The menu action itself, and back.
    menu->trigger();
    QVERIFY(box->isChecked());
    QVERIFY(indicator->isVisible());
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
    QVERIFY(!menu->isChecked());
    QVERIFY(!indicator->isVisible());
    developer->close();
}

// Each request shows its whole URL (cut in the middle on screen, whole in the tooltip), its
// Idempotency-Key, its body's size and why it waits; Copy as Text has them all.
void tst_ReaderQa::requestLogColumns()
{
    const int url = logColumn(QStringLiteral("URL"));
    const int key = logColumn(QStringLiteral("Idempotency-Key"));
    const int body = logColumn(QStringLiteral("Body"));
    const int wait = logColumn(QStringLiteral("Wait reason"));
    QVERIFY2(url >= 0 && key >= 0 && body >= 0 && wait >= 0, "columns missing");

    m_window->setSimulatedOffline(true);
    QUrl target = (*m_server)->baseUrl();
    target.setPath(QStringLiteral("/api/entries/1/tags.json"));
    const QString longQuery =
        QStringLiteral("note=") + QString(120, QLatin1Char('x')) + QStringLiteral("&end=here");
    target.setQuery(longQuery);
    QNetworkRequest request(target);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Idempotency-Key", "qa-key-0001");
    const QByteArray payload(123, 'a');
    QNetworkReply *reply = m_manager->post(request, payload);
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = m_log->rowCount() - 1; r >= 0; --r) {
                if (m_log->index(r, key).data().toString() == QLatin1String("qa-key-0001")) {
                    row = r;
                    return m_log->index(r, wait).data().toString().contains(
                        QLatin1String("offline"));
                }
            }
            return false;
        }(),
        3000);
    const QString full = target.toDisplayString();
    QCOMPARE(m_log->index(row, url).data().toString(), full); // whole, with the query's end
    QCOMPARE(m_log->index(row, url).data(Qt::ToolTipRole).toString(), full);
    QCOMPARE(m_log->index(row, body).data().toString(), QStringLiteral("123 B"));
    QCOMPARE(m_log->index(row, wait).data().toString(), QStringLiteral("offline (simulated)"));

    m_window->showDeveloperWindow();
    DeveloperWindow *developer = m_window->developerWindow();
    QVERIFY(QTest::qWaitForWindowExposed(developer));
    QTableView *view = developer->logView();
    QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
    QVERIFY(view->columnWidth(url) < view->fontMetrics().horizontalAdvance(full));
    shoot(developer, QStringLiteral("request-log"));
    const QString text = developer->logText();
    QVERIFY(text.contains(QLatin1String("\tIdempotency-Key\t")));
    QVERIFY(text.contains(QLatin1String("\tWait reason\t")));
    QVERIFY(text.contains(full));
    QVERIFY(text.contains(QLatin1String("\tqa-key-0001\t123 B\t")));
    QVERIFY(text.contains(QLatin1String("\toffline (simulated)\t")));

    reply->abort();
    reply->deleteLater();
    m_window->setSimulatedOffline(false);
    developer->close();
}

// Save a Link opens wide enough for a whole address; saving one sends no GET for the
// server's root (an empty preview resolved against the server was asked for as a picture).
void tst_ReaderQa::saveLinkIsWideAndAsksNothingOfTheRoot()
{
    m_window->chooseView(LocalStore::View::All);
    const QString address = QStringLiteral("http://127.0.0.1:9/qa/a-link-saved-from-the-dialog");
    int width = 0;
    int wanted = 0;
    bool typed = false;
    activate();
    m_window->listView()->setFocus();
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        width = dialog->width();
        wanted = dialog->fontMetrics().horizontalAdvance(
            QStringLiteral("https://www.example.org/2024/11/some-section/a-rather-long-title"));
        shoot(dialog, QStringLiteral("save-a-link"));
        auto *edit = dialog->findChild<QLineEdit *>();
        QTest::keyClicks(edit, address);
        QTest::keyClick(edit, Qt::Key_Return);
        typed = true;
    });
    QTest::keyClick(m_window->listView(), Qt::Key_N, Qt::ControlModifier);
    QVERIFY(typed);
    QVERIFY2(width > wanted, qPrintable(QStringLiteral("%1 <= %2").arg(width).arg(wanted)));

    // Saved, shown at the top of the list and painted (its preview asked for), then sent.
    QTRY_VERIFY_WITH_TIMEOUT(m_window->model()->article(0).url == QUrl(address), 3000);
    m_window->listView()->viewport()->repaint();
    QTRY_COMPARE_WITH_TIMEOUT(m_engine->queue()->waitingCount(), 0, 8000);
    m_window->listView()->viewport()->repaint();
    QTest::qWait(200);
    const QUrl base = (*m_server)->baseUrl();
    for (int r = 0; r < m_log->rowCount(); ++r) {
        const RequestLog::Entry &e = m_log->entry(r);
        const QUrl u(e.url);
        QVERIFY2(
            !(u.port() == base.port() && (u.path().isEmpty() || u.path() == QLatin1String("/"))),
            qPrintable(QString::fromLatin1(e.method) + QLatin1Char(' ') + e.url));
    }
}

// Esc empties the search; "zuge" finds "Züge".
void tst_ReaderQa::escClearsSearchAndAccentsFold()
{
    m_window->chooseView(LocalStore::View::All);
    QTRY_VERIFY(m_window->articleCount() > 10);
    const int all = m_window->articleCount();
    QLineEdit *search = m_window->searchField();
    activate();
    QTest::keyClick(m_window->listView(), Qt::Key_S); // View ▸ Search
    QTRY_VERIFY(search->hasFocus());
    QTest::keyClicks(search, QStringLiteral("zuge"));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->articleCount(), 1, 2000);
    QVERIFY(m_window->model()->article(0).title.contains(QStringLiteral("Züge")));
    shoot(m_window.get(), QStringLiteral("search-folded"));
    // And the other way round: an accent typed finds the word written without one.
    QCOMPARE(SearchFold::fold(QStringLiteral("Verspätung")), QStringLiteral("verspatung"));

    QTest::keyClick(search, Qt::Key_Escape);
    QCOMPARE(search->text(), QString());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->articleCount(), all, 2000);
    // A second Esc, in the empty field, goes back to the list.
    QTest::keyClick(search, Qt::Key_Escape);
    QTRY_VERIFY(m_window->listView()->hasFocus());
}

// `o` with no browser says so in the window and puts the address on the clipboard.
void tst_ReaderQa::openOriginalWithoutBrowserSaysSo()
{
    m_window->chooseView(LocalStore::View::All);
    QTRY_VERIFY(m_window->articleCount() > 1);
    m_window->listView()->setCurrentIndex(m_window->model()->index(1));
    const QUrl original = m_store->article(m_window->currentArticleId()).url;
    QVERIFY(original.isValid());
    activate();
    m_window->listView()->setFocus();
    m_opened.clear();
    m_browser = false;
    m_window->statusBar()->clearMessage();
    QTest::keyClick(m_window->listView(), Qt::Key_O);
    QCOMPARE(m_opened, QList<QUrl> { original });
    const QString message = m_window->statusBar()->currentMessage();
    QVERIFY2(message.contains(QLatin1String("No web browser could be opened")),
             qPrintable(message));
    QCOMPARE(QGuiApplication::clipboard()->text(), original.toString());

    // With a browser: it opens, and nothing is said.
    m_browser = true;
    m_window->statusBar()->clearMessage();
    QTest::keyClick(m_window->listView(), Qt::Key_O);
    QCOMPARE(m_opened.size(), 2);
    QVERIFY(m_window->statusBar()->currentMessage().isEmpty());
    m_browser = false;
}

// The reading pane shows whether the article is starred and archived, and changes it; the
// list's star, the menu and f/a stay in step.
void tst_ReaderQa::readingPaneStarAndArchive()
{
    m_window->chooseView(LocalStore::View::All);
    QTRY_VERIFY(m_window->articleCount() > 2);
    m_window->listView()->setCurrentIndex(m_window->model()->index(2));
    const qint64 id = m_window->currentArticleId();
    ReadingPane *pane = m_window->readingPane();
    QTRY_COMPARE(pane->articleId(), id);
    auto *star = pane->findChild<QToolButton *>(QStringLiteral("starButton"));
    auto *archive = pane->findChild<QToolButton *>(QStringLiteral("archiveButton"));
    QVERIFY2(star && archive, "no Star or Archive in the reading pane");
    QVERIFY(star->isVisible() && archive->isVisible());
    const bool starred = m_store->article(id).starred;
    const bool archived = m_store->article(id).archived;
    QCOMPARE(star->isChecked(), starred);
    QCOMPARE(archive->isChecked(), archived);

    QTest::mouseClick(star, Qt::LeftButton);
    QCOMPARE(m_store->article(id).starred, !starred);
    QTRY_COMPARE(star->isChecked(), !starred);
    QCOMPARE(star->text(), !starred ? QStringLiteral("★ Starred") : QStringLiteral("☆ Star"));
    QCOMPARE(m_window->model()
                 ->data(m_window->model()->index(m_window->model()->rowOfId(id)),
                        ArticleListModel::StarredRole)
                 .toBool(),
             !starred);
    QVERIFY(action(!starred ? QStringLiteral("Un&star") : QStringLiteral("&Star")));
    shoot(m_window.get(), QStringLiteral("reading-pane-controls"));

    // f, from the list: the pane's button follows.
    activate();
    m_window->listView()->setFocus();
    QTest::keyClick(m_window->listView(), Qt::Key_F);
    QTRY_COMPARE(star->isChecked(), starred);
    QCOMPARE(m_store->article(id).starred, starred);

    QTest::mouseClick(archive, Qt::LeftButton);
    QCOMPARE(m_store->article(id).archived, !archived);
    QTRY_COMPARE(archive->isChecked(), !archived);
    QCOMPARE(archive->text(), !archived ? QStringLiteral("✓ Archived") : QStringLiteral("Archive"));
    QTest::keyClick(m_window->listView(), Qt::Key_A);
    QTRY_COMPARE(m_store->article(id).archived, archived);
    QTRY_COMPARE(archive->isChecked(), archived);

    // A placeholder has no article to star.
    pane->showPlaceholder(QStringLiteral("Nothing here"), QStringLiteral("No article."));
    QVERIFY(!star->isVisible());
    m_window->listView()->setCurrentIndex(m_window->model()->index(0));
}

// "site · 6 min read · date" beside "Waiting to sync" leaves out the date, then the reading
// time, whole, before it cuts the site: never "1 …".
void tst_ReaderQa::metadataLeavesPartsOutWhole()
{
    const QFontMetrics fm(QApplication::font());
    const QStringList parts { QStringLiteral("www.example.org"), QStringLiteral("12 min read"),
                              QStringLiteral("12/03/2024") };
    const QString all = parts.join(QStringLiteral("  ·  "));
    QCOMPARE(ArticleDelegate::fitMeta(parts, fm, fm.horizontalAdvance(all)), all);
    const int twoWide = fm.horizontalAdvance(parts.mid(0, 2).join(QStringLiteral("  ·  ")));
    QCOMPARE(ArticleDelegate::fitMeta(parts, fm, twoWide + 2),
             parts.mid(0, 2).join(QStringLiteral("  ·  ")));
    QCOMPARE(ArticleDelegate::fitMeta(parts, fm, fm.horizontalAdvance(parts.at(0)) + 4),
             parts.at(0));
    const QString cut = ArticleDelegate::fitMeta(parts, fm, fm.horizontalAdvance(parts.at(0)) / 2);
    QVERIFY2(cut.startsWith(QLatin1String("www.")) && cut.endsWith(QChar(0x2026)), qPrintable(cut));
    QCOMPARE(ArticleDelegate::fitMeta({ QString(), QStringLiteral("3 min read") }, fm, 1000),
             QStringLiteral("3 min read"));

    // The list as a person sees it: a narrow list with a change waiting on a row.
    m_window->chooseView(LocalStore::View::All);
    QTRY_VERIFY(m_window->articleCount() > 2);
    m_window->setSimulatedOffline(true);
    const qint64 id = m_window->model()->article(1).id;
    m_engine->setStarred(id, !m_store->article(id).starred);
    QTRY_COMPARE(m_store->article(id).syncState, SyncState::Waiting);
    shoot(m_window.get(), QStringLiteral("waiting-row"));
    m_window->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(m_store->article(id).syncState, SyncState::Saved, 8000);
}

// A long tag is cut before its count, never under it.
void tst_ReaderQa::longTagLeavesRoomForItsCount()
{
    const QFontMetrics fm(QApplication::font());
    const QString tag = QStringLiteral("# a-very-long-tag-name-that-runs-on-and-on");
    const int width = 150;
    const QString fitted = FilterPane::fitName(tag, fm, width, QStringLiteral("12"));
    QVERIFY2(fitted.endsWith(QChar(0x2026)), qPrintable(fitted));
    QVERIFY(fm.horizontalAdvance(fitted) + fm.horizontalAdvance(QStringLiteral("12")) + 6 < width);
    QCOMPARE(FilterPane::fitName(QStringLiteral("# news"), fm, width, QStringLiteral("3")),
             QStringLiteral("# news"));

    const qint64 id = m_window->model()->article(0).id;
    m_engine->setTags(
        id,
        m_store->article(id).tags +
            QStringList { QStringLiteral("a-very-long-tag-name-that-runs-on-and-on") });
    QTRY_VERIFY_WITH_TIMEOUT(m_window->filterPane()->findItems(tag, Qt::MatchExactly).size() == 1,
                             3000);
    shoot(m_window.get(), QStringLiteral("long-tag"));
}

// A banner sliding open (offline here) or the "Back online" notice move nothing: the list,
// its first row and the search box stay where the pointer aimed; the banner covers none
// of them.
void tst_ReaderQa::bannerMovesNothing()
{
    QListView *list = m_window->listView();
    QVERIFY(list->model()->rowCount() > 0);
    KeepTrying::RetryBanner *banner = m_window->banner();
    KeepTrying::RetryBanner *notice = m_window->noticeBanner();
    QVERIFY(!banner->isVisible());
    const QPoint listTop = list->mapToGlobal(QPoint(0, 0));
    const QRect firstRow = list->visualRect(list->model()->index(0, 0));
    auto *search = m_window->findChild<QLineEdit *>();
    QVERIFY(search);
    const QPoint searchTop = search->mapToGlobal(QPoint(0, 0));

    m_window->setSimulatedOffline(true);
    QNetworkRequest request(
        (*m_server)->baseUrl().resolved(QUrl(QStringLiteral("/api/entries.json"))));
    KeepTrying::RetryBannerController::markUserWaiting(request);
    QNetworkReply *reply = m_manager->get(request);
    QTRY_VERIFY_WITH_TIMEOUT(
        banner->isVisible() && !banner->isShowAnimationRunning() && banner->height() > 20, 3000);
    QTest::qWait(50); // let a layout request that would move the list land
    QCOMPARE(list->mapToGlobal(QPoint(0, 0)), listTop);
    QCOMPARE(list->visualRect(list->model()->index(0, 0)), firstRow);
    QCOMPARE(search->mapToGlobal(QPoint(0, 0)), searchTop);
    const QRect bannerArea(banner->mapToGlobal(QPoint(0, 0)), banner->size());
    QVERIFY(!bannerArea.intersects(QRect(listTop, list->size())));
    QVERIFY(!bannerArea.intersects(QRect(searchTop, search->size())));
    shoot(m_window.get(), QStringLiteral("banner-over-pane"));

    m_window->setSimulatedOffline(false);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    reply->deleteLater();
    QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 3000);
    notice->setAnimated(false);
    notice->animatedShow();
    QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible() && notice->height() > 20, 3000);
    QTest::qWait(50);
    QCOMPARE(list->mapToGlobal(QPoint(0, 0)), listTop);
    notice->animatedHide();
    QCOMPARE(list->mapToGlobal(QPoint(0, 0)), listTop);
}

QTEST_MAIN(tst_ReaderQa)
#include "tst_readerqa.moc"
