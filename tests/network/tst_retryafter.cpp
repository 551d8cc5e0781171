// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/retryafter.h>

#include <QtTest/QTest>

using namespace KeepTrying;

class tst_RetryAfter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
};

void tst_RetryAfter::parse_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("expected");

    // "now" is fixed in parse(): Wed, 21 Oct 2015 07:28:00 GMT.
    QTest::newRow("seconds") << QByteArray("120") << qint64(120000);
    QTest::newRow("zero") << QByteArray("0") << qint64(0);
    QTest::newRow("padded") << QByteArray("  5 ") << qint64(5000);
    QTest::newRow("IMF-fixdate") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << qint64(30000);
    QTest::newRow("RFC 850") << QByteArray("Wednesday, 21-Oct-15 07:29:00 GMT") << qint64(60000);
    QTest::newRow("asctime") << QByteArray("Wed Oct 21 07:28:10 2015") << qint64(10000);
    QTest::newRow("asctime, day padded")
        << QByteArray("Sun Nov  1 07:28:00 2015") << qint64(11 * 24 * 3600 * 1000LL);
    QTest::newRow("past date means now")
        << QByteArray("Tue, 20 Oct 2015 07:28:00 GMT") << qint64(0);
    QTest::newRow("empty") << QByteArray("") << qint64(-1);
    QTest::newRow("negative") << QByteArray("-5") << qint64(-1);
    QTest::newRow("fraction") << QByteArray("1.5") << qint64(-1);
    QTest::newRow("plus sign") << QByteArray("+5") << qint64(-1);
    QTest::newRow("garbage") << QByteArray("soon") << qint64(-1);
    QTest::newRow("hex") << QByteArray("0x10") << qint64(-1);
    QTest::newRow("overflow") << QByteArray("99999999999999999999999") << qint64(-1);
    QTest::newRow("overflows in ms") << QByteArray("9223372036854776") << qint64(-1);
    QTest::newRow("largest in ms")
        << QByteArray("9223372036854775") << qint64(9223372036854775000LL);
    QTest::newRow("bad date") << QByteArray("Wed, 32 Oct 2015 07:28:00 GMT") << qint64(-1);
    // Found by fuzz_retryafter: Qt 6.4 read past the end of these.
    QTest::newRow("comma last") << QByteArray("Thursday,") << qint64(-1);
    QTest::newRow("comma without space")
        << QByteArray("Wed,21 Oct 2015 07:28:30 GMT") << qint64(-1);
    QTest::newRow("control byte") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << qint64(-1);
    QTest::newRow("RFC 850, year in the past century")
        << QByteArray("Friday, 21-Oct-95 07:28:00 GMT") << qint64(0);
}

void tst_RetryAfter::parse()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, expected);
    const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), Qt::UTC);
    QCOMPARE(RetryAfter::parse(value, now), expected);
}

QTEST_GUILESS_MAIN(tst_RetryAfter)
#include "tst_retryafter.moc"
