// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Redirects: a retry goes to the hop that failed, with the method and body that hop was sent,
// and credentials never reach another origin. The reply follows them itself, except those of
// a GET or HEAD without credentials under the default policy, which Qt follows as plain
// QNetworkAccessManager does (the reference for those).

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QHash>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <algorithm>
#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

// "METHOD /path body" of every request a server saw, in order.
QByteArrayList seen(const TestServer &server)
{
    QByteArrayList lines;
    const auto requests = server.requests();
    for (const auto &r : requests)
        lines << r.method + ' ' + r.target + (r.body.isEmpty() ? QByteArray() : ' ' + r.body);
    return lines;
}

// The hops of seen(): a request repeated in a row counts once.
QByteArrayList distinctHops(QByteArrayList lines)
{
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

// The metaDataChanged() and redirected() a caller saw, one line per signal. Qt 6.4 now and
// then announces a hop twice, first with the status of the hop before (plain Qt as ours):
// of two announcements in a row for one URL, the last counts.
QString announcements(QStringList lines)
{
    const auto urlOf = [](const QString &line) { return line.section(QLatin1Char(' '), 2); };
    for (qsizetype i = lines.size() - 1; i > 0; --i) {
        if (lines.at(i).startsWith(QLatin1String("meta ")) &&
            lines.at(i - 1).startsWith(QLatin1String("meta ")) &&
            urlOf(lines.at(i)) == urlOf(lines.at(i - 1)))
            lines.removeAt(i - 1);
    }
    return lines.join(QLatin1String(" | "));
}

} // namespace

class tst_Redirects : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void retryGoesToTheHopThatFailed_data();
    void retryGoesToTheHopThatFailed();
    void defaultGetRedirectsAsPlainQt_data();
    void defaultGetRedirectsAsPlainQt();
    void crossOriginFailureIsNotTheFirstOrigins();
    void transferTimeoutBoundsEveryHop();
    void backoffCountsRetriesNotHops_data();
    void backoffCountsRetriesNotHops();
    void eachCredentialKeepsRedirectsOurs_data();
    void eachCredentialKeepsRedirectsOurs();
    void credentialsStayWithTheirOrigin_data();
    void credentialsStayWithTheirOrigin();
    void redirectPolicies_data();
    void redirectPolicies();
    void tooManyRedirects();
    void userVerifiedRedirectWaitsForApproval();
};

void tst_Redirects::retryGoesToTheHopThatFailed_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<bool>("withKey");
    // path -> "STATUS [Location]" for each hop; a 503 answers once, then 200 echoes the body.
    QTest::addColumn<QByteArrayList>("chain");
    QTest::addColumn<QByteArrayList>("expected");
    QTest::addColumn<int>("error");
    // Attempts: each hop the reply follows is one; Qt's hops of a GET are one attempt.
    QTest::addColumn<int>("attempts");

    QTest::addRow("GET 301, 302, then 503 once")
        << QByteArray("GET") << false << QByteArrayList { "/a 301 /b", "/b 302 /c", "/c 503" }
        << QByteArrayList { "GET /a", "GET /b", "GET /c", "GET /c" } << int(QNetworkReply::NoError)
        << 2;
    QTest::addRow("POST, 303: the retry is a GET")
        << QByteArray("POST") << false << QByteArrayList { "/a 303 /b", "/b 503" }
        << QByteArrayList { "POST /a data", "GET /b", "GET /b" } << int(QNetworkReply::NoError)
        << 3;
    QTest::addRow("PUT, 307: the body is replayed")
        << QByteArray("PUT") << false << QByteArrayList { "/a 307 /b", "/b 503" }
        << QByteArrayList { "PUT /a data", "PUT /b data", "PUT /b data" }
        << int(QNetworkReply::NoError) << 3;
    QTest::addRow("POST with a key, 308: body and key replayed")
        << QByteArray("POST") << true << QByteArrayList { "/a 308 /b", "/b 503" }
        << QByteArrayList { "POST /a data", "POST /b data", "POST /b data" }
        << int(QNetworkReply::NoError) << 3;
    QTest::addRow("POST without a key, 307: never sent twice")
        << QByteArray("POST") << false << QByteArrayList { "/a 307 /b", "/b 503" }
        << QByteArrayList { "POST /a data", "POST /b data" }
        << int(QNetworkReply::ServiceUnavailableError) << 2;
}

void tst_Redirects::retryGoesToTheHopThatFailed()
{
    QFETCH(QByteArray, method);
    QFETCH(bool, withKey);
    QFETCH(QByteArrayList, chain);
    QFETCH(QByteArrayList, expected);
    QFETCH(int, error);
    QFETCH(int, attempts);

    QHash<QByteArray, QList<QByteArray>> hops; // path -> status, location
    for (const QByteArray &hop : std::as_const(chain)) {
        const QList<QByteArray> parts = hop.split(' ');
        hops.insert(parts.at(0), parts.mid(1));
    }
    TestServer server;
    QVERIFY(server.listen());
    QHash<QByteArray, int> served;
    server.setHandler([&](const TestServer::Request &request, int) {
        const QList<QByteArray> hop = hops.value(request.target);
        const int status = hop.value(0).toInt();
        if (status == 503 && served[request.target]++ == 0)
            return TestServer::respond(503, "busy", { { "Retry-After", "0" } });
        if (hop.size() > 1)
            return TestServer::respond(status, "moved", { { "Location", hop.at(1) } });
        return TestServer::respond(200, "done " + request.body);
    });

    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url(QStringLiteral("/a")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("text/plain"));
    if (withKey)
        request.setRawHeader("Idempotency-Key", "key-1");
    std::unique_ptr<QNetworkReply> reply(method == "GET"
                                             ? manager.get(request)
                                             : manager.sendCustomRequest(request, method, "data"));
    QSignalSpy redirected(reply.get(), &QNetworkReply::redirected);
    const QByteArray body = waitForBody(reply.get());

    if (method == "GET") {
        // Qt follows these hops, and Qt 6.4 sends one again by itself now and then (plain
        // Qt too): compare the hops, and see the retry in the server's count.
        QCOMPARE(distinctHops(seen(server)), distinctHops(expected));
        for (auto it = served.cbegin(); it != served.cend(); ++it)
            QVERIFY2(it.value() >= 2, it.key().constData());
    } else {
        QCOMPARE(seen(server), expected);
    }
    QCOMPARE(int(reply->error()), error);
    QCOMPARE(redirected.size(), chain.size() - 1);
    const auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QCOMPARE(retrying->attemptCount(), attempts); // one count for the whole request
    const QString lastPath = QString::fromLatin1(server.requests().last().target);
    QCOMPARE(reply->url().path(), lastPath);
    if (withKey) {
        const auto requests = server.requests();
        for (const auto &r : requests)
            QCOMPARE(r.header("Idempotency-Key"), QByteArray("key-1"));
    }
    if (error == QNetworkReply::NoError)
        QVERIFY(body.startsWith("done"));
}

// A GET or HEAD without credentials under the default policy: Qt follows its redirects, and
// the caller sees what plain QNetworkAccessManager shows (status, URL, redirected(), body,
// the requests each server saw, the error of a redirect refused).
void tst_Redirects::defaultGetRedirectsAsPlainQt_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArrayList>("chain"); // "/path STATUS [Location]"; "@" is the other server
    QTest::addColumn<int>("maxRedirects");
    // With credentials (same origin: they stay), the reply follows the hops itself.
    QTest::addColumn<bool>("credentials");
    for (bool credentials : { false, true }) {
        const char *who = credentials ? "followed by the reply" : "followed by Qt";
        QTest::addRow("GET 301, 302, 200, %s", who)
            << QByteArray("GET") << QByteArrayList { "/a 301 /b", "/b 302 /c", "/c 200" } << 50
            << credentials;
        QTest::addRow("HEAD 307, 200, %s", who)
            << QByteArray("HEAD") << QByteArrayList { "/a 307 /b", "/b 200" } << 50 << credentials;
        QTest::addRow("GET 302, 404, %s", who)
            << QByteArray("GET") << QByteArrayList { "/a 302 /b", "/b 404" } << 50 << credentials;
    }
    QTest::addRow("GET 308 to another origin")
        << QByteArray("GET") << QByteArrayList { "/a 308 @/b", "@/b 200" } << 50 << false;
    QTest::addRow("GET, too many redirects")
        << QByteArray("GET") << QByteArrayList { "/a 302 /b", "/b 302 /c", "/c 302 /d", "/d 200" }
        << 2 << false;
}

void tst_Redirects::defaultGetRedirectsAsPlainQt()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArrayList, chain);
    QFETCH(int, maxRedirects);
    QFETCH(bool, credentials);

    struct Seen
    {
        int error = 0;
        int status = 0;
        QUrl url;
        int redirected = 0;
        QByteArray body;
        QByteArrayList first, other;
        QStringList signals; // metaDataChanged() and redirected(), with the reply's state
    };
    const auto run = [&](QNetworkAccessManager &manager) {
        TestServer first;
        TestServer other;
        if (!first.listen() || !other.listen())
            return Seen();
        const auto handler = [&](const QByteArray &prefix) {
            return [&, prefix](const TestServer::Request &request, int) {
                for (const QByteArray &hop : std::as_const(chain)) {
                    const QList<QByteArray> parts = hop.split(' ');
                    if (parts.at(0) != prefix + request.target)
                        continue;
                    const int status = parts.at(1).toInt();
                    // Kept alive, as most servers keep them.
                    const auto keptAlive = [](int status, const QByteArray &body,
                                              const QList<QPair<QByteArray, QByteArray>> &headers) {
                        return TestServer::Response {
                            TestServer::head(status, body.size(), headers, true) + body,
                            TestServer::Response::KeepAlive
                        };
                    };
                    if (parts.size() < 3)
                        return keptAlive(status, "body of " + request.target, {});
                    QByteArray location = parts.at(2);
                    if (location.startsWith('@'))
                        location = other.url(QString::fromLatin1(location.mid(1))).toEncoded();
                    return keptAlive(status, "moved", { { "Location", location } });
                }
                return TestServer::respond(500, "unexpected");
            };
        };
        first.setHandler(handler(QByteArray()));
        other.setHandler(handler("@"));
        QNetworkRequest request(first.url(QStringLiteral("/a")));
        request.setMaximumRedirectsAllowed(maxRedirects);
        if (credentials)
            request.setRawHeader("Authorization", "Bearer token");
        std::unique_ptr<QNetworkReply> reply(method == "HEAD" ? manager.head(request)
                                                              : manager.get(request));
        QSignalSpy redirected(reply.get(), &QNetworkReply::redirected);
        Seen seen;
        // Ports differ between the two runs: paths, "@" for the other server.
        const auto where = [&other](const QUrl &url) -> QString {
            return (url.port() == other.port() ? QStringLiteral("@") : QString()) + url.path();
        };
        const auto state = [&]() -> QString {
            return QString::number(
                       reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()) +
                QLatin1Char(' ') + where(reply->url());
        };
        QObject::connect(reply.get(), &QNetworkReply::metaDataChanged, reply.get(),
                         [&] { seen.signals << QStringLiteral("meta ") + state(); });
        QObject::connect(reply.get(), &QNetworkReply::redirected, reply.get(), [&](const QUrl &to) {
            seen.signals << QStringLiteral("redirected to ") + where(to) +
                    QStringLiteral(", reply ") + state();
        });
        seen.body = waitForBody(reply.get());
        seen.error = reply->error();
        seen.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        seen.url = QUrl(where(reply->url()));
        seen.redirected = int(redirected.size());
        // Qt 6.4 sends a request again by itself now and then (plain Qt as often as ours).
        seen.first = distinctHops(::seen(first));
        seen.other = distinctHops(::seen(other));
        return seen;
    };
    QNetworkAccessManager plain;
    const Seen expected = run(plain);
    QVERIFY(!expected.first.isEmpty()); // the reference ran
    RetryingNetworkAccessManager retrying;
    const Seen actual = run(retrying);
    QCOMPARE(actual.error, expected.error);
    QCOMPARE(actual.status, expected.status);
    QCOMPARE(actual.url, expected.url);
    QCOMPARE(actual.redirected, expected.redirected);
    QCOMPARE(announcements(actual.signals), announcements(expected.signals));
    QCOMPARE(actual.body, expected.body);
    QCOMPARE(actual.first, expected.first);
    QCOMPARE(actual.other, expected.other);
}

// Qt followed a GET's redirect to another origin, where it failed: the first origin answered
// (its breaker counts no failure), and the retry goes to the other origin at once.
void tst_Redirects::crossOriginFailureIsNotTheFirstOrigins()
{
    TestServer other;
    QVERIFY(other.listen());
    int failures = 1;
    other.setHandler([&](const TestServer::Request &, int) {
        if (failures-- > 0)
            return TestServer::respond(503, "busy", { { "Retry-After", "0" } });
        return TestServer::respond(200, "there");
    });
    TestServer first;
    QVERIFY(first.listen());
    first.setHandler([&](const TestServer::Request &, int) {
        return TestServer::respond(302, QByteArray(),
                                   { { "Location", other.url(QStringLiteral("/b")).toEncoded() } });
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    std::unique_ptr<QNetworkReply> reply(
        manager.get(QNetworkRequest(first.url(QStringLiteral("/a")))));
    QCOMPARE(waitForBody(reply.get()), QByteArray("there"));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(seen(first), QByteArrayList { "GET /a" });
    QCOMPARE(seen(other), (QByteArrayList { "GET /b", "GET /b" }));
    QCOMPARE(reply->url(), other.url(QStringLiteral("/b")));
    const CircuitBreaker::OriginStatus a = manager.circuitBreaker()->status(first.url());
    QCOMPARE(a.failuresInWindow, 0);
    QCOMPARE(a.callsInWindow, 1);
}

// A caller's transfer timeout bounds every hop: Qt 6.4 does not time a hop it followed
// itself (plain Qt waits for ever on a server that accepts there and never answers), so a
// GET with a timeout has its redirects followed by the reply.
void tst_Redirects::transferTimeoutBoundsEveryHop()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        if (request.target == "/a")
            return TestServer::respond(302, QByteArray(), { { "Location", "/b" } });
        return TestServer::stall();
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(server.url(QStringLiteral("/a")));
    request.setTransferTimeout(200);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    QCOMPARE(reply->error(), QNetworkReply::OperationCanceledError);
    QCOMPARE(reply->url(), server.url(QStringLiteral("/b")));
    QVERIFY(server.requestCount() >= 2);
}

// The first retry after three redirects waits the first backoff, not the fourth: hops are
// attempts, not failures (whoever follows them).
void tst_Redirects::backoffCountsRetriesNotHops_data()
{
    QTest::addColumn<bool>("withCredentials"); // the reply follows the redirects itself
    QTest::newRow("hops followed by the reply") << true;
    QTest::newRow("hops followed by Qt") << false;
}

void tst_Redirects::backoffCountsRetriesNotHops()
{
    QFETCH(bool, withCredentials);
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        const int n = request.target.mid(1).toInt();
        if (n < 3)
            return TestServer::respond(302, QByteArray(),
                                       { { "Location", '/' + QByteArray::number(n + 1) } });
        return TestServer::respond(503, "busy");
    });
    RetryingNetworkAccessManager manager;
    RetryPolicy policy;
    policy.jitter = Jitter::None;
    policy.initialDelayMs = 40;
    policy.multiplier = 2.0;
    policy.maxDelayMs = 10000;
    policy.maxAttempts = 3;
    manager.setRetryPolicy(policy);
    QNetworkRequest request(server.url(QStringLiteral("/0")));
    if (withCredentials)
        request.setRawHeader("Authorization", "Bearer token");
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    auto *retrying = qobject_cast<RetryingReply *>(reply.get());
    QSignalSpy scheduled(retrying, &RetryingReply::retryScheduled);
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::ServiceUnavailableError);
    QCOMPARE(scheduled.size(), 2);
    QCOMPARE(scheduled.at(0).at(1).toLongLong(), 40); // initialDelayMs
    QCOMPARE(scheduled.at(1).at(1).toLongLong(), 80); // × multiplier
}

// Any one credential set by the caller keeps the redirects the reply's own: it never reaches
// another origin (Qt 6.4 would send it there).
void tst_Redirects::eachCredentialKeepsRedirectsOurs_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::newRow("Authorization") << QByteArray("Authorization");
    QTest::newRow("Proxy-Authorization") << QByteArray("Proxy-Authorization");
    QTest::newRow("cookie, any case") << QByteArray("cookie");
}

void tst_Redirects::eachCredentialKeepsRedirectsOurs()
{
    QFETCH(QByteArray, header);
    TestServer other;
    QVERIFY(other.listen());
    other.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "b"); });
    TestServer first;
    QVERIFY(first.listen());
    first.setHandler([&](const TestServer::Request &, int) {
        return TestServer::respond(
            302, QByteArray(), { { "Location", other.url(QStringLiteral("/final")).toEncoded() } });
    });
    RetryingNetworkAccessManager manager;
    QNetworkRequest request(first.url(QStringLiteral("/start")));
    request.setRawHeader(header, "secret");
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QCOMPARE(waitForBody(reply.get()), QByteArray("b"));
    QCOMPARE(first.requests().first().header(header), QByteArray("secret"));
    QCOMPARE(other.requestCount(), 1);
    QCOMPARE(other.requests().first().header(header), QByteArray());
}

// Authorization, Proxy-Authorization and Cookie set by the caller go to the same origin
// only, unless the request says otherwise.
void tst_Redirects::credentialsStayWithTheirOrigin_data()
{
    QTest::addColumn<bool>("crossOrigin");
    QTest::addColumn<bool>("keep");
    QTest::addColumn<bool>("expectCredentials");
    QTest::addRow("same origin: kept") << false << false << true;
    QTest::addRow("another port: removed") << true << false << false;
    QTest::addRow("another port, caller opts out: kept") << true << true << true;
}

void tst_Redirects::credentialsStayWithTheirOrigin()
{
    QFETCH(bool, crossOrigin);
    QFETCH(bool, keep);
    QFETCH(bool, expectCredentials);

    TestServer other;
    QVERIFY(other.listen());
    other.setHandler(
        [](const TestServer::Request &, int) { return TestServer::respond(200, "b"); });
    TestServer first;
    QVERIFY(first.listen());
    const QByteArray target =
        crossOrigin ? other.url(QStringLiteral("/final")).toEncoded() : QByteArray("/final");
    first.setHandler([&](const TestServer::Request &request, int) {
        if (request.target == "/final")
            return TestServer::respond(200, "a");
        return TestServer::respond(302, QByteArray(), { { "Location", target } });
    });

    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QNetworkRequest request(first.url(QStringLiteral("/start")));
    request.setRawHeader("Authorization", "Bearer secret-token");
    request.setRawHeader("Proxy-Authorization", "Basic cHJveHk6c2VjcmV0");
    request.setRawHeader("Cookie", "session=secret");
    request.setRawHeader("X-Other", "kept");
    if (keep) {
        request.setAttribute(QNetworkRequest::Attribute(
                                 RetryingNetworkAccessManager::KeepCredentialsOnRedirectAttribute),
                             true);
    }
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    const QByteArray body = waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(body, QByteArray(crossOrigin ? "b" : "a"));

    const TestServer &landing = crossOrigin ? other : first;
    const TestServer::Request last = landing.requests().last();
    QCOMPARE(last.target, QByteArray("/final"));
    QCOMPARE(last.header("X-Other"), QByteArray("kept"));
    QCOMPARE(last.header("Authorization").isEmpty(), !expectCredentials);
    QCOMPARE(last.header("Proxy-Authorization").isEmpty(), !expectCredentials);
    QCOMPARE(last.header("Cookie").isEmpty(), !expectCredentials);
    // The first hop always had them.
    QCOMPARE(first.requests().first().header("Authorization"), QByteArray("Bearer secret-token"));
}

void tst_Redirects::redirectPolicies_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<bool>("crossOrigin");
    QTest::addColumn<int>("error");
    QTest::addColumn<int>("status");
    QTest::addRow("manual: the redirect is the answer")
        << int(QNetworkRequest::ManualRedirectPolicy) << false << int(QNetworkReply::NoError)
        << 302;
    QTest::addRow("same origin, followed") << int(QNetworkRequest::SameOriginRedirectPolicy)
                                           << false << int(QNetworkReply::NoError) << 200;
    QTest::addRow("same origin, refused elsewhere")
        << int(QNetworkRequest::SameOriginRedirectPolicy) << true
        << int(QNetworkReply::InsecureRedirectError) << 302;
    QTest::addRow("no less safe, followed elsewhere")
        << int(QNetworkRequest::NoLessSafeRedirectPolicy) << true << int(QNetworkReply::NoError)
        << 200;
}

void tst_Redirects::redirectPolicies()
{
    QFETCH(int, policy);
    QFETCH(bool, crossOrigin);
    QFETCH(int, error);
    QFETCH(int, status);

    TestServer other;
    QVERIFY(other.listen());
    TestServer first;
    QVERIFY(first.listen());
    const QByteArray target =
        crossOrigin ? other.url(QStringLiteral("/final")).toEncoded() : QByteArray("/final");
    first.setHandler([&](const TestServer::Request &request, int) {
        if (request.target == "/final")
            return TestServer::respond(200, "a");
        return TestServer::respond(302, "moved", { { "Location", target } });
    });
    RetryingNetworkAccessManager manager;
    QNetworkRequest request(first.url(QStringLiteral("/start")));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, policy);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    const QByteArray body = waitForBody(reply.get());
    QCOMPARE(int(reply->error()), error);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), status);
    if (status == 302) {
        QCOMPARE(reply->rawHeader("Location"), target);
        QCOMPARE(body, QByteArray("moved"));
        QCOMPARE(other.requestCount(), 0);
    }
}

void tst_Redirects::tooManyRedirects()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        const int n = request.target.mid(1).toInt();
        return TestServer::respond(301, QByteArray(),
                                   { { "Location", '/' + QByteArray::number(n + 1) } });
    });
    RetryingNetworkAccessManager manager;
    QNetworkRequest request(server.url(QStringLiteral("/0")));
    request.setMaximumRedirectsAllowed(2);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    waitForBody(reply.get());
    QCOMPARE(reply->error(), QNetworkReply::TooManyRedirectsError);
    // The first request and two redirects (Qt follows them, and Qt 6.4 sends one again by
    // itself now and then: distinct hops).
    QCOMPARE(distinctHops(seen(server)), (QByteArrayList { "GET /0", "GET /1", "GET /2" }));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 301);
}

void tst_Redirects::userVerifiedRedirectWaitsForApproval()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &request, int) {
        if (request.target == "/final")
            return TestServer::respond(200, "approved");
        return TestServer::respond(302, QByteArray(), { { "Location", "/final" } });
    });
    RetryingNetworkAccessManager manager;
    QNetworkRequest request(server.url(QStringLiteral("/start")));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::UserVerifiedRedirectPolicy);
    std::unique_ptr<QNetworkReply> reply(manager.get(request));
    QSignalSpy redirected(reply.get(), &QNetworkReply::redirected);
    QVERIFY(redirected.wait(5000));
    QCOMPARE(redirected.at(0).at(0).toUrl(), server.url(QStringLiteral("/final")));
    QTest::qWait(50);
    QCOMPARE(server.requestCount(), 1); // nothing goes before the caller approves
    QVERIFY(!reply->isFinished());
    Q_EMIT reply->redirectAllowed();
    QCOMPARE(waitForBody(reply.get()), QByteArray("approved"));
    QCOMPARE(server.requestCount(), 2);
}

QTEST_GUILESS_MAIN(tst_Redirects)
#include "tst_redirects.moc"
