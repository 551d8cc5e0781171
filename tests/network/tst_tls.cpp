// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// TLS against a loopback QSslServer (tls/make-certs.sh made its certificates): a
// certificate the client refuses ends the request after one attempt, named, never retried
// and never ignored unless the caller says so; a handshake or connection that breaks before
// any response is a connectivity fault and retried. The rows run a plain
// QNetworkAccessManager against the same server first: what Qt 6.4 does is the expectation.

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"
#include "tlstestserver.h"

#include <QtCore/QFile>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslError>
#include <QtNetwork/QSslSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using namespace KeepTrying;
using namespace KeepTrying::Test;
using Fault = TlsTestServer::Fault;

namespace {

QSslCertificate certificate(const QString &name)
{
    QFile file(QStringLiteral(":/tls/") + name + QStringLiteral(".pem"));
    if (!file.open(QIODevice::ReadOnly))
        return QSslCertificate();
    return QSslCertificate(&file, QSsl::Pem);
}

QSslKey leafKey()
{
    QFile file(QStringLiteral(":/tls/leaf.key"));
    if (!file.open(QIODevice::ReadOnly))
        return QSslKey();
    return QSslKey(&file, QSsl::Ec, QSsl::Pem);
}

// The client trusts the test CA, and only it, through the request.
QNetworkRequest trustingTestCa(const QUrl &url)
{
    QNetworkRequest request(url);
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setCaCertificates({ certificate(QStringLiteral("ca")) });
    request.setSslConfiguration(configuration);
    return request;
}

// A policy that would retry anything retryable for long.
RetryPolicy generousPolicy()
{
    RetryPolicy policy = fastPolicy();
    policy.maxAttempts = 10;
    policy.maxConnectivityAttempts = 10;
    return policy;
}

enum class Ignore {
    No, // never ignore
    AllInHandler, // ignoreSslErrors() in the reply's sslErrors handler
    ListInHandler, // ignoreSslErrors(errors) in the handler, with the errors it was given
    ListBefore, // ignoreSslErrors(expected) right after get()
    AllBefore, // ignoreSslErrors() right after get()
    AllOnce, // ignoreSslErrors() in the first sslErrors only
    ListOnce, // ignoreSslErrors(errors) in the first sslErrors only
};

// What a caller sees of one request.
struct Seen
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    QByteArray body;
    QList<QList<QSslError>> sslErrors; // each emission on the reply
    int managerSslErrors = 0; // QNetworkAccessManager::sslErrors for this reply
    int encrypted = 0; // QNetworkReply::encrypted
    int managerEncrypted = 0; // QNetworkAccessManager::encrypted for this reply
    bool connectionEncrypted = false; // ConnectionEncryptedAttribute
    QSslCertificate peer; // sslConfiguration().peerCertificate() after finished()
    int attempts = 1; // ours only
    int retries = 0; // ours only
};

Seen run(QNetworkAccessManager &manager, const QNetworkRequest &request, Ignore ignore,
         const QList<QSslError> &expected)
{
    Seen seen;
    QNetworkReply *reply = nullptr;
    // The manager's signals count 1 when they name the reply the caller has, 100 otherwise.
    QObject::connect(&manager, &QNetworkAccessManager::sslErrors, &manager,
                     [&seen, &reply](QNetworkReply *r, const QList<QSslError> &) {
                         seen.managerSslErrors += r == reply ? 1 : 100;
                     });
    QObject::connect(
        &manager, &QNetworkAccessManager::encrypted, &manager,
        [&seen, &reply](QNetworkReply *r) { seen.managerEncrypted += r == reply ? 1 : 100; });
    reply = manager.get(request);
    QObject::connect(reply, &QNetworkReply::encrypted, reply, [&seen] { ++seen.encrypted; });
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
                     [&seen, reply, ignore](const QList<QSslError> &errors) {
                         seen.sslErrors.append(errors);
                         if (ignore == Ignore::AllInHandler)
                             reply->ignoreSslErrors();
                         else if (ignore == Ignore::ListInHandler)
                             reply->ignoreSslErrors(errors);
                         else if (ignore == Ignore::AllOnce && seen.sslErrors.size() == 1)
                             reply->ignoreSslErrors();
                         else if (ignore == Ignore::ListOnce && seen.sslErrors.size() == 1)
                             reply->ignoreSslErrors(errors);
                     });
    if (auto *ours = qobject_cast<RetryingReply *>(reply)) {
        QObject::connect(ours, &RetryingReply::retryScheduled, ours,
                         [&seen](int, qint64, const QString &) { ++seen.retries; });
    }
    if (ignore == Ignore::ListBefore)
        reply->ignoreSslErrors(expected);
    else if (ignore == Ignore::AllBefore)
        reply->ignoreSslErrors();
    seen.body = waitForBody(reply);
    seen.error = reply->error();
    seen.errorString = reply->errorString();
    seen.connectionEncrypted =
        reply->attribute(QNetworkRequest::ConnectionEncryptedAttribute).toBool();
    seen.peer = reply->sslConfiguration().peerCertificate();
    if (auto *ours = qobject_cast<RetryingReply *>(reply))
        seen.attempts = ours->attemptCount();
    QObject::disconnect(&manager, nullptr, &manager, nullptr);
    delete reply;
    return seen;
}

QList<QSslError> errorsFor(const QList<int> &kinds, const QSslCertificate &cert)
{
    QList<QSslError> errors;
    for (int kind : kinds)
        errors.append(QSslError(QSslError::SslError(kind), cert));
    return errors;
}

QStringList describe(const QList<QSslError> &errors)
{
    QStringList out;
    for (const QSslError &e : errors)
        out.append(QString::number(int(e.error())) + QStringLiteral(": ") + e.errorString());
    return out;
}

// Probes on a fast schedule; with \a probe, of another server than the one under test, so
// that it counts the attempts' connections only.
void quickProbes(RetryingNetworkAccessManager &manager, const QUrl &origin, const QUrl &probe)
{
    manager.reachability()->setProbeSchedule(20, 100);
    if (probe.isValid())
        manager.reachability()->setProbeUrl(origin, probe);
}

} // namespace

class tst_Tls : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void certificateFailures_data();
    void certificateFailures();
    void ignoreSslErrorsLikeQt_data();
    void ignoreSslErrorsLikeQt();
    void brokenHandshakeIsRetried_data();
    void brokenHandshakeIsRetried();
    void ignoreCarriesToRetries_data();
    void ignoreCarriesToRetries();
    void encryptedReachesTheCaller();
    void probeOfPrivateCaOrigin();

private:
    void certificateRows();
};

void tst_Tls::initTestCase()
{
    qputenv("KEEPTRYING_SIMULATE_OFFLINE", "0");
    if (!QSslSocket::supportsSsl()) {
        QSKIP(qPrintable(QStringLiteral("No TLS backend loads (available: %1); on Debian the "
                                        "OpenSSL one is in libqt6network6 and needs libssl3")
                             .arg(QSslSocket::availableBackends().join(QLatin1String(", ")))));
    }
    qInfo() << "TLS backend" << QSslSocket::activeBackend()
            << QSslSocket::sslLibraryVersionString();
    QVERIFY(!certificate(QStringLiteral("ca")).isNull());
    QVERIFY(!leafKey().isNull());
}

// name, the Qt errors a client trusting the test CA reports for it (in Qt's order), and the
// words of the one the reply's errorString names.
void tst_Tls::certificateRows()
{
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QList<int>>("expected");
    QTest::addColumn<QString>("named");
    QTest::addRow("expired") << "expired" << QList<int> { QSslError::CertificateExpired }
                             << "The certificate has expired";
    QTest::addRow("not yet valid")
        << "notyetvalid" << QList<int> { QSslError::CertificateNotYetValid }
        << "The certificate is not yet valid";
    QTest::addRow("wrong host") << "wronghost" << QList<int> { QSslError::HostNameMismatch }
                                << "The host name did not match any of the valid hosts";
    QTest::addRow("self-signed") << "selfsigned" << QList<int> { QSslError::SelfSignedCertificate }
                                 << "self-signed";
    QTest::addRow("untrusted CA")
        << "untrusted"
        << QList<int> { QSslError::UnableToGetLocalIssuerCertificate,
                        QSslError::UnableToVerifyFirstCertificate }
        << "The issuer certificate of a locally looked up certificate could not be found";
}

void tst_Tls::certificateFailures_data()
{
    certificateRows();
}

// Qt 6.4: one connection, one handshake refused, sslErrors once on the reply and once on
// the manager, SslHandshakeFailedError "SSL handshake failed: <the last error's text>".
// Ours: the same, with a policy that retries anything retryable ten times.
void tst_Tls::certificateFailures()
{
    QFETCH(QString, cert);
    QFETCH(QList<int>, expected);
    QFETCH(QString, named);
    const QSslCertificate served = certificate(cert);
    TlsTestServer server(served, leafKey());
    QVERIFY(server.listenOnLoopback());
    const QList<QSslError> expectedErrors = errorsFor(expected, served);

    QNetworkAccessManager plain;
    const Seen qt = run(plain, trustingTestCa(server.url()), Ignore::No, {});
    QCOMPARE(qt.error, QNetworkReply::SslHandshakeFailedError);
    QVERIFY2(qt.errorString.contains(named), qPrintable(qt.errorString));
    QCOMPARE(qt.sslErrors.size(), 1);
    QVERIFY2(qt.sslErrors.first() == expectedErrors,
             qPrintable(describe(qt.sslErrors.first()).join(QLatin1String("; "))));
    QCOMPARE(qt.managerSslErrors, 1);
    QCOMPARE(qt.encrypted, 0);
    QCOMPARE(server.connectionCount(), 1);
    QCOMPARE(server.requestCount(), 0);

    server.resetCounts();
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(generousPolicy());
    const Seen ours = run(manager, trustingTestCa(server.url()), Ignore::No, {});
    QCOMPARE(ours.error, QNetworkReply::SslHandshakeFailedError);
    QCOMPARE(ours.errorString, qt.errorString);
    QCOMPARE(ours.sslErrors, qt.sslErrors);
    QCOMPARE(ours.managerSslErrors, 1);
    QCOMPARE(ours.encrypted, 0);
    QCOMPARE(ours.attempts, 1);
    QCOMPARE(ours.retries, 0);
    QCOMPARE(server.connectionCount(), 1);
    QCOMPARE(server.handshakeCount(), 0);
    QCOMPARE(server.requestCount(), 0);

    // Nor does a custom shouldRetry() that retries everything: the same certificate would
    // come back, and only the caller's ignoreSslErrors() gets past it.
    server.resetCounts();
    RetryPolicy retryAll = generousPolicy();
    retryAll.shouldRetry = [](const RetryContext &) { return true; };
    manager.setRetryPolicy(retryAll);
    const Seen custom = run(manager, trustingTestCa(server.url()), Ignore::No, {});
    QCOMPARE(custom.error, QNetworkReply::SslHandshakeFailedError);
    QCOMPARE(custom.errorString, qt.errorString);
    QCOMPARE(custom.attempts, 1);
    QCOMPARE(custom.sslErrors.size(), 1);
    QCOMPARE(server.connectionCount(), 1);
}

void tst_Tls::ignoreSslErrorsLikeQt_data()
{
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QList<int>>("expected");
    QTest::addColumn<int>("ignore");
    const struct
    {
        const char *name;
        Ignore ignore;
    } modes[] = {
        { "ignoreSslErrors() in sslErrors", Ignore::AllInHandler },
        { "ignoreSslErrors(errors) in sslErrors", Ignore::ListInHandler },
        { "ignoreSslErrors(expected) after get()", Ignore::ListBefore },
        { "ignoreSslErrors() after get()", Ignore::AllBefore },
    };
    const struct
    {
        const char *cert;
        QList<int> expected;
    } certs[] = {
        { "expired", { QSslError::CertificateExpired } },
        { "wronghost", { QSslError::HostNameMismatch } },
        { "selfsigned", { QSslError::SelfSignedCertificate } },
        { "untrusted",
          { QSslError::UnableToGetLocalIssuerCertificate,
            QSslError::UnableToVerifyFirstCertificate } },
    };
    for (const auto &c : certs) {
        for (const auto &m : modes) {
            QTest::addRow("%s, %s", c.cert, m.name)
                << QString::fromLatin1(c.cert) << c.expected << int(m.ignore);
        }
    }
}

// Qt 6.4: each way of ignoring the errors lets the request through (200 "hello"); sslErrors
// is still emitted once. Ours: the same.
void tst_Tls::ignoreSslErrorsLikeQt()
{
    QFETCH(QString, cert);
    QFETCH(QList<int>, expected);
    QFETCH(int, ignore);
    const QSslCertificate served = certificate(cert);
    TlsTestServer server(served, leafKey());
    QVERIFY(server.listenOnLoopback());
    const QList<QSslError> expectedErrors = errorsFor(expected, served);

    QNetworkAccessManager plain;
    const Seen qt = run(plain, trustingTestCa(server.url()), Ignore(ignore), expectedErrors);
    QCOMPARE(qt.error, QNetworkReply::NoError);
    QCOMPARE(qt.body, QByteArray("hello"));
    QCOMPARE(qt.sslErrors.size(), 1);
    QCOMPARE(qt.sslErrors.first(), expectedErrors);
    QCOMPARE(qt.managerSslErrors, 1);
    QCOMPARE(qt.encrypted, 1);
    QCOMPARE(qt.peer, served);

    server.resetCounts();
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(generousPolicy());
    const Seen ours = run(manager, trustingTestCa(server.url()), Ignore(ignore), expectedErrors);
    QCOMPARE(ours.error, QNetworkReply::NoError);
    QCOMPARE(ours.body, QByteArray("hello"));
    QCOMPARE(ours.sslErrors, qt.sslErrors);
    QCOMPARE(ours.managerSslErrors, 1);
    QCOMPARE(ours.encrypted, 1);
    QCOMPARE(ours.managerEncrypted, qt.managerEncrypted);
    QCOMPARE(ours.peer, served);
    QCOMPARE(ours.attempts, 1);
    QCOMPARE(server.connectionCount(), 1);
    QCOMPARE(server.requestCount(), 1);
}

void tst_Tls::brokenHandshakeIsRetried_data()
{
    QTest::addColumn<int>("fault");
    QTest::addColumn<int>("broken"); // connections that break before one is served
    QTest::addRow("FIN after ClientHello") << int(Fault::CloseAfterClientHello) << 1;
    QTest::addRow("RST after ClientHello") << int(Fault::ResetAfterClientHello) << 1;
    QTest::addRow("FIN after ClientHello, 3 times") << int(Fault::CloseAfterClientHello) << 3;
    QTest::addRow("close after the handshake") << int(Fault::CloseAfterHandshake) << 1;
    QTest::addRow("close after the handshake, 5 times") << int(Fault::CloseAfterHandshake) << 5;
}

// A connection that breaks before any response never got a request processed: a
// connectivity fault. Qt 6.4 itself sends the request again when the connection closes
// after the handshake (on a new connection), never during one; whatever Qt gave up on, ours
// retries until the server behaves.
void tst_Tls::brokenHandshakeIsRetried()
{
    QFETCH(int, fault);
    QFETCH(int, broken);
    TlsTestServer server(certificate(QStringLiteral("good")), leafKey());
    QVERIFY(server.listenOnLoopback());
    server.setPlan([fault, broken](int c) { return c < broken ? Fault(fault) : Fault::None; });

    QNetworkAccessManager plain;
    const Seen qt = run(plain, trustingTestCa(server.url()), Ignore::No, {});
    qInfo() << "Qt:" << qt.error << qt.errorString << "after" << server.connectionCount()
            << "connections";
    const int qtConnections = server.connectionCount();

    QCOMPARE(qt.encrypted, server.handshakeCount()); // once per handshake, resent or not

    server.resetCounts();
    TestServer probes;
    QVERIFY(probes.listen());
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(generousPolicy());
    quickProbes(manager, server.url(), probes.url());
    const Seen ours = run(manager, trustingTestCa(server.url()), Ignore::No, {});
    QCOMPARE(ours.error, QNetworkReply::NoError);
    QCOMPARE(ours.body, QByteArray("hello"));
    QCOMPARE(server.connectionCount(), broken + 1);
    QCOMPARE(server.requestCount(), 1);
    QVERIFY(ours.sslErrors.isEmpty());
    QCOMPARE(ours.encrypted, server.handshakeCount());
    // Where Qt's own re-send did not get through, ours retried.
    if (qt.error != QNetworkReply::NoError)
        QVERIFY(ours.retries >= 1);
    qInfo() << "ours:" << ours.attempts << "attempts, Qt alone" << qtConnections << "connections";
}

void tst_Tls::ignoreCarriesToRetries_data()
{
    QTest::addColumn<int>("fault");
    QTest::addColumn<int>("broken");
    QTest::addColumn<int>("ignore");
    const struct
    {
        const char *name;
        Ignore ignore;
    } modes[] = {
        { "ignoreSslErrors() in sslErrors", Ignore::AllInHandler },
        { "ignoreSslErrors(errors) in sslErrors", Ignore::ListInHandler },
        { "ignoreSslErrors(expected) after get()", Ignore::ListBefore },
        { "ignoreSslErrors() after get()", Ignore::AllBefore },
        { "ignoreSslErrors() in the first sslErrors only", Ignore::AllOnce },
        { "ignoreSslErrors(errors) in the first sslErrors only", Ignore::ListOnce },
    };
    for (const auto &m : modes) {
        QTest::addRow("close after handshake x5, %s", m.name)
            << int(Fault::CloseAfterHandshake) << 5 << int(m.ignore);
        QTest::addRow("FIN after ClientHello x2, %s", m.name)
            << int(Fault::CloseAfterClientHello) << 2 << int(m.ignore);
    }
}

// The caller ignored the self-signed certificate's error on the outer reply: every attempt
// that follows ignores it as well, and the request ends with the server's answer.
void tst_Tls::ignoreCarriesToRetries()
{
    QFETCH(int, fault);
    QFETCH(int, broken);
    QFETCH(int, ignore);
    const QSslCertificate served = certificate(QStringLiteral("selfsigned"));
    TlsTestServer server(served, leafKey());
    QVERIFY(server.listenOnLoopback());
    server.setPlan([fault, broken](int c) { return c < broken ? Fault(fault) : Fault::None; });
    const QList<QSslError> expected = errorsFor({ QSslError::SelfSignedCertificate }, served);

    QNetworkAccessManager plain;
    const Seen qt = run(plain, trustingTestCa(server.url()), Ignore(ignore), expected);
    qInfo() << "Qt:" << qt.error << qt.errorString << qt.sslErrors.size() << "sslErrors after"
            << server.connectionCount() << "connections";

    server.resetCounts();
    TestServer probes;
    QVERIFY(probes.listen());
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(generousPolicy());
    quickProbes(manager, server.url(), probes.url());
    const Seen ours = run(manager, trustingTestCa(server.url()), Ignore(ignore), expected);
    QCOMPARE(ours.error, QNetworkReply::NoError);
    QCOMPARE(ours.body, QByteArray("hello"));
    QCOMPARE(server.connectionCount(), broken + 1);
    // Every handshake that came as far as the certificate accepted it, and told the caller
    // of its errors once, as Qt does for each handshake (its own re-sends included).
    QCOMPARE(ours.encrypted, server.handshakeCount());
    QCOMPARE(ours.sslErrors.size(), server.handshakeCount());
    for (const QList<QSslError> &errors : ours.sslErrors)
        QCOMPARE(errors, expected);
    QCOMPARE(server.requestCount(), 1);
    QVERIFY(ours.attempts > 1);
    qInfo() << "ours:" << ours.attempts << "attempts," << ours.sslErrors.size() << "sslErrors";
}

// Qt 6.4: encrypted() once on the reply and on the manager, ConnectionEncryptedAttribute
// true, the server's certificate in sslConfiguration(). Ours: the same.
void tst_Tls::encryptedReachesTheCaller()
{
    const QSslCertificate served = certificate(QStringLiteral("good"));
    TlsTestServer server(served, leafKey());
    QVERIFY(server.listenOnLoopback());
    for (const QString &host : { QStringLiteral("127.0.0.1"), QStringLiteral("localhost") }) {
        QNetworkAccessManager plain;
        const Seen qt =
            run(plain, trustingTestCa(server.url(QStringLiteral("/"), host)), Ignore::No, {});
        QCOMPARE(qt.error, QNetworkReply::NoError);
        QCOMPARE(qt.encrypted, 1);
        QCOMPARE(qt.managerEncrypted, 1);
        QVERIFY(qt.connectionEncrypted);
        QCOMPARE(qt.peer, served);

        RetryingNetworkAccessManager manager;
        const Seen ours =
            run(manager, trustingTestCa(server.url(QStringLiteral("/"), host)), Ignore::No, {});
        QCOMPARE(ours.error, QNetworkReply::NoError);
        QCOMPARE(ours.body, QByteArray("hello"));
        QCOMPARE(ours.encrypted, 1);
        QCOMPARE(ours.managerEncrypted, 1);
        QVERIFY(ours.connectionEncrypted);
        QCOMPARE(ours.peer, served);
        QVERIFY(ours.sslErrors.isEmpty());
    }
}

// The probes' own manager does not trust the test CA that the request trusts: the server's
// certificate reached it, so the origin answers, and the waiting request goes on. (Before,
// the probe's failed handshake kept the origin unreachable: the request waited for
// connectivity until its deadline.) The probe sends no request over that connection.
void tst_Tls::probeOfPrivateCaOrigin()
{
    TlsTestServer server(certificate(QStringLiteral("good")), leafKey());
    QVERIFY(server.listenOnLoopback());
    server.setPlan([](int c) { return c == 0 ? Fault::CloseAfterClientHello : Fault::None; });
    RetryingNetworkAccessManager manager;
    switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(generousPolicy());
    quickProbes(manager, server.url(), QUrl());
    const Seen ours = run(manager, trustingTestCa(server.url()), Ignore::No, {});
    QCOMPARE(ours.error, QNetworkReply::NoError);
    QCOMPARE(ours.body, QByteArray("hello"));
    QCOMPARE(ours.attempts, 2);
    QVERIFY(manager.reachability()->probeCount() >= 1);
    QCOMPARE(server.requestCount(), 1); // the GET; no HEAD of the probe
    QCOMPARE(server.handshakeCount(), 1);
}

QTEST_GUILESS_MAIN(tst_Tls)
#include "tst_tls.moc"
