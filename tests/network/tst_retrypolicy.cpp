// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/retrypolicy.h>

#include <QtCore/QRandomGenerator>
#include <QtTest/QTest>

#include <cmath>
#include <limits>

using namespace KeepTrying;

class tst_RetryPolicy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data();
    void classify();
    void backoffBounds_data();
    void backoffBounds();
    void backoffGrowsExponentiallyWithoutJitter();
    void absurdSettingsStaySane_data();
    void absurdSettingsStaySane();
    void idempotentMethods_data();
    void idempotentMethods();
    void exemptStatus();
};

void tst_RetryPolicy::classify_data()
{
    QTest::addColumn<int>("error");
    QTest::addColumn<int>("status");
    QTest::addColumn<FaultClass>("expected");

    QTest::newRow("200") << int(QNetworkReply::NoError) << 200 << FaultClass::None;
    QTest::newRow("304") << int(QNetworkReply::NoError) << 304 << FaultClass::None;
    QTest::newRow("404") << int(QNetworkReply::ContentNotFoundError) << 404
                         << FaultClass::Permanent;
    QTest::newRow("400") << int(QNetworkReply::ProtocolInvalidOperationError) << 400
                         << FaultClass::Permanent;
    QTest::newRow("401") << int(QNetworkReply::AuthenticationRequiredError) << 401
                         << FaultClass::Permanent;
    QTest::newRow("408") << int(QNetworkReply::UnknownContentError) << 408 << FaultClass::Server;
    QTest::newRow("425") << int(QNetworkReply::UnknownContentError) << 425 << FaultClass::Server;
    QTest::newRow("429") << int(QNetworkReply::UnknownContentError) << 429 << FaultClass::Server;
    QTest::newRow("500") << int(QNetworkReply::InternalServerError) << 500 << FaultClass::Server;
    QTest::newRow("501") << int(QNetworkReply::OperationNotImplementedError) << 501
                         << FaultClass::Permanent;
    QTest::newRow("502") << int(QNetworkReply::UnknownServerError) << 502 << FaultClass::Server;
    QTest::newRow("503") << int(QNetworkReply::ServiceUnavailableError) << 503
                         << FaultClass::Server;
    QTest::newRow("504") << int(QNetworkReply::UnknownServerError) << 504 << FaultClass::Server;
    QTest::newRow("505") << int(QNetworkReply::UnknownServerError) << 505 << FaultClass::Permanent;
    QTest::newRow("dns") << int(QNetworkReply::HostNotFoundError) << 0 << FaultClass::Connectivity;
    QTest::newRow("refused") << int(QNetworkReply::ConnectionRefusedError) << 0
                             << FaultClass::Connectivity;
    QTest::newRow("reset") << int(QNetworkReply::RemoteHostClosedError) << 0
                           << FaultClass::Connectivity;
    QTest::newRow("reset mid-body of a 200")
        << int(QNetworkReply::RemoteHostClosedError) << 200 << FaultClass::Connectivity;
    QTest::newRow("timeout") << int(QNetworkReply::TimeoutError) << 0 << FaultClass::Connectivity;
    QTest::newRow("temporary") << int(QNetworkReply::TemporaryNetworkFailureError) << 0
                               << FaultClass::Connectivity;
    QTest::newRow("proxy refused")
        << int(QNetworkReply::ProxyConnectionRefusedError) << 0 << FaultClass::Connectivity;
    QTest::newRow("unknown network")
        << int(QNetworkReply::UnknownNetworkError) << 0 << FaultClass::Connectivity;
    QTest::newRow("tls handshake")
        << int(QNetworkReply::SslHandshakeFailedError) << 0 << FaultClass::Permanent;
    QTest::newRow("user abort") << int(QNetworkReply::OperationCanceledError) << 0
                                << FaultClass::Permanent;
    QTest::newRow("protocol") << int(QNetworkReply::ProtocolFailure) << 0 << FaultClass::Permanent;
    QTest::newRow("content resend")
        << int(QNetworkReply::ContentReSendError) << 0 << FaultClass::Permanent;
}

void tst_RetryPolicy::classify()
{
    QFETCH(int, error);
    QFETCH(int, status);
    QFETCH(FaultClass, expected);
    QCOMPARE(RetryPolicy().classify(QNetworkReply::NetworkError(error), status), expected);
}

void tst_RetryPolicy::backoffBounds_data()
{
    QTest::addColumn<Jitter>("jitter");
    QTest::newRow("none") << Jitter::None;
    QTest::newRow("full") << Jitter::Full;
    QTest::newRow("equal") << Jitter::Equal;
    QTest::newRow("decorrelated") << Jitter::Decorrelated;
}

// Each draw stays inside the interval the AWS definition gives for its retry number, and
// the draws really spread over it (a jitter that always returned the bound would fail).
void tst_RetryPolicy::backoffBounds()
{
    QFETCH(Jitter, jitter);
    RetryPolicy policy;
    policy.initialDelayMs = 100;
    policy.multiplier = 2;
    policy.maxDelayMs = 10000;
    policy.jitter = jitter;
    QRandomGenerator random(42);

    qint64 previous = 0;
    qint64 smallest = std::numeric_limits<qint64>::max();
    qint64 largest = 0;
    for (int i = 0; i < 10000; ++i) {
        const int retry = 1 + i % 12;
        if (retry == 1)
            previous = 0;
        const qint64 base = std::min<qint64>(10000, qint64(100 * std::pow(2.0, retry - 1)));
        const qint64 delay = policy.backoffDelay(retry, previous, &random);
        switch (jitter) {
        case Jitter::None:
            QCOMPARE(delay, base);
            break;
        case Jitter::Full:
            QVERIFY2(delay >= 0 && delay <= base, qPrintable(QString::number(delay)));
            break;
        case Jitter::Equal:
            QVERIFY2(delay >= base / 2 && delay <= base, qPrintable(QString::number(delay)));
            break;
        case Jitter::Decorrelated: {
            const qint64 upper = std::min<qint64>(10000, std::max<qint64>(100, previous) * 3);
            QVERIFY2(delay >= 100 && delay <= upper, qPrintable(QString::number(delay)));
            break;
        }
        }
        if (retry == 12) {
            smallest = std::min(smallest, delay);
            largest = std::max(largest, delay);
        }
        previous = delay;
    }
    if (jitter == Jitter::None) {
        QCOMPARE(smallest, 10000);
        QCOMPARE(largest, 10000);
    } else {
        // Over ~830 draws at the cap, the spread covers most of the allowed interval.
        QVERIFY2(largest - smallest > 4000,
                 qPrintable(QStringLiteral("%1..%2").arg(smallest).arg(largest)));
    }
}

void tst_RetryPolicy::backoffGrowsExponentiallyWithoutJitter()
{
    RetryPolicy policy;
    policy.initialDelayMs = 300;
    policy.multiplier = 2;
    policy.maxDelayMs = 5000;
    policy.jitter = Jitter::None;
    const QList<qint64> expected { 300, 600, 1200, 2400, 4800, 5000, 5000 };
    for (int retry = 1; retry <= expected.size(); ++retry)
        QCOMPARE(policy.backoffDelay(retry, 0), expected.at(retry - 1));
}

void tst_RetryPolicy::absurdSettingsStaySane_data()
{
    QTest::addColumn<qint64>("initial");
    QTest::addColumn<double>("multiplier");
    QTest::addColumn<qint64>("max");
    QTest::addColumn<qint64>("cap");

    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const qint64 huge = std::numeric_limits<qint64>::max();
    QTest::newRow("huge multiplier") << qint64(1000) << 1e308 << qint64(60000) << qint64(60000);
    QTest::newRow("infinite multiplier") << qint64(1000) << inf << qint64(60000) << qint64(60000);
    QTest::newRow("NaN multiplier") << qint64(1000) << nan << qint64(60000) << qint64(60000);
    QTest::newRow("multiplier below 1") << qint64(1000) << 0.5 << qint64(60000) << qint64(60000);
    QTest::newRow("negative initial") << qint64(-5) << 2.0 << qint64(60000) << qint64(60000);
    QTest::newRow("negative max") << qint64(100) << 2.0 << qint64(-1) << qint64(0);
    QTest::newRow("max of qint64") << huge << 10.0 << huge << huge;
    QTest::newRow("zero everything") << qint64(0) << 0.0 << qint64(0) << qint64(0);
}

// No overflow, NaN or negative delay after 10 000 attempts with any setting.
void tst_RetryPolicy::absurdSettingsStaySane()
{
    QFETCH(qint64, initial);
    QFETCH(double, multiplier);
    QFETCH(qint64, max);
    QFETCH(qint64, cap);
    for (Jitter jitter : { Jitter::None, Jitter::Full, Jitter::Equal, Jitter::Decorrelated }) {
        RetryPolicy policy;
        policy.initialDelayMs = initial;
        policy.multiplier = multiplier;
        policy.maxDelayMs = max;
        policy.jitter = jitter;
        QRandomGenerator random(7);
        qint64 previous = 0;
        for (int retry = 1; retry <= 10000; ++retry) {
            const qint64 delay = policy.backoffDelay(retry, previous, &random);
            QVERIFY2(delay >= 0 && delay <= cap,
                     qPrintable(QStringLiteral("retry %1: %2").arg(retry).arg(delay)));
            previous = delay;
        }
    }
}

void tst_RetryPolicy::idempotentMethods_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<bool>("idempotent");
    QTest::newRow("GET") << QByteArray("GET") << true;
    QTest::newRow("head lower-case") << QByteArray("head") << true;
    QTest::newRow("PUT") << QByteArray("PUT") << true;
    QTest::newRow("DELETE") << QByteArray("DELETE") << true;
    QTest::newRow("OPTIONS") << QByteArray("OPTIONS") << true;
    QTest::newRow("POST") << QByteArray("POST") << false;
    QTest::newRow("PATCH") << QByteArray("PATCH") << false;
    QTest::newRow("custom") << QByteArray("PURGE") << false;
}

void tst_RetryPolicy::idempotentMethods()
{
    QFETCH(QByteArray, method);
    QFETCH(bool, idempotent);
    QCOMPARE(RetryPolicy::isIdempotentMethod(method), idempotent);
}

void tst_RetryPolicy::exemptStatus()
{
    RetryPolicy policy;
    policy.retryableStatusCodes.remove(429);
    QCOMPARE(policy.classify(QNetworkReply::UnknownContentError, 429), FaultClass::Permanent);
    QCOMPARE(RetryPolicy::never().maxAttempts, 1);
    QCOMPARE(RetryPolicy::never().maxConnectivityAttempts, 1);
}

QTEST_GUILESS_MAIN(tst_RetryPolicy)
#include "tst_retrypolicy.moc"
