// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_DEMOSERVER_H
#define KEEPTRYING_DEMO_DEMOSERVER_H

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <QtNetwork/QHostAddress>

#include <memory>

namespace KeepTrying::Demo {

/*! One request as the demo server received it (admin requests are not recorded). */
struct RecordedRequest
{
    QByteArray method; //!< "GET", "PATCH"...
    QString path; //!< decoded path, without the query
    QString query; //!< the query string, without '?', as sent
    QList<QPair<QByteArray, QByteArray>> headers; //!< in the order received
    QByteArray body;
};

class DemoServerPrivate;

/*!
    A small HTTP server on loopback that speaks the subset of the wallabag v2 REST API the
    reader needs, filled with the sample library compiled into this library, and that can
    misbehave on purpose: it injects faults (status codes, Retry-After, latency, dropped
    connections) and can go down for a while. It is the reader's built-in server and the
    server most tests talk to.

    Endpoints: \c{POST /oauth/v2/token} (password and refresh_token grants),
    \c{GET /api/entries/exists.json}, \c{GET|POST /api/entries/{id}/tags.json},
    \c{GET /api/entries.json} (page, perPage, archive, starred, sort, order, tags, since,
    detail=full|metadata: metadata sends each entry's content as null; absolute _links
    built from publicBaseUrl(); a page past the end, page=0 or perPage=0 is a 404),
    \c{GET|PATCH|DELETE /api/entries/{id}.json}, \c{POST /api/entries.json},
    \c{DELETE /api/entries/{id}/tags/{tagId}.json} (removes one tag, answers the entry),
    \c{GET /api/user.json},
    \c{GET /api/version}, \c{GET /api/info}, \c{GET /images/{name}} (preview pictures, with
    Range support).

    As in wallabag (its app/config/security.yml), \c{/api/doc}, \c{/api/version},
    \c{/api/info} and \c{/api/user} pass without a token (the last then asks for one), and every
    other \c{/api/} endpoint needs \c{Authorization: Bearer <access_token>}: without one, 401
    \c{access_denied}; a token that is not valid or has expired, 401 \c{invalid_grant} (also on
    the anonymous paths). Token endpoint errors are FOSOAuthServerBundle's (RFC 6749 §5.2): 400
    with \c{{"error": "invalid_grant"|"invalid_client"|"invalid_request", "error_description":
    "..."}}.

    \section Admin API
    The admin endpoints listen on a port of their own on loopback (adminUrl()), so that they
    keep answering while the API is down, and answer loopback clients only. They are never
    counted, recorded or faulted: \c{GET|POST|DELETE /_admin/faults},
    \c{POST /_admin/down?seconds=S} (goDown()), \c{POST /_admin/up} (comeUp()),
    \c{GET /_admin/stats} (stats()), \c{POST /_admin/stats/reset} (resetStats()).

    \section What wallabag does, and this server too
    Tag labels are stored lower-cased and trimmed, slugs are \c{t:label} (2.6);
    \c{PATCH …/entries/{id}} with a non-empty \c tags list replaces the entry's tags;
    \c{POST …/entries/{id}/tags} adds; \c{DELETE …/tags/{tagId}} of a tag not on the entry
    is 200; \c{POST /api/entries} deduplicates by URL only (SHA-1 of the URL), applying the
    given fields to the entry saved already; \c{GET /api/entries/exists} (url, hashed_url,
    urls[], hashed_urls[], return_id). Access tokens expire (setAccessTokenLifetime(),
    3600 s by default: 401 \c invalid_grant "The access token provided has expired."), and a
    refresh token works once. See docs/wallabag.md.

    \section Idempotency-Key (not wallabag's)
    wallabag has no Idempotency-Key, and by default neither has this server. With
    setIdempotencyKeysHonoured(true), for tests of the library's keys, writes under
    \c{/api/} honour the \c{Idempotency-Key} request header
    (draft-ietf-httpapi-idempotency-key-header): a repeat with the same key gets the first
    response again and is not applied twice; the same key with another method, path or body
    gets 422. The record keeps the latest idempotencyRecordLimit() keyed writes (1000 by
    default): as the draft lets a server expire its keys (§2.3), a repeat of an older one is
    applied again. Each record holds a whole response, so a record without a bound would
    grow the process (the reader's, for its built-in server) with every write.

    \section Fault specs
    A spec is comma-separated \c{key=value}:
    \list
    \li \c{route=GLOB}: the request path matches GLOB (\c{*} any run, \c{?} one character,
        \c{/} included); default every path.
    \li \c{method=METHOD}: only this method; default every method.
    \li \c{status=CODE}: answer CODE (200..599) with a small JSON error body instead.
    \li \c{retry-after=SECONDS|HTTP-DATE}: also send this Retry-After (needs status).
    \li \c{latency=MS}: wait MS milliseconds (0..600000) before answering.
    \li \c{drop=before-headers}: close the connection without answering;
        \c{drop=mid-body}: apply the request, send the status line, the headers (with the
        full Content-Length) and half the body, then close the connection.
    \li \c{count=N}: only the first N matching requests; default every one.
    \li \c{rate=P}: each matching request with probability P (0..1), drawn from a generator
        seeded with setSeed().
    \endlist
    A spec needs at least one of status, latency and drop; status and drop exclude each
    other. The first active fault that matches a request (route, method, remaining count,
    then the rate draw) applies to it. Requests that get a status or before-headers fault
    are not applied.

    \section Capacity
    A real server does its work in some time and serves only so many requests at once;
    setServiceTime() and setMaxConcurrent() make the demo server behave so, for load tests
    such as the thundering-herd benchmark. A request over the limit is shed at once with
    503 (no Retry-After), before faults are looked at.

    \section Threads
    The server lives in the thread that created it (or the one it was moved to), which
    needs an event loop; the reader runs it on a worker QThread. Call listen() in that
    thread. addFault(), clearFaults(), faults(), setSeed(), goDown(), comeUp(), isDown(),
    stats(), totalRequests(), resetStats(), articleCount(), recordedRequests(), baseUrl(),
    adminUrl(), setArticleCount(), setPublicBaseUrl(), setUtcOffset(), setArticleUpdatedAt()
    and removeArticle() may be called from any thread, as may setMaxConcurrent(), maxConcurrent(),
   setServiceTime(), serviceTime(), setIdempotencyRecordLimit() and idempotencyRecordLimit().
*/
class DemoServer : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool down READ isDown NOTIFY downChanged)

public:
    /*! Creates a stopped server with the sample library loaded; call listen() to start. */
    explicit DemoServer(QObject *parent = nullptr);
    ~DemoServer() override;

    /*!
        Listens for the API on \a address and \a port, and for the admin API on \a adminPort
        of \a address when it is a loopback address, else of 127.0.0.1 (0: any free port).
        Returns the API's bound port, or 0 when it could not listen (the reason is logged in
        \c keeptrying.demoserver). The admin API listens once, at the first call.
    */
    quint16 listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0,
                   quint16 adminPort = 0);

    /*! \c{http://127.0.0.1:PORT} (or the listening address), empty before listen(). */
    QUrl baseUrl() const;
    /*! The admin API's \c{http://127.0.0.1:PORT}, empty before listen(). It stays
        reachable while the server is down. */
    QUrl adminUrl() const;

    /*!
        Activates the fault \a spec (see the class comment), after those already active.
        Returns false and sets \a errorMessage, changing nothing, when the spec is invalid.
    */
    bool addFault(const QString &spec, QString *errorMessage = nullptr);
    /*! Removes every fault. */
    void clearFaults();
    /*! The active faults as their specs, with the remaining count when one was given. */
    QStringList faults() const;
    /*! Reseeds the generator behind \c{rate=} faults, so a run can be repeated exactly. */
    void setSeed(quint32 seed);

    /*!
        Serves at most \a requests requests at once; 0 (the default) means no limit. A
        request is in progress from its arrival until its answer is written (service time
        and latency faults included). One that arrives while \a requests are in progress
        is answered 503 at once, without Retry-After; it is counted in total_requests and
        capacity_rejections, but gets no fault and is not applied. Negative values count as 0.
    */
    void setMaxConcurrent(int requests);
    int maxConcurrent() const;
    /*!
        Answers every request that is served (not admin requests, not those shed for
        capacity) \a milliseconds (0..600000, clamped) after it arrived, plus any latency
        fault: the time the server takes to do the work, so that requests overlap. Other
        connections are served meanwhile. Default 0.
    */
    void setServiceTime(int milliseconds);
    int serviceTime() const;

    /*!
        Keeps the Idempotency-Key record of the latest \a writes keyed writes (at least 1;
        default 1000), forgetting the oldest first (see the class comment on Idempotency-Key).
    */
    void setIdempotencyRecordLimit(int writes);
    int idempotencyRecordLimit() const;
    /*! Honours Idempotency-Key on writes (see the class comment); off by default, as in
        wallabag. */
    void setIdempotencyKeysHonoured(bool honoured);
    bool idempotencyKeysHonoured() const;

    /*!
        Makes an add of a URL not saved yet (\c{POST /api/entries}) take \a milliseconds
        more (0..600000, clamped; default 0): wallabag's page fetch, between its look-up of
        the URL and the creation of the entry. The entry is created when the time is over,
        even if the client gave up meanwhile; a second add of the URL during that time
        creates a second entry, as it does in wallabag.
    */
    void setAddFetchDelay(int milliseconds);
    int addFetchDelay() const;

    /*! Lifetime of the access tokens issued from now on (at least 1 s; default 3600, as
        wallabag's). */
    void setAccessTokenLifetime(int seconds);
    int accessTokenLifetime() const;
    /*! Makes every access token issued so far expired, as if their lifetime had passed. */
    void expireAccessTokens();

    /*!
        Stops listening and closes the open connections, so new connections are refused,
        then listens again on the same address and port after \a milliseconds. Calling it
        while down restarts the wait. Called from another thread, it is queued to the
        server's thread: isDown() and downChanged() follow a moment later.
    */
    void goDown(int milliseconds);
    /*!
        Ends a goDown() now instead of when its time is over: listens again on the same
        address and port (should that port be taken meanwhile, it keeps trying every
        100 ms and isDown() stays true until it can). Does nothing while up. Called from
        another thread, it is queued as goDown() is.
    */
    void comeUp();
    bool isDown() const;

    /*!
        \c{{"total_requests": N, "requests_per_route": {"GET /api/entries.json": N, ...},
        "writes_applied": N, "duplicate_writes_rejected": N, "faults_injected": N,
        "capacity_rejections": N, "peak_in_progress": N, "in_progress": N,
        "idempotency_records": N,
        "entry_writes": {"ID": [...]}, "tokens_issued": N}}.
        Routes are named by their pattern (\c{PATCH /api/entries/{id}.json}); paths that
        match no route by themselves. peak_in_progress is the most requests served at once
        (see setMaxConcurrent()); in_progress those being served now (an add whose page
        fetch is not over included). entry_writes lists, per entry id, the writes applied to
        it in the order they were applied (the last 1000), each as
        \c{{"method": "PATCH", "idempotency_key": "KEY" or null}}: a repeat answered from
        the Idempotency-Key record is not applied and not listed, so a client can check
        that each of its writes took effect once and in order.
    */
    QJsonObject stats() const;
    qint64 totalRequests() const;
    /*! Sets every counter to zero and forgets the recorded requests. */
    void resetStats();

    /*! The demo user's entries currently in the library (the sample has at least 40). */
    int articleCount() const;
    /*! Makes the library \a count entries (at least 1): the sample's, then copies of them
        with their own ids, URLs and dates; fewer keeps the first \a count. */
    void setArticleCount(int count);

    /*!
        The scheme, host and port the entries list's absolute \c _links name, as wallabag
        builds them from what PHP sees: behind a reverse proxy (wallabag trusts none) that
        is the hop in front of PHP, not the address the client used, e.g.
        \c{http://internal-host:8080}. Empty (the default): the request's own Host.
    */
    void setPublicBaseUrl(const QUrl &base);
    QUrl publicBaseUrl() const;

    /*! The offset from UTC, in seconds, of the dates the server writes (a PHP server writes
        its own time zone): default +02:00, so that clients meet an offset. */
    void setUtcOffset(int seconds);
    int utcOffset() const;

    /*! Test hooks, as wallabag's own database would allow: sets the updated_at of entry
        \a id (whole seconds), or deletes it, without a request. False when there is no
        such entry. */
    bool setArticleUpdatedAt(int id, const QDateTime &when);
    bool removeArticle(int id);

    /*! The last 1000 requests, oldest first. */
    QList<RecordedRequest> recordedRequests() const;

    /*! Credentials the token endpoint accepts. */
    static QString demoClientId();
    static QString demoClientSecret();
    static QString demoUsername();
    static QString demoPassword();
    /*! A second user with no entries of its own at first; what it saves is its own. Its
        entries are not listed for the demo user, and the demo user's GET, PATCH, DELETE
        and tag calls on them answer 403 \c{{"error":{"code":403,"message":"Forbidden"}}},
        as wallabag's validateUserAccess() does (and the other way round). */
    static QString otherUsername();
    static QString otherPassword();

Q_SIGNALS:
    /*! A request arrived (before any fault applies); admin requests excluded. */
    void requestReceived(const QByteArray &method, const QString &path);
    /*! The server went down (\a down true) or is listening again. */
    void downChanged(bool down);

private:
    Q_DECLARE_PRIVATE(DemoServer)
    std::unique_ptr<DemoServerPrivate> d_ptr;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_DEMOSERVER_H
