// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Reachability::originOf() is the key every monitor (window, breaker, budget, reachability)
// files an origin under. It keeps the last few keys it made: asked in any order, for more
// origins than it keeps, it must still give each URL the key of its own origin.

#include <KeepTrying/reachability.h>

#include <QtCore/QThread>
#include <QtTest/QTest>

#include <memory>
#include <utility>
#include <vector>

using namespace KeepTrying;

class tst_OriginKey : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keyOfEachOrigin_data();
    void keyOfEachOrigin();
    void originsThatShareParts();
    void eachThreadItsOwn();
};

void tst_OriginKey::keyOfEachOrigin_data()
{
    QTest::addColumn<QUrl>("url");
    QTest::addColumn<QString>("key");

    QTest::newRow("http, default port")
        << QUrl(QStringLiteral("http://example.com/a")) << QStringLiteral("http://example.com:80");
    QTest::newRow("https, default port") << QUrl(QStringLiteral("https://example.com/a?b#c"))
                                         << QStringLiteral("https://example.com:443");
    QTest::newRow("explicit default port") << QUrl(QStringLiteral("http://example.com:80/"))
                                           << QStringLiteral("http://example.com:80");
    QTest::newRow("other port") << QUrl(QStringLiteral("http://example.com:8080/"))
                                << QStringLiteral("http://example.com:8080");
    QTest::newRow("upper case") << QUrl(QStringLiteral("HTTPS://Example.COM/Path"))
                                << QStringLiteral("https://example.com:443");
    QTest::newRow("credentials are no part") << QUrl(QStringLiteral("http://u:p@example.com/"))
                                             << QStringLiteral("http://example.com:80");
    QTest::newRow("loopback") << QUrl(QStringLiteral("http://127.0.0.1:5000/x"))
                              << QStringLiteral("http://127.0.0.1:5000");
    QTest::newRow("IPv6") << QUrl(QStringLiteral("http://[::1]:5000/x"))
                          << QStringLiteral("http://::1:5000");
}

void tst_OriginKey::keyOfEachOrigin()
{
    QFETCH(QUrl, url);
    QFETCH(QString, key);
    QCOMPARE(Reachability::originOf(url), key);
    QCOMPARE(Reachability::originOf(url), key); // the kept key
}

void tst_OriginKey::originsThatShareParts()
{
    // Same host on other ports and schemes, same port on other hosts: more of them than
    // are kept, asked round and round.
    std::vector<std::pair<QUrl, QString>> cases;
    for (const char *scheme : { "http", "https" }) {
        for (const char *host : { "a.example", "b.example", "127.0.0.1" }) {
            for (int port : { -1, 80, 443, 8080 }) {
                QUrl url;
                url.setScheme(QString::fromLatin1(scheme));
                url.setHost(QString::fromLatin1(host));
                url.setPort(port);
                url.setPath(QStringLiteral("/p"));
                const int effective = port >= 0 ? port : (qstrcmp(scheme, "https") == 0 ? 443 : 80);
                cases.emplace_back(url,
                                   QStringLiteral("%1://%2:%3")
                                       .arg(QString::fromLatin1(scheme), QString::fromLatin1(host))
                                       .arg(effective));
            }
        }
    }
    for (int round = 0; round < 3; ++round) {
        for (size_t i = 0; i < cases.size(); ++i) {
            // Forwards, then every other one, then backwards.
            const size_t at = round == 0 ? i
                : round == 1             ? (2 * i) % cases.size()
                                         : cases.size() - 1 - i;
            QCOMPARE(Reachability::originOf(cases[at].first), cases[at].second);
        }
    }
}

void tst_OriginKey::eachThreadItsOwn()
{
    QString there;
    std::unique_ptr<QThread> thread(QThread::create([&] {
        for (int i = 0; i < 100; ++i)
            there = Reachability::originOf(QUrl(QStringLiteral("http://other.example:81/")));
    }));
    thread->start();
    for (int i = 0; i < 100; ++i)
        QCOMPARE(Reachability::originOf(QUrl(QStringLiteral("http://here.example/"))),
                 QStringLiteral("http://here.example:80"));
    QVERIFY(thread->wait(5000));
    QCOMPARE(there, QStringLiteral("http://other.example:81"));
}

QTEST_GUILESS_MAIN(tst_OriginKey)
#include "tst_originkey.moc"
