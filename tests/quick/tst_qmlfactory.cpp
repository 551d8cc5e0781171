// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// QML loads images on a loader thread through a manager its factory makes there: that
// manager must wait while the app's manager is simulated offline, learn with it which
// origins are unreachable, and let the app's thread probe them. The QML banner says why QML
// waits.

#include "testserver.h"

#include <KeepTrying/qmlnetworkaccessmanagerfactory.h>
#include <KeepTrying/quick.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QBuffer>
#include <QtCore/QMutex>
#include <QtCore/QThread>
#include <QtGui/QImage>
#include <QtNetwork/QTcpServer>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::RetryBannerController;
using KeepTrying::Test::TestServer;

namespace {

QByteArray png()
{
    QImage image(16, 16, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

quint16 unusedPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost) ? probe.serverPort() : 0;
}

// Which threads asked the factory for a manager.
class RecordingFactory : public KeepTrying::QmlNetworkAccessManagerFactory
{
public:
    using QmlNetworkAccessManagerFactory::QmlNetworkAccessManagerFactory;
    QNetworkAccessManager *create(QObject *parent) override
    {
        const QMutexLocker lock(&mutex);
        threads.append(QThread::currentThread());
        return QmlNetworkAccessManagerFactory::create(parent);
    }
    QList<QThread *> seen() const
    {
        const QMutexLocker lock(&mutex);
        return threads;
    }

private:
    mutable QMutex mutex;
    QList<QThread *> threads;
};

std::unique_ptr<QObject> createImage(QQmlEngine &engine, const QUrl &source)
{
    QQmlComponent component(&engine);
    component.setData(QByteArrayLiteral("import QtQuick\nImage { asynchronous: true }"), QUrl());
    std::unique_ptr<QObject> image(
        component.createWithInitialProperties({ { QStringLiteral("source"), source } }));
    if (!image)
        qWarning() << component.errors();
    return image;
}

// QQuickImageBase::Status
enum { Null, Ready, Loading, Error };

} // namespace

class tst_QmlFactory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        // A timer started, or a QObject used, from the wrong thread says so in a warning.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("thread")));
    }
    void imageWaitsWhileSimulatedOffline();
    void refusedImageOriginIsProbedByTheAppThread();
    void qmlBannerSaysOffline();
};

// The image's manager is made on a loader thread, yet the app's switch holds it: nothing
// reaches the server while offline; back online, one request, and the image is Ready.
void tst_QmlFactory::imageWaitsWhileSimulatedOffline()
{
    TestServer server;
    QVERIFY(server.listen());
    const QByteArray image = png();
    server.setHandler([image](const TestServer::Request &, int) {
        return TestServer::respond(200, image, { { "Content-Type", "image/png" } });
    });

    KeepTrying::RetryingNetworkAccessManager manager;
    manager.setSimulatedOffline(true);
    RecordingFactory factory(&manager);
    QQmlEngine engine;
    engine.setNetworkAccessManagerFactory(&factory);

    const auto item = createImage(engine, server.url(QStringLiteral("/picture.png")));
    QVERIFY(item);
    QTRY_VERIFY_WITH_TIMEOUT(!factory.seen().isEmpty(), 5000);
    QVERIFY(!factory.seen().contains(QThread::currentThread())); // a loader thread's manager
    QCOMPARE(item->property("status").toInt(), int(Loading));
    QTest::qWait(600); // the manager waits; nothing may reach the server meanwhile
    QCOMPARE(item->property("status").toInt(), int(Loading));
    QCOMPARE(server.requestCount(), 0);

    manager.setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(item->property("status").toInt(), int(Ready), 5000);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(item->property("sourceSize").toSize(), QSize(16, 16));
}

// A refused image request on the loader thread makes the origin unreachable for the app's
// thread at once; the app's Reachability probes it there, and the image loads when the
// server listens.
void tst_QmlFactory::refusedImageOriginIsProbedByTheAppThread()
{
    const quint16 port = unusedPort();
    QVERIFY(port != 0);
    const QUrl url(QStringLiteral("http://127.0.0.1:%1/late.png").arg(port));

    KeepTrying::RetryingNetworkAccessManager manager;
    manager.reachability()->setConnectProbeSchedule(50);
    manager.reachability()->setProbeSchedule(50, 200);
    KeepTrying::QmlNetworkAccessManagerFactory factory(&manager);
    QQmlEngine engine;
    engine.setNetworkAccessManagerFactory(&factory);

    const auto item = createImage(engine, url);
    QVERIFY(item);
    QTRY_VERIFY_WITH_TIMEOUT(!manager.reachability()->isReachable(url), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(manager.reachability()->connectProbeCount() > 0, 5000);
    QCOMPARE(item->property("status").toInt(), int(Loading));

    TestServer server;
    QVERIFY(server.listen(port));
    const QByteArray image = png();
    server.setHandler([image](const TestServer::Request &request, int) {
        return request.method == "HEAD" ? TestServer::respond(200)
                                        : TestServer::respond(200, image);
    });
    QTRY_COMPARE_WITH_TIMEOUT(item->property("status").toInt(), int(Ready), 10000);
    QVERIFY(manager.reachability()->isReachable(url));
}

// XMLHttpRequest waits while offline; the engine's BannerState says Offline, with the
// translated words and a typed wait reason QML can compare, and RetryBanner shows it.
void tst_QmlFactory::qmlBannerSaysOffline()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) {
        return TestServer::respond(200, "{\"title\": \"hello\"}");
    });
    KeepTrying::RetryingNetworkAccessManager manager;
    manager.setSimulatedOffline(true);
    QQmlEngine engine;
    KeepTrying::setUpQmlEngine(&engine, &manager);
    RetryBannerController *state = KeepTrying::bannerState(&engine);
    QVERIFY(state);

    QQmlComponent component(&engine);
    component.setData(QByteArrayLiteral(R"(
import QtQuick
import KeepTrying
Item {
    property string url
    property string answer
    readonly property bool waitsOffline: BannerState.waitReason.kind === WaitReason.Offline
    readonly property bool offlineSituation:
        BannerState.situation === RetryBannerController.Offline
    property alias banner: banner
    width: 400; height: 100
    RetryBanner { id: banner; width: parent.width }
    Component.onCompleted: {
        const xhr = new XMLHttpRequest();
        xhr.onreadystatechange = () => {
            if (xhr.readyState === XMLHttpRequest.DONE) answer = xhr.responseText;
        };
        xhr.open("GET", url);
        xhr.send();
    }
})"),
                      QUrl());
    const std::unique_ptr<QObject> root(component.createWithInitialProperties(
        { { QStringLiteral("url"), server.url(QStringLiteral("/article")).toString() } }));
    QVERIFY2(root, qPrintable(component.errorString()));

    QTRY_COMPARE_WITH_TIMEOUT(state->situation(), RetryBannerController::Offline, 5000);
    QVERIFY(root->property("offlineSituation").toBool());
    QVERIFY(root->property("waitsOffline").toBool());
    auto *banner = root->property("banner").value<QObject *>();
    QVERIFY(banner);
    QVERIFY(banner->property("shown").toBool());
    QCOMPARE(banner->property("text").toString(),
             RetryBannerController::textFor(RetryBannerController::Offline));
    QCOMPARE(server.requestCount(), 0);

    manager.setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(root->property("answer").toString(),
                              QStringLiteral("{\"title\": \"hello\"}"), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(state->situation(), RetryBannerController::Hidden, 5000);
    QVERIFY(!banner->property("shown").toBool());
    QCOMPARE(server.requestCount(), 1);
}

QTEST_MAIN(tst_QmlFactory)
#include "tst_qmlfactory.moc"
