// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>
#include <KeepTrying/waitreason.h>

#include <QtHttpServer/QHttpServer>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QVBoxLayout>

#include <memory>

using namespace KeepTrying;

// A loopback server whose /flaky route answers with the scripted statuses, then 200.
class FlakyServer
{
public:
    explicit FlakyServer(quint16 port = 0)
    {
        m_server.route(QStringLiteral("/flaky"), [this] {
            ++m_requests;
            const int status = m_script.isEmpty() ? 200 : m_script.takeFirst();
            return QHttpServerResponse(QByteArrayLiteral("text/plain"),
                                       status == 200 ? QByteArrayLiteral("hello")
                                                     : QByteArrayLiteral("try later"),
                                       QHttpServerResponder::StatusCode(status));
        });
        m_port = m_server.listen(QHostAddress::LocalHost, port);
    }

    bool isListening() const { return m_port != 0; }
    void setScript(const QList<int> &statuses) { m_script = statuses; }
    int requests() const { return m_requests; }
    QUrl url() const
    {
        QUrl url;
        url.setScheme(QStringLiteral("http"));
        url.setHost(QStringLiteral("127.0.0.1"));
        url.setPort(m_port);
        url.setPath(QStringLiteral("/flaky"));
        return url;
    }

private:
    QHttpServer m_server;
    QList<int> m_script;
    int m_requests = 0;
    quint16 m_port = 0;
};

static RetryPolicy shortPolicy(qint64 delayMs)
{
    RetryPolicy policy;
    policy.initialDelayMs = delayMs;
    policy.multiplier = 1.0;
    policy.jitter = Jitter::None;
    policy.maxAttempts = 5;
    return policy;
}

class tst_RetryBanner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void bindIsOneCall();
    void controllerFollowsRetries_data();
    void controllerFollowsRetries();
    void slowAnswerShowsBanner_data();
    void slowAnswerShowsBanner();
    void markedModeIgnoresUnmarkedReplies();
    void trackWatchesAnyReply();
    void thresholdChangeReevaluates();
    void abortHidesBanner();
    void offlineWhileParked();
    void flappingNeverDuplicates();
    void unreachableOriginWaitsForThreshold();
    void refusedConnectionNamesTheServer();
    void unreachableReasonFromFault_data();
    void unreachableReasonFromFault();
    void slowSwitchesToOfflineInPlace();
    void backFromSimulatedOfflineIsNotUnreachable();
    void offlineLookWithoutController();
    void animationReachesFinalState();
    void rendersSomething_data();
    void rendersSomething();

private:
    std::unique_ptr<FlakyServer> m_server;
    std::unique_ptr<RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<QWidget> m_window;
    RetryBanner *m_banner = nullptr;
};

void tst_RetryBanner::init()
{
    m_server = std::make_unique<FlakyServer>();
    QVERIFY(m_server->isListening());
    m_manager = std::make_unique<RetryingNetworkAccessManager>();
    m_window = std::make_unique<QWidget>();
    auto *layout = new QVBoxLayout(m_window.get());
    // No minimum size for the window: offscreen cannot pass size hints on and warns.
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    m_banner = new RetryBanner(m_window.get());
    layout->addWidget(m_banner);
    layout->addStretch();
    m_window->resize(600, 300);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_RetryBanner::cleanup()
{
    m_window.reset();
    m_banner = nullptr;
    m_manager.reset();
    m_server.reset();
}

void tst_RetryBanner::bindIsOneCall()
{
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    QVERIFY(controller);
    QCOMPARE(controller->manager(), m_manager.get());
    QCOMPARE(m_banner->controller(), controller);
    QCOMPARE(controller->thresholdMs(), 1000);
    QCOMPARE(controller->trackingMode(), RetryBannerController::TrackAllReplies);
    QVERIFY(!controller->shouldShow());
    QVERIFY(m_banner->isHidden());
    // A second bind() reuses the banner's controller.
    QCOMPARE(m_banner->bind(m_manager.get()), controller);
    QCOMPARE(m_banner->text(), RetryBanner::defaultText());
    QCOMPARE(m_banner->offlineText(), RetryBanner::defaultOfflineText());
    QVERIFY(!m_banner->isOffline());
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QCOMPARE(controller->offlineThresholdMs(), 300);
}

void tst_RetryBanner::controllerFollowsRetries_data()
{
    QTest::addColumn<QList<int>>("statuses");
    QTest::addColumn<int>("delayMs");
    QTest::addColumn<int>("thresholdMs");
    QTest::addColumn<bool>("expectShown");
    QTest::addColumn<int>("expectStatus");

    QTest::newRow("fast success") << QList<int> {} << 50 << 100 << false << 200;
    QTest::newRow("quick retry under the threshold")
        << QList<int> { 503 } << 20 << 2000 << false << 200;
    QTest::newRow("slow retry") << QList<int> { 503, 503 } << 150 << 100 << true << 200;
    QTest::newRow("slow retry, then give up")
        << QList<int> { 503, 503, 503, 503, 503 } << 60 << 100 << true << 503;
}

void tst_RetryBanner::controllerFollowsRetries()
{
    QFETCH(QList<int>, statuses);
    QFETCH(int, delayMs);
    QFETCH(int, thresholdMs);
    QFETCH(bool, expectShown);
    QFETCH(int, expectStatus);

    m_server->setScript(statuses);
    m_manager->setRetryPolicy(shortPolicy(delayMs));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(thresholdMs);

    QSignalSpy shouldShow(controller, &RetryBannerController::shouldShowChanged);
    QSignalSpy shown(m_banner, &RetryBanner::showAnimationFinished);
    QSignalSpy hidden(m_banner, &RetryBanner::hideAnimationFinished);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (expectShown)
        QTRY_VERIFY_WITH_TIMEOUT(m_banner->isVisible() || finished.count() > 0, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), expectStatus);
    QCOMPARE(m_server->requests(), statuses.size() + (expectStatus == 200 ? 1 : 0));

    QVERIFY(!controller->shouldShow());
    QCOMPARE(controller->trackedCount(), 0);
    QVERIFY(m_banner->isHidden());
    if (expectShown) {
        QCOMPARE(shouldShow.count(), 2);
        QCOMPARE(shouldShow.at(0).at(0).toBool(), true);
        QCOMPARE(shouldShow.at(1).at(0).toBool(), false);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(hidden.count(), 1);
    } else {
        QCOMPARE(shouldShow.count(), 0);
        QCOMPARE(shown.count(), 0);
    }
}

void tst_RetryBanner::slowAnswerShowsBanner_data()
{
    QTest::addColumn<int>("latencyMs");
    QTest::addColumn<int>("thresholdMs");
    QTest::addColumn<bool>("expectShown");

    QTest::newRow("slow, no retry") << 600 << 100 << true;
    QTest::newRow("quick") << 0 << 500 << false;
    QTest::newRow("slowish, under the threshold") << 100 << 2000 << false;
}

void tst_RetryBanner::slowAnswerShowsBanner()
{
    // A server that takes its time but never fails: the user waits all the same, so the
    // banner shows once the threshold has passed, and leaves the moment the answer is in.
    QFETCH(int, latencyMs);
    QFETCH(int, thresholdMs);
    QFETCH(bool, expectShown);

    Demo::DemoServer server;
    QVERIFY(server.listen() != 0);
    if (latencyMs > 0)
        QVERIFY(server.addFault(QStringLiteral("route=/images/*,latency=%1").arg(latencyMs)));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(thresholdMs);
    QSignalSpy situation(controller, &RetryBannerController::situationChanged);
    QSignalSpy shown(m_banner, &RetryBanner::showAnimationFinished);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(
        server.baseUrl().resolved(QUrl(QStringLiteral("/images/preview-01.png"))))));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying);
    // Read the state at the moment the answer arrives, before anything else runs.
    bool shownAtFinish = true;
    RetryBannerController::Situation situationAtFinish = RetryBannerController::Slow;
    connect(reply.get(), &QNetworkReply::finished, this, [&] {
        shownAtFinish = m_banner->isVisible();
        situationAtFinish = controller->situation();
    });
    if (expectShown) {
        QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::Slow, 5000);
        QVERIFY(m_banner->isVisible());
        QVERIFY(!m_banner->isOffline());
        QCOMPARE(m_banner->currentText(), RetryBanner::defaultText());
        QVERIFY(!reply->isFinished());
        QCOMPARE(retrying->attemptCount(), 1); // not a retry: just slow
    }
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(retrying->attemptCount(), 1);
    // Hidden by the time finished() reaches anyone after the controller.
    QVERIFY(!shownAtFinish);
    QCOMPARE(situationAtFinish, RetryBannerController::Hidden);
    QCOMPARE(shown.count(), expectShown ? 1 : 0);
    QCOMPARE(situation.count(), expectShown ? 2 : 0);
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::markedModeIgnoresUnmarkedReplies()
{
    m_server->setScript({ 503, 503 });
    m_manager->setRetryPolicy(shortPolicy(120));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(50);
    controller->setTrackingMode(RetryBannerController::TrackMarkedReplies);
    QSignalSpy shouldShow(controller, &RetryBannerController::shouldShowChanged);

    // Unmarked: retried, but nobody is waiting for it.
    std::unique_ptr<QNetworkReply> thumbnail(m_manager->get(QNetworkRequest(m_server->url())));
    QTRY_VERIFY_WITH_TIMEOUT(thumbnail->isFinished(), 5000);
    QCOMPARE(shouldShow.count(), 0);

    // Marked: the same faults show the banner.
    m_server->setScript({ 503, 503 });
    QNetworkRequest request(m_server->url());
    RetryBannerController::markUserWaiting(request);
    std::unique_ptr<QNetworkReply> article(m_manager->get(request));
    QTRY_VERIFY_WITH_TIMEOUT(shouldShow.count() >= 1, 5000);
    QVERIFY(m_banner->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(article->isFinished(), 5000);
    QCOMPARE(shouldShow.count(), 2);
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::trackWatchesAnyReply()
{
    m_server->setScript({ 503 });
    m_manager->setRetryPolicy(shortPolicy(200));
    RetryBannerController controller;
    controller.setTrackingMode(RetryBannerController::TrackMarkedReplies);
    controller.setThresholdMs(50);
    controller.setManager(m_manager.get());
    m_banner->setAnimated(false);
    m_banner->setController(&controller);
    QSignalSpy shouldShow(&controller, &RetryBannerController::shouldShowChanged);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    controller.track(reply.get());
    controller.track(reply.get()); // twice changes nothing
    QCOMPARE(controller.trackedCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(shouldShow.count(), 1, 5000);
    QVERIFY(m_banner->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(shouldShow.count(), 2);
    QCOMPARE(controller.trackedCount(), 0);

    // Tracking a finished reply is ignored.
    controller.track(reply.get());
    QCOMPARE(controller.trackedCount(), 0);
    m_banner->setController(nullptr);
}

void tst_RetryBanner::thresholdChangeReevaluates()
{
    m_server->setScript({ 503 });
    m_manager->setRetryPolicy(shortPolicy(3000));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(60000);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying);
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingToRetry(), 5000);
    QVERIFY(!controller->shouldShow());

    controller->setThresholdMs(0);
    QVERIFY(controller->shouldShow());
    QVERIFY(m_banner->isVisible());
    reply->abort();
    QVERIFY(!controller->shouldShow());
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::abortHidesBanner()
{
    m_server->setScript({ 503 });
    m_manager->setRetryPolicy(shortPolicy(3000));
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(50);
    QSignalSpy hidden(m_banner, &RetryBanner::hideAnimationFinished);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    QTRY_VERIFY_WITH_TIMEOUT(controller->shouldShow(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(m_banner->isVisible() && !m_banner->isShowAnimationRunning(), 2000);
    reply.reset(); // deleting the reply counts as finished
    QVERIFY(!controller->shouldShow());
    QTRY_COMPARE_WITH_TIMEOUT(hidden.count(), 1, 2000);
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::offlineWhileParked()
{
    // Simulated offline: the request parks, nothing reaches the server, and the banner says
    // "offline" at once (the network is known to be down, so no threshold applies).
    m_manager->setSimulatedOffline(true);
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    QSignalSpy situation(controller, &RetryBannerController::situationChanged);
    QSignalSpy shouldShow(controller, &RetryBannerController::shouldShowChanged);
    QSignalSpy shown(m_banner, &RetryBanner::showAnimationFinished);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying);
    QVERIFY(retrying->isWaitingForConnectivity());
    QCOMPARE(controller->situation(), RetryBannerController::Offline);
    QCOMPARE(controller->waitingForConnectivityCount(), 1);
    QVERIFY(controller->shouldShow());
    QVERIFY(m_banner->isVisible());
    QVERIFY(m_banner->isOffline());
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultOfflineText());
    QCOMPARE(m_banner->accessibleName(), RetryBanner::defaultOfflineText());
    QCOMPARE(shown.count(), 1);

    // However long it waits, it stays offline and polite: no attempt, no error.
    QTest::qWait(150);
    QCOMPARE(m_server->requests(), 0);
    QCOMPARE(retrying->attemptCount(), 0);
    QVERIFY(!reply->isFinished());
    QCOMPARE(controller->situation(), RetryBannerController::Offline);

    // Back online: the request goes out, completes, and the banner leaves.
    m_manager->setSimulatedOffline(false);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->readAll(), QByteArrayLiteral("hello"));
    QCOMPARE(m_server->requests(), 1);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QVERIFY(m_banner->isHidden());
    QCOMPARE(situation.count(), 2);
    QCOMPARE(situation.at(0).at(0).value<RetryBannerController::Situation>(),
             RetryBannerController::Offline);
    QCOMPARE(situation.at(1).at(0).value<RetryBannerController::Situation>(),
             RetryBannerController::Hidden);
    QCOMPARE(shouldShow.count(), 2);
    QCOMPARE(shown.count(), 1);
}

void tst_RetryBanner::flappingNeverDuplicates()
{
    m_manager->setSimulatedOffline(true);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    QSignalSpy shouldShow(controller, &RetryBannerController::shouldShowChanged);
    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(controller->shouldShow());

    for (int i = 0; i < 20; ++i) {
        m_manager->setSimulatedOffline(false);
        m_manager->setSimulatedOffline(true);
    }
    m_manager->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(m_banner->isHidden(), 2000);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QCOMPARE(controller->trackedCount(), 0);
    // shouldShow alternates, starting with true and ending with false, never repeating.
    QVERIFY(shouldShow.count() >= 2);
    for (int i = 0; i < shouldShow.count(); ++i)
        QCOMPARE(shouldShow.at(i).at(0).toBool(), i % 2 == 0);
    QCOMPARE(shouldShow.constLast().at(0).toBool(), false);
    QCOMPARE(finished.count(), 1);
}

void tst_RetryBanner::unreachableOriginWaitsForThreshold()
{
    // Only the origin is known unreachable (the network state is not Offline): the banner
    // waits offlineThresholdMs, so a server that answers its first probe shows nothing, and
    // then names the server rather than claim the network is gone.
    Reachability *reachability = m_manager->reachability();
    reachability->setBackend(nullptr);
    reachability->setProbeSchedule(60000, 60000); // no probe within this test
    reachability->reportFailure(m_server->url());
    QVERIFY(!reachability->isReachable(m_server->url()));

    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setOfflineThresholdMs(100);
    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QVERIFY(retrying && retrying->isWaitingForConnectivity());
    QCOMPARE(controller->waitingForConnectivityCount(), 1);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QSignalSpy details(controller, &RetryBannerController::unreachableServerChanged);
    QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::Unreachable, 2000);
    const QString server = QStringLiteral("127.0.0.1:%1").arg(m_server->url().port());
    QCOMPARE(controller->unreachableServer(), server);
    QCOMPARE(controller->unreachableReason(), RetryBannerController::CannotConnect);
    QCOMPARE(details.count(), 1);
    QVERIFY(m_banner->isVisible());
    QVERIFY(!m_banner->isOffline());
    QCOMPARE(m_banner->currentText(),
             RetryBanner::defaultUnreachableText(RetryBannerController::CannotConnect, server));
    QCOMPARE(m_server->requests(), 0);

    reachability->reportSuccess(m_server->url());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(m_server->requests(), 1);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QCOMPARE(controller->waitingForConnectivityCount(), 0);
    QVERIFY(controller->unreachableServer().isEmpty());
    QVERIFY(m_banner->isHidden());

    // Raising the threshold above the wait re-evaluates at once.
    reachability->reportFailure(m_server->url());
    controller->setOfflineThresholdMs(0);
    std::unique_ptr<QNetworkReply> second(m_manager->get(QNetworkRequest(m_server->url())));
    QCOMPARE(controller->situation(), RetryBannerController::Unreachable);
    controller->setOfflineThresholdMs(60000);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    second->abort();
    QCOMPARE(controller->trackedCount(), 0);
}

void tst_RetryBanner::refusedConnectionNamesTheServer()
{
    // Nothing listens on the port: the connection is refused, which proves the network
    // works. The banner says the server is not answering, never "offline" (the controller
    // names the server for developers; the words for the user name no address or port);
    // when a server starts on that port, the request goes through and the banner leaves.
    quint16 port = 0;
    {
        QTcpServer reserve;
        QVERIFY(reserve.listen(QHostAddress::LocalHost, 0));
        port = reserve.serverPort();
    }
    Reachability *reachability = m_manager->reachability();
    reachability->setBackend(nullptr);
    reachability->setProbeSchedule(50, 50);
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setOfflineThresholdMs(50);

    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port);
    url.setPath(QStringLiteral("/flaky"));
    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(url)));
    QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::Unreachable, 5000);
    const QString server = QStringLiteral("127.0.0.1:%1").arg(port);
    QCOMPARE(controller->unreachableServer(), server);
    QCOMPARE(controller->unreachableReason(), RetryBannerController::ConnectionRefused);
    QVERIFY(m_banner->isVisible());
    QVERIFY(!m_banner->isOffline());
    QCOMPARE(m_banner->currentText(),
             RetryBanner::defaultUnreachableText(RetryBannerController::ConnectionRefused, server));
    QVERIFY(!m_banner->currentText().contains(QString::number(port)));
    QVERIFY(!m_banner->currentText().contains(QLatin1String("127.0.0.1")));
    QVERIFY(m_banner->currentText().contains(QLatin1String("Your network is fine")));

    // The app's own words, set while it shows: they replace the default in place.
    QSignalSpy shownAgain(m_banner, &RetryBanner::showAnimationFinished);
    m_banner->setUnreachableText(QStringLiteral("Can't reach %1 — we keep trying"));
    // %1 is the host a person knows, without the port (that is for the logs).
    QCOMPARE(m_banner->currentText(), QStringLiteral("Can't reach 127.0.0.1 — we keep trying"));
    QVERIFY(m_banner->isVisible());
    QCOMPARE(shownAgain.size(), 0);
    m_banner->setUnreachableText(QString()); // empty: the default again
    QCOMPARE(m_banner->currentText(),
             RetryBanner::defaultUnreachableText(RetryBannerController::ConnectionRefused, server));

    FlakyServer late(port);
    QVERIFY(late.isListening());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::unreachableReasonFromFault_data()
{
    QTest::addColumn<QNetworkReply::NetworkError>("fault");
    QTest::addColumn<RetryBannerController::Situation>("expectSituation");
    QTest::addColumn<RetryBannerController::UnreachableReason>("expectReason");

    QTest::newRow("refused") << QNetworkReply::ConnectionRefusedError
                             << RetryBannerController::Unreachable
                             << RetryBannerController::ConnectionRefused;
    QTest::newRow("unknown host") << QNetworkReply::HostNotFoundError
                                  << RetryBannerController::Unreachable
                                  << RetryBannerController::HostNotFound;
    QTest::newRow("timeout") << QNetworkReply::TimeoutError << RetryBannerController::Unreachable
                             << RetryBannerController::CannotConnect;
    // Behind a proxy that does not answer, the proxy is at fault: not the server, not the
    // network.
    QTest::newRow("proxy refused")
        << QNetworkReply::ProxyConnectionRefusedError << RetryBannerController::Unreachable
        << RetryBannerController::ProxyFailed;
    QTest::newRow("proxy not found")
        << QNetworkReply::ProxyNotFoundError << RetryBannerController::Unreachable
        << RetryBannerController::ProxyFailed;
    QTest::newRow("no network") << QNetworkReply::TemporaryNetworkFailureError
                                << RetryBannerController::Offline
                                << RetryBannerController::CannotConnect;
}

void tst_RetryBanner::unreachableReasonFromFault()
{
    // The typed reason a request waits with, carrying each connectivity fault. A DNS failure
    // cannot be caused here without asking a name server off this machine, so the manager's
    // signal is emitted as the engine emits it, for a request that really waits. Nothing
    // reads the log-form text any more: the string signal says something else on purpose.
    QFETCH(QNetworkReply::NetworkError, fault);
    QFETCH(RetryBannerController::Situation, expectSituation);
    QFETCH(RetryBannerController::UnreachableReason, expectReason);

    Reachability *reachability = m_manager->reachability();
    reachability->setBackend(nullptr);
    reachability->setProbeSchedule(60000, 60000);
    reachability->reportFailure(m_server->url());
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setOfflineThresholdMs(0);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    QVERIFY(qobject_cast<RetryingReply *>(reply.get())->isWaitingForConnectivity());
    Q_EMIT m_manager->retryScheduled(reply.get(), 1, 100, QStringLiteral("connection refused"));
    Q_EMIT m_manager->waitReasonChanged(
        reply.get(), WaitReason::unreachable(m_server->url()).withFault(0, fault));
    QCOMPARE(controller->situation(), expectSituation);
    QCOMPARE(controller->unreachableReason(), expectReason);
    QCOMPARE(m_banner->isOffline(), expectSituation == RetryBannerController::Offline);
    if (expectSituation == RetryBannerController::Unreachable) {
        QCOMPARE(
            m_banner->currentText(),
            RetryBanner::defaultUnreachableText(expectReason, controller->unreachableServer()));
    }

    // An answer from the server (any status) ends what the fault said about it.
    reachability->reportSuccess(m_server->url());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    std::unique_ptr<QNetworkReply> next(m_manager->get(QNetworkRequest(m_server->url())));
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
    QTRY_VERIFY_WITH_TIMEOUT(next->isFinished(), 5000);
}

void tst_RetryBanner::backFromSimulatedOfflineIsNotUnreachable()
{
    // A request parked through a long simulated outage: when QA goes online again, the
    // healthy server is never named unreachable on the way back.
    m_server->setScript({});
    m_manager->setRetryPolicy(shortPolicy(50));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(0);
    controller->setOfflineThresholdMs(100);
    QSignalSpy situation(controller, &RetryBannerController::situationChanged);
    m_manager->setSimulatedOffline(true);
    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    QTest::qWait(300); // well past the offline threshold
    m_manager->setSimulatedOffline(false);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    for (const QList<QVariant> &args : std::as_const(situation))
        QVERIFY(args.at(0).value<RetryBannerController::Situation>() !=
                RetryBannerController::Unreachable);
    QCOMPARE(controller->situation(), RetryBannerController::Hidden);
}

void tst_RetryBanner::slowSwitchesToOfflineInPlace()
{
    // Slow first, then the server is busy (a 503, then a long backoff); the network drops
    // while the request waits: the open banner switches to its offline message without
    // closing, and back.
    m_server->setScript({ 503 });
    m_manager->setRetryPolicy(shortPolicy(300));
    m_banner->setAnimated(false);
    RetryBannerController *controller = m_banner->bind(m_manager.get());
    controller->setThresholdMs(0);
    controller->setDwellMs(0); // each step's words at once (dwellKeepsOneSituation tests it)
    QSignalSpy shown(m_banner, &RetryBanner::showAnimationFinished);
    QSignalSpy hidden(m_banner, &RetryBanner::hideAnimationFinished);
    QSignalSpy offline(m_banner, &RetryBanner::offlineChanged);
    QSignalSpy situation(controller, &RetryBannerController::situationChanged);

    std::unique_ptr<QNetworkReply> reply(m_manager->get(QNetworkRequest(m_server->url())));
    QTRY_COMPARE_WITH_TIMEOUT(controller->situation(), RetryBannerController::Slow, 5000);
    QVERIFY(m_banner->isVisible());
    QVERIFY(!m_banner->isOffline());
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultText());
    // The 503 has come: the request is in its backoff (going offline during the attempt
    // would cancel the attempt itself).
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingToRetry(), 5000);
    QCOMPARE(controller->situation(), RetryBannerController::ServerBusy);
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultServerBusyText());

    m_manager->setSimulatedOffline(true);
    QCOMPARE(controller->situation(), RetryBannerController::Offline);
    QVERIFY(m_banner->isVisible());
    QVERIFY(m_banner->isOffline());
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultOfflineText());
    // The retry comes due while offline: it parks instead of being sent.
    QTRY_VERIFY_WITH_TIMEOUT(retrying->isWaitingForConnectivity(), 5000);
    QCOMPARE(m_server->requests(), 1);

    m_manager->setSimulatedOffline(false);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(m_server->requests(), 2);
    QVERIFY(m_banner->isHidden());
    // Back online, the retried request is slow again until its attempt answers: its last
    // wait was for the network, not the server.
    QList<RetryBannerController::Situation> situations;
    for (const QList<QVariant> &args : std::as_const(situation))
        situations << args.at(0).value<RetryBannerController::Situation>();
    const QList<RetryBannerController::Situation> expected {
        RetryBannerController::Slow, RetryBannerController::ServerBusy,
        RetryBannerController::Offline, RetryBannerController::Slow, RetryBannerController::Hidden
    };
    QCOMPARE(situations, expected);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(hidden.count(), 1);
    QCOMPARE(offline.count(), 2);
    QVERIFY(!m_banner->isOffline());
}

void tst_RetryBanner::offlineLookWithoutController()
{
    QSignalSpy offline(m_banner, &RetryBanner::offlineChanged);
    QSignalSpy offlineText(m_banner, &RetryBanner::offlineTextChanged);
    m_banner->setOffline(true);
    m_banner->setOffline(true);
    QCOMPARE(offline.count(), 1);
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultOfflineText());
    m_banner->setOfflineText(QStringLiteral("No network"));
    QCOMPARE(offlineText.count(), 1);
    QCOMPARE(m_banner->currentText(), QStringLiteral("No network"));
    QCOMPARE(m_banner->accessibleName(), QStringLiteral("No network"));
    // The slow text is kept apart and comes back with the slow look.
    QCOMPARE(m_banner->text(), RetryBanner::defaultText());
    m_banner->setOffline(false);
    QCOMPARE(m_banner->currentText(), RetryBanner::defaultText());
    QCOMPARE(offline.count(), 2);
}

void tst_RetryBanner::animationReachesFinalState()
{
    QVERIFY(m_banner->isAnimated());
    QSignalSpy shown(m_banner, &RetryBanner::showAnimationFinished);
    QSignalSpy hidden(m_banner, &RetryBanner::hideAnimationFinished);

    m_banner->animatedShow();
    QVERIFY(m_banner->isVisible());
    QVERIFY(m_banner->isShowAnimationRunning());
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 1000);
    QVERIFY(!m_banner->isShowAnimationRunning());
    QTRY_COMPARE_WITH_TIMEOUT(m_banner->height(), m_banner->heightForWidth(m_banner->width()),
                              1000);
    QVERIFY(m_banner->height() > 20);

    // Hiding half-way through a show ends hidden, with one signal each.
    m_banner->animatedHide();
    m_banner->animatedShow();
    m_banner->animatedHide();
    QVERIFY(m_banner->isHideAnimationRunning());
    QTRY_COMPARE_WITH_TIMEOUT(hidden.count(), 1, 1000);
    QVERIFY(m_banner->isHidden());
    QCOMPARE(shown.count(), 1);

    // Switching animation off while it runs jumps to the end.
    m_banner->animatedShow();
    m_banner->setAnimated(false);
    QCOMPARE(shown.count(), 2);
    QVERIFY(m_banner->isVisible());
    m_banner->animatedHide();
    QCOMPARE(hidden.count(), 2);
    QVERIFY(m_banner->isHidden());
}

void tst_RetryBanner::rendersSomething_data()
{
    QTest::addColumn<RetryBanner::MessageType>("type");
    QTest::addColumn<bool>("offline");
    QTest::newRow("warning") << RetryBanner::Warning << false;
    QTest::newRow("information") << RetryBanner::Information << false;
    QTest::newRow("offline") << RetryBanner::Warning << true;
}

void tst_RetryBanner::rendersSomething()
{
    QFETCH(RetryBanner::MessageType, type);
    QFETCH(bool, offline);
    m_banner->setMessageType(type);
    m_banner->setOffline(offline);
    m_banner->setAnimated(false);
    m_banner->animatedShow();
    QTRY_VERIFY(m_banner->height() > 20);

    const QImage image = m_banner->grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 100);
    // The background tint, the darker text and the icon give several distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));
    // The middle of the left edge area is the tinted background, not plain window colour.
    const QColor background = image.pixelColor(6, image.height() / 2);
    QVERIFY(background != m_window->palette().color(QPalette::Window));
}

QTEST_MAIN(tst_RetryBanner)
#include "tst_retrybanner.moc"
