// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OFFLINECOPY_H
#define KEEPTRYING_OFFLINECOPY_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/requestattributes.h>

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QFlags>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkRequest>

namespace KeepTrying {

/*!
    \namespace KeepTrying::OfflineCopy
    Offline copies: stale now, fresh later.

    A GET that opts in (ModeAttribute) has its 2xx response (status, headers, body, the time
    it arrived) kept by the manager in the store the app gave it
    (RetryingNetworkAccessManager::setOfflineCopyStore(); KeepTrying::OfflineCopies has a
    SQLite one), under the account key the app set (Settings::accountKey). When such a GET cannot be
   answered fresh soon (offline at start, waiting for connectivity, the circuit breaker open, or
   still retrying after Settings::offerAfterMs), the reply offers the copy at once and keeps trying:
   one reply, the stale copy first, the fresh response later. A caller that ignores the offer sees a
    plain reply.

    Unlike QNetworkDiskCache, the store keeps what the app opted in even when the response
    says `Cache-Control: no-cache` (wallabag's API answers `no-cache, private`): the copy
    is never used as if it were fresh, only offered marked as stale, and online reads
    revalidate it (If-None-Match / If-Modified-Since; a 304 refreshes its stored headers and
    time, RFC 9111 §4.3.4). \c no-store and \c must-revalidate are respected unless the
    request overrides them (OverrideAttribute).

    A copy is the last 2xx answer for the URL the caller asked for (after redirects, still
    that URL); a final 404 or 410 for it removes it. \c Vary is not matched: requests for
    one URL with different Accept-Language, say, share one copy.

    Copies of one account are never returned under another: switching account or server
    never shows the previous one's data. The key of a copy is its URL without user info,
    fragment and credential query parameters (isCredentialName()); request headers such as
    Authorization or Cookie are not part of it, and Set-Cookie is never stored.

    The attribute ids live in requestattributes.h with every other id of KeepTrying.
*/
namespace OfflineCopy {

/*! Request attribute, an int holding a Mode: whether this GET keeps an offline copy.
    Absent or Off: none is kept nor offered. Ignored on other methods. */
constexpr QNetworkRequest::Attribute ModeAttribute = RequestAttributes::OfflineCopyMode;
/*! Request attribute, an int holding Overrides: HTTP caching rules this request sets
    aside for its offline copy. Absent: NoOverride. */
constexpr QNetworkRequest::Attribute OverrideAttribute = RequestAttributes::OfflineCopyOverride;
/*! Reply attribute, a bool: true while what the reply hands over is the stored copy
    (stale), false or absent once it is the fresh response, or when no copy was offered. */
constexpr QNetworkRequest::Attribute IsStaleAttribute = RequestAttributes::OfflineCopyIsStale;
/*! Reply attribute, a QDateTime (UTC): when the offered copy's response arrived, or when a
    304 last confirmed it. Set together with IsStaleAttribute. */
constexpr QNetworkRequest::Attribute StoredAtAttribute = RequestAttributes::OfflineCopyStoredAt;
/*! Reply attribute, a qint64: the offered copy's age in seconds when it was offered, as
    RFC 9111 §4.2.3 computes it (the Age and Date headers it came with, plus the time it
    has been stored). Set together with IsStaleAttribute. */
constexpr QNetworkRequest::Attribute AgeAttribute = RequestAttributes::OfflineCopyAge;

/*! Values of ModeAttribute. */
enum Mode {
    Off = 0, //!< No offline copy (the default).
    Keep = 1, //!< Store the 2xx response; offer it when the fresh one is slow. Evictable.
    KeepPinned = 2 //!< As Keep, and pin the copy: the size budget never evicts it (saved
    //!< articles and their images). A copy stays pinned until the app unpins it.
};

/*! Flags of OverrideAttribute. */
enum Override {
    NoOverride = 0,
    /*! Store the response even when it says `Cache-Control: no-store` (RFC 9111
        §5.2.2.5). Without it, such a response is not stored and an older copy of the same
        URL is removed. */
    StoreDespiteNoStore = 0x1,
    /*! Offer the copy stale even when it says \c must-revalidate (RFC 9111 §5.2.2.2), which
        otherwise forbids that: such a copy is then only used after a successful
        revalidation. */
    OfferDespiteMustRevalidate = 0x2
};
Q_DECLARE_FLAGS(Overrides, Override)

/*!
    The manager's offline copy settings: whose copies its requests use and when a copy is
    offered. Where copies live and how many bytes they may take is the store's business
    (RetryingNetworkAccessManager::setOfflineCopyStore(), e.g. KeepTrying::OfflineCopyStore
    of KeepTrying::OfflineCopies).
*/
struct Settings
{
    /*! The partition copies are stored under and looked up in. The app chooses it, e.g.
        server URL + user name; empty is a partition of its own. Change it when the user
        switches account or server. */
    QString accountKey;
    /*! How long, in milliseconds, a request that is retrying (or still waiting for its first
        answer) runs before its copy is offered. Offline at start, waiting for connectivity
        and an open breaker offer it at once. Default 1000. */
    int offerAfterMs = 1000;
};

/*!
    One stored response, as an AbstractOfflineCopyStore hands it to the manager.
*/
struct KEEPTRYING_NETWORK_EXPORT Copy
{
    /*! A header field as QNetworkReply::rawHeaderPairs() lists it: name, value. */
    using RawHeaderPair = QPair<QByteArray, QByteArray>;

    QUrl url; //!< The key it is stored under (the store says how it derives it from a URL).
    int status = 0; //!< The HTTP status of the stored response (2xx).
    /*! The response's header fields as received, without hop-by-hop fields and Set-Cookie
        (RFC 9111 §3.1), with the fields of later 304s merged in (RFC 9111 §3.2). */
    QList<RawHeaderPair> headers;
    QByteArray body; //!< The whole body, decoded (as the caller of the request got it).
    /*! UTC: when the response, or the last 304 that confirmed it, arrived. */
    QDateTime storedAt;
    /*! Seconds: the age it had when it arrived, RFC 9111 §4.2.3 corrected_initial_age
        (from its Age and Date fields; the request's own delay counts as 0). */
    qint64 initialAgeSeconds = 0;
    QByteArray etag; //!< Its ETag field, empty if none: the validator If-None-Match sends.
    QByteArray lastModified; //!< Its Last-Modified field, empty if none.
    bool pinned = false; //!< Pinned: the store's budget never evicts it.
    /*! `Cache-Control: must-revalidate` (RFC 9111 §5.2.2.2): never offered stale unless the
        request says OfferDespiteMustRevalidate. */
    bool mustRevalidate = false;
    bool noCache = false; //!< `Cache-Control: no-cache`: stored anyway, offered only stale.
    bool noStore = false; //!< `Cache-Control: no-store`, stored under StoreDespiteNoStore.

    /*! RFC 9111 §4.2.3 current_age at \a now, in seconds: initialAgeSeconds plus the time
        since storedAt; never negative, at most 2^31 (RFC 9111 §1.2.2). */
    qint64 ageSeconds(const QDateTime &now) const;
    /*! The first value of header field \a name (case-insensitive), empty if absent. */
    QByteArray header(const QByteArray &name) const;
    /*! If-None-Match and If-Modified-Since that revalidate it (RFC 9110 §13.1); empty when
        it has no validator. */
    QList<RawHeaderPair> revalidationHeaders() const;
};

} // namespace OfflineCopy
} // namespace KeepTrying

Q_DECLARE_OPERATORS_FOR_FLAGS(KeepTrying::OfflineCopy::Overrides)

#endif // KEEPTRYING_OFFLINECOPY_H
