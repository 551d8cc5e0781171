#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>

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
    void badFaultSpec_data();
    void badFaultSpec();
    void passwordFromEnvironment();

private:
    struct Run
    {
        int exitCode = -1;
        QProcess::ExitStatus exitStatus = QProcess::CrashExit;
        QStringList out;
        QString err;
    };
    // environment: "NAME=value" entries added to the reader's environment.
    Run runReader(const QStringList &arguments, int timeoutMs = 15000,
                  const QStringList &environment = {});
    static void checkScreenshot(const QString &file);

    QTemporaryDir m_dir;
};

void tst_Reader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo::exists(QStringLiteral(KEEPTRYING_READER_PATH)), KEEPTRYING_READER_PATH);
}

tst_Reader::Run tst_Reader::runReader(const QStringList &arguments, int timeoutMs,
                                      const QStringList &environment)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    env.remove(QStringLiteral("KEEPTRYING_PASSWORD"));
    for (const QString &entry : environment)
        env.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
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
    // QA scripts find the built-in server (and its admin API) from the first lines.
    QVERIFY(run.out.size() >= 2);
    QVERIFY2(QRegularExpression(QStringLiteral("^demo server: http://127\\.0\\.0\\.1:\\d+$"))
                 .match(run.out.at(0))
                 .hasMatch(),
             qPrintable(run.out.join(QLatin1Char('|'))));
    QVERIFY2(QRegularExpression(QStringLiteral("^demo server admin: http://127\\.0\\.0\\.1:\\d+$"))
                 .match(run.out.at(1))
                 .hasMatch(),
             qPrintable(run.out.join(QLatin1Char('|'))));
    QVERIFY(run.out.at(0).section(QLatin1Char(':'), -1) !=
            run.out.at(1).section(QLatin1Char(':'), -1));
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

void tst_Reader::passwordFromEnvironment()
{
    // A server of its own, as --server would name a real wallabag.
    QProcess server;
    server.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                 { QStringLiteral("--port"), QStringLiteral("0") });
    QVERIFY(server.waitForStarted(5000));
    QVERIFY(server.waitForReadyRead(10000));
    const QString firstLine = QString::fromUtf8(server.readLine()).trimmed();
    QVERIFY2(firstLine.startsWith(QLatin1String("listening on http://127.0.0.1:")),
             qPrintable(firstLine));
    const QString url = firstLine.mid(int(qstrlen("listening on ")));

    // Not --password: that would show in every user's process list.
    const QString shot = m_dir.filePath(QStringLiteral("password.png"));
    const Run run =
        runReader({ QStringLiteral("--server"), url, QStringLiteral("--client-id"),
                    QStringLiteral("keeptrying-demo"), QStringLiteral("--client-secret"),
                    QStringLiteral("keeptrying-demo-secret"), QStringLiteral("--username"),
                    QStringLiteral("demo"), QStringLiteral("--screenshot"), shot,
                    QStringLiteral("--quit-after"), QStringLiteral("12000") },
                  15000, { QStringLiteral("KEEPTRYING_PASSWORD=demo") });
    server.kill();
    server.waitForFinished(5000);
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.filter(QRegularExpression(QStringLiteral("^loaded \\d+ articles$"))).size(),
             1);
    QVERIFY(run.out.filter(QStringLiteral("demo server")).isEmpty()); // not the built-in one

    const Run help = runReader({ QStringLiteral("--help") });
    const QString text = help.out.join(QLatin1Char(' ')).simplified();
    QVERIFY2(text.contains(QLatin1String("Visible to other users")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("KEEPTRYING_PASSWORD")), qPrintable(text));
}

QTEST_GUILESS_MAIN(tst_Reader)
#include "tst_reader.moc"
