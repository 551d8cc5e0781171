// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "demotoken.h"
#include "testhelpers.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkProxy>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using KeepTrying::Demo::RecordedRequest;
using KeepTrying::Test::DemoServerThread;

// The Outbox's resend check (outbox.h, "Servers that ignore Idempotency-Key"), against the
// demo server as wallabag: no keys honoured.
class tst_OutboxResend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void checkedItemGoesWithoutKey();
    void ambiguousFailureIsCheckedBeforeResend_data();
    void ambiguousFailureIsCheckedBeforeResend();
    void itemOfAnEarlierRunIsCheckedFirst();

private:
    std::unique_ptr<RetryingNetworkAccessManager> makeManager();
    std::unique_ptr<Outbox> makeOutbox(RetryingNetworkAccessManager *manager, qint64 settleMs);
    OutboxEnqueueResult add(Outbox &outbox, const QString &url);
    QList<RecordedRequest> posts() const;

    std::unique_ptr<DemoServerThread> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    QByteArray m_token;
    int m_checks = 0;
    QList<Outbox::ResendFinding> m_findings; // what the next checks answer
};

void tst_OutboxResend::initTestCase()
{
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    m_token = Test::demoToken(*m_server->server());
    QVERIFY(!m_token.isEmpty());
}

void tst_OutboxResend::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    (*m_server)->clearFaults();
    (*m_server)->resetStats();
    m_checks = 0;
    m_findings.clear();
}

std::unique_ptr<RetryingNetworkAccessManager> tst_OutboxResend::makeManager()
{
    auto manager = std::make_unique<RetryingNetworkAccessManager>();
    manager->setProxy(QNetworkProxy::NoProxy);
    RetryPolicy policy = Test::fastPolicy();
    policy.addIdempotencyKey = true; // would be added to every POST but the checked ones
    manager->setRetryPolicy(policy);
    Test::switchOffBreakerAndBudget(*manager);
    return manager;
}

std::unique_ptr<Outbox> tst_OutboxResend::makeOutbox(RetryingNetworkAccessManager *manager,
                                                     qint64 settleMs)
{
    auto outbox =
        std::make_unique<Outbox>(m_dir->filePath(QStringLiteral("outbox.sqlite")), manager);
    Outbox::Settings settings = outbox->settings();
    settings.initialRetryDelayMs = 20;
    settings.maxRetryDelayMs = 100;
    settings.resendSettleMs = settleMs;
    outbox->setSettings(settings);
    const QByteArray token = m_token;
    outbox->setSigner([token](QNetworkRequest &request) {
        request.setRawHeader("Authorization", "Bearer " + token);
    });
    outbox->setResendCheck([](const OutboxItem &item) { return item.method == "POST"; },
                           [this](const OutboxItem &, Outbox::ResendCheckDone done) {
                               ++m_checks;
                               const Outbox::ResendFinding finding = m_findings.isEmpty()
                                   ? Outbox::ResendFinding::NotDone
                                   : m_findings.takeFirst();
                               done(finding, "{\"id\":7}");
                           });
    return outbox;
}

OutboxEnqueueResult tst_OutboxResend::add(Outbox &outbox, const QString &url)
{
    QNetworkRequest request(
        (*m_server)->baseUrl().resolved(QUrl(QStringLiteral("/api/entries.json"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return outbox.enqueue("POST", request, "{\"url\":\"" + url.toUtf8() + "\"}");
}

QList<RecordedRequest> tst_OutboxResend::posts() const
{
    QList<RecordedRequest> result;
    const QList<RecordedRequest> all = (*m_server)->recordedRequests();
    for (const RecordedRequest &r : all) {
        if (r.method == "POST" && r.path == QLatin1String("/api/entries.json"))
            result << r;
    }
    return result;
}

void tst_OutboxResend::checkedItemGoesWithoutKey()
{
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get(), 0);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QVERIFY(add(*outbox, QStringLiteral("https://resend.example/plain")));
    QVERIFY(delivered.wait(5000));
    QCOMPARE(posts().size(), 1);
    const RecordedRequest post = posts().first();
    for (const auto &[name, value] : post.headers)
        QVERIFY2(name.compare("Idempotency-Key", Qt::CaseInsensitive) != 0, value.constData());
    QCOMPARE(m_checks, 0); // a first attempt is never checked
}

void tst_OutboxResend::ambiguousFailureIsCheckedBeforeResend_data()
{
    QTest::addColumn<Outbox::ResendFinding>("finding");
    QTest::addColumn<int>("postsAfter");
    QTest::addColumn<QByteArray>("deliveredBody");
    // The 502 of a proxy whose server goes on working: it may have been stored.
    QTest::newRow("done: taken, not sent again")
        << Outbox::ResendFinding::Done << 1 << QByteArray("{\"id\":7}");
    QTest::newRow("not done, settled: sent again")
        << Outbox::ResendFinding::NotDone << 2 << QByteArray();
}

void tst_OutboxResend::ambiguousFailureIsCheckedBeforeResend()
{
    QFETCH(Outbox::ResendFinding, finding);
    QFETCH(int, postsAfter);
    QFETCH(QByteArray, deliveredBody);
    QVERIFY((*m_server)->addFault(QStringLiteral("route=/api/entries.json,status=502,count=1")));
    auto manager = makeManager();
    RetryPolicy policy = manager->retryPolicy();
    policy.maxAttempts = 1; // the replay ends with the 502; the outbox decides what next
    manager->setRetryPolicy(policy);
    auto outbox = makeOutbox(manager.get(), 0);
    m_findings = { finding };
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    QVERIFY(add(*outbox, QStringLiteral("https://resend.example/%1").arg(int(finding))));
    QVERIFY(delivered.wait(5000));
    QCOMPARE(m_checks, 1);
    QCOMPARE(posts().size(), postsAfter);
    if (!deliveredBody.isEmpty())
        QCOMPARE(delivered.first().at(2).toByteArray(), deliveredBody);
}

// An item an earlier run attempted: when that was is not stored, so it is checked first, and
// a "not done" waits for the settle time before it is believed.
void tst_OutboxResend::itemOfAnEarlierRunIsCheckedFirst()
{
    QVERIFY((*m_server)->addFault(QStringLiteral("route=/api/entries.json,status=503,count=1")));
    {
        auto manager = makeManager();
        RetryPolicy policy = manager->retryPolicy();
        policy.maxAttempts = 1;
        manager->setRetryPolicy(policy);
        auto outbox = makeOutbox(manager.get(), 0);
        Outbox::Settings settings = outbox->settings();
        settings.initialRetryDelayMs = 60000; // the next try is the next run's
        settings.maxRetryDelayMs = 60000;
        outbox->setSettings(settings);
        QVERIFY(add(*outbox, QStringLiteral("https://resend.example/earlier-run")));
        QTRY_COMPARE_WITH_TIMEOUT(outbox->items().value(0).attempts, 1, 5000);
    }
    QCOMPARE(posts().size(), 1);
    auto manager = makeManager();
    auto outbox = makeOutbox(manager.get(), 300);
    QSignalSpy states(outbox.get(), &Outbox::itemStateChanged);
    QSignalSpy delivered(outbox.get(), &Outbox::itemDelivered);
    outbox->flush(); // its backoff is over
    m_findings = { Outbox::ResendFinding::NotDone, Outbox::ResendFinding::NotDone };
    QVERIFY(delivered.wait(5000));
    QCOMPARE(m_checks, 2); // not believed before the settle time; asked again then
    QCOMPARE(posts().size(), 2);
}

QTEST_GUILESS_MAIN(tst_OutboxResend)
#include "tst_outboxresend.moc"
