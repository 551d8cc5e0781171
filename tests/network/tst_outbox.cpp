// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The durable Outbox (issue 10): writes are committed before enqueue() returns, replayed
// through the manager with their Idempotency-Key until the server has answered them, and
// never dropped silently. The kill -9 and two-process suites are in tst_outboxdurability.

#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "demoserverthread.h"
#include "demotoken.h"
#include "testhelpers.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMutex>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkProxy>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using namespace KeepTrying;
using KeepTrying::Test::DemoServerThread;

class tst_Outbox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void enqueueCommitsThenDelivers();
    void cancelBeforeSending();
    void pendingCountInWithoutOpening();
    void credentialsStayOffTheDisk();
    void restartWhileOffline();
    void retryableOutcomesKeepTheItem_data();
    void retryableOutcomesKeepTheItem();
    void retryAfterIsHonoured();
    void deadLetters();
    void deadLetterDoesNotBlockTheResource();
    void deleteNotFound_data();
    void deleteNotFound();
    void keyReusedForAnotherPayload();
    void ownKeyIsKept();
    void conflictRetriesThenGivesUp();
    void coalescing();
    void deleteCancelsEarlierChanges();
    void orderPerResource();
    void overlappingTriggersSendOnce();
    void diskFull();
    void brokenDatabaseIsKeptAside_data();
    void brokenDatabaseIsKeptAside();
    void unopenableDatabase();
    void newFileOpenedByManyAtOnce();
    void oversizeBody();
    void invalidRequests_data();
    void invalidRequests();
    void expiry();
    void observable();
    void sendingMarkersOfADeadRunAreReset();
    void oneDrainerPerFile();
    void lockLeftByAKilledHolder_data();
    void lockLeftByAKilledHolder();

private:
    std::unique_ptr<RetryingNetworkAccessManager> makeManager(bool offline = false);
    std::unique_ptr<Outbox> makeOutbox(RetryingNetworkAccessManager *manager,
                                       const QString &path = QString());
    QNetworkRequest entryRequest(int entry) const;
    OutboxEnqueueResult patch(Outbox &outbox, int entry, const QByteArray &json,
                              const OutboxEnqueueOptions &options = {});
    // The Idempotency-Keys of the writes the server applied to \a entry, in order.
    QStringList appliedKeys(int entry) const;
    int stat(const char *name) const;
    QString dbPath() const { return m_dir->filePath(QStringLiteral("outbox.db")); }

    std::unique_ptr<DemoServerThread> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    QByteArray m_token;
};

void tst_Outbox::initTestCase()
{
    qRegisterMetaType<OutboxItem::State>();
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    // These test the outbox's keys, which wallabag ignores: the demo honours them on request.
    (*m_server)->setIdempotencyKeysHonoured(true);
    m_token = KeepTrying::Test::demoToken(*m_server->server());
    QVERIFY(!m_token.isEmpty());
}

void tst_Outbox::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server->server()->clearFaults();
    m_server->server()->resetStats();
    m_server->server()->setServiceTime(0);
}

void tst_Outbox::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<RetryingNetworkAccessManager> tst_Outbox::makeManager(bool offline)
{
    auto manager = std::make_unique<RetryingNetworkAccessManager>();
    manager->setProxy(QNetworkProxy::NoProxy);
    RetryPolicy policy = Test::fastPolicy();
    policy.maxAttempts = 2;
    manager->setRetryPolicy(policy);
    Test::switchOffBreakerAndBudget(*manager);
    manager->setSimulatedOffline(offline);
    return manager;
}

std::unique_ptr<Outbox> tst_Outbox::makeOutbox(RetryingNetworkAccessManager *manager,
                                               const QString &path)
{
    auto outbox = std::make_unique<Outbox>(path.isEmpty() ? dbPath() : path, manager);
    Outbox::Settings settings = outbox->settings();
    settings.initialRetryDelayMs = 20;
    settings.maxRetryDelayMs = 100;
    settings.lockRetryMs = 20;
    outbox->setSettings(settings);
    const QByteArray token = m_token;
    outbox->setSigner([token](QNetworkRequest &request) {
        request.setRawHeader("Authorization", "Bearer " + token);
    });
    return outbox;
}

QNetworkRequest tst_Outbox::entryRequest(int entry) const
{
    QNetworkRequest request(m_server->server()->baseUrl().resolved(
        QUrl(QStringLiteral("/api/entries/%1.json").arg(entry))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return request;
}

OutboxEnqueueResult tst_Outbox::patch(Outbox &outbox, int entry, const QByteArray &json,
                                      const OutboxEnqueueOptions &options)
{
    OutboxEnqueueOptions withResource = options;
    if (withResource.resourceKey.isEmpty())
        withResource.resourceKey = QStringLiteral("entry/%1").arg(entry);
    return outbox.enqueue("PATCH", entryRequest(entry), json, withResource);
}

QStringList tst_Outbox::appliedKeys(int entry) const
{
    return m_server->appliedKeys(entry);
}

int tst_Outbox::stat(const char *name) const
{
    return m_server->server()->stats().value(QLatin1String(name)).toInt();
}

void tst_Outbox::enqueueCommitsThenDelivers()
{
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    QVERIFY(outbox->isUsable());
    QSignalSpy added(outbox.get(), &Outbox::itemAdded);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    // What a slot of itemDelivered() sees: the item is no longer pending.
    int pendingSeenOnDelivery = -1;
    connect(outbox.get(), &Outbox::itemDelivered, this,
            [&] { pendingSeenOnDelivery = outbox->pendingCount(); });

    const OutboxEnqueueResult result = patch(*outbox, 3, R"({"starred":1})");
    QVERIFY2(result.ok(), qPrintable(result.errorString));
    QVERIFY(result.id > 0);
    // Committed before enqueue() returned: counted and listed before anything was sent.
    QCOMPARE(outbox->pendingCount(), 1);
    QCOMPARE(added.size(), 1);
    const OutboxItem stored = outbox->item(result.id);
    QCOMPARE(stored.method, QByteArray("PATCH"));
    QCOMPARE(stored.body, QByteArray(R"({"starred":1})"));
    QCOMPARE(stored.resourceKey, QStringLiteral("entry/3"));
    QVERIFY(!stored.idempotencyKey.isEmpty());

    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(delivered.at(0).at(0).toLongLong(), result.id);
    QCOMPARE(delivered.at(0).at(1).toInt(), 200);
    QCOMPARE(pendingSeenOnDelivery, 0);
    QCOMPARE(outbox->pendingCount(), 0);
    QCOMPARE(outbox->item(result.id).id, 0);
    QCOMPARE(appliedKeys(3), QStringList { QString::fromLatin1(stored.idempotencyKey) });
    // The answer's body comes with it: the entry as the server now has it.
    const QJsonObject entry = QJsonDocument::fromJson(delivered.at(0).at(2).toByteArray()).object();
    QCOMPARE(entry.value(QLatin1String("id")).toInt(), 3);
    QCOMPARE(entry.value(QLatin1String("is_starred")).toInt(), 1);
}

// What a file holds, read while no Outbox has it open (the reader at an offline start):
// nothing is sent, and a file that is missing or not an outbox is left as it is.
void tst_Outbox::pendingCountInWithoutOpening()
{
    QCOMPARE(Outbox::pendingCountIn(dbPath()), 0); // no file yet
    QVERIFY(!QFile::exists(dbPath()));
    {
        auto manager = makeManager(true);
        auto outbox = makeOutbox(manager.get());
        QVERIFY(patch(*outbox, 4, R"({"archive":1})").ok());
        QVERIFY(patch(*outbox, 5, R"({"archive":1})").ok());
        QCOMPARE(Outbox::pendingCountIn(dbPath()), 2); // while it is open too
    }
    QCOMPARE(Outbox::pendingCountIn(dbPath()), 2);
    QVERIFY(appliedKeys(4).isEmpty());
    const QString other = m_dir->filePath(QStringLiteral("not-an-outbox.db"));
    QFile file(other);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a database");
    file.close();
    QCOMPARE(Outbox::pendingCountIn(other), -1);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("not a database"));
}

void tst_Outbox::cancelBeforeSending()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QSignalSpy cancelled(outbox.get(), &Outbox::itemCancelled);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    const OutboxEnqueueResult first = patch(*outbox, 4, R"({"archive":1})");
    const OutboxEnqueueResult second = patch(*outbox, 5, R"({"archive":1})");
    QVERIFY(first.ok() && second.ok());

    QVERIFY(outbox->cancel(first.id));
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(cancelled.at(0).at(0).toLongLong(), first.id);
    QCOMPARE(outbox->pendingCount(), 1);
    QCOMPARE(outbox->item(first.id).id, 0);
    QVERIFY(!outbox->cancel(first.id)); // gone already
    QVERIFY(!outbox->cancel(12345)); // never was

    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(delivered.at(0).at(0).toLongLong(), second.id);
    QVERIFY(appliedKeys(4).isEmpty());
    QCOMPARE(appliedKeys(5).size(), 1);

    // Once it is being sent, it is too late: the answer comes as usual.
    m_server->server()->setServiceTime(300);
    QSignalSpy states(outbox.get(), &Outbox::itemStateChanged);
    const OutboxEnqueueResult third = patch(*outbox, 6, R"({"archive":1})");
    QVERIFY(third.ok());
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(states.cbegin(), states.cend(),
                                         [&](const QList<QVariant> &args) {
                                             return args.at(0).toLongLong() == third.id &&
                                                 args.at(1).value<OutboxItem::State>() ==
                                                 OutboxItem::State::Sending;
                                         }),
                             5000);
    QVERIFY(!outbox->cancel(third.id));
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 2, 10000);
    QCOMPARE(appliedKeys(6).size(), 1);
    QCOMPARE(cancelled.size(), 1);
}

void tst_Outbox::credentialsStayOffTheDisk()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QByteArray currentToken = "stale-token-value";
    outbox->setSigner([&currentToken](QNetworkRequest &request) {
        request.setRawHeader("Authorization", "Bearer " + currentToken);
    });
    QNetworkRequest request = entryRequest(3);
    request.setRawHeader("Authorization", "Bearer secret-bearer-on-the-request");
    request.setRawHeader("X-Api-Key", "secret-api-key");
    request.setRawHeader("Cookie", "session=secret-cookie");
    request.setRawHeader("X-Reader-Version", "1.0");
    OutboxEnqueueOptions options;
    options.resourceKey = QStringLiteral("entry/3");
    const OutboxEnqueueResult result =
        outbox->enqueue("PATCH", request, R"({"archive":1})", options);
    QVERIFY(result.ok());

    const OutboxItem item = outbox->item(result.id);
    QList<QByteArray> names;
    for (const auto &header : item.headers)
        names.append(header.first.toLower());
    QVERIFY(names.contains("x-reader-version"));
    QVERIFY(names.contains("content-type"));
    QVERIFY(!names.contains("authorization"));
    QVERIFY(!names.contains("x-api-key"));
    QVERIFY(!names.contains("cookie"));
    for (const QString &file : QDir(m_dir->path()).entryList(QDir::Files)) {
        QFile f(m_dir->filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(!bytes.contains("secret"), qPrintable(file));
    }

    // The token was refreshed while the write waited: the replay signs with the new one.
    currentToken = m_token;
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(delivered.at(0).at(1).toInt(), 200);
}

void tst_Outbox::restartWhileOffline()
{
    QList<QByteArray> keys;
    {
        auto manager = makeManager(true);
        auto outbox = makeOutbox(manager.get());
        for (int entry : { 11, 12, 11 }) {
            const OutboxEnqueueResult result = patch(*outbox, entry,
                                                     QByteArray(R"({"title":"offline )") +
                                                         QByteArray::number(keys.size()) + "\"}");
            QVERIFY(result.ok());
            keys.append(outbox->item(result.id).idempotencyKey);
        }
        QCOMPARE(outbox->pendingCount(), 3);
        QTest::qWait(50);
        QCOMPARE(stat("writes_applied"), 0);
    } // quit

    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QCOMPARE(outbox->pendingCount(), 3);
    const QList<OutboxItem> items = outbox->items();
    QCOMPARE(items.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(items.at(i).idempotencyKey, keys.at(i));

    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(stat("writes_applied"), 3);
    QCOMPARE(stat("duplicate_writes_rejected"), 0);
    QCOMPARE(appliedKeys(11),
             QStringList({ QString::fromLatin1(keys.at(0)), QString::fromLatin1(keys.at(2)) }));
    QCOMPARE(appliedKeys(12), QStringList { QString::fromLatin1(keys.at(1)) });
}

void tst_Outbox::retryableOutcomesKeepTheItem_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("errorContains");
    // The manager makes 2 attempts; 3 faults reach the outbox once.
    QTest::newRow("503") << QStringLiteral("status=503,count=3") << QStringLiteral("503");
    QTest::newRow("500") << QStringLiteral("status=500,count=3") << QStringLiteral("500");
    QTest::newRow("429") << QStringLiteral("status=429,count=3") << QStringLiteral("429");
    QTest::newRow("408") << QStringLiteral("status=408,count=3") << QStringLiteral("408");
    QTest::newRow("connection dropped")
        << QStringLiteral("drop=before-headers,count=100") << QString();
    QTest::newRow("timeout") << QStringLiteral("latency=2000,count=1") << QString();
}

void tst_Outbox::retryableOutcomesKeepTheItem()
{
    QFETCH(QString, fault);
    QFETCH(QString, errorContains);
    auto manager = makeManager();
    RetryPolicy policy = manager->retryPolicy();
    if (fault.startsWith(QLatin1String("latency"))) {
        policy.attemptTimeoutMs = 200;
        policy.maxConnectivityAttempts = 1;
    }
    if (fault.startsWith(QLatin1String("drop")))
        policy.maxConnectivityAttempts = 1;
    manager->setRetryPolicy(policy);
    QVERIFY(m_server->server()->addFault(QStringLiteral("route=/api/*,") + fault));
    auto outbox = makeOutbox(manager.get());
    QSignalSpy states(outbox.get(), &Outbox::itemStateChanged);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    const OutboxEnqueueResult result = patch(*outbox, 4, R"({"archive":1})");
    QVERIFY(result.ok());
    const QByteArray key = outbox->item(result.id).idempotencyKey;

    const auto waitedToRetry = [&] {
        for (const QList<QVariant> &state : std::as_const(states)) {
            if (state.at(1).value<OutboxItem::State>() == OutboxItem::State::WaitingToRetry)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(waitedToRetry(), 10000);
    if (fault.startsWith(QLatin1String("drop"))) {
        // Still there after failing, however often; and delivered once the server answers.
        QTRY_VERIFY_WITH_TIMEOUT(outbox->item(result.id).attempts >= 3, 10000);
        QCOMPARE(outbox->pendingCount(), 1);
        QVERIFY(!outbox->item(result.id).lastError.isEmpty());
        m_server->server()->clearFaults();
    }
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(outbox->pendingCount(), 0);
    QCOMPARE(outbox->deadLetterCount(), 0);
    // Applied exactly once, whatever reached the server before the answer came.
    QCOMPARE(appliedKeys(4), QStringList { QString::fromLatin1(key) });
    if (!errorContains.isEmpty())
        QVERIFY(outbox->lastError().contains(errorContains));
}

void tst_Outbox::retryAfterIsHonoured()
{
    auto manager = makeManager();
    RetryPolicy policy = manager->retryPolicy();
    policy.maxAttempts = 1;
    manager->setRetryPolicy(policy);
    QVERIFY(m_server->server()->addFault(
        QStringLiteral("route=/api/*,status=503,retry-after=1,count=1")));
    auto outbox = makeOutbox(manager.get());
    QSignalSpy states(outbox.get(), &Outbox::itemStateChanged);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const OutboxEnqueueResult result = patch(*outbox, 5, R"({"archive":1})");
    QVERIFY(result.ok());
    QTRY_COMPARE_WITH_TIMEOUT(outbox->item(result.id).state, OutboxItem::State::WaitingToRetry,
                              10000);
    const OutboxItem waiting = outbox->item(result.id);
    QCOMPARE(waiting.attempts, 1);
    QVERIFY(waiting.lastError.contains(QLatin1String("503")));
    // Retry-After: 1 (second), not the 20 ms backoff.
    QVERIFY(waiting.nextAttemptAt.toMSecsSinceEpoch() - before >= 1000);
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
}

void tst_Outbox::deadLetters()
{
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    QSignalSpy dead(outbox.get(), &Outbox::itemDeadLettered);
    QSignalSpy deadCount(outbox.get(), &Outbox::deadLetterCountChanged);
    // A body that is not JSON: 400, as wallabag's body listener answers it ("maybe" for a
    // flag, which the demo used to refuse, wallabag casts to true).
    const OutboxEnqueueResult result = patch(*outbox, 6, R"({"starred":)");
    QVERIFY(result.ok());
    QTRY_COMPARE_WITH_TIMEOUT(dead.size(), 1, 10000);
    QCOMPARE(dead.at(0).at(0).toLongLong(), result.id);
    QCOMPARE(dead.at(0).at(1).toInt(), 400);
    QVERIFY(dead.at(0).at(2).toString().contains(QLatin1String("400")));
    QCOMPARE(outbox->pendingCount(), 0);
    QCOMPARE(outbox->deadLetterCount(), 1);
    QCOMPARE(deadCount.size(), 1);

    const QList<OutboxItem> letters = outbox->deadLetters();
    QCOMPARE(letters.size(), 1);
    QCOMPARE(letters.at(0).id, result.id);
    QCOMPARE(letters.at(0).state, OutboxItem::State::DeadLetter);
    QCOMPARE(letters.at(0).responseStatus, 400);
    QVERIFY(letters.at(0).responseBody.contains("could not be parsed"));
    QCOMPARE(letters.at(0).attempts, 1);
    QVERIFY(letters.at(0).deadLetteredAt.isValid());
    QCOMPARE(outbox->resourceState(QStringLiteral("entry/6")), OutboxItem::State::DeadLetter);
    QVERIFY(outbox->hasDeadLetters(QStringLiteral("entry/6")));

    // Requeue ("try again"): sent once more, with the same key, and refused again.
    QVERIFY(outbox->requeue(result.id));
    QVERIFY(!outbox->requeue(result.id)); // not a dead letter any more
    QTRY_COMPARE_WITH_TIMEOUT(dead.size(), 2, 10000);
    QCOMPARE(outbox->item(result.id).idempotencyKey, letters.at(0).idempotencyKey);
    QCOMPARE(outbox->item(result.id).attempts, 1);

    // Discard ("undo"): gone for good.
    QVERIFY(outbox->discard(result.id));
    QVERIFY(!outbox->discard(result.id));
    QCOMPARE(outbox->deadLetterCount(), 0);
    QVERIFY(outbox->deadLetters().isEmpty());
    QCOMPARE(stat("writes_applied"), 0);
}

void tst_Outbox::deadLetterDoesNotBlockTheResource()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QVERIFY(patch(*outbox, 7, R"({"starred":)").ok()); // not JSON: 400
    const OutboxEnqueueResult good = patch(*outbox, 7, R"({"archive":1})");
    QVERIFY(good.ok());
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(outbox->deadLetterCount(), 1);
    QCOMPARE(appliedKeys(7).size(), 1);
}

void tst_Outbox::deleteNotFound_data()
{
    QTest::addColumn<bool>("goneIsSuccess");
    QTest::newRow("dead letter by default") << false;
    QTest::newRow("success when the app says so") << true;
}

void tst_Outbox::deleteNotFound()
{
    QFETCH(bool, goneIsSuccess);
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    if (goneIsSuccess)
        outbox->setSuccessPredicate(&Outbox::deleteGoneIsSuccess);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QSignalSpy dead(outbox.get(), &Outbox::itemDeadLettered);
    const OutboxEnqueueResult result = outbox->enqueue("DELETE", entryRequest(999999));
    QVERIFY(result.ok());
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size() + dead.size(), 1, 10000);
    if (goneIsSuccess) {
        QCOMPARE(delivered.size(), 1);
        QCOMPARE(delivered.at(0).at(1).toInt(), 404);
        QCOMPARE(outbox->deadLetterCount(), 0);
    } else {
        QCOMPARE(dead.size(), 1);
        QCOMPARE(dead.at(0).at(1).toInt(), 404);
        QCOMPARE(outbox->deadLetterCount(), 1);
    }
    QCOMPARE(outbox->pendingCount(), 0);
}

void tst_Outbox::keyReusedForAnotherPayload()
{
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QSignalSpy dead(outbox.get(), &Outbox::itemDeadLettered);
    QNetworkRequest request = entryRequest(8);
    request.setRawHeader("Idempotency-Key", "app-chosen-key");
    QVERIFY(outbox->enqueue("PATCH", request, R"({"archive":1})").ok());
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    // The same key for another payload: the server says 422, a dead letter.
    QVERIFY(outbox->enqueue("PATCH", request, R"({"archive":0})").ok());
    QTRY_COMPARE_WITH_TIMEOUT(dead.size(), 1, 10000);
    QCOMPARE(dead.at(0).at(1).toInt(), 422);
    QCOMPARE(appliedKeys(8), QStringList { QStringLiteral("app-chosen-key") });
}

void tst_Outbox::ownKeyIsKept()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QNetworkRequest request = entryRequest(9);
    request.setRawHeader("Idempotency-Key", "write-9-1");
    const OutboxEnqueueResult first = outbox->enqueue("PATCH", request, R"({"archive":1})");
    QVERIFY(first.ok());
    QCOMPARE(outbox->item(first.id).idempotencyKey, QByteArray("write-9-1"));
    // The same request again (an app that does not know whether its first call landed):
    // the same item.
    const OutboxEnqueueResult again = outbox->enqueue("PATCH", request, R"({"archive":1})");
    QVERIFY(again.ok());
    QCOMPARE(again.id, first.id);
    // The same key for another request while it is queued: refused.
    const OutboxEnqueueResult other = outbox->enqueue("PATCH", request, R"({"archive":0})");
    QVERIFY(!other.ok());
    QCOMPARE(other.error, OutboxError::KeyInUse);
    QCOMPARE(outbox->pendingCount(), 1);
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(appliedKeys(9), QStringList { QStringLiteral("write-9-1") });
}

void tst_Outbox::conflictRetriesThenGivesUp()
{
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    Outbox::Settings settings = outbox->settings();
    settings.maxConflictRetries = 2;
    outbox->setSettings(settings);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QSignalSpy dead(outbox.get(), &Outbox::itemDeadLettered);

    // Two 409s (the key still in use): retried, then delivered.
    QVERIFY(m_server->server()->addFault(
        QStringLiteral("route=/api/entries/10.json,status=409,count=2")));
    const OutboxEnqueueResult retried = patch(*outbox, 10, R"({"archive":1})");
    QVERIFY(retried.ok());
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(dead.size(), 0);

    // A 409 that does not go away: a dead letter after the limit, not a loop.
    QVERIFY(m_server->server()->addFault(QStringLiteral("route=/api/entries/13.json,status=409")));
    const OutboxEnqueueResult stuck = patch(*outbox, 13, R"({"archive":1})");
    QVERIFY(stuck.ok());
    QTRY_COMPARE_WITH_TIMEOUT(dead.size(), 1, 10000);
    QCOMPARE(dead.at(0).at(1).toInt(), 409);
    QCOMPARE(outbox->item(stuck.id).attempts, 3);
}

void tst_Outbox::coalescing()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QSignalSpy superseded(outbox.get(), &Outbox::itemSuperseded);
    OutboxEnqueueOptions star;
    star.coalescingKey = QStringLiteral("entry/14/starred");
    const OutboxEnqueueResult starOn = patch(*outbox, 14, R"({"starred":1})", star);
    const OutboxEnqueueResult archive = patch(*outbox, 14, R"({"archive":1})");
    const OutboxEnqueueResult starOff = patch(*outbox, 14, R"({"starred":0})", star);
    QVERIFY(starOn.ok() && archive.ok() && starOff.ok());
    QCOMPARE(starOff.superseded, QList<qint64> { starOn.id });
    QCOMPARE(superseded.size(), 1);
    QCOMPARE(superseded.at(0).at(0).toLongLong(), starOn.id);
    QCOMPARE(superseded.at(0).at(1).toLongLong(), starOff.id);
    QCOMPARE(outbox->pendingCount(), 2);
    QCOMPARE(outbox->item(starOn.id).id, 0);

    const QByteArray archiveKey = outbox->item(archive.id).idempotencyKey;
    const QByteArray starOffKey = outbox->item(starOff.id).idempotencyKey;
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(appliedKeys(14),
             QStringList({ QString::fromLatin1(archiveKey), QString::fromLatin1(starOffKey) }));
}

void tst_Outbox::deleteCancelsEarlierChanges()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    const OutboxEnqueueResult title = patch(*outbox, 15, R"({"title":"Renamed"})");
    const OutboxEnqueueResult starred = patch(*outbox, 15, R"({"starred":1})");
    const OutboxEnqueueResult other = patch(*outbox, 16, R"({"starred":1})");
    OutboxEnqueueOptions options;
    options.resourceKey = QStringLiteral("entry/15");
    options.cancelsEarlierChanges = true;
    const OutboxEnqueueResult removal = outbox->enqueue("DELETE", entryRequest(15), {}, options);
    QVERIFY(title.ok() && starred.ok() && other.ok() && removal.ok());
    QCOMPARE(removal.superseded, QList<qint64>({ title.id, starred.id }));
    QCOMPARE(outbox->pendingCount(), 2);
    QCOMPARE(outbox->pendingCount(QStringLiteral("entry/15")), 1);
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    const QJsonArray writes = m_server->server()
                                  ->stats()
                                  .value(QLatin1String("entry_writes"))
                                  .toObject()
                                  .value(QLatin1String("15"))
                                  .toArray();
    QCOMPARE(writes.size(), 1);
    QCOMPARE(writes.at(0).toObject().value(QLatin1String("method")).toString(),
             QStringLiteral("DELETE"));
    QCOMPARE(appliedKeys(16).size(), 1);
}

void tst_Outbox::orderPerResource()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QHash<int, QStringList> expected;
    for (int i = 0; i < 12; ++i) {
        const int entry = 17 + i % 3;
        const OutboxEnqueueResult result =
            patch(*outbox, entry, "{\"title\":\"step " + QByteArray::number(i) + "\"}");
        QVERIFY(result.ok());
        expected[entry].append(QString::fromLatin1(outbox->item(result.id).idempotencyKey));
    }
    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    for (int entry = 17; entry < 20; ++entry)
        QCOMPARE(appliedKeys(entry), expected.value(entry));
}

void tst_Outbox::overlappingTriggersSendOnce()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    constexpr int count = 20;
    for (int i = 0; i < count; ++i)
        QVERIFY(patch(*outbox, 20 + i % 4, "{\"title\":\"t" + QByteArray::number(i) + "\"}").ok());
    // Every trigger at once: back online, flushes, a reachability flap, more flushes.
    manager->setSimulatedOffline(false);
    outbox->flush();
    outbox->flush();
    manager->setSimulatedOffline(true);
    manager->setSimulatedOffline(false);
    for (int i = 0; i < 5; ++i) {
        outbox->flush();
        QCoreApplication::processEvents();
    }
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(stat("writes_applied"), count);
    QCOMPARE(stat("duplicate_writes_rejected"), 0);
    QCOMPARE(m_server->server()
                 ->stats()
                 .value(QLatin1String("requests_per_route"))
                 .toObject()
                 .value(QLatin1String("PATCH /api/entries/{id}.json"))
                 .toInt(),
             count);
}

void tst_Outbox::diskFull()
{
    QList<qint64> acknowledged;
    {
        auto manager = makeManager(true);
        auto outbox = makeOutbox(manager.get());
        Outbox::Settings settings = outbox->settings();
        settings.maxDatabaseBytes = 64 * 1024;
        outbox->setSettings(settings);
        const QByteArray title(3000, 'x');
        OutboxEnqueueResult result;
        for (int i = 0; i < 100; ++i) {
            result = patch(*outbox, 24 + i % 2, "{\"title\":\"" + title + "\"}");
            if (!result.ok())
                break;
            acknowledged.append(result.id);
        }
        QVERIFY(!result.ok());
        QCOMPARE(result.error, OutboxError::DiskFull);
        QVERIFY(!result.errorString.isEmpty());
        QVERIFY(acknowledged.size() >= 3);
        QCOMPARE(outbox->pendingCount(), acknowledged.size());
        // Small writes that fit still go in after a refusal: nothing is wedged.
        QVERIFY(outbox->lastError().contains(QLatin1String("full"), Qt::CaseInsensitive));
    }
    // Everything acknowledged survives, and is delivered.
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    QCOMPARE(outbox->pendingCount(), acknowledged.size());
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(stat("writes_applied"), acknowledged.size());
}

void tst_Outbox::brokenDatabaseIsKeptAside_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("not a database") << QStringLiteral("garbage");
    QTest::newRow("corrupt pages") << QStringLiteral("corrupt");
    QTest::newRow("another program's database") << QStringLiteral("foreign");
    QTest::newRow("newer schema") << QStringLiteral("newer");
}

void tst_Outbox::brokenDatabaseIsKeptAside()
{
    QFETCH(QString, kind);
    const QString path = dbPath();
    const auto withConnection = [&](const std::function<void(QSqlDatabase &)> &work) {
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"),
                                                        QStringLiteral("tst_outbox_setup"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            work(db);
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("tst_outbox_setup"));
    };
    if (kind == QLatin1String("garbage")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("this is not a database, it is a shopping list\n").repeated(200));
    } else if (kind == QLatin1String("foreign")) {
        withConnection([](QSqlDatabase &db) {
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE notes (text TEXT)")));
        });
    } else {
        {
            auto manager = makeManager(true);
            auto outbox = makeOutbox(manager.get(), path);
            for (int i = 0; i < 50; ++i)
                QVERIFY(patch(*outbox, 3, QByteArray(2000, 'a')).ok());
        }
        if (kind == QLatin1String("newer")) {
            withConnection([](QSqlDatabase &db) {
                QSqlQuery query(db);
                QVERIFY(query.exec(QStringLiteral("PRAGMA user_version=99")));
            });
        } else {
            // Overwrite pages in the middle of the file (after a checkpoint, so the WAL
            // does not hide it).
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.size() > 8 * 4096);
            file.seek(2 * 4096);
            file.write(QByteArray(4 * 4096, '\x5a'));
        }
    }
    QFile original(path);
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray originalBytes = original.readAll();
    original.close();

    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get(), path);
    QSignalSpy recovered(outbox.get(), &Outbox::databaseRecovered);
    QVERIFY(outbox->isUsable());
    QVERIFY(!outbox->recoveryReason().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(recovered.size(), 1, 2000);
    const QString aside = recovered.at(0).at(1).toString();
    QVERIFY(aside.startsWith(path + QStringLiteral(".broken-")));
    QFile kept(aside);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), originalBytes);
    // A fresh outbox works.
    QCOMPARE(outbox->pendingCount(), 0);
    QVERIFY(patch(*outbox, 3, R"({"archive":1})").ok());
    QCOMPARE(outbox->pendingCount(), 1);
}

void tst_Outbox::unopenableDatabase()
{
    // Its directory is a file: nothing can be created there.
    QFile blocker(m_dir->filePath(QStringLiteral("not-a-directory")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString path = blocker.fileName() + QStringLiteral("/outbox.db");
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get(), path);
    QSignalSpy failed(outbox.get(), &Outbox::openFailed);
    QVERIFY(!outbox->isUsable());
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 2000);
    QVERIFY(!failed.at(0).at(0).toString().isEmpty());
    const OutboxEnqueueResult result = patch(*outbox, 3, R"({"archive":1})");
    QVERIFY(!result.ok());
    QCOMPARE(result.error, OutboxError::DatabaseUnusable);
    QCOMPARE(outbox->pendingCount(), 0);
    QVERIFY(outbox->items().isEmpty());
    outbox->flush(); // harmless
    QVERIFY(QFileInfo(blocker.fileName()).isFile());
}

void tst_Outbox::newFileOpenedByManyAtOnce()
{
    // Two app processes starting together on a new outbox file: SQLite refuses the second
    // switch to WAL at once, without its busy handler. Each must still get a usable outbox.
    constexpr int rounds = 300;
    constexpr int openers = 3;
    for (int round = 0; round < rounds; ++round) {
        const QString path = m_dir->filePath(QStringLiteral("together-%1.db").arg(round));
        QMutex mutex;
        QStringList failures;
        KeepTrying::Test::runAtOnce(openers, [&](int) {
            Outbox outbox(path, nullptr);
            if (!outbox.isUsable()) {
                QMutexLocker locker(&mutex);
                failures.append(outbox.lastError());
            }
        });
        QVERIFY2(
            failures.isEmpty(),
            qPrintable(
                QStringLiteral("round %1: %2").arg(round).arg(failures.join(QLatin1String("; ")))));
    }
}

void tst_Outbox::oversizeBody()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    Outbox::Settings settings = outbox->settings();
    settings.maxBodyBytes = 1024;
    outbox->setSettings(settings);
    const OutboxEnqueueResult tooLarge = patch(*outbox, 3, QByteArray(1025, 'x'));
    QVERIFY(!tooLarge.ok());
    QCOMPARE(tooLarge.error, OutboxError::BodyTooLarge);
    QCOMPARE(tooLarge.id, 0);
    QCOMPARE(outbox->pendingCount(), 0);
    QVERIFY(patch(*outbox, 3, QByteArray(1024, 'x')).ok());
    QCOMPARE(outbox->pendingCount(), 1);
}

void tst_Outbox::invalidRequests_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QUrl>("url");
    QTest::newRow("no method") << QByteArray() << QUrl(QStringLiteral("http://127.0.0.1:1/a"));
    QTest::newRow("relative URL") << QByteArray("PATCH") << QUrl(QStringLiteral("/api/entries/1"));
    QTest::newRow("not http") << QByteArray("PATCH") << QUrl(QStringLiteral("ftp://127.0.0.1/a"));
    QTest::newRow("password in the URL")
        << QByteArray("PATCH") << QUrl(QStringLiteral("http://user:secret@127.0.0.1:1/a"));
}

void tst_Outbox::invalidRequests()
{
    QFETCH(QByteArray, method);
    QFETCH(QUrl, url);
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    const OutboxEnqueueResult result = outbox->enqueue(method, QNetworkRequest(url), "{}");
    QVERIFY(!result.ok());
    QCOMPARE(result.error, OutboxError::InvalidRequest);
    QCOMPARE(outbox->pendingCount(), 0);
}

void tst_Outbox::expiry()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    Outbox::Settings settings = outbox->settings();
    settings.maxAgeMs = 100;
    outbox->setSettings(settings);
    QSignalSpy dead(outbox.get(), &Outbox::itemDeadLettered);
    const OutboxEnqueueResult result = patch(*outbox, 3, R"({"archive":1})");
    QVERIFY(result.ok());
    // Offline all along: it expires visibly, it does not vanish.
    QTRY_COMPARE_WITH_TIMEOUT(dead.size(), 1, 3000);
    QCOMPARE(dead.at(0).at(0).toLongLong(), result.id);
    QCOMPARE(dead.at(0).at(2).toString(), QStringLiteral("expired"));
    QCOMPARE(outbox->pendingCount(), 0);
    const QList<OutboxItem> letters = outbox->deadLetters();
    QCOMPARE(letters.size(), 1);
    QCOMPARE(letters.at(0).deadLetterReason, QStringLiteral("expired"));
    QCOMPARE(letters.at(0).responseStatus, 0);
    manager->setSimulatedOffline(false);
    QTest::qWait(50);
    QCOMPARE(stat("writes_applied"), 0);
}

void tst_Outbox::observable()
{
    auto manager = makeManager(true);
    auto outbox = makeOutbox(manager.get());
    QSignalSpy counts(outbox.get(), &Outbox::pendingCountChanged);
    QSignalSpy states(outbox.get(), &Outbox::itemStateChanged);
    QCOMPARE(outbox->oldestPendingAgeMs(), -1);
    QCOMPARE(outbox->resourceState(QStringLiteral("entry/30")), OutboxItem::State::Queued);
    QCOMPARE(outbox->pendingCount(QStringLiteral("entry/30")), 0);

    const OutboxEnqueueResult first = patch(*outbox, 30, R"({"archive":1})");
    const OutboxEnqueueResult second = patch(*outbox, 31, R"({"archive":1})");
    QVERIFY(first.ok() && second.ok());
    QCOMPARE(outbox->pendingCount(), 2);
    QCOMPARE(counts.size(), 2);
    QCOMPARE(counts.at(1).at(0).toInt(), 2);
    QVERIFY(outbox->oldestPendingAgeMs() >= 0);
    QCOMPARE(outbox->property("pendingCount").toInt(), 2);
    QCOMPARE(outbox->resourceState(QStringLiteral("entry/30")), OutboxItem::State::Queued);
    QCOMPARE(outbox->pendingCount(QStringLiteral("entry/30")), 1);
    const QList<OutboxItem> items = outbox->items();
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).id, first.id);
    QCOMPARE(items.at(0).state, OutboxItem::State::Queued);
    QVERIFY(items.at(0).createdAt.isValid());

    manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(counts.last().at(0).toInt(), 0);
    QCOMPARE(outbox->oldestPendingAgeMs(), -1);
    QList<OutboxItem::State> firstStates;
    for (const QList<QVariant> &state : std::as_const(states)) {
        if (state.at(0).toLongLong() == first.id)
            firstStates.append(state.at(1).value<OutboxItem::State>());
    }
    QCOMPARE(firstStates,
             QList<OutboxItem::State>({ OutboxItem::State::Queued, OutboxItem::State::Sending }));
}

void tst_Outbox::sendingMarkersOfADeadRunAreReset()
{
    qint64 id = 0;
    {
        auto manager = makeManager(true);
        auto outbox = makeOutbox(manager.get());
        const OutboxEnqueueResult result = patch(*outbox, 32, R"({"archive":1})");
        QVERIFY(result.ok());
        id = result.id;
    }
    // As a drainer killed mid-replay leaves it: marked as being sent, no live lock holder.
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tst_outbox_mark"));
        db.setDatabaseName(dbPath());
        QVERIFY(db.open());
        QSqlQuery query(db);
        QVERIFY(query.exec(QStringLiteral("UPDATE items SET state = 1")));
        QCOMPARE(query.numRowsAffected(), 1);
        query.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst_outbox_mark"));

    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 1, 10000);
    QCOMPARE(delivered.at(0).at(0).toLongLong(), id);
}

void tst_Outbox::oneDrainerPerFile()
{
    // Two outboxes on one file (as two windows of an app would have): each item goes once.
    auto managerA = makeManager(true);
    auto managerB = makeManager(true);
    auto a = makeOutbox(managerA.get());
    auto b = makeOutbox(managerB.get());
    constexpr int count = 20;
    for (int i = 0; i < count; ++i)
        QVERIFY(patch(i % 2 ? *a : *b, 33 + i % 3, "{\"title\":\"" + QByteArray::number(i) + "\"}")
                    .ok());
    managerA->setSimulatedOffline(false);
    managerB->setSimulatedOffline(false);
    a->flush();
    b->flush();
    QTRY_COMPARE_WITH_TIMEOUT(stat("writes_applied"), count, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(a->pendingCount() + b->pendingCount(), 0, 10000);
    QCOMPARE(stat("duplicate_writes_rejected"), 0);
    QCOMPARE(m_server->server()
                 ->stats()
                 .value(QLatin1String("requests_per_route"))
                 .toObject()
                 .value(QLatin1String("PATCH /api/entries/{id}.json"))
                 .toInt(),
             count);
}

void tst_Outbox::lockLeftByAKilledHolder_data()
{
    QTest::addColumn<QByteArray>("contents");
    // QLockFile's format: PID, application name, host name.
    QTest::newRow("holder's PID gone") << QByteArray("2147483000\nkilled-app\n");
    // Killed between creating the file and writing into it.
    QTest::newRow("empty") << QByteArray();
    // A dead holder, and QLockFile's own helper lock left empty by a process killed while
    // it was taking that dead holder's lock over.
    QTest::newRow("empty rmlock") << QByteArray("2147483000\nkilled-app\n");
}

void tst_Outbox::lockLeftByAKilledHolder()
{
    QFETCH(QByteArray, contents);
    {
        auto manager = makeManager(true);
        auto outbox = makeOutbox(manager.get());
        QVERIFY(patch(*outbox, 36, R"({"archive":1})").ok());
    }
    QFile lockFile(dbPath() + QStringLiteral(".lock"));
    QVERIFY(lockFile.open(QIODevice::WriteOnly));
    lockFile.write(contents);
    lockFile.close();
    QVERIFY(lockFile.open(QIODevice::ReadWrite));
    QVERIFY(lockFile.setFileTime(QDateTime::currentDateTime().addSecs(-10),
                                 QFileDevice::FileModificationTime));
    lockFile.close();
    if (QByteArray(QTest::currentDataTag()) == "empty rmlock") {
        QFile rmlock(lockFile.fileName() + QStringLiteral(".rmlock"));
        QVERIFY(rmlock.open(QIODevice::WriteOnly));
        rmlock.close();
        QVERIFY(rmlock.open(QIODevice::ReadWrite));
        QVERIFY(rmlock.setFileTime(QDateTime::currentDateTime().addSecs(-10),
                                   QFileDevice::FileModificationTime));
        rmlock.close();
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("names no holder")));
    }

    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get());
    if (contents.isEmpty())
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("names no holder")));
    QTRY_COMPARE_WITH_TIMEOUT(outbox->pendingCount(), 0, 10000);
    QCOMPARE(appliedKeys(36).size(), 1);
}

QTEST_GUILESS_MAIN(tst_Outbox)
#include "tst_outbox.moc"
