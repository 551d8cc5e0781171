// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// abort(), delete and deleteLater() at any moment, from inside our own signals too: finished()
// once, nothing more sent. The last three functions also run under valgrind memcheck (the
// memcheck_ tests of the dev build).

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QPointer>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <functional>
#include <memory>
#include <vector>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

// Connects a slot that ignores the arguments to one signal of a reply, with context.
using ConnectFunction = QMetaObject::Connection (*)(RetryingReply *reply, QObject *context,
                                                    std::function<void()> slot);

template<auto signal>
QMetaObject::Connection connectSlot(RetryingReply *reply, QObject *context,
                                    std::function<void()> slot)
{
    return QObject::connect(reply, signal, context, std::move(slot));
}

} // namespace

Q_DECLARE_METATYPE(ConnectFunction)

class tst_AbortAndDelete : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void abortDuringWaitSendsNothing();
    void deleteDuringWaitSendsNothing();
    void abortDuringAttempt();
    void demoServerAbortDuringWait();
    void managerDeletedWithRepliesInFlight();
    void deleteInsideSignals_data();
    void deleteInsideSignals();
    void sharedMonitorsDeletedWhileWaiting();
    void abortFromInsideSignals_data();
    void abortFromInsideSignals();
    void abortWhileTheFinalFailureIsHandedOver();
    void deleteLaterInsideFinished();
    void cancelWhileQtHasAnErrorQueued_data();
    void cancelWhileQtHasAnErrorQueued();
};

void tst_AbortAndDelete::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
}

void tst_AbortAndDelete::abortDuringWaitSendsNothing()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 50;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QSignalSpy scheduled(retrying, &RetryingReply::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    QVERIFY(retrying->isWaitingToRetry());

    reply->abort();
    QCOMPARE(finished.size(), 1); // synchronously, as Qt's replies do
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(!retrying->isWaitingToRetry());
    QTest::qWait(200); // four times the backoff: a retry would have gone out by now
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(finished.size(), 1);
}

void tst_AbortAndDelete::deleteDuringWaitSendsNothing()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::respond(503); });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 50;
    manager.setRetryPolicy(policy);
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    delete reply;
    QTest::qWait(200);
    QCOMPARE(server.requestCount(), 1);
}

void tst_AbortAndDelete::abortDuringAttempt()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) { return TestServer::stall(); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(server.url())));
    QSignalSpy received(&server, &TestServer::requestReceived);
    QVERIFY(received.wait(5000));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    reply->abort();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(reply->isFinished());
    QTest::qWait(100);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(finished.size(), 1);
}

void tst_AbortAndDelete::demoServerAbortDuringWait()
{
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    QVERIFY(server.addFault(QStringLiteral("status=503")));
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.initialDelayMs = 100;
    manager.setRetryPolicy(policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(
        QNetworkRequest(server.baseUrl().resolved(QUrl(QStringLiteral("/api/version"))))));
    QSignalSpy scheduled(&manager, &RetryingNetworkAccessManager::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    reply->abort();
    QTest::qWait(300);
    QCOMPARE(server.stats().value(QStringLiteral("total_requests")).toInt(), 1);
}

// Qt's manager deletes every reply below it, attempts included: nothing may be deleted twice.
void tst_AbortAndDelete::managerDeletedWithRepliesInFlight()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        return request.target == "/stall" ? TestServer::stall() : TestServer::respond(503);
    });
    auto *manager = new RetryingNetworkAccessManager;
    manager->setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> running =
        manager->get(QNetworkRequest(server.url(QStringLiteral("/stall"))));
    QPointer<QNetworkReply> waiting = manager->get(QNetworkRequest(server.url()));
    QPointer<QNetworkReply> done = manager->get(QNetworkRequest(server.url(QStringLiteral("/x"))));
    QSignalSpy scheduled(qobject_cast<RetryingReply *>(waiting.data()),
                         &RetryingReply::retryScheduled);
    QVERIFY(scheduled.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(server.requestCount() >= 3, true, 5000);
    delete manager;
    QVERIFY(running.isNull());
    QVERIFY(waiting.isNull());
    QVERIFY(done.isNull());
    const int seen = server.requestCount();
    QTest::qWait(100);
    QCOMPARE(server.requestCount(), seen);
}

void tst_AbortAndDelete::deleteInsideSignals_data()
{
    QTest::addColumn<ConnectFunction>("connectToSignal");
    QTest::addColumn<bool>("deleteManager");
    const std::pair<const char *, ConnectFunction> signals[] = {
        { "attemptStarted(int)", &connectSlot<&RetryingReply::attemptStarted> },
        { "retryScheduled(int, qint64, QString)", &connectSlot<&RetryingReply::retryScheduled> },
        { "waitingToRetryChanged(bool)", &connectSlot<&RetryingReply::waitingToRetryChanged> },
        { "gaveUp(QString)", &connectSlot<&RetryingReply::gaveUp> },
        { "errorOccurred(QNetworkReply::NetworkError)",
          &connectSlot<&QNetworkReply::errorOccurred> },
        { "metaDataChanged()", &connectSlot<&QNetworkReply::metaDataChanged> },
        { "readyRead()", &connectSlot<&QIODevice::readyRead> },
        { "finished()", &connectSlot<&QNetworkReply::finished> },
    };
    for (const auto &[name, connectToSignal] : signals) {
        for (bool deleteManager : { false, true }) {
            QTest::addRow("%s, delete %s", name, deleteManager ? "manager" : "reply")
                << connectToSignal << deleteManager;
        }
    }
}

// Deleting the reply, or its manager, from a slot of any of its signals is safe (run under
// ASan to see it), and nothing more is sent afterwards.
void tst_AbortAndDelete::deleteInsideSignals()
{
    QFETCH(ConnectFunction, connectToSignal);
    QFETCH(bool, deleteManager);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 2 ? TestServer::respond(503, "busy") : TestServer::respond(200, "body");
    });
    auto *manager = new RetryingNetworkAccessManager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 2; // two 503s: gaveUp and errorOccurred happen too
    manager->setRetryPolicy(policy);
    QPointer<QNetworkReply> reply = manager->get(QNetworkRequest(server.url()));
    QPointer<RetryingNetworkAccessManager> guard(manager);
    QObject deleter;
    QPointer<QObject> target(deleteManager ? static_cast<QObject *>(manager) : reply.data());
    QVERIFY(connectToSignal(qobject_cast<RetryingReply *>(reply.data()), &deleter,
                            [target] { delete target.data(); }));
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
    const int seen = server.requestCount();
    QTest::qWait(60);
    QCOMPARE(server.requestCount(), seen);
    delete guard.data();
}

// A shared monitor that is deleted while requests wait on it no longer holds them.
void tst_AbortAndDelete::sharedMonitorsDeletedWhileWaiting()
{
    TestServer server;
    QVERIFY(server.listen());
    RetryingNetworkAccessManager manager;
    auto *shared = new Reachability;
    manager.setReachability(shared);
    shared->setSimulatedOffline(true);
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < 3; ++i)
        replies.emplace_back(manager.get(QNetworkRequest(server.url())));
    QTest::qWait(50);
    QCOMPARE(server.requestCount(), 0);
    delete shared;
    for (const auto &reply : replies) {
        if (!reply->isFinished()) {
            QSignalSpy finished(reply.get(), &QNetworkReply::finished);
            QVERIFY(finished.wait(5000));
        }
        QCOMPARE(reply->error(), QNetworkReply::NoError);
    }
    QVERIFY(manager.reachability() != nullptr);
}

void tst_AbortAndDelete::abortFromInsideSignals_data()
{
    QTest::addColumn<ConnectFunction>("connectToSignal");
    QTest::newRow("attemptStarted") << &connectSlot<&RetryingReply::attemptStarted>;
    QTest::newRow("retryScheduled") << &connectSlot<&RetryingReply::retryScheduled>;
    QTest::newRow("metaDataChanged") << &connectSlot<&QNetworkReply::metaDataChanged>;
    QTest::newRow("readyRead") << &connectSlot<&QIODevice::readyRead>;
}

// abort() from a slot of our own signals: finished() once, and nothing more is sent.
void tst_AbortAndDelete::abortFromInsideSignals()
{
    QFETCH(ConnectFunction, connectToSignal);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200, "body");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkReply *reply = manager.get(QNetworkRequest(server.url()));
    std::unique_ptr<QNetworkReply> owner(reply);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    // attemptStarted(1) has already passed: aborting on attempt 2 is what can be tested.
    QObject aborter;
    QVERIFY(connectToSignal(qobject_cast<RetryingReply *>(reply), &aborter,
                            [reply] { reply->abort(); }));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1);
    QVERIFY(server.requestCount() <= 2);
}

// The final failure takes back the metadata of an earlier attempt whose body never came
// (the request ends with no status); abort() in that metaDataChanged() ends it canceled.
void tst_AbortAndDelete::abortWhileTheFinalFailureIsHandedOver()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        // A 200 whose body breaks off before its first byte, then a reset before the headers.
        return index == 0 ? TestServer::cutOff(200, 10, QByteArray())
                          : TestServer::Response { QByteArray(), TestServer::Response::Abort };
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 2;
    policy.maxConnectivityAttempts = 2;
    policy.waitForConnectivity = false;
    manager.setRetryPolicy(policy);
    QNetworkReply *reply = manager.get(QNetworkRequest(server.url()));
    std::unique_ptr<QNetworkReply> owner(reply);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QSignalSpy errors(reply, &QNetworkReply::errorOccurred);
    QSignalSpy attempts(qobject_cast<RetryingReply *>(reply), &RetryingReply::attemptStarted);
    int metaDataChanges = 0;
    connect(reply, &QNetworkReply::metaDataChanged, this, [&] {
        if (++metaDataChanges == 2)
            reply->abort();
    });
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QCOMPARE(metaDataChanges, 2); // the 200's, then its taking back
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.at(0).at(0).value<QNetworkReply::NetworkError>(),
             QNetworkReply::OperationCanceledError);
    QCOMPARE(attempts.size(), 1); // attempt 2; the first started inside get()
}

void tst_AbortAndDelete::deleteLaterInsideFinished()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503) : TestServer::respond(200, "body");
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    QByteArray body;
    connect(reply, &QNetworkReply::finished, this, [&] {
        body = reply->readAll();
        reply->deleteLater();
    });
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
    QCOMPARE(body, QByteArray("body"));
}

void tst_AbortAndDelete::cancelWhileQtHasAnErrorQueued_data()
{
    QTest::addColumn<bool>("deleteIt");
    QTest::newRow("abort") << false;
    QTest::newRow("delete") << true;
}

// The server cuts the response right after its headers: by the time the caller cancels in
// metaDataChanged(), Qt's HTTP thread has queued that error to the attempt. Letting the
// attempt go must not give Qt's reply a second error (our OperationCanceledError first),
// which makes Qt warn "this method must only be called once" to the application.
void tst_AbortAndDelete::cancelWhileQtHasAnErrorQueued()
{
    QFETCH(bool, deleteIt);
    QTest::failOnWarning(QRegularExpression(QStringLiteral("must only be called once")));
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::cutOff(200, 1000, "part"); });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    QSignalSpy finished(reply.data(), &QNetworkReply::finished);
    bool cancelled = false;
    connect(reply, &QNetworkReply::metaDataChanged, this, [&] {
        if (std::exchange(cancelled, true))
            return;
        // Qt's HTTP thread runs on: give it the moment it needs to read the cut and queue
        // its error (a loaded machine may need longer; then this passes either way).
        QThread::msleep(50);
        if (deleteIt)
            delete reply.data();
        else
            reply->abort();
    });
    QTRY_VERIFY_WITH_TIMEOUT(cancelled, 5000);
    QCOMPARE(finished.size(), deleteIt ? 0 : 1);
    // The attempt's queued error, then its deletion, are delivered here.
    QTest::qWait(50);
    QCOMPARE(finished.size(), deleteIt ? 0 : 1);
    delete reply.data();
}

QTEST_GUILESS_MAIN(tst_AbortAndDelete)
#include "tst_abortanddelete.moc"
