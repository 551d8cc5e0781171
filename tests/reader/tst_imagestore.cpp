// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The reader's pictures: decoded ones stay within a memory bound, and the pictures of a
// saved article are downloaded for offline reading before anyone opens it.

#include "library/imagestore.h"
#include "library/wallabagclient.h"

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QBuffer>
#include <QtCore/QTemporaryDir>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {
// A 256×256 picture: 256 KiB once decoded as 32-bit pixels, a few hundred bytes as PNG.
QByteArray png(QRgb colour)
{
    QImage image(256, 256, QImage::Format_ARGB32);
    image.fill(colour);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}
} // namespace

class tst_ImageStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void picturesOf_data();
    void picturesOf();
    void decodedImagesStayWithinTheBound();
    void picturesOfAnUnopenedArticleReadOffline();

private:
    void makeManager();
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
};

void tst_ImageStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server = std::make_unique<TestServer>();
    QVERIFY(m_server->listen());
    m_server->setHandler([](const TestServer::Request &request, int) {
        // Each path its own colour, so a mix-up shows.
        const QRgb colour = qRgb(int(qHash(request.target) % 256), 80, 160);
        return TestServer::respond(200, png(colour), { { "Content-Type", "image/png" } });
    });
    makeManager();
}

void tst_ImageStore::makeManager()
{
    m_client.reset();
    m_manager = std::make_unique<RetryingNetworkAccessManager>();
    switchOffBreakerAndBudget(*m_manager);
    m_manager->setRetryPolicy(fastPolicy());
    auto *store = new OfflineCopyStore;
    QVERIFY(store->open(m_dir->path()));
    m_manager->setOfflineCopyStore(store);
    OfflineCopy::Settings settings;
    settings.accountKey = QStringLiteral("http://wallabag.test alice");
    settings.offerAfterMs = 50;
    m_manager->setOfflineCopySettings(settings);
    m_client = std::make_unique<WallabagClient>(m_manager.get());
}

void tst_ImageStore::cleanup()
{
    m_client.reset();
    m_manager.reset();
    m_server.reset();
    m_dir.reset();
}

void tst_ImageStore::picturesOf_data()
{
    QTest::addColumn<QString>("html");
    QTest::addColumn<QStringList>("expected");
    const QString base = QStringLiteral("https://wallabag.test/");
    QTest::newRow("none") << QStringLiteral("<p>Just words.</p>") << QStringList();
    QTest::newRow("absolute and relative")
        << QStringLiteral("<p><img src=\"https://cdn.test/a.png\"> and "
                          "<img src=\"/assets/images/b.jpg\"></p>")
        << QStringList { QStringLiteral("https://cdn.test/a.png"),
                         base + QStringLiteral("assets/images/b.jpg") };
    QTest::newRow("the same twice, once")
        << QStringLiteral("<img src=\"https://cdn.test/a.png\"><p>x</p>"
                          "<img src=\"https://cdn.test/a.png\">")
        << QStringList { QStringLiteral("https://cdn.test/a.png") };
    QTest::newRow("never a local file or inline data")
        << QStringLiteral("<img src=\"file:///etc/passwd\"><img src=\"data:image/png;base64,AA==\">"
                          "<img src=\"http://cdn.test/c.gif\">")
        << QStringList { QStringLiteral("http://cdn.test/c.gif") };
}

void tst_ImageStore::picturesOf()
{
    QFETCH(QString, html);
    QFETCH(QStringList, expected);
    QStringList found;
    for (const QUrl &url :
         ImageStore::picturesOf(html, QUrl(QStringLiteral("https://wallabag.test/"))))
        found.append(url.toString());
    QCOMPARE(found, expected);
}

void tst_ImageStore::decodedImagesStayWithinTheBound()
{
    ImageStore images(m_client.get());
    images.setMemoryLimit(600 * 1024); // two of the 256 KiB pictures, not three
    QSignalSpy ready(&images, &ImageStore::imageReady);
    const QList<QUrl> urls = { m_server->url(QStringLiteral("/1.png")),
                               m_server->url(QStringLiteral("/2.png")),
                               m_server->url(QStringLiteral("/3.png")),
                               m_server->url(QStringLiteral("/4.png")) };
    for (int i = 0; i < urls.size(); ++i) {
        images.request(urls.at(i), ImageStore::Use::Preview);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), i + 1, 5000);
    }
    QCOMPARE(images.imagesInMemory(), 2);
    QVERIFY(images.image(urls.at(0)).isNull());
    QCOMPARE(images.image(urls.at(3)).size(), QSize(256, 256));

    // Shown again: it comes back, downloaded again (or from its offline copy).
    images.request(urls.at(0), ImageStore::Use::Preview);
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 5, 5000);
    QCOMPARE(images.image(urls.at(0)).size(), QSize(256, 256));
    QCOMPARE(images.imagesInMemory(), 2);
}

void tst_ImageStore::picturesOfAnUnopenedArticleReadOffline()
{
    const QString html = QStringLiteral("<p>Trains.</p><img src=\"/pictures/a.png\">"
                                        "<p><img src=\"/pictures/b.png\"></p>");
    const QList<QUrl> pictures = ImageStore::picturesOf(html, m_server->url());
    QCOMPARE(pictures.size(), 2);
    {
        ImageStore images(m_client.get());
        QSignalSpy kept(&images, &ImageStore::keptForOffline);
        images.keepForOffline(pictures);
        images.keepForOffline(pictures); // the same article stored again: no second download
        QTRY_COMPARE_WITH_TIMEOUT(kept.size(), 1, 5000);
        QCOMPARE(m_server->requestCount(), 2);
        QCOMPARE(images.imagesInMemory(), 0); // nothing decoded for an article nobody opened
        QCOMPARE(images.keepingCount(), 0);
    }

    // Another run, offline: the article opens with its pictures.
    makeManager();
    m_manager->setSimulatedOffline(true);
    ImageStore images(m_client.get());
    QSignalSpy ready(&images, &ImageStore::imageReady);
    for (const QUrl &url : pictures)
        images.request(url, ImageStore::Use::Article);
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 2, 5000);
    for (const QUrl &url : pictures)
        QCOMPARE(images.image(url).size(), QSize(256, 256));
    QCOMPARE(m_server->requestCount(), 2);
}

QTEST_MAIN(tst_ImageStore)
#include "tst_imagestore.moc"
