// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Every request attribute of KeepTrying is its own: setting one never changes what another
// part of the library reads. Until 0.1 the banner's UserWaitingAttribute and the offline
// copies' ModeAttribute were one id, so marking a request as one the user waits for opted
// it into offline copies, and the reverse.

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/requestattributes.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

const Headers storable = { { "Content-Type", "application/json" } };

} // namespace

class tst_RequestAttributes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void namesAreTheOneTable();
    void eachPairIsIndependent_data();
    void eachPairIsIndependent();
    void userWaitingKeepsNoOfflineCopy();
    void offlineCopyIsNotUserWaiting();
    void offlineCopyOffStaysOnTheBanner();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<RetryingNetworkAccessManager> m_manager;
    bool m_stall = false;
};

void tst_RequestAttributes::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server = std::make_unique<TestServer>();
    QVERIFY(m_server->listen());
    m_stall = false;
    m_server->setHandler([this](const TestServer::Request &, int) {
        return m_stall ? TestServer::stall() : TestServer::respond(200, "{}", storable);
    });
    m_manager = std::make_unique<RetryingNetworkAccessManager>();
    switchOffBreakerAndBudget(*m_manager);
    m_manager->setRetryPolicy(fastPolicy());
    auto *store = new OfflineCopyStore;
    QVERIFY(store->open(m_dir->path()));
    m_manager->setOfflineCopyStore(store);
    OfflineCopy::Settings settings;
    settings.accountKey = QStringLiteral("http://wallabag.test alice");
    m_manager->setOfflineCopySettings(settings);
}

void tst_RequestAttributes::cleanup()
{
    m_manager.reset();
    m_server.reset();
    m_dir.reset();
}

void tst_RequestAttributes::namesAreTheOneTable()
{
    QCOMPARE(int(RetryingNetworkAccessManager::RetryPolicyAttribute),
             int(RequestAttributes::RetryPolicy));
    QCOMPARE(int(RetryingNetworkAccessManager::WaitForConnectivityAttribute),
             int(RequestAttributes::WaitForConnectivity));
    QCOMPARE(int(RetryingNetworkAccessManager::KeepCredentialsOnRedirectAttribute),
             int(RequestAttributes::KeepCredentialsOnRedirect));
    QCOMPARE(int(OfflineCopy::ModeAttribute), int(RequestAttributes::OfflineCopyMode));
    QCOMPARE(int(OfflineCopy::OverrideAttribute), int(RequestAttributes::OfflineCopyOverride));
    QCOMPARE(int(OfflineCopy::IsStaleAttribute), int(RequestAttributes::OfflineCopyIsStale));
    QCOMPARE(int(OfflineCopy::StoredAtAttribute), int(RequestAttributes::OfflineCopyStoredAt));
    QCOMPARE(int(OfflineCopy::AgeAttribute), int(RequestAttributes::OfflineCopyAge));
    QCOMPARE(int(RetryBannerController::UserWaitingAttribute), int(RequestAttributes::UserWaiting));
}

void tst_RequestAttributes::eachPairIsIndependent_data()
{
    QTest::addColumn<int>("set");
    QTest::addColumn<int>("read");
    const auto ids = RequestAttributes::all();
    for (const auto a : ids) {
        for (const auto b : ids) {
            if (a != b)
                QTest::addRow("User+0x%x vs User+0x%x", a - QNetworkRequest::User,
                              b - QNetworkRequest::User)
                    << int(a) << int(b);
        }
    }
}

void tst_RequestAttributes::eachPairIsIndependent()
{
    QFETCH(int, set);
    QFETCH(int, read);
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1/")));
    request.setAttribute(QNetworkRequest::Attribute(set), 1);
    QVERIFY(!request.attribute(QNetworkRequest::Attribute(read)).isValid());
}

void tst_RequestAttributes::userWaitingKeepsNoOfflineCopy()
{
    // The reader marks its list request as one the user waits for and keeps no copy of it.
    const QUrl url = m_server->url(QStringLiteral("/api/entries.json"));
    QNetworkRequest request(url);
    RetryBannerController::markUserWaiting(request, true);
    std::unique_ptr<QNetworkReply> reply(m_manager->get(request));
    QCOMPARE(waitForBody(reply.get()), QByteArray("{}"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QVERIFY(!m_manager->hasOfflineCopy(url));
}

void tst_RequestAttributes::offlineCopyIsNotUserWaiting()
{
    // A background prefetch that keeps a copy must not move a banner that follows only the
    // requests a person waits for.
    RetryBannerController controller;
    controller.setTrackingMode(RetryBannerController::TrackMarkedReplies);
    controller.setManager(m_manager.get());
    m_stall = true;
    QNetworkRequest request(m_server->url(QStringLiteral("/api/entries/1.json")));
    request.setAttribute(OfflineCopy::ModeAttribute, int(OfflineCopy::KeepPinned));
    std::unique_ptr<QNetworkReply> reply(m_manager->get(request));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->requestCount(), 1, 5000);
    QCOMPARE(controller.trackedCount(), 0);
    reply->abort();
}

void tst_RequestAttributes::offlineCopyOffStaysOnTheBanner()
{
    // Saying "no offline copy" explicitly does not hide a request from the banner.
    RetryBannerController controller;
    controller.setTrackingMode(RetryBannerController::TrackAllReplies);
    controller.setManager(m_manager.get());
    m_stall = true;
    QNetworkRequest request(m_server->url(QStringLiteral("/api/entries.json")));
    request.setAttribute(OfflineCopy::ModeAttribute, int(OfflineCopy::Off));
    std::unique_ptr<QNetworkReply> reply(m_manager->get(request));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->requestCount(), 1, 5000);
    QCOMPARE(controller.trackedCount(), 1);
    reply->abort();
}

QTEST_MAIN(tst_RequestAttributes)
#include "tst_requestattributes.moc"
