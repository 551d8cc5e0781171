// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_WALLABAGAPI_P_H
#define KEEPTRYING_DEMO_WALLABAGAPI_P_H

#include "articlestore_p.h"
#include "httpmessage_p.h"
#include "oauthtokens_p.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QSet>

#include <deque>

namespace KeepTrying::Demo {

/*! The parameters of a write or token request (see wallabagapi.cpp); nothing when the body
    cannot be parsed. \a bodyOnly: the body's only, as wallabag's POST and PATCH of entries. */
std::optional<QHash<QString, QString>> parameters(const HttpRequest &request,
                                                  bool bodyOnly = false);

/*!
    What a request to the demo server means: the subset of the wallabag v2 REST API the
    reader needs (sign-in and tokens, entries, images, version and info), the access rules
    in front of it and the Idempotency-Key record behind its writes. It knows nothing of
    sockets, faults or outages: the Transport hands it the requests that get through.

    Not thread-safe by itself: every member is guarded by the server's one mutex, which
    the caller holds around process() and any access to the data below.
*/
class WallabagApi
{
public:
    /*! Answers \a request as wallabag would, and applies it. */
    HttpResponse process(const HttpRequest &request);

    /*! The route \a path belongs to, by its pattern (\c{PATCH /api/entries/{id}.json}), so
        that the per-route counters of /api/entries/7.json and /api/entries/8 add up; a path
        that matches no route names itself. */
    static QString routeKey(const QByteArray &method, const QString &path);

    /*! Sets the write counters below to zero. */
    void resetStatsLocked();

    ArticleStore store;
    QString baseUrl; //!< the API's own, for links when a request has no Host header
    /*! The scheme, host and port the list's _links name, as PHP behind a proxy sees them
        (DemoServer::setPublicBaseUrl()); empty: the request's own Host. */
    QString linkBase;
    QString adminUrl; //!< where the admin API listens, to point lost admin scripts there
    qint64 writesApplied = 0;
    qint64 duplicateWritesRejected = 0;
    /*! Per entry id, the writes applied to it in order (the last maxEntryWrites):
        {"method": "PATCH", "idempotency_key": "..." or null}. A replayed write that was
        answered from the Idempotency-Key record is not in it. */
    QHash<int, QJsonArray> entryWrites;
    static constexpr int maxEntryWrites = 1000;
    /*! How many keyed writes the Idempotency-Key record remembers (the latest; at least 1):
        see DemoServer::setIdempotencyRecordLimit(). */
    int idempotencyRecordLimit = 1000;
    /*! Forgets the oldest records beyond idempotencyRecordLimit. */
    void trimIdempotencyRecordLocked();
    int idempotencyRecordCount() const { return int(idempotentResponses.size()); }
    /*! Not wallabag's (it has none): replays and 422s by Idempotency-Key, for tests of the
        library's keys. Off by default; see DemoServer::setIdempotencyKeysHonoured(). */
    bool honourIdempotencyKeys = false;

    /*! The slow page fetch of an add (DemoServer::setAddFetchDelay()), 0: none. */
    int addFetchDelayMs = 0;
    /*! True when \a request is a \c{POST /api/entries} of a URL not saved yet: wallabag
        looks the URL up, then fetches the page (addFetchDelayMs here), then creates the
        entry without looking again. The Transport answers it with createFetched() after
        the delay; a second add of the URL meanwhile creates a second entry, as in wallabag. */
    bool needsFetch(const HttpRequest &request) const;
    /*! The end of an add that needsFetch(): creates the entry, applies and answers it as
        process() would, whether or not the client is still there. */
    HttpResponse createFetched(const HttpRequest &request);

    OAuthTokens tokens;
    /*! The user (1 or 2) the request being processed is from: see OAuthTokens. */
    int currentUser = 1;

private:
    /*! What wallabag answers for an entry that is not there (404: the ParamConverter) or
        is another user's (403: validateUserAccess); nothing when it is the user's. */
    std::optional<HttpResponse> refusedAccess(const std::optional<Article> &article) const;
    void recordEntryWrite(const HttpRequest &request, const HttpResponse &response);
    HttpResponse route(const HttpRequest &request);
    HttpResponse token(const HttpRequest &request);
    HttpResponse listEntries(const HttpRequest &request);
    HttpResponse user(const HttpRequest &request);
    HttpResponse createEntry(const HttpRequest &request, bool lookUp = true);
    HttpResponse patchEntry(const HttpRequest &request, int id);
    HttpResponse deleteEntry(const HttpRequest &request, int id);
    HttpResponse removeTag(const HttpRequest &request, int id, int tagId);
    HttpResponse addTags(const HttpRequest &request, int id);
    HttpResponse entryTags(int id) const;
    HttpResponse entriesExist(const HttpRequest &request) const;
    HttpResponse applied(const HttpRequest &request, const HttpResponse &response);
    HttpResponse image(const HttpRequest &request, const QString &name) const;
    QString publicBaseUrl(const HttpRequest &request) const;
    QString linkBaseUrl(const HttpRequest &request) const;

    struct StoredResponse
    {
        QByteArray fingerprint;
        HttpResponse response;
    };
    QHash<QByteArray, StoredResponse> idempotentResponses;
    std::deque<QByteArray> idempotencyOrder; // the keys of idempotentResponses, oldest first
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_WALLABAGAPI_P_H
