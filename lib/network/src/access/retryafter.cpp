// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/retryafter.h>

#include <QtNetwork/QNetworkRequest>

#include <limits>

namespace KeepTrying {

qint64 RetryAfter::parse(const QByteArray &value, const QDateTime &now)
{
    const QByteArray trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return -1;

    // delay-seconds = 1*DIGIT (RFC 9110 §10.2.3): digits only, no sign, no fraction.
    bool allDigits = true;
    for (char c : trimmed)
        allDigits = allDigits && c >= '0' && c <= '9';
    if (allDigits) {
        bool ok = false;
        const qulonglong seconds = trimmed.toULongLong(&ok);
        constexpr qulonglong maxSeconds = std::numeric_limits<qint64>::max() / 1000;
        if (!ok || seconds > maxSeconds)
            return -1;
        return qint64(seconds) * 1000;
    }

    // An HTTP-date is visible US-ASCII and spaces only, and its weekday's comma is followed by
    // a space (RFC 9110 §5.6.7). Anything else is not one, and must not reach Qt's date
    // parser: Qt 6.4 reads the text two bytes after the first comma, past the end of a value
    // that ends with it ("Thursday,").
    for (char c : trimmed) {
        if (c < 0x20 || c > 0x7e)
            return -1;
    }
    if (const qsizetype comma = trimmed.indexOf(',');
        comma >= 0 && (comma + 1 >= trimmed.size() || trimmed.at(comma + 1) != ' '))
        return -1;

    // HTTP-date: Qt parses all three forms of RFC 9110 §5.6.7 for Last-Modified, so let it.
    QNetworkRequest carrier;
    carrier.setRawHeader("Last-Modified", trimmed);
    QDateTime date = carrier.header(QNetworkRequest::LastModifiedHeader).toDateTime();
    if (!date.isValid())
        return -1;
    // rfc850-date has a two-digit year: read it as the nearest year not more than 50 years
    // ahead (RFC 9110 §5.6.7), not as Qt's 19yy.
    const qsizetype comma = trimmed.indexOf(',');
    if (comma > 0 && trimmed.indexOf('-', comma) > comma) {
        const int thisYear = now.toUTC().date().year();
        int year = thisYear - thisYear % 100 + date.date().year() % 100;
        if (year > thisYear + 50)
            year -= 100;
        date = date.addYears(year - date.date().year());
    }
    return qMax<qint64>(0, now.msecsTo(date));
}

qint64 RetryAfter::parse(const QByteArray &value)
{
    return parse(value, QDateTime::currentDateTimeUtc());
}

} // namespace KeepTrying
