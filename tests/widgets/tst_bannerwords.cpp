// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The banner's words for the person waiting: chosen from the typed wait reasons, free of
// developer detail, and steady through one wait (the dwell).

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testserver.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QRegularExpression>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QVBoxLayout>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

class tst_BannerWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0"); }
    void init();
    void cleanup();
    void wordsAreForPeople();
    void serverFaultSaysTheServerIsBusy();
    void dwellKeepsOneSituation_data();
    void dwellKeepsOneSituation();

private:
    std::unique_ptr<RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<QWidget> m_window;
    RetryBanner *m_banner = nullptr;
};

void tst_BannerWords::init()
{
    m_manager = std::make_unique<RetryingNetworkAccessManager>();
    m_window = std::make_unique<QWidget>();
    auto *layout = new QVBoxLayout(m_window.get());
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    m_banner = new RetryBanner(m_window.get());
    layout->addWidget(m_banner);
    layout->addStretch();
    m_window->resize(600, 300);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_BannerWords::cleanup()
{
    m_window.reset();
    m_banner = nullptr;
    m_manager.reset();
}

void tst_BannerWords::wordsAreForPeople()
{
    // Every default message says what is happening and that it keeps trying, and holds
    // nothing meant for developers: no digits (status codes, ports, attempt counts), no
    // address, no header or protocol names.
    const QString server = QStringLiteral("127.0.0.1:43057");
    const QStringList words {
        RetryBanner::defaultText(),
        RetryBanner::defaultOfflineText(),
        RetryBanner::defaultServerBusyText(),
        RetryBanner::defaultUnreachableText(RetryBannerController::ConnectionRefused, server),
        RetryBanner::defaultUnreachableText(RetryBannerController::HostNotFound, server),
        RetryBanner::defaultUnreachableText(RetryBannerController::CannotConnect, server),
    };
    static const QRegularExpression developerWords(
        QStringLiteral("\\d|HTTP|Retry-After|attempt|breaker|budget|route|port|DNS|"
                       "answered|status"),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString &text : words) {
        QVERIFY2(!developerWords.match(text).hasMatch(), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("keep trying")), qPrintable(text));
    }
    // Whose side it is on, where that is known.
    QVERIFY(RetryBanner::defaultServerBusyText().contains(QLatin1String("Your network is fine")));
    QVERIFY(RetryBanner::defaultUnreachableText(RetryBannerController::ConnectionRefused, server)
                .contains(QLatin1String("Your network is fine")));
    QVERIFY(RetryBanner::defaultOfflineText().contains(QLatin1String("You're offline")));
}

void tst_BannerWords::serverFaultSaysTheServerIsBusy()
{
    // A 503 storm: the network is fine, the server is struggling. The banner says so, in
    // words without the status code, the route or the attempt count.
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index < 3 ? TestServer::respond(503, "try later")
                         : TestServer::respond(200, "hello");
    });
    RetryPolicy policy;
    policy.initialDelayMs = 120;
    policy.multiplier = 1.0;
    policy.jitter = Jitter::None;
    m_manager->setRetryPolicy(policy);
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(100);
    controller->setDwellMs(0); // slow first on a loaded machine: no dwell before the words
    std::unique_ptr<QNetworkReply> reply(
        m_manager->get(QNetworkRequest(server.url(QStringLiteral("/busy")))));
    QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::ServerBusy, 5000);
    QVERIFY(m_banner->isVisible());
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultServerBusyText());
    QVERIFY(!m_banner->currentText().contains(QLatin1String("503")));
    m_banner->setServerBusyText(QStringLiteral("Busy, hold on"));
    QCOMPARE(m_banner->currentText(), QStringLiteral("Busy, hold on"));
    m_banner->setServerBusyText(QString());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
}

void tst_BannerWords::dwellKeepsOneSituation_data()
{
    QTest::addColumn<int>("dwellMs");
    QTest::newRow("no dwell") << 0;
    QTest::newRow("dwell") << 400;
}

void tst_BannerWords::dwellKeepsOneSituation()
{
    // The request waits for its unreachable server ("can't be reached"), then the probe
    // gets through and the attempt is under way again, slowly. That is no news: the words
    // stay (a connection that drops again and again must not read "can't reach", "taking
    // longer", "can't reach"…), whatever the dwell; going offline is news and shows at
    // once, as does the end.
    QFETCH(int, dwellMs);
    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    QVERIFY(server.addFault(QStringLiteral("route=/images/*,latency=3000")));
    const QUrl url = server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png")));
    Reachability *reachability = m_manager->reachability();
    reachability->setBackend(nullptr);
    reachability->setProbeSchedule(60000, 60000);
    reachability->reportFailure(url);
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    QCOMPARE(controller->dwellMs(), 3000); // the default
    controller->setDwellMs(dwellMs);
    controller->setOfflineThresholdMs(0);
    controller->setThresholdMs(0);
    QSignalSpy situation(controller, &RetryBannerController::situationChanged);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(url)));
    QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::Unreachable, 2000);
    const QString words = m_banner->currentText();
    reachability->reportSuccess(url); // the attempt goes, and takes its time
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_COMPARE_WITH_TIMEOUT(retrying->attemptCount(), 1, 2000);
    // Longer than the dwell: still the same words.
    QTest::qWait(dwellMs + 200);
    QCOMPARE(controller->situation(), RetryBannerController::Unreachable);
    QCOMPARE(m_banner->currentText(), words);

    // Offline while it waits: shown at once.
    m_manager->setSimulatedOffline(true);
    QCOMPARE(controller->situation(), RetryBannerController::Offline);
    reply->abort();
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    m_manager->setSimulatedOffline(false);

    QList<RetryBannerController::Situation> situations;
    for (const QList<QVariant> &args : std::as_const(situation))
        situations << args.at(0).value<RetryBannerController::Situation>();
    const QList<RetryBannerController::Situation> expected { RetryBannerController::Unreachable,
                                                             RetryBannerController::Offline,
                                                             RetryBannerController::Hidden };
    QCOMPARE(situations, expected);
}

QTEST_MAIN(tst_BannerWords)
#include "tst_bannerwords.moc"
