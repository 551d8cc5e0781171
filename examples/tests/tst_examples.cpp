// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Smoke tests of examples/: each example runs as a user would start it, against a loopback
// TestServer, and exits after its first result (--quit-after-result); its output is checked.

#include "testserver.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#ifdef KT_EXAMPLE_BANNER
#include <KeepTrying/retrybanner.h>
#endif
#include <KeepTrying/retrybannercontroller.h>

#include <QtCore/QBuffer>
#include <QtGui/QImage>

#include <functional>

using KeepTrying::Test::TestServer;

namespace {

struct Run
{
    int exitCode = -1;
    QStringList lines;
};

// Runs \a program to its end while this thread's event loop serves the TestServer;
// \a onLine, if given, sees each line of its output as it comes.
Run run(const QString &program, const QStringList &arguments,
        const std::function<void(const QString &)> &onLine = {})
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QSignalSpy finished(&process, &QProcess::finished);
    QStringList seen;
    if (onLine) {
        QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, [&] {
            while (process.canReadLine()) {
                const QString line = QString::fromUtf8(process.readLine()).trimmed();
                seen.append(line);
                onLine(line);
            }
        });
    }
    process.start(program, arguments);
    Run result;
    if (!process.waitForStarted(10000) || !finished.wait(60000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    result.lines =
        seen + QString::fromUtf8(process.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    return result;
}

// A port on 127.0.0.1 where nothing listens (until a TestServer is told to).
quint16 unusedPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost) ? probe.serverPort() : 0;
}

} // namespace

class tst_Examples : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void retries();
    void banner();
    void outbox();
    void offline();
    void qml();
};

// A 503, then the page: the window says the attempt failed, then shows the page and the
// number of attempts it took.
void tst_Examples::retries()
{
#ifndef KT_EXAMPLE_RETRIES
    QSKIP("built without Qt Widgets");
#else
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503, "busy")
                          : TestServer::respond(200, "hello from the loopback server");
    });
    const Run out = run(
        QStringLiteral(KT_EXAMPLE_RETRIES),
        { server.url(QStringLiteral("/page")).toString(), QStringLiteral("--quit-after-result") });
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines.size(), 3);
    QVERIFY2(out.lines.at(1).startsWith(QStringLiteral("attempt 1 failed (HTTP 503), next in ")),
             qPrintable(out.lines.at(1)));
    QCOMPARE(out.lines.at(2),
             QStringLiteral("result: HTTP 200 after 2 attempts: hello from the loopback server"));
    QCOMPARE(server.requestCount(), 2);
#endif
}

// A 503 with Retry-After: 2 keeps the user waiting past the banner's one-second threshold:
// the banner shows the server-busy words, then the page arrives.
void tst_Examples::banner()
{
#ifndef KT_EXAMPLE_BANNER
    QSKIP("built without KeepTrying::Widgets");
#else
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        return index == 0 ? TestServer::respond(503, "busy", { { "Retry-After", "2" } })
                          : TestServer::respond(200, "the article");
    });
    const Run out = run(QStringLiteral(KT_EXAMPLE_BANNER),
                        { server.url().toString(), QStringLiteral("--quit-after-result") });
    QCOMPARE(out.exitCode, 0);
    const QString shown =
        QStringLiteral("banner: ") + KeepTrying::RetryBanner::defaultServerBusyText();
    QVERIFY2(out.lines.contains(shown), qPrintable(out.lines.join(u'|')));
    QCOMPARE(out.lines.constLast(), QStringLiteral("result: the article"));
    QVERIFY(out.lines.indexOf(shown) < out.lines.size() - 1);
#endif
}

// Queued while nothing listens, the process ends; the next run, with the server up,
// delivers it: one POST with the text and an Idempotency-Key, and nothing is left.
void tst_Examples::outbox()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString database = dir.filePath(QStringLiteral("outbox.db"));
    const quint16 port = unusedPort();
    QVERIFY(port != 0);
    const QString url = QStringLiteral("http://127.0.0.1:%1/notes").arg(port);
    const QString program = QStringLiteral(KT_EXAMPLE_OUTBOX);

    Run out =
        run(program,
            { database, url, QStringLiteral("buy milk"), QStringLiteral("--quit-after-result") });
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines, QStringList { QStringLiteral("queued #1, 1 waiting") });

    TestServer server;
    QVERIFY(server.listen(port));
    server.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(201, "stored"); });
    out = run(program, { database, url, QStringLiteral("--quit-after-result") });
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines,
             (QStringList { QStringLiteral("1 waiting"),
                            QStringLiteral("delivered #1: HTTP 201 stored") }));
    QCOMPARE(server.requestCount(), 1);
    const TestServer::Request post = server.requests().constFirst();
    QCOMPARE(post.method, QByteArray("POST"));
    QCOMPARE(post.target, QByteArray("/notes"));
    QCOMPARE(post.body, QByteArray("buy milk"));
    QVERIFY(!post.header("Idempotency-Key").isEmpty());

    out = run(program, { database, url, QStringLiteral("--quit-after-result") });
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines, QStringList { QStringLiteral("0 waiting") });
}

// The first run keeps the answer. In the second the server is busy (503, Retry-After: 2):
// the kept answer is offered after a second, then the fresh one arrives on the same reply.
void tst_Examples::offline()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int index) {
        if (index == 1)
            return TestServer::respond(503, "busy", { { "Retry-After", "2" } });
        return TestServer::respond(200, index == 0 ? "first edition" : "second edition");
    });
    const QStringList arguments { dir.path(), server.url(QStringLiteral("/news")).toString(),
                                  QStringLiteral("--quit-after-result") };
    Run out = run(QStringLiteral(KT_EXAMPLE_OFFLINE), arguments);
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines, QStringList { QStringLiteral("fresh: first edition") });

    out = run(QStringLiteral(KT_EXAMPLE_OFFLINE), arguments);
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(out.lines.size(), 2);
    QVERIFY2(out.lines.at(0).startsWith(QStringLiteral("stale (")), qPrintable(out.lines.at(0)));
    QVERIFY2(out.lines.at(0).endsWith(QStringLiteral(" s old): first edition")),
             qPrintable(out.lines.at(0)));
    QCOMPARE(out.lines.at(1), QStringLiteral("fresh: second edition"));
    QCOMPARE(server.requestCount(), 3);
}

// Offline for a second: the banner says so while the image and the article wait, and
// nothing reaches the server; then each is fetched once and the page shows them. The window
// is saved meanwhile (--screenshot), banner open.
void tst_Examples::qml()
{
#ifndef KT_EXAMPLE_QML
    QSKIP("built without KeepTrying::Quick");
#else
    QImage picture(320, 140, QImage::Format_RGB32);
    picture.fill(QColor(0x2f, 0x6f, 0xbf));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(picture.save(&buffer, "PNG"));
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([png](const TestServer::Request &request, int) {
        if (request.target == "/image.png")
            return TestServer::respond(200, png, { { "Content-Type", "image/png" } });
        return TestServer::respond(200, R"({"title": "An article from the loopback server"})",
                                   { { "Content-Type", "application/json" } });
    });
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString shot = dir.filePath(QStringLiteral("qml.png"));
    int requestsWhileOffline = -1;
    const QString offlineLine = QStringLiteral("banner: ") +
        KeepTrying::RetryBannerController::textFor(KeepTrying::RetryBannerController::Offline);
    const Run out =
        run(QStringLiteral(KT_EXAMPLE_QML),
            { server.url().toString(QUrl::StripTrailingSlash), QStringLiteral("--offline-ms"),
              QStringLiteral("1500"), QStringLiteral("--screenshot"), shot,
              QStringLiteral("--quit-after-result") },
            [&](const QString &line) {
                if (line == QLatin1String("screenshot saved"))
                    requestsWhileOffline = server.requestCount();
            });
    QCOMPARE(out.exitCode, 0);
    QVERIFY2(out.lines.contains(QStringLiteral("image: loading")),
             qPrintable(out.lines.join(u'|')));
    QVERIFY2(out.lines.contains(offlineLine), qPrintable(out.lines.join(u'|')));
    QVERIFY2(out.lines.contains(QStringLiteral("screenshot saved")),
             qPrintable(out.lines.join(u'|')));
    QCOMPARE(requestsWhileOffline, 0); // the image and the article waited, without a request
    QCOMPARE(out.lines.constLast(),
             QStringLiteral("loaded: An article from the loopback server, image 320x140"));
    QCOMPARE(server.requestCount(), 2); // one each: the image and the article
    QImage saved(shot);
    QVERIFY(!saved.isNull());
    QCOMPARE(saved.size(), QSize(480, 360));
#endif
}

QTEST_GUILESS_MAIN(tst_Examples)
#include "tst_examples.moc"
