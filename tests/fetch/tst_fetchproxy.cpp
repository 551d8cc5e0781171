// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// keeptrying-fetch through a proxy: the real executable through QProcess, an HTTP test
// proxy and an origin on 127.0.0.1, both started by each test. The proxy forwards to
// loopback only. Where curl is installed, rows first run curl with the same environment and
// arguments and take what it does as the expected value.

#include "fetchproxy.h"
#include "httptestproxy.h"
#include "testserver.h"

#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using KeepTrying::Test::HttpTestProxy;
using KeepTrying::Test::TestServer;

namespace {

const QString fetchProgram = QStringLiteral(KEEPTRYING_FETCH_EXECUTABLE);
const QByteArray originBody = QByteArrayLiteral("from the origin\n");

using Variables = QList<QPair<QString, QString>>;

struct Run
{
    bool finishedInTime = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QProcessEnvironment environmentWith(const Variables &variables)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // Only what the row sets may choose a proxy or send us offline.
    for (const char *name :
         { "KEEPTRYING_SIMULATE_OFFLINE", "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
           "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY" })
        environment.remove(QString::fromLatin1(name));
    for (const auto &variable : variables)
        environment.insert(variable.first, variable.second);
    return environment;
}

// Runs a program to its end while this thread's event loop keeps serving proxy and origin.
Run runProgram(const QString &program, const QStringList &arguments, const Variables &variables)
{
    Run run;
    QProcess process;
    process.setProcessEnvironment(environmentWith(variables));
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(program, arguments);
    if (!process.waitForStarted(10000))
        return run;
    run.finishedInTime = !finished.isEmpty() || finished.wait(15000);
    if (!run.finishedInTime) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// A port nobody listens on (for now): connections to it are refused.
quint16 unusedPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QString curlProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("curl"));
}

// Placeholders in a row's arguments and variables, filled once the servers listen.
QString fill(QString text, const HttpTestProxy &proxy, quint16 deadPort, const QUrl &origin)
{
    return text.replace(QLatin1String("$BARE"), QStringLiteral("127.0.0.1:%1").arg(proxy.port()))
        .replace(QLatin1String("$PROXY"), proxy.url())
        .replace(QLatin1String("$DEAD"), QStringLiteral("http://127.0.0.1:%1").arg(deadPort))
        .replace(QLatin1String("$ORIGIN"), origin.toString());
}

} // namespace

class tst_FetchProxy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noProxyMatches_data();
    void noProxyMatches();
    void parseProxyUrl_data();
    void parseProxyUrl();
    void helpNamesTheProxyOptions();
    void badProxyIsAUsageError_data();
    void badProxyIsAUsageError();
    void proxyChoice_data();
    void proxyChoice();
    void deadProxy_data();
    void deadProxy();
    void originDownAndBackThroughProxy();
    void originAwayBehindConnect();
};

void tst_FetchProxy::noProxyMatches_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("matches");
    // curl's rules (curl(1), --noproxy and NO_PROXY).
    QTest::newRow("* alone") << "*"
                             << "example.com" << true;
    QTest::newRow("* among others") << "a.test,*"
                                    << "example.com" << true;
    QTest::newRow("* in a name is literal") << "*.example.com"
                                            << "www.example.com" << false;
    QTest::newRow("same name") << "example.com"
                               << "example.com" << true;
    QTest::newRow("any case") << "Example.COM"
                              << "example.com" << true;
    QTest::newRow("subdomain") << "example.com"
                               << "www.example.com" << true;
    QTest::newRow("leading dot, subdomain") << ".example.com"
                                            << "www.example.com" << true;
    QTest::newRow("leading dot, the name itself") << ".example.com"
                                                  << "example.com" << true;
    QTest::newRow("only a suffix") << "example.com"
                                   << "notexample.com" << false;
    QTest::newRow("spaces around entries") << " a.test , example.com "
                                           << "example.com" << true;
    QTest::newRow("address") << "127.0.0.1"
                             << "127.0.0.1" << true;
    QTest::newRow("address is not a suffix") << "0.0.1"
                                             << "127.0.0.1" << false;
    QTest::newRow("address is not a suffix, short") << "0.1"
                                                    << "127.0.0.1" << false;
    QTest::newRow("another address") << "127.0.0.1"
                                     << "127.0.0.10" << false;
    QTest::newRow("IPv6 in brackets") << "[::1]"
                                      << "::1" << true;
    QTest::newRow("empty list") << ""
                                << "example.com" << false;
}

void tst_FetchProxy::noProxyMatches()
{
    QFETCH(QString, list);
    QFETCH(QString, host);
    QFETCH(bool, matches);
    QCOMPARE(FetchProxyFactory::noProxyMatches(list, host), matches);
}

void tst_FetchProxy::parseProxyUrl_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<bool>("remoteLookup");
    const int http = QNetworkProxy::HttpProxy;
    const int socks = QNetworkProxy::Socks5Proxy;
    QTest::newRow("http") << "http://proxy.test:3128" << true << http << "proxy.test" << 3128 << ""
                          << "" << true;
    QTest::newRow("no scheme: http")
        << "proxy.test:3128" << true << http << "proxy.test" << 3128 << ""
        << "" << true;
    QTest::newRow("no port: 1080")
        << "http://proxy.test" << true << http << "proxy.test" << 1080 << ""
        << "" << true;
    QTest::newRow("credentials, decoded")
        << "http://me:p%40ss@proxy.test:8080" << true << http << "proxy.test" << 8080 << "me"
        << "p@ss" << true;
    QTest::newRow("socks5: names resolved here")
        << "socks5://proxy.test:1080" << true << socks << "proxy.test" << 1080 << ""
        << "" << false;
    QTest::newRow("socks5h: names resolved by the proxy")
        << "socks5h://proxy.test" << true << socks << "proxy.test" << 1080 << ""
        << "" << true;
    QTest::newRow("https proxy: unsupported") << "https://proxy.test" << false << 0 << "" << 0 << ""
                                              << "" << false;
    QTest::newRow("socks4: unsupported") << "socks4://proxy.test" << false << 0 << "" << 0 << ""
                                         << "" << false;
    QTest::newRow("no host") << "http://:3128" << false << 0 << "" << 0 << ""
                             << "" << false;
}

void tst_FetchProxy::parseProxyUrl()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QNetworkProxy proxy;
    QString error;
    QCOMPARE(FetchProxyFactory::parseProxyUrl(text, &proxy, &error), valid);
    QCOMPARE(error.isEmpty(), valid);
    if (!valid)
        return;
    QFETCH(int, type);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(bool, remoteLookup);
    QCOMPARE(int(proxy.type()), type);
    QCOMPARE(proxy.hostName(), host);
    QCOMPARE(int(proxy.port()), port);
    QCOMPARE(proxy.user(), user);
    QCOMPARE(proxy.password(), password);
    if (proxy.type() == QNetworkProxy::Socks5Proxy)
        QCOMPARE(bool(proxy.capabilities() & QNetworkProxy::HostNameLookupCapability),
                 remoteLookup);
}

void tst_FetchProxy::helpNamesTheProxyOptions()
{
    const Run run = runProgram(fetchProgram, { QStringLiteral("--help") }, {});
    QVERIFY(run.finishedInTime);
    QCOMPARE(run.exitCode, 0);
    const QString help = QString::fromUtf8(run.out);
    for (const char *word :
         { "-x, --proxy <URL>", "--noproxy <LIST>", "http_proxy", "HTTPS_PROXY", "all_proxy" })
        QVERIFY2(help.contains(QLatin1String(word)), word);
}

void tst_FetchProxy::badProxyIsAUsageError_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<Variables>("variables");
    const QString url = QStringLiteral("http://127.0.0.1:1/"); // never reached
    QTest::newRow("-x ftp") << QStringList { QStringLiteral("-x"),
                                             QStringLiteral("ftp://127.0.0.1:21"), url }
                            << Variables {};
    QTest::newRow("-x empty") << QStringList { QStringLiteral("-x"), QString(), url }
                              << Variables {};
    QTest::newRow("http_proxy https")
        << QStringList { url }
        << Variables { { QStringLiteral("http_proxy"), QStringLiteral("https://127.0.0.1:1") } };
}

void tst_FetchProxy::badProxyIsAUsageError()
{
    QFETCH(QStringList, arguments);
    QFETCH(Variables, variables);
    const Run run = runProgram(fetchProgram, arguments, variables);
    QVERIFY(run.finishedInTime);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("proxy"), run.err.constData());
}

void tst_FetchProxy::proxyChoice_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<Variables>("variables");
    QTest::addColumn<bool>("throughProxy");

    const QString origin = QStringLiteral("$ORIGIN");
    const auto variable = [](const char *name, const char *value) {
        return qMakePair(QString::fromLatin1(name), QString::fromLatin1(value));
    };
    QTest::newRow("no proxy set") << QStringList { origin } << Variables {} << false;
    QTest::newRow("http_proxy") << QStringList { origin }
                                << Variables { variable("http_proxy", "$PROXY") } << true;
    // As curl: HTTP_PROXY in upper case is not read (a CGI request's Proxy header sets it).
    QTest::newRow("HTTP_PROXY ignored")
        << QStringList { origin } << Variables { variable("HTTP_PROXY", "$PROXY") } << false;
    QTest::newRow("all_proxy") << QStringList { origin }
                               << Variables { variable("all_proxy", "$PROXY") } << true;
    QTest::newRow("ALL_PROXY") << QStringList { origin }
                               << Variables { variable("ALL_PROXY", "$PROXY") } << true;
    QTest::newRow("https_proxy is not for http")
        << QStringList { origin } << Variables { variable("https_proxy", "$PROXY") } << false;
    QTest::newRow("no_proxy names the host")
        << QStringList { origin }
        << Variables { variable("http_proxy", "$PROXY"), variable("no_proxy", "127.0.0.1") }
        << false;
    QTest::newRow("NO_PROXY *") << QStringList { origin }
                                << Variables { variable("http_proxy", "$PROXY"),
                                               variable("NO_PROXY", "*") }
                                << false;
    QTest::newRow("no_proxy names another host")
        << QStringList { origin }
        << Variables { variable("http_proxy", "$PROXY"), variable("no_proxy", "example.com,.test") }
        << true;
    QTest::newRow("-x") << QStringList { QStringLiteral("-x"), QStringLiteral("$PROXY"), origin }
                        << Variables {} << true;
    QTest::newRow("-x overrides http_proxy")
        << QStringList { QStringLiteral("-x"), QStringLiteral("$PROXY"), origin }
        << Variables { variable("http_proxy", "$DEAD") } << true;
    QTest::newRow("--proxy without scheme")
        << QStringList { QStringLiteral("--proxy"), QStringLiteral("$BARE"), origin }
        << Variables {} << true;
    QTest::newRow("--noproxy host")
        << QStringList { QStringLiteral("-x"), QStringLiteral("$DEAD"), QStringLiteral("--noproxy"),
                         QStringLiteral("localhost,127.0.0.1"), origin }
        << Variables {} << false;
    QTest::newRow("--noproxy *") << QStringList { QStringLiteral("--noproxy"), QStringLiteral("*"),
                                                  origin }
                                 << Variables { variable("http_proxy", "$DEAD") } << false;
    QTest::newRow("--noproxy replaces no_proxy")
        << QStringList { QStringLiteral("--noproxy"), QStringLiteral("example.com"), origin }
        << Variables { variable("http_proxy", "$PROXY"), variable("no_proxy", "127.0.0.1") }
        << true;
}

void tst_FetchProxy::proxyChoice()
{
    QFETCH(QStringList, arguments);
    QFETCH(Variables, variables);
    QFETCH(bool, throughProxy);

    TestServer origin;
    origin.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, originBody); });
    QVERIFY(origin.listen());
    HttpTestProxy proxy;
    QVERIFY(proxy.listen());
    const quint16 deadPort = unusedPort();
    QVERIFY(deadPort != 0);
    for (QString &argument : arguments)
        argument = fill(argument, proxy, deadPort, origin.url());
    for (auto &variable : variables)
        variable.second = fill(variable.second, proxy, deadPort, origin.url());

    // curl first, where it is installed: the same choice is expected of us.
    if (const QString curl = curlProgram(); !curl.isEmpty()) {
        const Run reference = runProgram(
            curl, QStringList { QStringLiteral("-sS"), QStringLiteral("--fail") } + arguments,
            variables);
        QVERIFY(reference.finishedInTime);
        QCOMPARE(reference.exitCode, 0);
        QCOMPARE(reference.out, originBody);
        QCOMPARE(proxy.forwarded(), throughProxy ? 1 : 0);
        QCOMPARE(origin.requestCount(), 1);
    }
    const int proxiedBefore = proxy.forwarded();
    const int originBefore = origin.requestCount();

    const Run run = runProgram(fetchProgram, arguments, variables);
    QVERIFY(run.finishedInTime);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.out, originBody);
    QCOMPARE(origin.requestCount() - originBefore, 1);
    QCOMPARE(proxy.forwarded() - proxiedBefore, throughProxy ? 1 : 0);
    if (throughProxy)
        QCOMPARE(proxy.requests().constLast().target, origin.url().toEncoded());
}

void tst_FetchProxy::deadProxy_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<Variables>("variables");
    QTest::addColumn<QString>("source");

    const QString http = QStringLiteral("http://127.0.0.1:$ORIGINPORT/");
    const QString https = QStringLiteral("https://127.0.0.1:$ORIGINPORT/");
    const QStringList dashX = { QStringLiteral("-x"), QStringLiteral("$DEAD") };
    const Variables environment = { { QStringLiteral("http_proxy"), QStringLiteral("$DEAD") },
                                    { QStringLiteral("https_proxy"), QStringLiteral("$DEAD") } };
    const QString curl = QStringLiteral("curl");
    QTest::newRow("-x, http") << fetchProgram << dashX + QStringList { http } << Variables {}
                              << QStringLiteral("-x");
    QTest::newRow("-x, https (CONNECT)")
        << fetchProgram << dashX + QStringList { https } << Variables {} << QStringLiteral("-x");
    QTest::newRow("http_proxy") << fetchProgram << QStringList { http } << environment
                                << QStringLiteral("http_proxy");
    QTest::newRow("https_proxy") << fetchProgram << QStringList { https } << environment
                                 << QStringLiteral("https_proxy");
    QTest::newRow("-x, one attempt")
        << fetchProgram
        << dashX + QStringList { QStringLiteral("--max-attempts"), QStringLiteral("1"), http }
        << Variables {} << QStringLiteral("-x");
    QTest::newRow("curl, -x") << curl << dashX + QStringList { http } << Variables {} << QString();
    QTest::newRow("curl, http_proxy") << curl << QStringList { http } << environment << QString();
}

// A proxy that is not there is not an origin that is away: the run ends at once with curl's
// exit code 7, and says which proxy and where it was named, instead of waiting for it.
void tst_FetchProxy::deadProxy()
{
    QFETCH(QString, program);
    QFETCH(QStringList, arguments);
    QFETCH(Variables, variables);
    QFETCH(QString, source);

    if (program == QLatin1String("curl")) {
        program = curlProgram();
        if (program.isEmpty())
            QSKIP("curl is not installed: nothing to compare with");
        arguments.prepend(QStringLiteral("-sS"));
    }
    TestServer origin; // answers, but nothing may reach it
    origin.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, originBody); });
    QVERIFY(origin.listen());
    HttpTestProxy unused;
    const quint16 deadPort = unusedPort();
    QVERIFY(deadPort != 0);
    for (QString &argument : arguments) {
        argument.replace(QLatin1String("$ORIGINPORT"), QString::number(origin.port()));
        argument = fill(argument, unused, deadPort, origin.url());
    }
    for (auto &variable : variables)
        variable.second = fill(variable.second, unused, deadPort, origin.url());

    const Run run = runProgram(program, arguments, variables);
    QVERIFY2(run.finishedInTime, run.err.constData());
    QCOMPARE(run.exitCode, 7);
    QVERIFY(run.out.isEmpty());
    QCOMPARE(origin.requestCount(), 0);
    if (!source.isEmpty()) {
        const QString expected =
            QStringLiteral("could not connect to the proxy 127.0.0.1:%1 (from %2)")
                .arg(deadPort)
                .arg(source);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
    }
}

// The origin goes away behind a proxy that stays: the proxy answers 503 for it (as Squid
// does), the request keeps trying through the proxy and succeeds once the origin is back.
void tst_FetchProxy::originDownAndBackThroughProxy()
{
    HttpTestProxy proxy;
    QVERIFY(proxy.listen());
    const quint16 originPort = unusedPort();
    QVERIFY(originPort != 0);
    const QString url = QStringLiteral("http://127.0.0.1:%1/article").arg(originPort);

    QProcess process;
    process.setProcessEnvironment(
        environmentWith({ { QStringLiteral("http_proxy"), proxy.url() } }));
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(fetchProgram,
                  { QStringLiteral("--initial-delay"), QStringLiteral("20"),
                    QStringLiteral("--max-delay"), QStringLiteral("100"),
                    QStringLiteral("--max-attempts"), QStringLiteral("200"), url });
    QVERIFY(process.waitForStarted(10000));
    // Through the proxy, answered by the proxy: the origin is not there.
    QTRY_VERIFY_WITH_TIMEOUT(proxy.requestCount() >= 3, 10000);
    QCOMPARE(proxy.forwarded(), 0);
    QCOMPARE(proxy.requests().constFirst().answer, 503);
    QVERIFY(finished.isEmpty());

    TestServer origin;
    origin.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, originBody); });
    QVERIFY(origin.listen(originPort));
    QVERIFY(finished.wait(10000));
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
             err.constData());
    QCOMPARE(process.readAllStandardOutput(), originBody);
    QCOMPARE(origin.requestCount(), 1);
    QCOMPARE(proxy.forwarded(), 1);
    QVERIFY2(err.contains("retry 2 in"), err.constData());
}

// An https origin that is away behind a proxy that is there: the proxy refuses the CONNECT
// (503, as Squid). That is the origin's fault, not the proxy's: the request waits for the
// origin (here until its deadline, exit 28), it does not end as a dead proxy would (7).
void tst_FetchProxy::originAwayBehindConnect()
{
    HttpTestProxy proxy;
    QVERIFY(proxy.listen());
    const quint16 originPort = unusedPort();
    QVERIFY(originPort != 0);
    const Run run = runProgram(fetchProgram,
                               { QStringLiteral("-x"), proxy.url(), QStringLiteral("--deadline"),
                                 QStringLiteral("1500"),
                                 QStringLiteral("https://127.0.0.1:%1/").arg(originPort) },
                               {});
    QVERIFY(run.finishedInTime);
    QVERIFY2(run.exitCode == 28, run.err.constData());
    QVERIFY(proxy.requestCount() >= 1);
    QCOMPARE(proxy.requests().constFirst().method, QByteArrayLiteral("CONNECT"));
    QCOMPARE(proxy.requests().constFirst().answer, 503);
    QVERIFY2(!run.err.contains("could not connect to the proxy"), run.err.constData());
    QVERIFY2(run.err.contains(
                 QStringLiteral("waiting for 127.0.0.1:%1 to answer").arg(originPort).toUtf8()),
             run.err.constData());
    // The manager's reachability probes went through the same proxy (18 CONNECTs in 1.5 s
    // here), to the same origin.
    QVERIFY(proxy.requestCount() >= 2);
    const QByteArray target = "127.0.0.1:" + QByteArray::number(originPort);
    for (const HttpTestProxy::Request &request : proxy.requests())
        QCOMPARE(request.target, target);
}

QTEST_GUILESS_MAIN(tst_FetchProxy)

#include "tst_fetchproxy.moc"
