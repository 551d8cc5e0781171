// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/offlinecopy.h>

namespace KeepTrying::OfflineCopy {

namespace {

// RFC 9111 §1.2.2: a delta-seconds value, or a sum of them, too large to represent counts
// as 2^31 seconds.
constexpr qint64 maxDeltaSeconds = Q_INT64_C(2147483648);

} // namespace

qint64 Copy::ageSeconds(const QDateTime &now) const
{
    // Both bounded, so that neither an Age header nor a damaged store makes the sum overflow.
    const qint64 initial = qBound<qint64>(0, initialAgeSeconds, maxDeltaSeconds);
    const qint64 resident = qBound<qint64>(0, storedAt.secsTo(now), maxDeltaSeconds);
    return qMin(initial + resident, maxDeltaSeconds);
}

QByteArray Copy::header(const QByteArray &name) const
{
    for (const RawHeaderPair &pair : headers) {
        if (pair.first.compare(name, Qt::CaseInsensitive) == 0)
            return pair.second;
    }
    return {};
}

QList<Copy::RawHeaderPair> Copy::revalidationHeaders() const
{
    QList<RawHeaderPair> conditions;
    if (!etag.isEmpty())
        conditions.append({ QByteArrayLiteral("If-None-Match"), etag });
    if (!lastModified.isEmpty())
        conditions.append({ QByteArrayLiteral("If-Modified-Since"), lastModified });
    return conditions;
}

} // namespace KeepTrying::OfflineCopy
