// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OFFLINECOPY_H
#define KEEPTRYING_OFFLINECOPY_H

#include <KeepTrying/requestattributes.h>

#include <QtCore/QFlags>
#include <QtCore/QString>
#include <QtNetwork/QNetworkRequest>

namespace KeepTrying {

/*!
    \namespace KeepTrying::OfflineCopy
    Offline copies: stale now, fresh later.

    A GET that opts in (ModeAttribute) has its 2xx response (status, headers, body, the time
    it arrived) kept by the manager in a store of its own, under the account key the app
    set (Settings::accountKey). When such a GET cannot be answered fresh soon (offline at
    start, waiting for connectivity, the circuit breaker open, or still retrying after
    Settings::offerAfterMs), the reply offers the copy at once and keeps trying: one reply,
    the stale copy first, the fresh response later. A caller that ignores the offer sees a
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
    The manager's offline copy settings.
*/
struct Settings
{
    /*! The directory of the store; empty (the default) keeps no offline copies. It is
        created when missing. One directory may be shared by several managers and
        processes; they see each other's copies. */
    QString directory;
    /*! The partition copies are stored under and looked up in. The app chooses it, e.g.
        server URL + user name; empty is a partition of its own. Change it when the user
        switches account or server. */
    QString accountKey;
    /*! Bytes (bodies and headers, all accounts) the store may keep; least recently used
        unpinned copies are evicted beyond it. A single response larger than this is not
        stored. Pinned copies are never evicted, even when they alone exceed it: then no
        unpinned copy is kept. Default 200 MiB. */
    qint64 maximumSizeBytes = 200 * 1024 * 1024;
    /*! Bytes one copy's body may have; a larger response is not kept. The body is kept in
        memory while it arrives and written when the reply finishes, on the thread of the
        manager: this bounds both, and keeps one large download from evicting every other
        copy. Default 16 MiB. */
    qint64 maximumCopyBytes = 16 * 1024 * 1024;
    /*! How long, in milliseconds, a request that is retrying (or still waiting for its first
        answer) runs before its copy is offered. Offline at start, waiting for connectivity
        and an open breaker offer it at once. Default 1000. */
    int offerAfterMs = 1000;
};

} // namespace OfflineCopy
} // namespace KeepTrying

Q_DECLARE_OPERATORS_FOR_FLAGS(KeepTrying::OfflineCopy::Overrides)

#endif // KEEPTRYING_OFFLINECOPY_H
