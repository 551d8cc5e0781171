// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "httpcacherules_p.h"

#include <QtNetwork/QNetworkRequest>

namespace KeepTrying::HttpCacheRules {

namespace {

bool sameName(const QByteArray &a, const char *b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

// Fields a cache does not store (RFC 9111 §3.1): hop-by-hop fields (RFC 9110 §7.6.1) and
// those the Connection field names; and Set-Cookie, a credential that replaying would reset.
QList<QByteArray> notStored(const QList<RawHeaderPair> &headers)
{
    QList<QByteArray> names = {
        "connection",        "keep-alive", "proxy-connection", "te",
        "transfer-encoding", "upgrade",    "set-cookie",       "set-cookie2"
    };
    for (const RawHeaderPair &header : headers) {
        if (!sameName(header.first, "connection"))
            continue;
        for (const QByteArray &token : header.second.split(','))
            names.append(token.trimmed().toLower());
    }
    return names;
}

// RFC 9111 §1.2.2: a delta-seconds value, or a sum of them, too large to represent counts
// as 2^31 seconds.
constexpr qint64 maxDeltaSeconds = Q_INT64_C(2147483648);

} // namespace

QList<RawHeaderPair> storableHeaders(const QList<RawHeaderPair> &headers)
{
    const QList<QByteArray> dropped = notStored(headers);
    QList<RawHeaderPair> kept;
    for (const RawHeaderPair &header : headers) {
        if (!dropped.contains(header.first.toLower()))
            kept.append(header);
    }
    return kept;
}

QByteArray firstValue(const QList<RawHeaderPair> &headers, const char *name)
{
    for (const RawHeaderPair &header : headers) {
        if (sameName(header.first, name))
            return header.second;
    }
    return {};
}

// The directive names of every Cache-Control field, lower case. cache-directive = token
// [ "=" ( token / quoted-string ) ] in a comma list (RFC 9111 §5.2); a comma inside a
// quoted-string (RFC 9110 §5.6.4, no-cache="Set-Cookie, Foo") separates nothing.
QList<QByteArray> cacheDirectives(const QList<RawHeaderPair> &headers)
{
    QList<QByteArray> names;
    for (const RawHeaderPair &header : headers) {
        if (!sameName(header.first, "cache-control"))
            continue;
        QByteArray value = header.second;
        value += ',';
        QByteArray name;
        bool inName = true;
        bool quoted = false;
        bool escaped = false;
        for (const char c : std::as_const(value)) {
            if (quoted) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                name = name.trimmed().toLower();
                if (!name.isEmpty())
                    names.append(name);
                name.clear();
                inName = true;
            } else if (c == '=') {
                inName = false;
            } else if (inName) {
                name += c;
            }
        }
    }
    return names;
}

int flagsOf(const QList<RawHeaderPair> &headers)
{
    const QList<QByteArray> directives = cacheDirectives(headers);
    int flags = 0;
    if (directives.contains("must-revalidate"))
        flags |= MustRevalidateFlag;
    if (directives.contains("no-cache"))
        flags |= NoCacheFlag;
    if (directives.contains("no-store"))
        flags |= NoStoreFlag;
    return flags;
}

// An HTTP-date in any of RFC 9110 §5.6.7's three forms, parsed by Qt (as RetryAfter does).
QDateTime httpDate(const QByteArray &value)
{
    if (value.isEmpty())
        return {};
    QNetworkRequest carrier;
    carrier.setRawHeader("Last-Modified", value.trimmed());
    return carrier.header(QNetworkRequest::LastModifiedHeader).toDateTime();
}

// RFC 9111 §4.2.3: corrected_initial_age = max(apparent_age, corrected_age_value), with
// apparent_age = max(0, response_time - date_value). The request time is not known here, so
// response_delay counts as 0.
qint64 initialAge(const QList<RawHeaderPair> &headers, const QDateTime &receivedAt)
{
    qint64 apparent = 0;
    const QDateTime date = httpDate(firstValue(headers, "date"));
    if (date.isValid())
        apparent = qMax<qint64>(0, date.secsTo(receivedAt));
    bool ok = false;
    const qint64 age = firstValue(headers, "age").trimmed().toLongLong(&ok); // delay-seconds
    return qMin(qMax(apparent, ok && age > 0 ? age : qint64(0)), maxDeltaSeconds);
}

// ETags compared the weak way (RFC 9110 §8.8.3.2): a 304 to If-None-Match may carry either.
bool sameEntityTag(QByteArray a, QByteArray b)
{
    a = a.trimmed();
    b = b.trimmed();
    if (a.startsWith("W/"))
        a = a.mid(2);
    if (b.startsWith("W/"))
        b = b.mid(2);
    return a == b;
}

QList<RawHeaderPair> mergeNotModified(const QList<RawHeaderPair> &stored,
                                      const QList<RawHeaderPair> &update)
{
    // RFC 9111 §3.2: each field of the 304 replaces the stored ones of that name, except
    // Content-Length (the 304 has no content; the stored body keeps its length).
    QList<RawHeaderPair> merged = stored;
    QList<QByteArray> replaced;
    for (const RawHeaderPair &header : update) {
        const QByteArray name = header.first.toLower();
        if (name == "content-length")
            continue;
        if (!replaced.contains(name)) {
            replaced.append(name);
            merged.removeIf([&name](const RawHeaderPair &field) {
                return field.first.compare(name, Qt::CaseInsensitive) == 0;
            });
        }
        merged.append(header);
    }
    return merged;
}

} // namespace KeepTrying::HttpCacheRules
