// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// RetryAfter::parse() on any bytes a server may send as a Retry-After value: no crash, and
// the documented range (-1, or a delay of 0 or more ms).

#include <KeepTrying/retryafter.h>

#include <QtCore/QDateTime>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray value(reinterpret_cast<const char *>(data), qsizetype(size));
    // A fixed "now", so that an input gives the same answer in every run.
    static const QDateTime now =
        QDateTime::fromString(QStringLiteral("2015-10-21T07:28:00Z"), Qt::ISODate);
    const qint64 delayMs = KeepTrying::RetryAfter::parse(value, now);
    if (delayMs < -1)
        std::abort();
    // A date is a delay from now; a later now can only make it shorter or the same.
    const qint64 later = KeepTrying::RetryAfter::parse(value, now.addSecs(60));
    if (later < -1 || (delayMs >= 0 && later > delayMs))
        std::abort();
    return 0;
}
