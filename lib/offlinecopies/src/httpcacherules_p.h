// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_HTTPCACHERULES_P_H
#define KEEPTRYING_HTTPCACHERULES_P_H

#include <KeepTrying/offlinecopy.h>

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QList>

/*
    The rules of HTTP caching (RFC 9111) the offline-copy store keeps, on header fields only:
    which fields are stored, which Cache-Control directives a response has, its initial
    age, how a 304 updates the stored fields, how ETags compare. No storage here.
*/
namespace KeepTrying::HttpCacheRules {

using RawHeaderPair = OfflineCopy::Copy::RawHeaderPair;

// Cache-Control directives a copy keeps as flags (the store's flags column).
enum CopyFlag { MustRevalidateFlag = 0x1, NoCacheFlag = 0x2, NoStoreFlag = 0x4 };

// \a headers without those a cache does not store (RFC 9111 §3.1): hop-by-hop fields (RFC
// 9110 §7.6.1), those the Connection field names, and Set-Cookie.
QList<RawHeaderPair> storableHeaders(const QList<RawHeaderPair> &headers);
// The first value of field \a name (case-insensitive), empty if absent.
QByteArray firstValue(const QList<RawHeaderPair> &headers, const char *name);
// The directive names of every Cache-Control field, lower case (RFC 9111 §5.2).
QList<QByteArray> cacheDirectives(const QList<RawHeaderPair> &headers);
// CopyFlags of must-revalidate, no-cache and no-store in \a headers.
int flagsOf(const QList<RawHeaderPair> &headers);
// An HTTP-date in any of RFC 9110 §5.6.7's three forms; invalid if it is none.
QDateTime httpDate(const QByteArray &value);
// RFC 9111 §4.2.3 corrected_initial_age in seconds of a response with \a headers received
// at \a receivedAt (the request's delay counts as 0), at most 2^31 (§1.2.2).
qint64 initialAge(const QList<RawHeaderPair> &headers, const QDateTime &receivedAt);
// ETags compared the weak way (RFC 9110 §8.8.3.2).
bool sameEntityTag(QByteArray a, QByteArray b);
// The stored fields after a 304 with (storable) fields \a update (RFC 9111 §3.2).
QList<RawHeaderPair> mergeNotModified(const QList<RawHeaderPair> &stored,
                                      const QList<RawHeaderPair> &update);

} // namespace KeepTrying::HttpCacheRules

#endif // KEEPTRYING_HTTPCACHERULES_P_H
