// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "readerfixture.h"

#include "accountkeys.h"
#include "library/accountswitcher.h"
#include "library/credentialstore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "readerapp.h"
#include "savedaccount.h"
#include "ui/articlelistmodel.h"
#include "ui/mainwindow.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>

#include <memory>

using KeepTrying::RetryingNetworkAccessManager;
using KeepTrying::Demo::DemoServer;
using KeepTrying::Demo::RecordedRequest;
using KeepTrying::Test::DemoServerThread;
using namespace ReaderFixture;

/*
    Quitting the reader (ReaderApp destroyed, as main() does after the event loop) while it
    keeps trying to save a change the server does not take: the server refuses connections
    (down) or answers 503 slowly. The quit comes at every moment of the replay: before it
    starts, in the event-loop pass right after an attempt was handed to Qt (whose start of
    it is still queued then), during an attempt, in its backoff, while it waits for the
    server to be reachable again. Events run after the quit (as the credential store's wait
    for the keychain runs them, or whatever follows in the process).

    Nothing crashes (under ASan, nothing touches freed memory), the change stays waiting in
    the outbox file, nothing of the reader that quit reaches the server once it is back, and
    the next run sends the change and the server applies it exactly once.
*/
class tst_QuitWhileRetrying : public QObject
{
    Q_OBJECT

public:
    enum class Failure { Down, SlowUnavailable };
    Q_ENUM(Failure)
    enum class Moment {
        AtOnce,
        FirstAttemptMade, // from the event loop, as the attempt is handed to Qt
        FirstAttempt,
        Backoff,
        LaterAttemptMade,
        LaterAttempt,
        WaitingForServer
    };
    Q_ENUM(Moment)

private Q_SLOTS:
    void init();
    void cleanup();
    void quitKeepsTheChange_data();
    void quitKeepsTheChange();

private:
    void startSignedIn();
    int patchesOf(qsizetype from, qint64 id) const;
    bool archivedOnServer(qint64 id) const;

    std::unique_ptr<DemoServerThread> m_server;
    std::unique_ptr<ReaderApp> m_reader;
};

void tst_QuitWhileRetrying::init()
{
    QSettings().clear();
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
}

void tst_QuitWhileRetrying::cleanup()
{
    m_reader.reset();
    m_server.reset();
    for (const auto location : { QStandardPaths::AppDataLocation, QStandardPaths::CacheLocation })
        QDir(QStandardPaths::writableLocation(location)).removeRecursively();
}

// As after a sign-in in an earlier run (the secrets in this session's store), then open()
// and start() as main() does; the list shown.
void tst_QuitWhileRetrying::startSignedIn()
{
    SavedAccount saved;
    saved.demo = false;
    saved.server = (*m_server)->baseUrl();
    saved.clientId = DemoServer::demoClientId();
    saved.username = DemoServer::demoUsername();
    saved.save();
    m_reader = std::make_unique<ReaderApp>(ReaderOptions());
    m_reader->credentialStore()->write(
        AccountKeys::keychain(DemoServer::demoUsername(), (*m_server)->baseUrl()),
        { DemoServer::demoClientSecret(), DemoServer::demoPassword() });
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    makeFast(m_reader->manager(), true);
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(m_reader->window()));
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->queue()->isOpen(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->window()->model()->rowCount() > 5, 10000);
}

int tst_QuitWhileRetrying::patchesOf(qsizetype from, qint64 id) const
{
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    const QString path = QStringLiteral("/api/entries/%1.json").arg(id);
    int count = 0;
    for (qsizetype i = from; i < all.size(); ++i) {
        if (all.at(i).method == "PATCH" && all.at(i).path == path)
            ++count;
    }
    return count;
}

bool tst_QuitWhileRetrying::archivedOnServer(qint64 id) const
{
    const QList<Article> articles = articlesOn((*m_server)->baseUrl());
    for (const Article &a : articles) {
        if (a.id == id)
            return a.archived;
    }
    return false;
}

void tst_QuitWhileRetrying::quitKeepsTheChange_data()
{
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<Moment>("moment");
    QTest::newRow("at once") << Failure::SlowUnavailable << Moment::AtOnce;
    QTest::newRow("down, first attempt cut") << Failure::Down << Moment::FirstAttempt;
    QTest::newRow("down, backoff") << Failure::Down << Moment::Backoff;
    QTest::newRow("down, waiting for the server") << Failure::Down << Moment::WaitingForServer;
    QTest::newRow("503, first attempt made")
        << Failure::SlowUnavailable << Moment::FirstAttemptMade;
    QTest::newRow("503, first attempt") << Failure::SlowUnavailable << Moment::FirstAttempt;
    QTest::newRow("503, backoff") << Failure::SlowUnavailable << Moment::Backoff;
    QTest::newRow("503, later attempt made")
        << Failure::SlowUnavailable << Moment::LaterAttemptMade;
    QTest::newRow("503, later attempt") << Failure::SlowUnavailable << Moment::LaterAttempt;
}

void tst_QuitWhileRetrying::quitKeepsTheChange()
{
    QFETCH(Failure, failure);
    QFETCH(Moment, moment);
    startSignedIn();
    qint64 archived = 0;
    const QList<Article> shown = m_reader->store()->articles({ LocalStore::View::All, {}, {} });
    for (const Article &a : shown) {
        if (!a.archived) {
            archived = a.id;
            break;
        }
    }
    QVERIFY(archived > 0);
    const QString entryPath = QStringLiteral("/api/entries/%1.json").arg(archived);
    const QString accountKey = AccountKeys::own(DemoServer::demoUsername(), (*m_server)->baseUrl());
    const QString outbox = LocalStore::defaultPath(accountKey, QStringLiteral("outbox"));

    // The replay's attempts, its backoffs and its waits for the server, counted (until the
    // quit: the counters go with `watch`).
    int attempts = 0;
    int retries = 0;
    int waits = 0;
    auto watch = std::make_unique<QObject>();
    RetryingNetworkAccessManager *manager = m_reader->manager();
    const auto ours = [entryPath](QNetworkReply *reply) {
        return reply->url().path() == entryPath;
    };
    connect(manager, &RetryingNetworkAccessManager::attemptStarted, watch.get(),
            [&](QNetworkReply *reply, int) { attempts += ours(reply) ? 1 : 0; });
    connect(manager, &RetryingNetworkAccessManager::retryScheduled, watch.get(),
            [&](QNetworkReply *reply) { retries += ours(reply) ? 1 : 0; });
    connect(manager, &RetryingNetworkAccessManager::waitingForConnectivity, watch.get(),
            [&](QNetworkReply *reply, bool waiting) { waits += ours(reply) && waiting ? 1 : 0; });

    // The quit from the event loop, in the pass right after the replay's attempt \a quitAt
    // was started (the attempt handed to Qt, which starts it from the event loop too).
    int quitAt = 0;
    if (moment == Moment::FirstAttemptMade)
        quitAt = 1;
    else if (moment == Moment::LaterAttemptMade)
        quitAt = 2;
    bool quitDone = false;
    connect(manager, &RetryingNetworkAccessManager::attemptStarted, watch.get(),
            [&](QNetworkReply *reply, int attempt) {
                if (!ours(reply) || attempt != quitAt)
                    return;
                QObject *context = watch.get();
                QTimer::singleShot(0, context, [&] {
                    quitDone = true;
                    m_reader.reset();
                });
            });

    // Each attempt is on its way for a while, then refused with a 503 (nothing applied).
    QVERIFY((*m_server)->addFault(
        QStringLiteral("route=/api/entries/*,method=PATCH,status=503,latency=300")));
    m_reader->engine()->setArchived(archived, true);
    QCOMPARE(m_reader->queue()->waitingCount(), 1);
    if (quitAt > 0) {
        QTRY_VERIFY_WITH_TIMEOUT(quitDone, 5000);
    } else if (moment != Moment::AtOnce) {
        // The first attempt has reached the server and waits for its answer.
        QTRY_COMPARE_WITH_TIMEOUT(patchesOf(0, archived), 1, 5000);
        QCOMPARE(attempts, 1);
    }
    if (failure == Failure::Down && moment != Moment::AtOnce && !quitDone) {
        // Down: the connection of that attempt is cut, and the next ones are refused.
        (*m_server)->goDown(10 * 60 * 1000); // until the test brings it back
        attempts = retries = waits = 0;
    }
    switch (moment) {
    case Moment::AtOnce:
    case Moment::FirstAttemptMade:
    case Moment::LaterAttemptMade:
    case Moment::FirstAttempt:
        break;
    case Moment::Backoff:
        QTRY_VERIFY_WITH_TIMEOUT(retries >= 1, 5000);
        break;
    case Moment::LaterAttempt:
        QTRY_VERIFY_WITH_TIMEOUT(attempts >= 1, 5000);
        if (failure == Failure::SlowUnavailable) // on the server, being answered
            QTRY_COMPARE_WITH_TIMEOUT(patchesOf(0, archived), 2, 5000);
        break;
    case Moment::WaitingForServer:
        QTRY_VERIFY_WITH_TIMEOUT(waits >= 1, 5000);
        break;
    }
    watch.reset();

    // The quit; then events run, as in the credential store's wait for the keychain.
    m_reader.reset();
    const qsizetype quit = (*m_server)->recordedRequests().size();
    QTest::qWait(200);
    QCOMPARE(KeepTrying::Outbox::pendingCountIn(outbox), 1); // nothing lost

    // The server is back: nothing of the reader that quit reaches it.
    (*m_server)->clearFaults();
    (*m_server)->comeUp();
    QTest::qWait(300);
    QCOMPARE(patchesOf(quit, archived), 0);
    QVERIFY(!archivedOnServer(archived));

    // The next run sends it; the server applies it once.
    startSignedIn();
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 10000);
    QVERIFY(archivedOnServer(archived));
    QCOMPARE(m_server->appliedKeys(int(archived)).size(), 1);
}

KEEPTRYING_READER_TEST_MAIN(tst_QuitWhileRetrying, "tst_quitwhileretrying")

#include "tst_quitwhileretrying.moc"
