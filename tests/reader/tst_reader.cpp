// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtNetwork/QTcpServer>
#include <QtTest/QTest>

using KeepTrying::Demo::DemoServer;

// Runs the reader as a user would, on the offscreen platform, and reads what it prints.
class tst_Reader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void loadsLibrary();
    void filterCountsBesideTheList();
    void bannerShowsThenHides();
    void offlineBanner();
    void offlineThenBackOnline();
    void keepsTryingThroughServerFaults();
    void slowServerShowsBanner();
    void permanentErrorInWords_data();
    void permanentErrorInWords();
    void refusedConnectionIsNotOffline();
    void badFaultSpec_data();
    void badFaultSpec();
    void passwordFromEnvironment();
    void badServerUrl_data();
    void badServerUrl();
    void linesForScriptsCarryTimestamps();
    void failedChangeScreenshotOnce();

private:
    struct Run
    {
        int exitCode = -1;
        QProcess::ExitStatus exitStatus = QProcess::CrashExit;
        QStringList out; // stdout's lines, each without its timestamp
        QStringList untimed; // stdout's lines that had none (--help's)
        QStringList stamps; // the timestamps, in order
        QString err;
    };
    static void readOut(Run &run, const QByteArray &out);
    // environment: "NAME=value" entries added to the reader's environment.
    Run runReader(const QStringList &arguments, int timeoutMs = 15000,
                  const QStringList &environment = {});
    // Starts the reader against \a server (a DemoServer of the test's own, served by this
    // thread's event loop while the reader runs).
    void startReader(QProcess &process, const QUrl &server, const QStringList &arguments,
                     const QString &password = DemoServer::demoPassword());
    static Run collect(QProcess &process);
    // A home of its own for each run: the reader's database, settings and keychain choice
    // never come from the machine's user or from another test.
    void isolate(QProcessEnvironment &env);
    int m_homes = 0;
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
    isolate(env);
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
    readOut(run, process.readAllStandardOutput());
    run.err = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

void tst_Reader::startReader(QProcess &process, const QUrl &server, const QStringList &arguments,
                             const QString &password)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_SIMULATE_OFFLINE"), QStringLiteral("0"));
    isolate(env);
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(KEEPTRYING_READER_PATH),
                  QStringList { QStringLiteral("--server"), server.toString(),
                                QStringLiteral("--client-id"), DemoServer::demoClientId(),
                                QStringLiteral("--client-secret"), DemoServer::demoClientSecret(),
                                QStringLiteral("--username"), DemoServer::demoUsername(),
                                QStringLiteral("--password"), password } +
                      arguments);
}

// The reader's lines for scripts start with when they were printed (ISO 8601 UTC with
// milliseconds, then a space); the tests read what follows.
void tst_Reader::readOut(Run &run, const QByteArray &out)
{
    static const QRegularExpression stamped(
        QStringLiteral("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z) (.*)$"));
    const QStringList lines =
        QString::fromLocal8Bit(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QRegularExpressionMatch m = stamped.match(line);
        if (m.hasMatch()) {
            run.stamps << m.captured(1);
            run.out << m.captured(2);
        } else {
            run.untimed << line;
            run.out << line;
        }
    }
}

void tst_Reader::isolate(QProcessEnvironment &env)
{
    const QString home = m_dir.filePath(QStringLiteral("home-%1").arg(++m_homes));
    QDir().mkpath(home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
    env.insert(QStringLiteral("KEEPTRYING_NO_KEYCHAIN"), QStringLiteral("1"));
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
    readOut(run, process.readAllStandardOutput());
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

void tst_Reader::filterCountsBesideTheList()
{
    // The counts in the filter pane come from the same store as the list, in the same turn
    // of the event loop: a screenshot of the loaded list shows them, and the sample
    // library's tags, not zeros beside 41 articles.
    DemoServer sample; // registers the sample library's resources
    QFile file(QStringLiteral(":/demo/articles/articles.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray articles =
        QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("articles")).toArray();
    QVERIFY(articles.size() >= 40);
    int unread = 0;
    int starred = 0;
    int archived = 0;
    QSet<QString> tags;
    for (const QJsonValue &value : articles) {
        const QJsonObject a = value.toObject();
        archived += a.value(QLatin1String("is_archived")).toBool() ? 1 : 0;
        unread += a.value(QLatin1String("is_archived")).toBool() ? 0 : 1;
        starred += a.value(QLatin1String("is_starred")).toBool() ? 1 : 0;
        const QJsonArray labels = a.value(QLatin1String("tags")).toArray();
        for (const QJsonValue &label : labels)
            tags.insert(label.toString());
    }
    QVERIFY(!tags.isEmpty());

    const QString shot = m_dir.filePath(QStringLiteral("counts.png"));
    const Run run = runReader({ QStringLiteral("--screenshot"), shot,
                                QStringLiteral("--screenshot-when"), QStringLiteral("loaded"),
                                QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    const QStringList lines = run.out.filter(QRegularExpression(QStringLiteral("^filters: ")));
    QCOMPARE(lines.size(), 1);
    QHash<QString, int> shown;
    int tagsShown = 0;
    const QStringList entries = lines.constFirst().mid(9).split(QStringLiteral("; "));
    for (const QString &entry : entries) {
        const QString name = entry.section(QLatin1Char('='), 0, -2);
        shown.insert(name, entry.section(QLatin1Char('='), -1).toInt());
        if (name.startsWith(QLatin1String("# ")))
            ++tagsShown;
    }
    QCOMPARE(shown.value(QStringLiteral("Unread"), -1), unread);
    QCOMPARE(shown.value(QStringLiteral("Starred"), -1), starred);
    QCOMPARE(shown.value(QStringLiteral("Archive"), -1), archived);
    QCOMPARE(shown.value(QStringLiteral("All"), -1), int(articles.size()));
    QCOMPARE(tagsShown, int(tags.size()));
    QVERIFY(run.out.contains(QStringLiteral("loaded %1 articles").arg(unread)));
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

void tst_Reader::slowServerShowsBanner()
{
    // No fault but time: the server takes 2.5 s to answer the list. The banner shows after
    // a second although nothing is retried, and leaves once the list is in.
    const QString shot = m_dir.filePath(QStringLiteral("slow.png"));
    const Run run = runReader(
        { QStringLiteral("--demo-fault"), QStringLiteral("route=/api/entries*,latency=2500"),
          QStringLiteral("--screenshot"), shot, QStringLiteral("--screenshot-when"),
          QStringLiteral("banner"), QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    const int shown = run.out.indexOf(QStringLiteral("banner shown"));
    const int hidden = run.out.indexOf(QStringLiteral("banner hidden"));
    const int loaded =
        run.out.indexOf(QRegularExpression(QStringLiteral("^loaded \\d+ articles$")));
    QVERIFY2(shown >= 0 && hidden > shown && loaded > shown,
             qPrintable(run.out.join(QLatin1Char('|'))));
    checkScreenshot(shot);
}

void tst_Reader::permanentErrorInWords_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("password");
    QTest::addColumn<QStringList>("expectWords");

    // wallabag answers a wrong password with 400 invalid_grant, not 401.
    QTest::newRow("wrong password")
        << QStringLiteral("/") << QStringLiteral("wrong")
        << QStringList { QStringLiteral("user name"), QStringLiteral("password") };
    QTest::newRow("no wallabag there")
        << QStringLiteral("/not-wallabag/") << DemoServer::demoPassword()
        << QStringList { QStringLiteral("doesn't look like a wallabag server"),
                         QStringLiteral("Sign In") };
}

void tst_Reader::permanentErrorInWords()
{
    // What trying again cannot fix is said as such, in words, with what to do: not as a
    // status code, and not as a retry button.
    QFETCH(QString, path);
    QFETCH(QString, password);
    QFETCH(QStringList, expectWords);

    DemoServer server;
    QVERIFY(server.listen() != 0);
    const QString shot = m_dir.filePath(QStringLiteral("failed.png"));
    QProcess reader;
    startReader(reader, server.baseUrl().resolved(QUrl(path)),
                { QStringLiteral("--screenshot"), shot, QStringLiteral("--screenshot-when"),
                  QStringLiteral("failed"), QStringLiteral("--quit-after"),
                  QStringLiteral("10000") },
                password);
    QVERIFY(reader.waitForStarted(5000));
    QTRY_COMPARE_WITH_TIMEOUT(reader.state(), QProcess::NotRunning, 15000);
    const Run run = collect(reader);
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    const QStringList failed = run.out.filter(QRegularExpression(QStringLiteral("^failed: ")));
    QCOMPARE(failed.size(), 1);
    for (const QString &word : std::as_const(expectWords))
        QVERIFY2(failed.constFirst().contains(word), qPrintable(failed.constFirst()));
    QVERIFY2(!failed.constFirst().contains(QRegularExpression(QStringLiteral("\\b[45]\\d\\d\\b"))),
             qPrintable(failed.constFirst()));
    QVERIFY(!run.out.contains(QStringLiteral("banner shown")));
    checkScreenshot(shot);
}

void tst_Reader::refusedConnectionIsNotOffline()
{
    // Nothing listens on the port: the network works, the server does not answer. The
    // banner says that, naming the server, and never "You're offline".
    quint16 port = 0;
    {
        QTcpServer reserve;
        QVERIFY(reserve.listen(QHostAddress::LocalHost, 0));
        port = reserve.serverPort();
    }
    QUrl server;
    server.setScheme(QStringLiteral("http"));
    server.setHost(QStringLiteral("127.0.0.1"));
    server.setPort(port);
    const QString shot = m_dir.filePath(QStringLiteral("refused.png"));
    QProcess reader;
    startReader(reader, server,
                { QStringLiteral("--screenshot"), shot, QStringLiteral("--screenshot-when"),
                  QStringLiteral("unreachable"), QStringLiteral("--quit-after"),
                  QStringLiteral("10000") });
    QVERIFY(reader.waitForStarted(5000));
    QTRY_COMPARE_WITH_TIMEOUT(reader.state(), QProcess::NotRunning, 15000);
    const Run run = collect(reader);
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(QStringLiteral("banner shown unreachable")),
             qPrintable(run.out.join(QLatin1Char('|'))));
    QVERIFY(!run.out.contains(QStringLiteral("banner shown offline")));
    QVERIFY(run.out.filter(QStringLiteral("failed:")).isEmpty());
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

void tst_Reader::badServerUrl_data()
{
    // Each would have been tried (or never could work); none needs a name server.
    QTest::addColumn<QString>("server");
    QTest::newRow("no scheme") << QStringLiteral("127.0.0.1:1");
    QTest::newRow("ftp") << QStringLiteral("ftp://127.0.0.1/");
    QTest::newRow("file") << QStringLiteral("file:///srv/wallabag");
    QTest::newRow("no host") << QStringLiteral("http://");
    QTest::newRow("bad port") << QStringLiteral("http://127.0.0.1:99999/");
}

void tst_Reader::badServerUrl()
{
    QFETCH(QString, server);
    const Run run = runReader({ QStringLiteral("--server"), server, QStringLiteral("--quit-after"),
                                QStringLiteral("2000") });
    QCOMPARE(run.exitStatus, QProcess::NormalExit);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("--server")), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

// Every line for scripts says when it was printed, in order; the count of "loaded" is the
// list's as shown, the same as the Unread count beside it.
void tst_Reader::linesForScriptsCarryTimestamps()
{
    const QString shot = m_dir.filePath(QStringLiteral("stamped.png"));
    const Run run = runReader({ QStringLiteral("--screenshot"), shot,
                                QStringLiteral("--screenshot-when"), QStringLiteral("loaded"),
                                QStringLiteral("--quit-after"), QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.untimed.isEmpty(), qPrintable(run.untimed.join(QLatin1Char('|'))));
    QVERIFY(run.stamps.size() >= 4); // demo server, admin, loaded, screenshot, filters
    QCOMPARE(run.stamps.size(), run.out.size());
    QDateTime previous;
    for (const QString &stamp : run.stamps) {
        const QDateTime at = QDateTime::fromString(stamp, Qt::ISODateWithMs);
        QVERIFY2(at.isValid(), qPrintable(stamp));
        QVERIFY2(!previous.isValid() || at >= previous, qPrintable(stamp));
        previous = at;
    }
    const QRegularExpression loaded(QStringLiteral("^loaded (\\d+) articles$"));
    const QStringList loadedLines = run.out.filter(loaded);
    QCOMPARE(loadedLines.size(), 1);
    const QStringList filters = run.out.filter(QRegularExpression(QStringLiteral("^filters: ")));
    QCOMPARE(filters.size(), 1);
    QVERIFY2(
        filters.constFirst().contains(
            QStringLiteral("Unread=%1;").arg(loaded.match(loadedLines.constFirst()).captured(1))),
        qPrintable(loadedLines.constFirst() + QLatin1Char('|') + filters.constFirst()));
}

// --screenshot-when failed-change ends at the first refusal: one screenshot, exit 0; --help
// says that it needs a fault that refuses a change.
void tst_Reader::failedChangeScreenshotOnce()
{
    const QString shot = m_dir.filePath(QStringLiteral("refused.png"));
    const Run run =
        runReader({ QStringLiteral("--screenshot"), shot, QStringLiteral("--screenshot-when"),
                    QStringLiteral("failed-change"), QStringLiteral("--demo-fault"),
                    QStringLiteral("method=PATCH,status=403"), QStringLiteral("--quit-after"),
                    QStringLiteral("12000") });
    QVERIFY2(run.exitStatus == QProcess::NormalExit && run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.filter(QRegularExpression(QStringLiteral("^screenshot: "))).size(), 1);
    QCOMPARE(run.out.filter(QRegularExpression(QStringLiteral("^change refused: "))).size(), 1);
    checkScreenshot(shot);

    const Run help = runReader({ QStringLiteral("--help") });
    const QString text = help.out.join(QLatin1Char(' ')).simplified();
    QVERIFY2(text.contains(QLatin1String("failed-change (the server refused a change; needs a "
                                         "fault injected that refuses one")),
             qPrintable(text));
}

QTEST_GUILESS_MAIN(tst_Reader)
#include "tst_reader.moc"
