#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>

using KeepTrying::Demo::DemoServer;

// Runs the reader as a user would, on the offscreen platform, and reads what it prints.
class tst_Reader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void loadsLibrary();
    void bannerShowsThenHides();
    void offlineBanner();
    void offlineThenBackOnline();
    void keepsTryingThroughServerFaults();
    void badFaultSpec_data();
    void badFaultSpec();

private:
    struct Run
    {
        int exitCode = -1;
        QProcess::ExitStatus exitStatus = QProcess::CrashExit;
        QStringList out;
        QString err;
    };
    Run runReader(const QStringList &arguments, int timeoutMs = 15000);
    // Starts the reader against \a server (a DemoServer of the test's own, served by this
    // thread's event loop while the reader runs).
    void startReader(QProcess &process, const QUrl &server, const QStringList &arguments,
                     const QString &password = DemoServer::demoPassword());
    static Run collect(QProcess &process);
    static void checkScreenshot(const QString &file);

    QTemporaryDir m_dir;
};

void tst_Reader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo::exists(QStringLiteral(KEEPTRYING_READER_PATH)), KEEPTRYING_READER_PATH);
}

tst_Reader::Run tst_Reader::runReader(const QStringList &arguments, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(KEEPTRYING_READER_PATH), arguments);
    Run run;
    if (!process.waitForStarted(5000))
        return run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
    }
    run.exitCode = process.exitCode();
    run.exitStatus = process.exitStatus();
    run.out = QString::fromLocal8Bit(process.readAllStandardOutput())
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    run.err = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

void tst_Reader::startReader(QProcess &process, const QUrl &server, const QStringList &arguments,
                             const QString &password)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(KEEPTRYING_READER_PATH),
                  QStringList { QStringLiteral("--server"), server.toString(),
                                QStringLiteral("--client-id"), DemoServer::demoClientId(),
                                QStringLiteral("--client-secret"), DemoServer::demoClientSecret(),
                                QStringLiteral("--username"), DemoServer::demoUsername(),
                                QStringLiteral("--password"), password } +
                      arguments);
}

tst_Reader::Run tst_Reader::collect(QProcess &process)
{
    Run run;
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(2000);
    }
    run.exitCode = process.exitCode();
    run.exitStatus = process.exitStatus();
    run.out = QString::fromLocal8Bit(process.readAllStandardOutput())
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    run.err = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

void tst_Reader::checkScreenshot(const QString &file)
{
    QVERIFY2(QFileInfo::exists(file), qPrintable(file));
    const QImage image(file);
    QVERIFY(!image.isNull());
    QVERIFY2(image.width() >= 800 && image.height() >= 500,
             qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
}

void tst_Reader::loadsLibrary()
{
    const QString shot = m_dir.filePath(QStringLiteral("loaded.png"));
    const Run run = runReader({ QStringLiteral("--screenshot"), shot,
                                QStringLiteral("--screenshot-when"), QStringLiteral("loaded"),
                                QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));

    const QRegularExpression loaded(QStringLiteral("^loaded (\\d+) articles$"));
    const QStringList loadedLines = run.out.filter(loaded);
    QCOMPARE(loadedLines.size(), 1);
    QVERIFY2(loaded.match(loadedLines.constFirst()).captured(1).toInt() >= 40,
             qPrintable(loadedLines.constFirst()));
    QVERIFY(run.out.contains(QStringLiteral("screenshot: ") + shot));
    QVERIFY(!run.out.contains(QStringLiteral("banner shown")));
    checkScreenshot(shot);
}

void tst_Reader::bannerShowsThenHides()
{
    // The list request fails twice with Retry-After: 1, so it takes about 2 s: the banner
    // opens after 1 s, and closes once the third attempt has loaded the list.
    const QString shot = m_dir.filePath(QStringLiteral("banner.png"));
    const Run run = runReader({ QStringLiteral("--demo-fault"),
                                QStringLiteral("route=/api/entries*,status=503,count=2,"
                                               "retry-after=1"),
                                QStringLiteral("--screenshot"), shot,
                                QStringLiteral("--screenshot-when"), QStringLiteral("banner"),
                                QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));

    const int shown = run.out.indexOf(QStringLiteral("banner shown"));
    const int saved = run.out.indexOf(QStringLiteral("screenshot: ") + shot);
    const int hidden = run.out.indexOf(QStringLiteral("banner hidden"));
    const int loaded =
        run.out.indexOf(QRegularExpression(QStringLiteral("^loaded \\d+ articles$")));
    QVERIFY2(shown >= 0 && saved > shown && hidden > saved && loaded > shown,
             qPrintable(run.out.join(QLatin1Char('|'))));
    checkScreenshot(shot);
}

void tst_Reader::offlineBanner()
{
    // Simulated offline: the list request waits; the banner says "offline", not an error.
    const QString shot = m_dir.filePath(QStringLiteral("offline.png"));
    const Run run =
        runReader({ QStringLiteral("--simulate-offline"), QStringLiteral("--screenshot"), shot,
                    QStringLiteral("--screenshot-when"), QStringLiteral("offline"),
                    QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    const int shown = run.out.indexOf(QStringLiteral("banner shown offline"));
    const int saved = run.out.indexOf(QStringLiteral("screenshot: ") + shot);
    QVERIFY2(shown >= 0 && saved > shown, qPrintable(run.out.join(QLatin1Char('|'))));
    QVERIFY(run.out.filter(QStringLiteral("loaded")).isEmpty());
    QVERIFY(!run.out.contains(QStringLiteral("banner shown")));
    checkScreenshot(shot);
}

void tst_Reader::offlineThenBackOnline()
{
    // As a user unticking Developer ▸ Simulate Offline: the waiting requests go out, the
    // list loads and the banner leaves, without anything being pressed.
    const QString shot = m_dir.filePath(QStringLiteral("offline-back.png"));
    const Run run =
        runReader({ QStringLiteral("--simulate-offline"), QStringLiteral("--back-online-after"),
                    QStringLiteral("200"), QStringLiteral("--screenshot"), shot,
                    QStringLiteral("--screenshot-when"), QStringLiteral("offline"),
                    QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    const int shown = run.out.indexOf(QStringLiteral("banner shown offline"));
    const int saved = run.out.indexOf(QStringLiteral("screenshot: ") + shot);
    const int online = run.out.indexOf(QStringLiteral("back online"));
    const int hidden = run.out.indexOf(QStringLiteral("banner hidden"));
    const int loaded =
        run.out.indexOf(QRegularExpression(QStringLiteral("^loaded \\d+ articles$")));
    QVERIFY2(shown >= 0 && saved > shown && online > saved && hidden > online && loaded > online,
             qPrintable(run.out.join(QLatin1Char('|'))));
    // Nothing was reported as a failure: the request waited, then went out.
    QVERIFY2(!run.err.contains(QStringLiteral("keeptrying-reader:")), qPrintable(run.err));
    checkScreenshot(shot);
}

void tst_Reader::keepsTryingThroughServerFaults()
{
    // The list request meets 503 after 503 (each with Retry-After: 1, so the test is quick):
    // the reader keeps trying well past the five attempts of a default policy, and once the
    // server is healthy the list loads without anyone doing anything.
    DemoServer server;
    QVERIFY(server.listen() != 0);
    QVERIFY(server.addFault(QStringLiteral("route=/api/entries*,status=503,retry-after=1")));
    const auto listRequests = [&server] {
        return server.stats()
            .value(QLatin1String("requests_per_route"))
            .toObject()
            .value(QLatin1String("GET /api/entries.json"))
            .toInt();
    };
    const QString shot = m_dir.filePath(QStringLiteral("storm.png"));
    QProcess reader;
    startReader(reader, server.baseUrl(),
                { QStringLiteral("--screenshot"), shot, QStringLiteral("--screenshot-when"),
                  QStringLiteral("loaded"), QStringLiteral("--quit-after"),
                  QStringLiteral("40000") });
    QVERIFY(reader.waitForStarted(5000));
    QTRY_VERIFY_WITH_TIMEOUT(listRequests() >= 7 || reader.state() == QProcess::NotRunning, 20000);
    QCOMPARE(reader.state(), QProcess::Running); // neither given up nor loaded
    server.clearFaults();
    QTRY_COMPARE_WITH_TIMEOUT(reader.state(), QProcess::NotRunning, 15000);
    const Run run = collect(reader);
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("banner shown")),
             qPrintable(run.out.join(QLatin1Char('|'))));
    QVERIFY(run.out.filter(QStringLiteral("failed:")).isEmpty());
    QCOMPARE(run.out.filter(QRegularExpression(QStringLiteral("^loaded \\d+ articles$"))).size(),
             1);
    checkScreenshot(shot);
}

void tst_Reader::badFaultSpec_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("unknown key") << QStringList { QStringLiteral("--demo-fault"),
                                                  QStringLiteral("colour=blue") };
    QTest::newRow("bad status") << QStringList { QStringLiteral("--demo-fault"),
                                                 QStringLiteral("status=banana") };
    QTest::newRow("bad screenshot-when")
        << QStringList { QStringLiteral("--screenshot-when"), QStringLiteral("never") };
    QTest::newRow("bad back-online-after")
        << QStringList { QStringLiteral("--back-online-after"), QStringLiteral("soon") };
}

void tst_Reader::badFaultSpec()
{
    QFETCH(QStringList, arguments);
    const Run run = runReader(
        arguments + QStringList { QStringLiteral("--quit-after"), QStringLiteral("3000") });
    QCOMPARE(run.exitStatus, QProcess::NormalExit);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(!run.err.trimmed().isEmpty());
    QVERIFY(run.out.filter(QStringLiteral("loaded")).isEmpty());
}

QTEST_GUILESS_MAIN(tst_Reader)
#include "tst_reader.moc"
