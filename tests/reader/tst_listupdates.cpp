// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "testhelpers.h"

#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/readernetwork.h"
#include "library/wallabagclient.h"
#include "readerapp.h"
#include "readeroptions.h"
#include "ui/articlelistmodel.h"
#include "ui/mainwindow.h"
#include "ui/readingpane.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QSettings>
#include <QtCore/QSignalBlocker>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QListView>
#include <QtWidgets/QScrollBar>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::DemoServerThread;

/*
    The article list while the store changes under it: a changed article updates its own row
    (dataChanged), leaves or joins the list in its place (rows removed or inserted, never a
    reset), a burst of changes is taken in at once, after the signals, and the article
    selected stays selected. In the real window (ReaderApp): a text stored with a page of the
    list shows in the reading pane as soon as the store has it.
*/
class tst_ListUpdates : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void changedArticleUpdatesItsRow();
    void burstTakenInAfterTheSignals();
    void archivedArticleLeavesInPlace();
    void unarchivedArticleComesBackInOrder();
    void selectionAndScrollStayAcrossBursts();
    void resetWhileChangesWait();
    void textFromPageShownAtOnce();

private:
    // A store of \a count articles, newest (highest id) first; every 4th one archived.
    void fill(int count);
    QList<qint64> modelIds() const;
    QList<qint64> storeIds() const;

    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<QNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<ImageStore> m_images;
    std::unique_ptr<ArticleListModel> m_model;
    std::unique_ptr<QListView> m_view;
};

void tst_ListUpdates::init()
{
    m_store = std::make_unique<LocalStore>();
    QVERIFY(m_store->open(QStringLiteral(":memory:")));
    m_manager = std::make_unique<QNetworkAccessManager>();
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_images = std::make_unique<ImageStore>(m_client.get());
}

void tst_ListUpdates::cleanup()
{
    m_view.reset();
    m_model.reset();
    m_images.reset();
    m_client.reset();
    m_manager.reset();
    m_store.reset();
}

void tst_ListUpdates::fill(int count)
{
    QList<Article> articles;
    const QDateTime start(QDate(2024, 1, 1), QTime(9, 0), Qt::UTC);
    for (int i = 1; i <= count; ++i) {
        Article a;
        a.id = i;
        a.title = QStringLiteral("Article %1").arg(i);
        a.url = QUrl(QStringLiteral("https://example.org/%1").arg(i));
        a.domain = a.url.host();
        // Pairs share a time: the id decides between them, as in the store's order.
        a.createdAt = start.addSecs(qint64(i / 2) * 60);
        a.updatedAt = a.createdAt;
        a.archived = i % 4 == 0;
        articles << a;
    }
    m_store->mergeFromServer(articles);
    m_model = std::make_unique<ArticleListModel>(m_store.get(), m_images.get());
    m_model->setFilter({ LocalStore::View::Unread, {}, {} });
    m_view = std::make_unique<QListView>();
    m_view->setUniformItemSizes(true);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setModel(m_model.get());
    m_view->resize(300, 300);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
}

QList<qint64> tst_ListUpdates::modelIds() const
{
    QList<qint64> ids;
    for (int row = 0; row < m_model->rowCount(); ++row)
        ids << m_model->article(row).id;
    return ids;
}

QList<qint64> tst_ListUpdates::storeIds() const
{
    QList<qint64> ids;
    const QList<Article> articles = m_store->articles(m_model->filter());
    for (const Article &a : articles)
        ids << a.id;
    return ids;
}

void tst_ListUpdates::changedArticleUpdatesItsRow()
{
    fill(40);
    const int row = 7;
    const qint64 id = m_model->article(row).id;
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    m_store->setStarred(id, true);
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 2000);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), row);
    QCOMPARE(changed.at(0).at(1).toModelIndex().row(), row);
    QVERIFY(m_model->index(row).data(ArticleListModel::StarredRole).toBool());
    QCOMPARE(reset.size(), 0);
}

// A sync that changes many articles: nothing more is read while the signals come, each
// changed row after them.
void tst_ListUpdates::burstTakenInAfterTheSignals()
{
    fill(200);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QList<qint64> ids;
    for (int row = 0; row < m_model->rowCount(); row += 2)
        ids << m_model->article(row).id;
    for (qint64 id : std::as_const(ids)) {
        m_store->setStarred(id, true);
        m_store->setStarred(id, false);
        m_store->setStarred(id, true);
    }
    // The first at once (a person's star shows at once), the rest after the burst.
    QVERIFY(changed.size() <= 1);
    QTRY_VERIFY_WITH_TIMEOUT(changed.size() > 1, 2000);
    QSet<int> rows;
    for (const QList<QVariant> &signal : std::as_const(changed)) {
        const int first = signal.at(0).toModelIndex().row();
        const int last = signal.at(1).toModelIndex().row();
        for (int row = first; row <= last; ++row)
            rows.insert(row);
    }
    QCOMPARE(rows.size(), ids.size());
    for (qint64 id : std::as_const(ids))
        QVERIFY(m_model->index(m_model->rowOfId(id)).data(ArticleListModel::StarredRole).toBool());
    QCOMPARE(reset.size(), 0);
}

void tst_ListUpdates::archivedArticleLeavesInPlace()
{
    fill(40);
    m_view->setCurrentIndex(m_model->index(5));
    const qint64 selected = m_model->article(5).id;
    const qint64 gone = m_model->article(2).id;
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    m_store->setArchived(gone, true);
    QTRY_COMPARE_WITH_TIMEOUT(removed.size(), 1, 2000);
    QCOMPARE(removed.at(0).at(1).toInt(), 2);
    QCOMPARE(removed.at(0).at(2).toInt(), 2);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(m_model->rowOfId(gone), -1);
    QCOMPARE(m_model->article(m_view->currentIndex().row()).id, selected);
    QCOMPARE(modelIds(), storeIds());
}

void tst_ListUpdates::unarchivedArticleComesBackInOrder()
{
    fill(40);
    m_view->setCurrentIndex(m_model->index(9));
    const qint64 selected = m_model->article(9).id;
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    // Archived ones (every 4th): one above the selection, one below, one with the same time
    // as its neighbour (32 and 33 share theirs).
    for (qint64 id : { 36, 32, 4 })
        m_store->setArchived(id, false);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 33, 2000);
    QCOMPARE(inserted.size(), 3);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(modelIds(), storeIds());
    QCOMPARE(m_model->article(m_view->currentIndex().row()).id, selected);
}

void tst_ListUpdates::selectionAndScrollStayAcrossBursts()
{
    fill(2000);
    const int row = 1000;
    m_view->setCurrentIndex(m_model->index(row));
    m_view->scrollTo(m_model->index(row), QAbstractItemView::PositionAtCenter);
    const qint64 selected = m_model->article(row).id;
    const int scroll = m_view->verticalScrollBar()->value();
    QVERIFY(scroll > 0);

    // Stars anywhere; articles leaving and coming back below the selection.
    for (int r = 0; r < m_model->rowCount(); r += 3)
        m_store->setStarred(m_model->article(r).id, true);
    for (int r = row + 10; r < row + 400; r += 5)
        m_store->setArchived(m_model->article(r).id, true);
    for (qint64 id = 4; id < 400; id += 4)
        m_store->setArchived(id, false);
    QTRY_COMPARE_WITH_TIMEOUT(modelIds(), storeIds(), 5000);
    QCOMPARE(m_model->article(m_view->currentIndex().row()).id, selected);
    QCOMPARE(m_view->currentIndex().row(), row);
    QCOMPARE(m_view->verticalScrollBar()->value(), scroll);
    QCOMPARE(m_view->selectionModel()->selectedIndexes().size(), 1);
}

// A refresh (reset) while single changes wait: the list is read again once, and is right.
void tst_ListUpdates::resetWhileChangesWait()
{
    fill(40);
    m_store->setArchived(m_model->article(3).id, true); // taken in at once, alone
    QSignalSpy reloaded(m_model.get(), &ArticleListModel::reloaded);
    m_store->setArchived(m_model->article(7).id, true);
    Article fresh;
    fresh.id = 1000;
    fresh.title = QStringLiteral("New");
    fresh.createdAt = QDateTime(QDate(2030, 1, 1), QTime(0, 0), Qt::UTC);
    m_store->mergeFromServer({ fresh });
    m_store->setStarred(m_model->article(5).id, true);
    QTRY_COMPARE_WITH_TIMEOUT(modelIds(), storeIds(), 2000);
    QCOMPARE(m_model->article(0).id, 1000);
    QCOMPARE(reloaded.size(), 1);
}

// The unread texts arrive a page at a time (LocalStore::setContents) while the article
// shown waits for its own: it shows as soon as the store has it, whatever the article's
// own request does (here it waits: offline) and however long the list takes to read the
// store again after the page's reset().
void tst_ListUpdates::textFromPageShownAtOnce()
{
    QSettings().clear();
    DemoServerThread server;
    QVERIFY(server.listen() != 0);
    ReaderOptions options;
    options.server = server->baseUrl();
    options.credentials = { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                            DemoServer::demoUsername(), DemoServer::demoPassword() };
    auto reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(reader->open(), qPrintable(reader->errorMessage()));
    KeepTrying::Test::switchOffBreakerAndBudget(*reader->manager());
    MainWindow *window = reader->window();
    QSignalSpy shown(window, &MainWindow::libraryShown);
    reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QVERIFY(shown.wait(15000));
    QTRY_VERIFY_WITH_TIMEOUT(window->model()->rowCount() > 5, 10000);

    // Offline: the article's own request waits. A new article without its text, selected.
    window->setSimulatedOffline(true);
    QTRY_VERIFY_WITH_TIMEOUT(reader->manager()->isSimulatedOffline(), 5000);
    Article waiting;
    waiting.id = 900001;
    waiting.title = QStringLiteral("Waiting for its text");
    waiting.url = QUrl(QStringLiteral("https://example.org/waiting"));
    waiting.createdAt = QDateTime(QDate(2035, 1, 1), QTime(0, 0), Qt::UTC);
    reader->store()->mergeFromServer({ waiting });
    QTRY_COMPARE_WITH_TIMEOUT(window->model()->article(0).id, waiting.id, 2000);
    window->listView()->setCurrentIndex(window->model()->index(0));
    ReadingPane *pane = window->readingPane();
    QTRY_COMPARE_WITH_TIMEOUT(pane->articleId(), waiting.id, 2000);
    QVERIFY(!pane->showsContent());

    // The page brings it (and another article's).
    QHash<qint64, QString> page;
    page.insert(waiting.id, QStringLiteral("<p>Here it is, from a page of the list.</p>"));
    page.insert(window->model()->article(1).id, QStringLiteral("<p>Another one.</p>"));
    reader->store()->setContents(page);
    // From the store's own signal: not after the list has read all its rows again.
    QVERIFY(pane->showsContent());
    QVERIFY(pane->toPlainText().contains(QStringLiteral("Here it is, from a page of the list.")));
    QCOMPARE(pane->articleId(), waiting.id);
    QCOMPARE(window->currentArticleId(), waiting.id);

    reader.reset();
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
}

// The reader's files in a home of the test's own; no keychain.
int main(int argc, char *argv[])
{
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    for (const char *name : { "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME" })
        qputenv(name, QDir(home.path()).filePath(QString::fromLatin1(name)).toLocal8Bit());
    qputenv("KEEPTRYING_NO_KEYCHAIN", "1");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QApplication::setApplicationName(QStringLiteral("tst_listupdates"));
    tst_ListUpdates test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_listupdates.moc"
