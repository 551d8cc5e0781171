// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Tests of the demo server, through a plain QNetworkAccessManager on loopback.

#include <KeepTrying/Demo/demoserver.h>

#include "demotoken.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QThread>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>
#include <vector>

using KeepTrying::Demo::DemoServer;

namespace {

struct Result
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int status = 0;
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names

    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

using Headers = QList<QPair<QByteArray, QByteArray>>;

} // namespace

class tst_DemoServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

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
    void faultStatusAndCount();
    void faultRetryAfter_data();
    void faultRetryAfter();
    void faultLatencyDoesNotBlock();
    void faultRateIsSeeded();
    void faultMethod();
    void dropBeforeHeaders();
    void dropMidBody();
    void dropMidBodyAfterWriteIsApplied();
    void goDownRefusesThenRecovers();
    void capacityShedsAboveMaxConcurrent();
    void stats();
    void badFaultSpecs_data();
    void badFaultSpecs();
    void goodFaultSpecs_data();
    void goodFaultSpecs();
    void adminFaults();
    void adminDownAndStats();
    void adminNotOnApiPort();
    void runsInWorkerThread();
    void executable();
    void executableAdminStaysUpWhileDown();
    void executableRejectsBadFault();
    void executableRejectsBadCapacity_data();
    void executableRejectsBadCapacity();

private:
    Result send(const QByteArray &method, const QString &path, const QByteArray &body = {},
                const Headers &headers = {}, DemoServer *target = nullptr);
    Result get(const QString &path) { return send("GET", path, {}, auth()); }
    // The admin API, on its own port.
    Result admin(const QByteArray &method, const QString &path, const QByteArray &body = {});
    QByteArray token(DemoServer *target = nullptr);
    Headers auth() { return { { "Authorization", "Bearer " + token() } }; }

    std::unique_ptr<DemoServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QByteArray m_token;
};

void tst_DemoServer::init()
{
    m_server = std::make_unique<DemoServer>();
    QVERIFY(m_server->listen() != 0);
    // A fresh manager per test: no kept-alive connection crosses from one test to the next.
    m_nam = std::make_unique<QNetworkAccessManager>();
    m_nam->setProxy(QNetworkProxy::NoProxy);
    m_token.clear();
}

void tst_DemoServer::cleanup()
{
    m_nam.reset();
    m_server.reset();
}

Result tst_DemoServer::send(const QByteArray &method, const QString &path, const QByteArray &body,
                            const Headers &headers, DemoServer *target)
{
    DemoServer *server = target ? target : m_server.get();
    QNetworkRequest request(QUrl(server->baseUrl().toString() + path));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (!body.isEmpty() && !request.hasRawHeader("Content-Type"))
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    Result result;
    if (!finished.wait(10000)) {
        reply->abort();
        result.error = QNetworkReply::TimeoutError;
    } else {
        result.error = reply->error();
    }
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.insert(name.toLower(), value);
    reply->deleteLater();
    return result;
}

Result tst_DemoServer::admin(const QByteArray &method, const QString &path, const QByteArray &body)
{
    QNetworkRequest request(QUrl(m_server->adminUrl().toString() + path));
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    Result result;
    result.error = finished.wait(10000) ? reply->error() : QNetworkReply::TimeoutError;
    if (result.error == QNetworkReply::TimeoutError)
        reply->abort();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    reply->deleteLater();
    return result;
}

QByteArray tst_DemoServer::token(DemoServer *target)
{
    if (!m_token.isEmpty() && !target)
        return m_token;
    const QByteArray accessToken =
        KeepTrying::Test::demoToken(target ? *target : *m_server, m_nam.get());
    if (!target)
        m_token = accessToken;
    return accessToken;
}

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

void tst_DemoServer::faultStatusAndCount()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/entries*,status=503,count=2")));
    QCOMPARE(m_server->faults(),
             QStringList { QStringLiteral("route=/api/entries*,status=503,count=2 (2 left)") });
    const QByteArray accessToken = token(); // the token route does not match
    Q_UNUSED(accessToken)

    const Result first = get(QStringLiteral("/api/entries.json"));
    QCOMPARE(first.status, 503);
    QCOMPARE(first.error, QNetworkReply::ServiceUnavailableError);
    QVERIFY(first.headers.value("retry-after").isEmpty());
    QCOMPARE(get(QStringLiteral("/api/entries/7.json")).status, 503);
    QCOMPARE(get(QStringLiteral("/api/entries.json")).status, 200);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
    QCOMPARE(m_server->stats().value(QLatin1String("faults_injected")).toInt(), 2);

    m_server->clearFaults();
    QVERIFY(m_server->faults().isEmpty());
}

void tst_DemoServer::faultRetryAfter_data()
{
    QTest::addColumn<QString>("retryAfter");
    QTest::newRow("seconds") << QStringLiteral("7");
    QTest::newRow("IMF-fixdate") << QStringLiteral("Wed, 21 Oct 2015 07:28:00 GMT");
    QTest::newRow("RFC 850") << QStringLiteral("Wednesday, 21-Oct-15 07:28:00 GMT");
    QTest::newRow("asctime") << QStringLiteral("Wed Oct 21 07:28:00 2015");
}

void tst_DemoServer::faultRetryAfter()
{
    QFETCH(QString, retryAfter);
    QString errorMessage;
    QVERIFY2(m_server->addFault(QStringLiteral("route=/api/version,status=429,retry-after=") +
                                    retryAfter,
                                &errorMessage),
             qPrintable(errorMessage));
    const Result result = get(QStringLiteral("/api/version"));
    QCOMPARE(result.status, 429);
    QCOMPARE(result.headers.value("retry-after"), retryAfter.toLatin1());
}

void tst_DemoServer::faultLatencyDoesNotBlock()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/version,latency=1000")));
    QNetworkRequest slowRequest(
        QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/version")));
    slowRequest.setRawHeader("Authorization", "Bearer " + token());
    std::unique_ptr<QNetworkReply> slow(m_nam->get(slowRequest));

    // While the slow answer waits, the server keeps serving others.
    QTRY_VERIFY_WITH_TIMEOUT(m_server->totalRequests() == 2, 5000);
    const Result quick = get(QStringLiteral("/api/entries/1.json"));
    QCOMPARE(quick.status, 200);
    QVERIFY(!slow->isFinished());

    QTRY_VERIFY_WITH_TIMEOUT(slow->isFinished(), 10000);
    QCOMPARE(slow->error(), QNetworkReply::NoError);
    QCOMPARE(slow->readAll(), QByteArray("\"2.6.14\""));
}

void tst_DemoServer::faultRateIsSeeded()
{
    const auto run = [this](quint32 seed) {
        DemoServer server;
        server.listen();
        server.setSeed(seed);
        server.addFault(QStringLiteral("route=/images/*,status=500,rate=0.5"));
        QString statuses;
        for (int i = 0; i < 24; ++i)
            statuses +=
                send("GET", QStringLiteral("/images/preview-01.png"), {}, {}, &server).status == 500
                ? QLatin1Char('x')
                : QLatin1Char('.');
        return statuses;
    };
    const QString first = run(42);
    QCOMPARE(run(42), first);
    QVERIFY2(first.contains(QLatin1Char('x')) && first.contains(QLatin1Char('.')),
             qPrintable(first));
    QVERIFY(run(7) != first);
}

void tst_DemoServer::faultMethod()
{
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/entries/*,method=patch,status=500")));
    QCOMPARE(get(QStringLiteral("/api/entries/4.json")).status, 200);
    QCOMPARE(
        send("PATCH", QStringLiteral("/api/entries/4.json"), R"({"starred":1})", auth()).status,
        500);
    // A faulted write is not applied.
    QCOMPARE(get(QStringLiteral("/api/entries/4.json"))
                 .json()
                 .value(QLatin1String("is_starred"))
                 .toInt(),
             0);
    QCOMPARE(m_server->stats().value(QLatin1String("writes_applied")).toInt(), 0);
}

void tst_DemoServer::dropBeforeHeaders()
{
    // Unlimited: QNetworkAccessManager itself resends once or twice when a connection closes
    // before any byte of the answer.
    QVERIFY(m_server->addFault(QStringLiteral("route=/api/version,drop=before-headers")));
    const Result result = get(QStringLiteral("/api/version"));
    QCOMPARE(result.error, QNetworkReply::RemoteHostClosedError);
    QCOMPARE(result.status, 0);
    QVERIFY(result.body.isEmpty());

    m_server->clearFaults();
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
}

void tst_DemoServer::dropMidBody()
{
    const Result whole = send("GET", QStringLiteral("/images/preview-02.png"));
    QCOMPARE(whole.status, 200);

    QVERIFY(
        m_server->addFault(QStringLiteral("route=/images/preview-02.png,drop=mid-body,count=1")));
    const Result cut = send("GET", QStringLiteral("/images/preview-02.png"));
    QCOMPARE(cut.error, QNetworkReply::RemoteHostClosedError);
    QCOMPARE(cut.status, 200);
    QCOMPARE(cut.headers.value("content-length"), QByteArray::number(whole.body.size()));
    QCOMPARE(cut.body, whole.body.left(whole.body.size() / 2));

    // The rest can be fetched with a Range request validated by the ETag.
    const Result rest = send("GET", QStringLiteral("/images/preview-02.png"), {},
                             { { "Range", "bytes=" + QByteArray::number(cut.body.size()) + '-' },
                               { "If-Range", cut.headers.value("etag") } });
    QCOMPARE(rest.status, 206);
    QCOMPARE(cut.body + rest.body, whole.body);
}

void tst_DemoServer::dropMidBodyAfterWriteIsApplied()
{
    m_server->setIdempotencyKeysHonoured(true); // not wallabag's: on request only
    QVERIFY(m_server->addFault(
        QStringLiteral("route=/api/entries/*,method=PATCH,drop=mid-body,count=1")));
    Headers headers = auth();
    headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("lost-answer")));
    const QByteArray body = R"({"archive": 1})";
    const Result lost = send("PATCH", QStringLiteral("/api/entries/6.json"), body, headers);
    QCOMPARE(lost.error, QNetworkReply::RemoteHostClosedError);

    const Result retry = send("PATCH", QStringLiteral("/api/entries/6.json"), body, headers);
    QCOMPARE(retry.status, 200);
    QCOMPARE(retry.json().value(QLatin1String("is_archived")).toInt(), 1);
    QVERIFY(retry.body.startsWith(lost.body));
    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 1);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 1);
}

void tst_DemoServer::goDownRefusesThenRecovers()
{
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200); // leaves a kept-alive connection
    const QUrl before = m_server->baseUrl();
    QSignalSpy downChanged(m_server.get(), &DemoServer::downChanged);

    m_server->goDown(300);
    QVERIFY(m_server->isDown());
    QCOMPARE(downChanged.size(), 1);
    QCOMPARE(downChanged.at(0).at(0).toBool(), true);
    const qint64 requestsBefore = m_server->totalRequests();
    QCOMPARE(get(QStringLiteral("/api/version")).error, QNetworkReply::ConnectionRefusedError);
    QCOMPARE(m_server->totalRequests(), requestsBefore);

    QTRY_VERIFY_WITH_TIMEOUT(!m_server->isDown(), 5000);
    QCOMPARE(downChanged.size(), 2);
    QCOMPARE(downChanged.at(1).at(0).toBool(), false);
    QCOMPARE(m_server->baseUrl(), before);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
}

void tst_DemoServer::capacityShedsAboveMaxConcurrent()
{
    QCOMPARE(m_server->maxConcurrent(), 0);
    QCOMPARE(m_server->serviceTime(), 0);
    const QByteArray bearer = "Bearer " + token();
    m_server->resetStats();
    m_server->setServiceTime(400);
    m_server->setMaxConcurrent(2);
    QCOMPARE(m_server->maxConcurrent(), 2);
    QCOMPARE(m_server->serviceTime(), 400);

    // Five at once (Qt opens up to six connections per host): two are served, three shed.
    std::vector<std::unique_ptr<QNetworkReply>> replies;
    for (int i = 0; i < 5; ++i) {
        QNetworkRequest request(
            QUrl(m_server->baseUrl().toString() + QStringLiteral("/api/version")));
        request.setRawHeader("Authorization", bearer);
        replies.emplace_back(m_nam->get(request));
    }
    const auto statusOf = [](const std::unique_ptr<QNetworkReply> &reply) {
        return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    };
    const auto count = [&](int status) {
        return std::count_if(replies.cbegin(), replies.cend(), [&](const auto &reply) {
            return reply->isFinished() && statusOf(reply) == status;
        });
    };
    // Shedding is immediate: the 503s are back while the served two are still being worked on.
    QTRY_COMPARE_WITH_TIMEOUT(count(503), 3, 10000);
    QCOMPARE(count(200), 0);
    // Admin requests are never limited.
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(count(200), 2, 10000);
    for (const auto &reply : replies) {
        if (statusOf(reply) == 503) {
            QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
            QVERIFY(reply->rawHeader("Retry-After").isEmpty());
            QVERIFY(reply->readAll().contains("at most 2 requests at a time"));
        } else {
            QCOMPARE(reply->readAll(), QByteArray("\"2.6.14\""));
        }
    }
    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("total_requests")).toInt(), 5);
    QCOMPARE(stats.value(QLatin1String("capacity_rejections")).toInt(), 3);
    QCOMPARE(stats.value(QLatin1String("peak_in_progress")).toInt(), 2);
    QCOMPARE(stats.value(QLatin1String("faults_injected")).toInt(), 0);

    // The slots are free again; a fault applies only to requests that are served.
    QVERIFY(m_server->addFault(QStringLiteral("status=500,count=1")));
    m_server->setServiceTime(0);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 500);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);
    m_server->setMaxConcurrent(-1); // counts as no limit
    QCOMPARE(m_server->maxConcurrent(), 0);
}

void tst_DemoServer::stats()
{
    QSignalSpy received(m_server.get(), &DemoServer::requestReceived);
    token();
    get(QStringLiteral("/api/entries.json"));
    get(QStringLiteral("/api/entries.json?page=2"));
    get(QStringLiteral("/api/entries/9.json"));
    send("GET", QStringLiteral("/nowhere"));
    admin("GET", QStringLiteral("/_admin/stats")); // admin requests are not counted

    const QJsonObject stats = m_server->stats();
    QCOMPARE(stats.value(QLatin1String("total_requests")).toInt(), 5);
    QCOMPARE(m_server->totalRequests(), 5);
    const QJsonObject routes = stats.value(QLatin1String("requests_per_route")).toObject();
    QCOMPARE(routes.value(QLatin1String("POST /oauth/v2/token")).toInt(), 1);
    QCOMPARE(routes.value(QLatin1String("GET /api/entries.json")).toInt(), 2);
    QCOMPARE(routes.value(QLatin1String("GET /api/entries/{id}.json")).toInt(), 1);
    QCOMPARE(routes.value(QLatin1String("GET /nowhere")).toInt(), 1);
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 0);
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 0);

    QCOMPARE(received.size(), 5);
    QCOMPARE(received.at(1).at(0).toByteArray(), QByteArray("GET"));
    QCOMPARE(received.at(1).at(1).toString(), QStringLiteral("/api/entries.json"));

    const QList<KeepTrying::Demo::RecordedRequest> recorded = m_server->recordedRequests();
    QCOMPARE(recorded.size(), 5);
    QCOMPARE(recorded.at(0).method, QByteArray("POST"));
    QVERIFY(recorded.at(0).body.contains("grant_type=password"));
    QCOMPARE(recorded.at(2).query, QStringLiteral("page=2"));
    const auto hasAuthorization = [](const KeepTrying::Demo::RecordedRequest &request) {
        return std::any_of(
            request.headers.cbegin(), request.headers.cend(), [](const auto &header) {
                return header.first.compare("authorization", Qt::CaseInsensitive) == 0;
            });
    };
    QVERIFY(hasAuthorization(recorded.at(3)));

    m_server->resetStats();
    QCOMPARE(m_server->totalRequests(), 0);
    QVERIFY(m_server->recordedRequests().isEmpty());
    QVERIFY(m_server->stats().value(QLatin1String("requests_per_route")).toObject().isEmpty());
}

void tst_DemoServer::badFaultSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::newRow("empty") << QString();
    QTest::newRow("no value") << QStringLiteral("status");
    QTest::newRow("unknown key") << QStringLiteral("status=503,colour=red");
    QTest::newRow("status not a number") << QStringLiteral("status=bad");
    QTest::newRow("status too low") << QStringLiteral("status=99");
    QTest::newRow("status too high") << QStringLiteral("status=600");
    QTest::newRow("nothing to inject") << QStringLiteral("route=/api/*");
    QTest::newRow("status and drop") << QStringLiteral("status=503,drop=mid-body");
    QTest::newRow("retry-after without status") << QStringLiteral("latency=5,retry-after=5");
    QTest::newRow("retry-after garbage") << QStringLiteral("status=503,retry-after=soon");
    QTest::newRow("retry-after negative") << QStringLiteral("status=503,retry-after=-1");
    QTest::newRow("rate above 1") << QStringLiteral("status=503,rate=1.5");
    QTest::newRow("rate not a number") << QStringLiteral("status=503,rate=often");
    QTest::newRow("count 0") << QStringLiteral("status=503,count=0");
    QTest::newRow("negative latency") << QStringLiteral("latency=-1");
    QTest::newRow("unknown drop") << QStringLiteral("drop=sideways");
    QTest::newRow("key twice") << QStringLiteral("status=503,status=500");
    QTest::newRow("bad method") << QStringLiteral("method=GE T,status=500");
    QTest::newRow("stray piece") << QStringLiteral("status=503,oops");
}

void tst_DemoServer::badFaultSpecs()
{
    QFETCH(QString, spec);
    QString errorMessage;
    QVERIFY(!m_server->addFault(spec, &errorMessage));
    QVERIFY2(errorMessage.startsWith(QLatin1String("invalid fault spec")),
             qPrintable(errorMessage));
    QVERIFY(m_server->faults().isEmpty());
}

void tst_DemoServer::goodFaultSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::newRow("status") << QStringLiteral("status=503");
    QTest::newRow("everything") << QStringLiteral(
        "route=/api/entries*,method=GET,status=429,count=3,"
        "rate=0.5,retry-after=2,latency=10");
    QTest::newRow("http-date with comma")
        << QStringLiteral("route=/api/*,status=503,retry-after=Wed, 21 Oct 2015 07:28:00 GMT");
    QTest::newRow("http-date last but one")
        << QStringLiteral("status=503,retry-after=Sunday, 06-Nov-94 08:49:37 GMT,count=1");
    QTest::newRow("asctime") << QStringLiteral("status=503,retry-after=Sun Nov  6 08:49:37 1994");
    QTest::newRow("latency only") << QStringLiteral("latency=0");
    QTest::newRow("drop") << QStringLiteral("drop=mid-body,count=1");
    QTest::newRow("spaces") << QStringLiteral(" route = /images/* , drop = before-headers ");
}

void tst_DemoServer::goodFaultSpecs()
{
    QFETCH(QString, spec);
    QString errorMessage;
    QVERIFY2(m_server->addFault(spec, &errorMessage), qPrintable(errorMessage));
    QCOMPARE(m_server->faults().size(), 1);
}

void tst_DemoServer::adminFaults()
{
    const QByteArray replace =
        R"({"faults":["route=/api/version,status=500,count=1"],"replace":true})";
    Result result = admin("POST", QStringLiteral("/_admin/faults"), replace);
    QCOMPARE(result.status, 200);
    QCOMPARE(result.json().value(QLatin1String("faults")).toArray().size(), 1);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 500);
    QCOMPARE(get(QStringLiteral("/api/version")).status, 200);

    result = admin("POST", QStringLiteral("/_admin/faults"),
                   R"(["route=/images/*,status=404","drop=mid-body"])");
    QCOMPARE(result.status, 200);
    QCOMPARE(m_server->faults().size(), 3);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/faults"))
                 .json()
                 .value(QLatin1String("faults"))
                 .toArray()
                 .size(),
             3);

    // One bad spec rejects the whole request.
    result = admin("POST", QStringLiteral("/_admin/faults"),
                   R"({"faults":["status=503","status=nope"],"replace":true})");
    QCOMPARE(result.status, 400);
    QVERIFY(result.body.contains("status must be"));
    QCOMPARE(m_server->faults().size(), 3);
    QCOMPARE(admin("POST", QStringLiteral("/_admin/faults"), "not json").status, 400);

    result = admin("DELETE", QStringLiteral("/_admin/faults"));
    QCOMPARE(result.status, 200);
    QVERIFY(m_server->faults().isEmpty());
    QCOMPARE(send("GET", QStringLiteral("/images/preview-01.png")).status, 200);
}

void tst_DemoServer::adminDownAndStats()
{
    get(QStringLiteral("/api/entries.json"));
    const qint64 total = m_server->totalRequests();
    QCOMPARE(total, 2);
    QVERIFY(!m_server->adminUrl().isEmpty());
    QVERIFY(m_server->adminUrl().port() != m_server->baseUrl().port());

    const Result stats = admin("GET", QStringLiteral("/_admin/stats"));
    QCOMPARE(stats.status, 200);
    QCOMPARE(stats.json(), m_server->stats());
    QCOMPARE(admin("POST", QStringLiteral("/_admin/down?seconds=-1")).status, 400);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/up")).status, 405);

    // A long outage: the API refuses connections, the admin API keeps answering.
    QSignalSpy downChanged(m_server.get(), &DemoServer::downChanged);
    const Result down = admin("POST", QStringLiteral("/_admin/down?seconds=600"));
    QCOMPARE(down.status, 200);
    QCOMPARE(down.json().value(QLatin1String("down_ms")).toInt(), 600000);
    QTRY_VERIFY_WITH_TIMEOUT(m_server->isDown(), 2000);
    QCOMPARE(send("GET", QStringLiteral("/api/version")).error,
             QNetworkReply::ConnectionRefusedError);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/faults")).status, 200);
    // Down again while down only restarts the wait; the admin API still answers.
    QCOMPARE(admin("POST", QStringLiteral("/_admin/down?seconds=0.5")).status, 200);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/stats")).status, 200);

    // Up ends it at once, not when the time is over.
    const Result up = admin("POST", QStringLiteral("/_admin/up"));
    QCOMPARE(up.status, 200);
    QCOMPARE(up.json().value(QLatin1String("down")).toBool(true), false);
    QVERIFY(!m_server->isDown());
    QCOMPARE(downChanged.size(), 2);
    QCOMPARE(send("GET", QStringLiteral("/api/version")).status, 200);
    // Up while up changes nothing.
    QCOMPARE(admin("POST", QStringLiteral("/_admin/up")).status, 200);
    QCOMPARE(downChanged.size(), 2);

    // The C++ API does the same.
    m_server->goDown(600000);
    QVERIFY(m_server->isDown());
    m_server->comeUp();
    QVERIFY(!m_server->isDown());
    QCOMPARE(send("GET", QStringLiteral("/api/version")).status, 200);

    const Result reset = admin("POST", QStringLiteral("/_admin/stats/reset"));
    QCOMPARE(reset.status, 200);
    QCOMPARE(reset.json().value(QLatin1String("total_requests")).toInt(), 0);
    QCOMPARE(m_server->totalRequests(), 0);
    QCOMPARE(admin("GET", QStringLiteral("/_admin/nothing")).status, 404);
}

void tst_DemoServer::adminNotOnApiPort()
{
    // The API port is wallabag's alone; a script that still uses it is told where to go.
    const Result result = send("POST", QStringLiteral("/_admin/down?seconds=5"));
    QCOMPARE(result.status, 404);
    QVERIFY2(result.body.contains(m_server->adminUrl().toString().toUtf8()), result.body);
    QVERIFY(!m_server->isDown());
}

void tst_DemoServer::runsInWorkerThread()
{
    QThread thread;
    thread.start();
    QObject context;
    context.moveToThread(&thread);
    DemoServer *server = nullptr;
    QMetaObject::invokeMethod(
        &context,
        [&server] {
            server = new DemoServer;
            server->listen();
        },
        Qt::BlockingQueuedConnection);
    QVERIFY(server);
    QCOMPARE(server->thread(), &thread);
    QVERIFY(!server->baseUrl().isEmpty());

    QVERIFY(server->addFault(QStringLiteral("route=/api/version,status=503,count=1")));
    QCOMPARE(send("GET", QStringLiteral("/api/version"), {}, {}, server).status, 503);
    const QByteArray accessToken = token(server);
    QCOMPARE(send("GET", QStringLiteral("/api/entries.json"), {},
                  { { "Authorization", "Bearer " + accessToken } }, server)
                 .status,
             200);
    QCOMPARE(server->totalRequests(), 3);

    server->goDown(200); // queued to the server's thread
    QTRY_VERIFY_WITH_TIMEOUT(server->isDown(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(!server->isDown(), 5000);
    QCOMPARE(send("GET", QStringLiteral("/api/entries.json"), {}, {}, server).status, 401);
    server->goDown(600000);
    QTRY_VERIFY_WITH_TIMEOUT(server->isDown(), 2000);
    server->comeUp(); // queued as well
    QTRY_VERIFY_WITH_TIMEOUT(!server->isDown(), 2000);
    QVERIFY(!server->adminUrl().isEmpty());

    QMetaObject::invokeMethod(
        &context, [server] { delete server; }, Qt::BlockingQueuedConnection);
    thread.quit();
    QVERIFY(thread.wait(5000));
}

void tst_DemoServer::executable()
{
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--seed"),
                    QStringLiteral("1"), QStringLiteral("--fault"),
                    QStringLiteral("route=/api/version,status=503,count=1,retry-after=3") });
    QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QString firstLine = QString::fromUtf8(process.readLine()).trimmed();
    static const QRegularExpression expected(
        QStringLiteral("^listening on http://127\\.0\\.0\\.1:([0-9]+)$"));
    const QRegularExpressionMatch match = expected.match(firstLine);
    QVERIFY2(match.hasMatch(), qPrintable(firstLine));
    QVERIFY(match.captured(1).toInt() > 0);

    const QUrl url(firstLine.mid(int(qstrlen("listening on "))) + QStringLiteral("/api/version"));
    QNetworkReply *reply = m_nam->get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
    QCOMPARE(reply->rawHeader("Retry-After"), QByteArray("3"));
    reply->deleteLater();

    // The fault is spent; /api/version needs no token, as in wallabag.
    reply = m_nam->get(QNetworkRequest(url));
    QSignalSpy finishedAgain(reply, &QNetworkReply::finished);
    QVERIFY(finishedAgain.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply->readAll(), QByteArray("\"2.6.14\""));
    reply->deleteLater();

    process.kill();
    QVERIFY(process.waitForFinished(5000));
}

void tst_DemoServer::executableAdminStaysUpWhileDown()
{
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--port"), QStringLiteral("0") });
    QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).count('\n') >= 2, 10000);
    const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    static const QRegularExpression listening(
        QStringLiteral("^listening on (http://127\\.0\\.0\\.1:[0-9]+)$"));
    static const QRegularExpression adminLine(
        QStringLiteral("^admin on (http://127\\.0\\.0\\.1:[0-9]+)$"));
    QVERIFY2(listening.match(lines.at(0)).hasMatch(), qPrintable(lines.at(0)));
    QVERIFY2(adminLine.match(lines.at(1)).hasMatch(), qPrintable(lines.at(1)));
    const QString api = listening.match(lines.at(0)).captured(1);
    const QString adminBase = adminLine.match(lines.at(1)).captured(1);
    QVERIFY(api != adminBase);

    const auto call = [this](const QByteArray &method, const QString &url) {
        QNetworkReply *reply =
            m_nam->sendCustomRequest(QNetworkRequest(QUrl(url)), method, QByteArray());
        QSignalSpy finished(reply, &QNetworkReply::finished);
        Result result;
        result.error = finished.wait(10000) ? reply->error() : QNetworkReply::TimeoutError;
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.body = reply->readAll();
        reply->deleteLater();
        return result;
    };
    QCOMPARE(call("POST", adminBase + QStringLiteral("/_admin/down?seconds=600")).status, 200);
    QCOMPARE(call("GET", api + QStringLiteral("/api/version")).error,
             QNetworkReply::ConnectionRefusedError);
    const Result stats = call("GET", adminBase + QStringLiteral("/_admin/stats"));
    QCOMPARE(stats.status, 200);
    QVERIFY(stats.json().contains(QLatin1String("total_requests")));
    QCOMPARE(call("POST", adminBase + QStringLiteral("/_admin/up")).status, 200);
    QCOMPARE(call("GET", api + QStringLiteral("/api/version")).status, 200);

    process.kill();
    QVERIFY(process.waitForFinished(5000));
}

void tst_DemoServer::executableRejectsBadFault()
{
    QProcess process;
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE),
                  { QStringLiteral("--fault"), QStringLiteral("status=700") });
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardOutput().isEmpty());
    QVERIFY(process.readAllStandardError().contains("invalid fault spec 'status=700'"));
}

void tst_DemoServer::executableRejectsBadCapacity_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("negative max-concurrent")
        << QStringList { QStringLiteral("--max-concurrent"), QStringLiteral("-1") }
        << QByteArray("--max-concurrent must be a non-negative integer");
    QTest::newRow("word max-concurrent")
        << QStringList { QStringLiteral("--max-concurrent"), QStringLiteral("many") }
        << QByteArray("--max-concurrent must be a non-negative integer");
    QTest::newRow("service-time too long")
        << QStringList { QStringLiteral("--service-time"), QStringLiteral("600001") }
        << QByteArray("--service-time must be milliseconds from 0 to 600000");
}

void tst_DemoServer::executableRejectsBadCapacity()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, message);
    QProcess process;
    process.start(QStringLiteral(KEEPTRYING_DEMO_SERVER_EXECUTABLE), arguments);
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains(message));
}

QTEST_GUILESS_MAIN(tst_DemoServer)

#include "tst_demoserver.moc"
