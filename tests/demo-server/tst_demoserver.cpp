// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The demo server's wallabag API through a plain QNetworkAccessManager on loopback: tokens,
// lists, entries, tags, and the Idempotency-Key record the tests use to count applied writes.

#include "demoserverfixture.h"

#include "demotoken.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

class tst_DemoServer : public QObject, DemoServerFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { startServer(); }
    void cleanup() { stopServer(); }

    void tokenGrant_data();
    void tokenGrant();
    void refreshGrant();
    void apiNeedsToken();
    void anonymousApiPaths_data();
    void anonymousApiPaths();
    void pagination();
    void filters_data();
    void filters();
    void badListParameters_data();
    void badListParameters();
    void previewPicture();
    void patchWithIdempotencyKey();
    void idempotencyKeyReusedForAnotherRequest();
    void idempotencyRecordIsBounded();
    void entryWritesInOrder();
    void createAndDelete();
    void detailMetadataSendsContentNull();
    void removeTagById();
    void accessTokenExpires();
    void tagsAsWallabagStoresThem();
    void postSameUrlUpdatesTheEntry();
    void entriesExist();
    void idempotencyKeyIgnoredByDefault();
    void slowAddsOfOneUrlRace();
};

void tst_DemoServer::tokenGrant_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error");

    const QByteArray client = "client_id=keeptrying-demo&client_secret=keeptrying-demo-secret";
    const QByteArray form = "application/x-www-form-urlencoded";
    QTest::newRow("form") << form
                          << "grant_type=password&" + client + "&username=demo&password=demo" << 200
                          << QString();
    QTest::newRow("json") << QByteArray("application/json")
                          << QByteArray(R"({"grant_type":"password","client_id":"keeptrying-demo",)"
                                        R"("client_secret":"keeptrying-demo-secret",)"
                                        R"("username":"demo","password":"demo"})")
                          << 200 << QString();
    QTest::newRow("wrong password")
        << form << "grant_type=password&" + client + "&username=demo&password=x" << 400
        << QStringLiteral("invalid_grant");
    QTest::newRow("wrong user") << form
                                << "grant_type=password&" + client +
            "&username=nobody&password=demo"
                                << 400 << QStringLiteral("invalid_grant");
    QTest::newRow("no password") << form << "grant_type=password&" + client + "&username=demo"
                                 << 400 << QStringLiteral("invalid_grant");
    QTest::newRow("no client secret")
        << form
        << QByteArray("grant_type=password&client_id=keeptrying-demo&username=demo&password=demo")
        << 400 << QStringLiteral("invalid_client");
    QTest::newRow("wrong client")
        << form
        << QByteArray("grant_type=password&client_id=keeptrying-demo&client_secret=nope"
                      "&username=demo&password=demo")
        << 400 << QStringLiteral("invalid_client");
    QTest::newRow("no grant type") << form << client << 400 << QStringLiteral("invalid_request");
    QTest::newRow("unknown grant type")
        << form << "grant_type=magic&" + client << 400 << QStringLiteral("invalid_request");
}

void tst_DemoServer::tokenGrant()
{
    QFETCH(QByteArray, contentType);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, error);

    const Result result =
        send("POST", QStringLiteral("/oauth/v2/token"), body, { { "Content-Type", contentType } });
    QCOMPARE(result.status, status);
    const QJsonObject json = result.json();
    if (status != 200) {
        // FOSOAuthServerBundle's shape (RFC 6749 §5.2), as a wallabag client parses it.
        QCOMPARE(result.headers.value("content-type"), QByteArray("application/json"));
        QCOMPARE(json.value(QLatin1String("error")).toString(), error);
        QVERIFY(!json.value(QLatin1String("error_description")).toString().isEmpty());
        return;
    }
    QVERIFY(!json.value(QLatin1String("access_token")).toString().isEmpty());
    QVERIFY(!json.value(QLatin1String("refresh_token")).toString().isEmpty());
    QCOMPARE(json.value(QLatin1String("token_type")).toString(), QStringLiteral("bearer"));
    QCOMPARE(json.value(QLatin1String("expires_in")).toInt(), 3600);
    QVERIFY(json.contains(QLatin1String("scope")));
    QVERIFY(json.value(QLatin1String("scope")).isNull());

    const QByteArray accessToken = json.value(QLatin1String("access_token")).toString().toLatin1();
    const Result version = send("GET", QStringLiteral("/api/version"), {},
                                { { "Authorization", "Bearer " + accessToken } });
    QCOMPARE(version.status, 200);
    QCOMPARE(version.body, QByteArray("\"2.6.14\""));
}

void tst_DemoServer::refreshGrant()
{
    const Result first = send("POST", QStringLiteral("/oauth/v2/token"),
                              "grant_type=password&client_id=keeptrying-demo&client_secret="
                              "keeptrying-demo-secret&username=demo&password=demo",
                              { { "Content-Type", "application/x-www-form-urlencoded" } });
    const QByteArray refreshToken =
        first.json().value(QLatin1String("refresh_token")).toString().toLatin1();
    QVERIFY(!refreshToken.isEmpty());

    const QByteArray refresh = "grant_type=refresh_token&client_id=keeptrying-demo&client_secret="
                               "keeptrying-demo-secret&refresh_token=" +
        refreshToken;
    const Result second = send("POST", QStringLiteral("/oauth/v2/token"), refresh,
                               { { "Content-Type", "application/x-www-form-urlencoded" } });
    QCOMPARE(second.status, 200);
    const QByteArray accessToken =
        second.json().value(QLatin1String("access_token")).toString().toLatin1();
    QVERIFY(!accessToken.isEmpty());
    QCOMPARE(send("GET", QStringLiteral("/api/entries.json"), {},
                  { { "Authorization", "Bearer " + accessToken } })
                 .status,
             200);
    // A refresh token works once (wallabag deletes it when it issues the new pair).
    const Result again = send("POST", QStringLiteral("/oauth/v2/token"), refresh,
                              { { "Content-Type", "application/x-www-form-urlencoded" } });
    QCOMPARE(again.status, 400);
    QCOMPARE(again.json().value(QLatin1String("error")).toString(),
             QStringLiteral("invalid_grant"));
    QCOMPARE(again.json().value(QLatin1String("error_description")).toString(),
             QStringLiteral("Invalid refresh token"));

    const Result bad = send("POST", QStringLiteral("/oauth/v2/token"),
                            "grant_type=refresh_token&client_id=keeptrying-demo&client_secret="
                            "keeptrying-demo-secret&refresh_token=unknown",
                            { { "Content-Type", "application/x-www-form-urlencoded" } });
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.json().value(QLatin1String("error")).toString(), QStringLiteral("invalid_grant"));
}

void tst_DemoServer::apiNeedsToken()
{
    const Result none = send("GET", QStringLiteral("/api/entries.json"));
    QCOMPARE(none.status, 401);
    QCOMPARE(none.error, QNetworkReply::AuthenticationRequiredError);
    QCOMPARE(none.json().value(QLatin1String("error")).toString(), QStringLiteral("access_denied"));
    QVERIFY(none.headers.value("www-authenticate").startsWith("Bearer"));

    const Result wrong = send("GET", QStringLiteral("/api/entries/1.json"), {},
                              { { "Authorization", "Bearer not-a-token" } });
    QCOMPARE(wrong.status, 401);
    QCOMPARE(wrong.json().value(QLatin1String("error")).toString(),
             QStringLiteral("invalid_grant"));

    QCOMPARE(send("PATCH", QStringLiteral("/api/entries/1.json"), R"({"starred":1})").status, 401);
    QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 0);
    QCOMPARE(get(QStringLiteral("/api/entries/1.json")).status, 200);
}

void tst_DemoServer::anonymousApiPaths_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("token"); // "none", "valid" or "invalid"
    QTest::addColumn<int>("status");

    // wallabag's security.yml lets ^/api/version (and, since 2.5, ^/api/info) through
    // without a token; every other API route needs one.
    QTest::newRow("version, no token")
        << QByteArray("GET") << QStringLiteral("/api/version") << QStringLiteral("none") << 200;
    QTest::newRow("version.json, no token")
        << QByteArray("GET") << QStringLiteral("/api/version.json") << QStringLiteral("none")
        << 200;
    QTest::newRow("info, no token")
        << QByteArray("GET") << QStringLiteral("/api/info") << QStringLiteral("none") << 200;
    QTest::newRow("version, valid token")
        << QByteArray("GET") << QStringLiteral("/api/version") << QStringLiteral("valid") << 200;
    // A token that is sent is checked, also where none is needed.
    QTest::newRow("version, invalid token")
        << QByteArray("GET") << QStringLiteral("/api/version") << QStringLiteral("invalid") << 401;
    QTest::newRow("list, no token") << QByteArray("GET") << QStringLiteral("/api/entries.json")
                                    << QStringLiteral("none") << 401;
    QTest::newRow("list, valid token") << QByteArray("GET") << QStringLiteral("/api/entries.json")
                                       << QStringLiteral("valid") << 200;
    QTest::newRow("entry, no token") << QByteArray("GET") << QStringLiteral("/api/entries/1.json")
                                     << QStringLiteral("none") << 401;
    QTest::newRow("entry, invalid token")
        << QByteArray("GET") << QStringLiteral("/api/entries/1.json") << QStringLiteral("invalid")
        << 401;
    QTest::newRow("create, no token") << QByteArray("POST") << QStringLiteral("/api/entries.json")
                                      << QStringLiteral("none") << 401;
    QTest::newRow("delete, no token")
        << QByteArray("DELETE") << QStringLiteral("/api/entries/1.json") << QStringLiteral("none")
        << 401;
    QTest::newRow("unknown API path, no token")
        << QByteArray("GET") << QStringLiteral("/api/tags.json") << QStringLiteral("none") << 401;
}

void tst_DemoServer::anonymousApiPaths()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QString, token);
    QFETCH(int, status);

    Headers headers;
    if (token == QLatin1String("valid"))
        headers = auth();
    else if (token == QLatin1String("invalid"))
        headers = { { "Authorization", "Bearer not-a-token" } };
    const QByteArray body =
        method == "POST" ? QByteArray(R"({"url":"http://example.invalid/"})") : QByteArray();
    const Result result = send(method, path, body, headers);
    QCOMPARE(result.status, status);
    if (status == 401) {
        QCOMPARE(result.json().value(QLatin1String("error")).toString(),
                 token == QLatin1String("invalid") ? QStringLiteral("invalid_grant")
                                                   : QStringLiteral("access_denied"));
        QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 0);
    } else if (path.startsWith(QLatin1String("/api/version"))) {
        QCOMPARE(result.body, QByteArray("\"2.6.14\""));
    } else if (path == QLatin1String("/api/info")) {
        const QJsonObject info = result.json();
        QCOMPARE(info.value(QLatin1String("appname")).toString(), QStringLiteral("wallabag"));
        QCOMPARE(info.value(QLatin1String("version")).toString(), QStringLiteral("2.6.14"));
        QVERIFY(info.contains(QLatin1String("allowed_registration")));
    }
}

void tst_DemoServer::pagination()
{
    const int total = m_server->articleCount();
    QVERIFY2(total >= 40, "the sample library has at least 40 articles");
    const int perPage = 7;
    const int pages = (total + perPage - 1) / perPage;

    QSet<int> seen;
    for (int page = 1; page <= pages; ++page) {
        const Result result =
            get(QStringLiteral("/api/entries.json?perPage=%1&page=%2").arg(perPage).arg(page));
        QCOMPARE(result.status, 200);
        QVERIFY(result.headers.value("content-type").startsWith("application/json"));
        const QJsonObject json = result.json();
        QCOMPARE(json.value(QLatin1String("page")).toInt(), page);
        QCOMPARE(json.value(QLatin1String("limit")).toInt(), perPage);
        QCOMPARE(json.value(QLatin1String("pages")).toInt(), pages);
        QCOMPARE(json.value(QLatin1String("total")).toInt(), total);

        const QJsonObject links = json.value(QLatin1String("_links")).toObject();
        for (const char *name : { "self", "first", "last" })
            QVERIFY2(links.value(QLatin1String(name)).toObject().contains(QLatin1String("href")),
                     name);
        QCOMPARE(links.contains(QLatin1String("next")), page < pages);
        if (page < pages) {
            const QUrl next(links.value(QLatin1String("next"))
                                .toObject()
                                .value(QLatin1String("href"))
                                .toString());
            QCOMPARE(next.host(), QStringLiteral("127.0.0.1"));
            QCOMPARE(QUrlQuery(next).queryItemValue(QStringLiteral("page")),
                     QString::number(page + 1));
            QCOMPARE(QUrlQuery(next).queryItemValue(QStringLiteral("perPage")),
                     QString::number(perPage));
        }

        const QJsonArray items = json.value(QLatin1String("_embedded"))
                                     .toObject()
                                     .value(QLatin1String("items"))
                                     .toArray();
        QCOMPARE(items.size(), page < pages ? perPage : total - perPage * (pages - 1));
        for (const QJsonValue &value : items) {
            const QJsonObject item = value.toObject();
            for (const char *field : { "id", "title", "url", "domain_name", "reading_time",
                                       "content", "tags", "is_starred", "is_archived", "created_at",
                                       "updated_at", "preview_picture", "language" })
                QVERIFY2(item.contains(QLatin1String(field)), field);
            seen.insert(item.value(QLatin1String("id")).toInt());
            QVERIFY(item.value(QLatin1String("reading_time")).isDouble()); // 0 for short texts
            QVERIFY(QDateTime::fromString(item.value(QLatin1String("created_at")).toString(),
                                          Qt::ISODate)
                        .isValid());
            // null when the page had no picture, as in wallabag
            const QJsonValue picture = item.value(QLatin1String("preview_picture"));
            QVERIFY(picture.isNull() ||
                    picture.toString().startsWith(m_server->baseUrl().toString()));
            QVERIFY(item.value(QLatin1String("content")).toString().startsWith(QLatin1String("<")));
            const QJsonArray tags = item.value(QLatin1String("tags")).toArray();
            QVERIFY(!tags.isEmpty());
            for (const char *field : { "id", "label", "slug" })
                QVERIFY2(tags.first().toObject().contains(QLatin1String(field)), field);
        }
    }
    QCOMPARE(seen.size(), total); // no entry skipped or repeated across pages

    QCOMPARE(get(QStringLiteral("/api/entries.json?perPage=7&page=%1").arg(pages + 1)).status, 404);
    const QJsonObject defaults = get(QStringLiteral("/api/entries")).json();
    QCOMPARE(defaults.value(QLatin1String("limit")).toInt(), 30);
    QCOMPARE(defaults.value(QLatin1String("page")).toInt(), 1);
}

void tst_DemoServer::filters_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("sortField");
    QTest::addColumn<bool>("ascending");

    QTest::newRow("starred") << QStringLiteral("starred=1") << QStringLiteral("is_starred") << 1
                             << QStringLiteral("created_at") << false;
    QTest::newRow("not starred") << QStringLiteral("starred=0") << QStringLiteral("is_starred") << 0
                                 << QStringLiteral("created_at") << false;
    QTest::newRow("archived") << QStringLiteral("archive=1") << QStringLiteral("is_archived") << 1
                              << QStringLiteral("created_at") << false;
    QTest::newRow("unread, oldest first")
        << QStringLiteral("archive=0&sort=created&order=asc") << QStringLiteral("is_archived") << 0
        << QStringLiteral("created_at") << true;
    QTest::newRow("by update") << QStringLiteral("sort=updated&order=desc") << QString() << 0
                               << QStringLiteral("updated_at") << false;
}

void tst_DemoServer::filters()
{
    QFETCH(QString, query);
    QFETCH(QString, field);
    QFETCH(int, value);
    QFETCH(QString, sortField);
    QFETCH(bool, ascending);

    const QJsonObject json = get(QStringLiteral("/api/entries.json?perPage=100&") + query).json();
    const QJsonArray items =
        json.value(QLatin1String("_embedded")).toObject().value(QLatin1String("items")).toArray();
    QVERIFY(!items.isEmpty());
    QCOMPARE(items.size(), json.value(QLatin1String("total")).toInt());
    if (!field.isEmpty())
        QVERIFY(items.size() < m_server->articleCount());
    QDateTime previous;
    for (const QJsonValue &item : items) {
        const QJsonObject entry = item.toObject();
        if (!field.isEmpty())
            QCOMPARE(entry.value(field).toInt(), value);
        const QDateTime when =
            QDateTime::fromString(entry.value(sortField).toString(), Qt::ISODate);
        QVERIFY(when.isValid());
        if (previous.isValid())
            QVERIFY2(ascending ? previous <= when : previous >= when,
                     qPrintable(entry.value(sortField).toString()));
        previous = when;
    }
}

void tst_DemoServer::badListParameters_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("status");
    // As wallabag: Pagerfanta's invalid pages are 404; values are cast, not checked (PHP
    // (bool) and (int)); an unknown sort sorts nothing; only order and detail are 400.
    QTest::newRow("page 0") << QStringLiteral("page=0") << 404;
    QTest::newRow("perPage 0") << QStringLiteral("perPage=0") << 404;
    QTest::newRow("perPage not a number") << QStringLiteral("perPage=lots") << 404;
    QTest::newRow("starred 2") << QStringLiteral("starred=2") << 200;
    QTest::newRow("sort by title") << QStringLiteral("sort=title") << 200;
    QTest::newRow("order sideways") << QStringLiteral("order=sideways") << 400;
    QTest::newRow("detail everything") << QStringLiteral("detail=everything") << 400;
}

void tst_DemoServer::badListParameters()
{
    QFETCH(QString, query);
    QFETCH(int, status);
    const Result result = get(QStringLiteral("/api/entries.json?") + query);
    QCOMPARE(result.status, status);
    if (status == 200)
        return;
    // Twig's error.json.twig in production: the code and the reason phrase.
    const QJsonObject error = result.json().value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("code")).toInt(), status);
    QCOMPARE(error.value(QLatin1String("message")).toString(),
             status == 404 ? QStringLiteral("Not Found") : QStringLiteral("Bad Request"));
}

void tst_DemoServer::previewPicture()
{
    const QJsonObject entry = get(QStringLiteral("/api/entries/1.json")).json();
    const QString picture = entry.value(QLatin1String("preview_picture")).toString();
    QVERIFY(picture.startsWith(m_server->baseUrl().toString() + QStringLiteral("/images/")));
    const Result image = send("GET", QUrl(picture).path());
    QCOMPARE(image.status, 200);
    QCOMPARE(image.headers.value("content-type"), QByteArray("image/png"));
    QVERIFY(image.body.startsWith("\x89PNG\r\n\x1a\n"));
    QVERIFY(image.body.size() < 20 * 1024);
    QCOMPARE(image.headers.value("accept-ranges"), QByteArray("bytes"));
    QVERIFY(!image.headers.value("etag").isEmpty());

    const Result tail = send("GET", QUrl(picture).path(), {}, { { "Range", "bytes=100-" } });
    QCOMPARE(tail.status, 206);
    QCOMPARE(tail.body, image.body.mid(100));
    QCOMPARE(tail.headers.value("content-range"),
             "bytes 100-" + QByteArray::number(image.body.size() - 1) + '/' +
                 QByteArray::number(image.body.size()));
    const Result stale = send("GET", QUrl(picture).path(), {},
                              { { "Range", "bytes=100-" }, { "If-Range", "\"other\"" } });
    QCOMPARE(stale.status, 200);
    QCOMPARE(stale.body, image.body);
    QCOMPARE(send("GET", QStringLiteral("/images/nothing.png")).status, 404);
}

void tst_DemoServer::patchWithIdempotencyKey()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    const QJsonObject before = get(QStringLiteral("/api/entries/3.json")).json();
    QCOMPARE(before.value(QLatin1String("is_starred")).toInt(), 0);

    Headers headers = auth();
    headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("patch-3-star")));
    const QByteArray body = R"({"starred": 1, "title": "Starred once", "tags": "saved,later"})";
    const Result first = send("PATCH", QStringLiteral("/api/entries/3.json"), body, headers);
    QCOMPARE(first.status, 200);
    const QJsonObject patched = first.json();
    QCOMPARE(patched.value(QLatin1String("is_starred")).toInt(), 1);
    QCOMPARE(patched.value(QLatin1String("title")).toString(), QStringLiteral("Starred once"));
    // A tags list replaces the entry's tags, as in wallabag since 2.3.
    QCOMPARE(patched.value(QLatin1String("tags")).toArray().size(), 2);

    // Unstar in between: a replay of the first PATCH must not star it again.
    QCOMPARE(send("PATCH", QStringLiteral("/api/entries/3.json"), "starred=0",
                  auth() << qMakePair(QByteArray("Content-Type"),
                                      QByteArray("application/x-www-form-urlencoded")))
                 .status,
             200);
    const Result repeat = send("PATCH", QStringLiteral("/api/entries/3.json"), body, headers);
    QCOMPARE(repeat.status, first.status);
    QCOMPARE(repeat.body, first.body);
    QCOMPARE(get(QStringLiteral("/api/entries/3.json"))
                 .json()
                 .value(QLatin1String("is_starred"))
                 .toInt(),
             0);

    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 2);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 1);
    QCOMPARE(stats.value(QLatin1String("requests_per_route"))
                 .toObject()
                 .value(QLatin1String("PATCH /api/entries/{id}.json"))
                 .toInt(),
             3);
}

void tst_DemoServer::idempotencyKeyReusedForAnotherRequest()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    Headers headers = auth();
    headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("same-key")));
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/4.json"), R"({"archive":1})", headers).status,
        200);
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/4.json"), R"({"archive":0})", headers).status,
        422);
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/5.json"), R"({"archive":1})", headers).status,
        422);
    QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 1);
}

void tst_DemoServer::idempotencyRecordIsBounded()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    // The record keeps the latest writes only (the soak saw the reader's process grow by a
    // whole entry per change the user made): the limit's latest are answered from it, an
    // older one is applied again.
    QCOMPARE(m_server->idempotencyRecordLimit(), 1000);
    m_server->setIdempotencyRecordLimit(2);
    const auto patch = [this](const QByteArray &key, const QByteArray &body) {
        Headers headers = auth();
        headers.append(qMakePair(QByteArray("Idempotency-Key"), key));
        return send("PATCH", QStringLiteral("/api/entries/6.json"), body, headers).status;
    };
    QCOMPARE(patch("bounded-1", R"({"starred":1})"), 200);
    QCOMPARE(patch("bounded-2", R"({"starred":0})"), 200);
    QCOMPARE(patch("bounded-3", R"({"archive":1})"), 200);
    QCOMPARE(m_server->stats().value(QLatin1String("idempotency_records")).toInt(), 2);
    QCOMPARE(patch("bounded-3", R"({"archive":1})"), 200); // remembered
    QCOMPARE(patch("bounded-2", R"({"starred":0})"), 200); // remembered
    QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 3);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 2);
    QCOMPARE(patch("bounded-1", R"({"starred":1})"), 200); // forgotten: applied again
    stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 4);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 2);
    QCOMPARE(stats.value(QLatin1String("idempotency_records")).toInt(), 2);
}

void tst_DemoServer::detailMetadataSendsContentNull()
{
    const auto firstItem = [this](const QString &query) {
        return get(QStringLiteral("/api/entries.json?perPage=2&") + query)
            .json()
            .value(QLatin1String("_embedded"))
            .toObject()
            .value(QLatin1String("items"))
            .toArray()
            .first()
            .toObject();
    };
    const QJsonObject full = firstItem(QStringLiteral("detail=full"));
    const QJsonObject metadata = firstItem(QStringLiteral("detail=metadata"));
    QVERIFY(!full.value(QLatin1String("content")).toString().isEmpty());
    // wallabag selects the entry without its content and serialises nulls: present, null.
    QVERIFY(metadata.contains(QLatin1String("content")));
    QVERIFY(metadata.value(QLatin1String("content")).isNull());
    QCOMPARE(metadata.value(QLatin1String("id")), full.value(QLatin1String("id")));
    QCOMPARE(metadata.value(QLatin1String("title")), full.value(QLatin1String("title")));
    QCOMPARE(metadata.value(QLatin1String("updated_at")), full.value(QLatin1String("updated_at")));
    QCOMPARE(get(QStringLiteral("/api/entries.json?detail=everything")).status, 400);
}

void tst_DemoServer::removeTagById()
{
    // Article 1 of the sample library carries networking, wifi and home.
    const QJsonArray tags =
        get(QStringLiteral("/api/entries/1.json")).json().value(QLatin1String("tags")).toArray();
    QVERIFY(tags.size() >= 2);
    const QJsonObject first = tags.first().toObject();
    const int tagId = first.value(QLatin1String("id")).toInt();
    const QString label = first.value(QLatin1String("label")).toString();
    const QString path = QStringLiteral("/api/entries/1/tags/%1.json").arg(tagId);
    const Result removed = send("DELETE", path, {}, auth());
    QCOMPARE(removed.status, 200);
    QStringList left;
    for (const QJsonValue &tag : removed.json().value(QLatin1String("tags")).toArray())
        left << tag.toObject().value(QLatin1String("label")).toString();
    QCOMPARE(left.size(), tags.size() - 1);
    QVERIFY(!left.contains(label));
    // No longer on the entry, but the tag exists: wallabag answers 200 and changes nothing.
    const Result again = send("DELETE", path, {}, auth());
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json().value(QLatin1String("tags")).toArray().size(), tags.size() - 1);
    QCOMPARE(send("DELETE", QStringLiteral("/api/entries/1/tags/99999.json"), {}, auth()).status,
             404); // no such tag at all
    QCOMPARE(send("DELETE", QStringLiteral("/api/entries/99999/tags/1.json"), {}, auth()).status,
             404);
}

void tst_DemoServer::accessTokenExpires()
{
    const QByteArray first = token();
    QCOMPARE(get(QStringLiteral("/api/entries/1.json")).status, 200);
    m_server->expireAccessTokens();
    const Result expired = get(QStringLiteral("/api/entries/1.json"));
    QCOMPARE(expired.status, 401);
    QCOMPARE(expired.json().value(QLatin1String("error")).toString(),
             QStringLiteral("invalid_grant"));
    QCOMPARE(expired.json().value(QLatin1String("error_description")).toString(),
             QStringLiteral("The access token provided has expired."));
    QCOMPARE(expired.headers.value("www-authenticate"),
             QByteArray("Bearer realm=\"Service\", error=\"invalid_grant\", "
                        "error_description=\"The access token provided has expired.\""));
    // Checked on the anonymous paths too, as FOSOAuthServerBundle does.
    QCOMPARE(send("GET", QStringLiteral("/api/version"), {}, auth()).status, 401);
    QCOMPARE(m_server->stats().value(QLatin1String("tokens_issued")).toInt(), 1);
    // The lifetime a new token gets, in the answer.
    m_server->setAccessTokenLifetime(2);
    const Result grant = send("POST", QStringLiteral("/oauth/v2/token"),
                              "grant_type=password&client_id=keeptrying-demo&client_secret="
                              "keeptrying-demo-secret&username=demo&password=demo",
                              { { "Content-Type", "application/x-www-form-urlencoded" } });
    QCOMPARE(grant.json().value(QLatin1String("expires_in")).toInt(), 2);
    QCOMPARE(grant.headers.value("pragma"), QByteArray("no-cache"));
    Q_UNUSED(first)
}

void tst_DemoServer::tagsAsWallabagStoresThem()
{
    // Labels lower-cased and trimmed, slugs "t:label" (2.6); PATCH replaces the tags, POST
    // .../tags adds.
    const QString path = QStringLiteral("/api/entries/2.json");
    const auto labels = [](const Result &result) {
        QStringList list;
        for (const QJsonValue &tag : result.json().value(QLatin1String("tags")).toArray())
            list << tag.toObject().value(QLatin1String("label")).toString();
        list.sort();
        return list;
    };
    const Result patched = send("PATCH", path, R"({"tags":" Research ,Rust,research"})", auth());
    QCOMPARE(patched.status, 200);
    QCOMPARE(labels(patched), QStringList({ QStringLiteral("research"), QStringLiteral("rust") }));
    const QJsonObject tag =
        patched.json().value(QLatin1String("tags")).toArray().first().toObject();
    QCOMPARE(tag.value(QLatin1String("slug")).toString(),
             QStringLiteral("t:") + tag.value(QLatin1String("label")).toString());
    QCOMPARE(labels(send("PATCH", path, R"({"tags":""})", auth())), labels(patched)); // untouched
    const Result added =
        send("POST", QStringLiteral("/api/entries/2/tags.json"), R"({"tags":"Go,rust"})", auth());
    QCOMPARE(added.status, 200);
    QCOMPARE(
        labels(added),
        QStringList({ QStringLiteral("go"), QStringLiteral("research"), QStringLiteral("rust") }));
    const Result listed = get(QStringLiteral("/api/entries/2/tags.json"));
    QCOMPARE(listed.status, 200);
    QCOMPARE(QJsonDocument::fromJson(listed.body).array().size(), 3);
}

void tst_DemoServer::postSameUrlUpdatesTheEntry()
{
    const Result created = send("POST", QStringLiteral("/api/entries.json"),
                                R"({"url":"https://example.org/twice","tags":"one"})", auth());
    const int id = created.json().value(QLatin1String("id")).toInt();
    const Result again =
        send("POST", QStringLiteral("/api/entries.json"),
             R"({"url":"https://example.org/twice","archive":1,"tags":"Two"})", auth());
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json().value(QLatin1String("id")).toInt(), id);
    QCOMPARE(again.json().value(QLatin1String("is_archived")).toInt(), 1);
    QCOMPARE(again.json().value(QLatin1String("tags")).toArray().size(), 2);
    // The same URL percent-encoded is the same URL (sha1 of the decoded one).
    const QByteArray encoded = R"({"url":"https://example.org/%74wice"})";
    const Result same = send("POST", QStringLiteral("/api/entries.json"), encoded, auth());
    QCOMPARE(same.json().value(QLatin1String("id")).toInt(), id);
}

void tst_DemoServer::entriesExist()
{
    const QString url =
        get(QStringLiteral("/api/entries/2.json")).json().value(QLatin1String("url")).toString();
    const QString encoded = QString::fromLatin1(QUrl::toPercentEncoding(url));
    const auto exists = [&](const QString &query) {
        return get(QStringLiteral("/api/entries/exists.json?") + query);
    };
    QCOMPARE(exists(QStringLiteral("url=") + encoded).json().value(QLatin1String("exists")),
             QJsonValue(true));
    QCOMPARE(
        exists(QStringLiteral("return_id=1&url=") + encoded).json().value(QLatin1String("exists")),
        QJsonValue(2));
    QCOMPARE(exists(QStringLiteral("url=https%3A%2F%2Fexample.org%2Fnothing"))
                 .json()
                 .value(QLatin1String("exists")),
             QJsonValue(false));
    const Result none = exists(QStringLiteral("return_id=1&url=https%3A%2F%2Fexample.org%2Fno"));
    QVERIFY(none.json().contains(QLatin1String("exists")));
    QVERIFY(none.json().value(QLatin1String("exists")).isNull());
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(url.toUtf8(), QCryptographicHash::Sha1).toHex());
    QCOMPARE(exists(QStringLiteral("hashed_url=") + hash).json().value(QLatin1String("exists")),
             QJsonValue(true));
    const QJsonObject many = exists(QStringLiteral("urls[]=") + encoded +
                                    QStringLiteral("&urls[]=https%3A%2F%2Fx.org%2F"))
                                 .json();
    QCOMPARE(many.value(url), QJsonValue(true));
    QCOMPARE(many.value(QLatin1String("https://x.org/")), QJsonValue(false));
    QCOMPARE(exists(QString()).status, 403);
    QCOMPARE(exists(QStringLiteral("url=")).status, 403);
}

void tst_DemoServer::idempotencyKeyIgnoredByDefault()
{
    // wallabag has no Idempotency-Key: a repeat is applied again.
    Headers headers = auth();
    headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("ignored")));
    const QByteArray archive = R"({"archive":1})";
    QCOMPARE(send("PATCH", QStringLiteral("/api/entries/4.json"), archive, headers).status, 200);
    QCOMPARE(send("PATCH", QStringLiteral("/api/entries/4.json"), archive, headers).status, 200);
    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 2);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 0);
}

void tst_DemoServer::slowAddsOfOneUrlRace()
{
    // wallabag looks the URL up, fetches the page, then creates the entry: two adds of a new
    // URL during the fetch make two entries. An add of a URL saved already is not slowed.
    const int count = m_server->articleCount();
    m_server->setAddFetchDelay(300);
    const QByteArray body = R"({"url":"https://example.org/raced"})";
    QNetworkRequest request(
        QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/entries.json")));
    request.setRawHeader("Authorization", "Bearer " + token());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> first(m_nam->post(request, body));
    std::unique_ptr<QNetworkReply> second(m_nam->post(request, body));
    QTRY_VERIFY_WITH_TIMEOUT(first->isFinished() && second->isFinished(), 5000);
    QCOMPARE(m_server->articleCount(), count + 2);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(send("POST", QStringLiteral("/api/entries.json"), body, auth()).status, 200);
    QCOMPARE(m_server->articleCount(), count + 2);
}

void tst_DemoServer::entryWritesInOrder()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    Headers first = auth();
    first.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("write-1")));
    Headers second = auth();
    second.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("write-2")));
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/3.json"), R"({"title":"One"})", first).status,
        200);
    // A replay answered from the key's record is not applied again, so not listed again.
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/3.json"), R"({"title":"One"})", first).status,
        200);
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/3.json"), R"({"archive":1})", auth()).status,
        200);
    QCOMPARE(send("DELETE", QStringLiteral("/api/entries/4.json"), {}, second).status, 200);
    QCOMPARE(send("PATCH", QStringLiteral("/api/entries/999999.json"), R"({"title":"No"})", auth())
                 .status,
             404);

    const QJsonObject writes = m_server->stats().value(QLatin1String("entry_writes")).toObject();
    QCOMPARE(writes.keys(), QStringList({ QStringLiteral("3"), QStringLiteral("4") }));
    const QJsonArray entry3 = writes.value(QLatin1String("3")).toArray();
    QCOMPARE(entry3.size(), 2);
    QCOMPARE(entry3.at(0).toObject().value(QLatin1String("method")).toString(),
             QStringLiteral("PATCH"));
    QCOMPARE(entry3.at(0).toObject().value(QLatin1String("idempotency_key")).toString(),
             QStringLiteral("write-1"));
    QVERIFY(entry3.at(1).toObject().value(QLatin1String("idempotency_key")).isNull());
    const QJsonArray entry4 = writes.value(QLatin1String("4")).toArray();
    QCOMPARE(entry4.size(), 1);
    QCOMPARE(entry4.at(0).toObject().value(QLatin1String("method")).toString(),
             QStringLiteral("DELETE"));

    m_server->resetStats();
    QVERIFY(m_server->stats().value(QLatin1String("entry_writes")).toObject().isEmpty());
}

void tst_DemoServer::createAndDelete()
{
    const int count = m_server->articleCount();
    const Result created =
        send("POST", QStringLiteral("/api/entries.json"),
             R"({"url":"https://example.org/new-article","title":"New","tags":"a,b"})", auth());
    QCOMPARE(created.status, 200);
    const int id = created.json().value(QLatin1String("id")).toInt();
    QVERIFY(id > count);
    QCOMPARE(created.json().value(QLatin1String("domain_name")).toString(),
             QStringLiteral("example.org"));
    QCOMPARE(m_server->articleCount(), count + 1);

    // Saving the same URL again gives the existing entry, as wallabag does.
    const Result again = send("POST", QStringLiteral("/api/entries.json"),
                              R"({"url":"https://example.org/new-article"})", auth());
    QCOMPARE(again.json().value(QLatin1String("id")).toInt(), id);
    QCOMPARE(m_server->articleCount(), count + 1);
    QCOMPARE(
        send("POST", QStringLiteral("/api/entries.json"), R"({"url":"not a url"})", auth()).status,
        400);

    const QString path = QStringLiteral("/api/entries/%1.json").arg(id);
    const Result removed = send("DELETE", path, {}, auth());
    QCOMPARE(removed.status, 200);
    QCOMPARE(removed.json().value(QLatin1String("title")).toString(), QStringLiteral("New"));
    QCOMPARE(get(path).status, 404);
    QCOMPARE(send("DELETE", path, {}, auth()).status, 404);
    QCOMPARE(m_server->articleCount(), count);
    QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 3);
}

QTEST_GUILESS_MAIN(tst_DemoServer)

#include "tst_demoserver.moc"
