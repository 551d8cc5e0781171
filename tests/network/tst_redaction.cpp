// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Tests the one rule for what may be logged (redaction.h) and the library's log helper.

#include <KeepTrying/redaction.h>

#include "logging_p.h" // loggableUrl(), private to the library, inline

#include <QtTest/QTest>

class tst_Redaction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void credentialNames_data();
    void credentialNames();
    void headerValues_data();
    void headerValues();
    void urls_data();
    void urls();
    void loggableUrl_data();
    void loggableUrl();
};

void tst_Redaction::credentialNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("credential");

    for (const char *name : { "Authorization",
                              "proxy-authorization",
                              "Cookie",
                              "Set-Cookie",
                              "X-Forwarded-Authorization",
                              "token",
                              "access_token",
                              "ACCESS_TOKEN",
                              "refresh_token",
                              "id_token",
                              "key",
                              "api_key",
                              "apikey",
                              "api-key",
                              "password",
                              "passwd",
                              "secret",
                              "client_secret",
                              "signature",
                              "sig",
                              "X-Api-Key",
                              "x-goog-api-key",
                              "X-Auth-Token",
                              "X-CSRF-Token",
                              "X-Amz-Security-Token",
                              "X-Amz-Signature",
                              "X-Amz-Credential",
                              "db.password",
                              " token " })
        QTest::newRow(name) << QString::fromLatin1(name) << true;
    for (const char *name : { "Idempotency-Key", "Sec-WebSocket-Key", "Content-Type", "page",
                              "perPage", "keyword", "tokens", "monkey", "sort", "" })
        QTest::newRow(*name ? name : "empty") << QString::fromLatin1(name) << false;
}

void tst_Redaction::credentialNames()
{
    QFETCH(QString, name);
    QFETCH(bool, credential);
    QCOMPARE(KeepTrying::isCredentialName(name), credential);
    QCOMPARE(KeepTrying::isCredentialName(name.toLatin1()), credential);
}

void tst_Redaction::headerValues_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("authorization")
        << QByteArray("Authorization") << QByteArray("Bearer abc") << QByteArray("<redacted>");
    QTest::newRow("x-api-key") << QByteArray("X-Api-Key") << QByteArray("k3y")
                               << QByteArray("<redacted>");
    QTest::newRow("x-auth-token") << QByteArray("x-auth-token") << QByteArray("t0k")
                                  << QByteArray("<redacted>");
    QTest::newRow("set-cookie") << QByteArray("Set-Cookie") << QByteArray("id=1")
                                << QByteArray("<redacted>");
    QTest::newRow("content-type") << QByteArray("Content-Type") << QByteArray("text/plain")
                                  << QByteArray("text/plain");
    QTest::newRow("idempotency-key")
        << QByteArray("Idempotency-Key") << QByteArray("order-42") << QByteArray("order-42");
    QTest::newRow("location absolute")
        << QByteArray("Location") << QByteArray("http://127.0.0.1:8/next?token=t0k&page=2")
        << QByteArray("http://127.0.0.1:8/next?token=REDACTED&page=2");
    QTest::newRow("location relative")
        << QByteArray("location") << QByteArray("/login?access_token=t0k")
        << QByteArray("/login?access_token=REDACTED");
    QTest::newRow("location plain")
        << QByteArray("Location") << QByteArray("/a/b") << QByteArray("/a/b");
    QTest::newRow("content-location with password")
        << QByteArray("Content-Location") << QByteArray("http://me:pw@127.0.0.1/x")
        << QByteArray("http://me@127.0.0.1/x");
}

void tst_Redaction::headerValues()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QFETCH(QByteArray, expected);
    QCOMPARE(KeepTrying::redactedHeaderValue(name, value), expected);
}

void tst_Redaction::urls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected");

    QTest::newRow("no query") << QStringLiteral("http://127.0.0.1:8080/api/entries.json")
                              << QStringLiteral("http://127.0.0.1:8080/api/entries.json");
    QTest::newRow("harmless query") << QStringLiteral("http://h/api?page=2&perPage=30")
                                    << QStringLiteral("http://h/api?page=2&perPage=30");
    QTest::newRow("access_token")
        << QStringLiteral("http://h/api/entries?access_token=s3cret&page=2")
        << QStringLiteral("http://h/api/entries?access_token=REDACTED&page=2");
    QTest::newRow("several") << QStringLiteral("http://h/?api_key=a&sig=b&key=c&x=1")
                             << QStringLiteral(
                                    "http://h/?api_key=REDACTED&sig=REDACTED&key=REDACTED&x=1");
    QTest::newRow("encoded name") << QStringLiteral("http://h/?access%5Ftoken=s3cret")
                                  << QStringLiteral(
                                         "http://h/?access_token=REDACTED"); // QUrl decodes %5F
    QTest::newRow("encoded value") << QStringLiteral("http://h/?password=a%26b%3Dc&q=a%20b")
                                   << QStringLiteral("http://h/?password=REDACTED&q=a%20b");
    QTest::newRow("no value") << QStringLiteral("http://h/?token")
                              << QStringLiteral("http://h/?token=REDACTED");
    QTest::newRow("password in user info")
        << QStringLiteral("http://me:s3cret@h/x") << QStringLiteral("http://me@h/x");
    QTest::newRow("implicit grant fragment")
        << QStringLiteral("http://h/cb#access_token=s3cret&state=1")
        << QStringLiteral("http://h/cb#access_token=REDACTED&state=1");
    QTest::newRow("plain fragment")
        << QStringLiteral("http://h/doc#section-2") << QStringLiteral("http://h/doc#section-2");
}

void tst_Redaction::urls()
{
    QFETCH(QString, url);
    QFETCH(QString, expected);
    const QUrl redacted = KeepTrying::redactedUrl(QUrl(url));
    QCOMPARE(redacted.toString(QUrl::FullyEncoded), expected);
    QVERIFY(!redacted.toDisplayString().contains(QLatin1String("s3cret")));
}

void tst_Redaction::loggableUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected");

    QTest::newRow("plain") << QStringLiteral("http://127.0.0.1:8/api/version")
                           << QStringLiteral("http://127.0.0.1:8/api/version");
    // What a log line is for: which page failed. Only the token goes.
    QTest::newRow("query") << QStringLiteral("http://h/api/entries.json?page=2&access_token=s3cret")
                           << QStringLiteral(
                                  "http://h/api/entries.json?page=2&access_token=REDACTED");
    QTest::newRow("user info") << QStringLiteral("http://me:s3cret@h/x?apikey=s3cret")
                               << QStringLiteral("http://h/x?apikey=REDACTED");
    QTest::newRow("fragment") << QStringLiteral("http://h/cb#access_token=s3cret")
                              << QStringLiteral("http://h/cb");
}

void tst_Redaction::loggableUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, expected);
    QCOMPARE(KeepTrying::loggableUrl(QUrl(url)), expected);
}

QTEST_GUILESS_MAIN(tst_Redaction)

#include "tst_redaction.moc"
