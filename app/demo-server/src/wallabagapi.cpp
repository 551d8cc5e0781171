// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "wallabagapi_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>

#include <algorithm>

namespace KeepTrying::Demo {

namespace {

const char wallabagVersion[] = "2.6.14";

const QRegularExpression &tokenPath()
{
    static const QRegularExpression re(QStringLiteral("^/oauth/v2/token$"));
    return re;
}
const QRegularExpression &entriesPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/entries(?:\\.json)?$"));
    return re;
}
const QRegularExpression &entryPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/entries/([0-9]{1,9})(?:\\.json)?$"));
    return re;
}
const QRegularExpression &entryTagPath()
{
    static const QRegularExpression re(
        QStringLiteral("^/api/entries/([0-9]{1,9})/tags/([0-9]{1,9})(?:\\.json)?$"));
    return re;
}
const QRegularExpression &entryTagsPath()
{
    static const QRegularExpression re(
        QStringLiteral("^/api/entries/([0-9]{1,9})/tags(?:\\.json)?$"));
    return re;
}
const QRegularExpression &existsPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/entries/exists(?:\\.json)?$"));
    return re;
}
const QRegularExpression &userPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/user(?:\\.json)?$"));
    return re;
}
const QRegularExpression &versionPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/version(?:\\.json)?$"));
    return re;
}
const QRegularExpression &infoPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/info(?:\\.json)?$"));
    return re;
}
// wallabag's access rules (app/config/security.yml) let these through without a token;
// like theirs, the rule is a path prefix.
const QRegularExpression &anonymousApiPath()
{
    static const QRegularExpression re(QStringLiteral("^/api/(?:doc|version|info|user)"));
    return re;
}
const QRegularExpression &imagePath()
{
    static const QRegularExpression re(QStringLiteral("^/images/([A-Za-z0-9_-][A-Za-z0-9._-]*)$"));
    return re;
}

bool isWrite(const QByteArray &method)
{
    return method == "POST" || method == "PATCH" || method == "DELETE" || method == "PUT";
}

// Parameters of a write or token request: the URL query (unless bodyOnly: wallabag's POST and
// PATCH of entries read only the body), overridden by a form-encoded or JSON body. Values are
// strings as in a form; JSON booleans become "1"/"0", arrays comma lists.
} // namespace

std::optional<QHash<QString, QString>> parameters(const HttpRequest &request, bool bodyOnly)
{
    QHash<QString, QString> result;
    const auto queryItems = request.query.queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : queryItems) {
        if (!bodyOnly)
            result.insert(key, value);
    }
    if (request.body.trimmed().isEmpty())
        return result;

    const QByteArray contentType = request.header("content-type").toLower();
    if (contentType.contains("json") || request.body.trimmed().startsWith('{')) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(request.body, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            return std::nullopt;
        const QJsonObject object = document.object();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QJsonValue value = it.value();
            if (value.isBool()) {
                result.insert(it.key(), value.toBool() ? QStringLiteral("1") : QStringLiteral("0"));
            } else if (value.isDouble()) {
                // Integers as PHP prints them (1488833381, not 1.48883e+09).
                const double number = value.toDouble();
                result.insert(it.key(),
                              number == double(qint64(number)) ? QString::number(qint64(number))
                                                               : QString::number(number, 'g', 17));
            } else if (value.isString()) {
                result.insert(it.key(), value.toString());
            } else if (value.isArray()) {
                QStringList items;
                for (const QJsonValue &item : value.toArray())
                    items.append(item.toString());
                result.insert(it.key(), items.join(QLatin1Char(',')));
                // PHP sees an array: fields read only as strings (authors) ignore it.
                result.insert(it.key() + QStringLiteral("[]"), QString());
            }
        }
        return result;
    }
    // application/x-www-form-urlencoded: '+' is a space there, but not for QUrlQuery.
    QString form = QString::fromUtf8(request.body);
    form.replace(QLatin1Char('+'), QLatin1String("%20"));
    const auto formItems = QUrlQuery(form).queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : formItems)
        result.insert(key, value);
    return result;
}

QString WallabagApi::routeKey(const QByteArray &method, const QString &path)
{
    QString pattern = path;
    if (tokenPath().match(path).hasMatch())
        pattern = QStringLiteral("/oauth/v2/token");
    else if (entriesPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/entries.json");
    else if (entryPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/entries/{id}.json");
    else if (existsPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/entries/exists.json");
    else if (userPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/user.json");
    else if (entryTagPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/entries/{id}/tags/{tag}.json");
    else if (entryTagsPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/entries/{id}/tags.json");
    else if (versionPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/version");
    else if (infoPath().match(path).hasMatch())
        pattern = QStringLiteral("/api/info");
    else if (imagePath().match(path).hasMatch())
        pattern = QStringLiteral("/images/{name}");
    return QString::fromLatin1(method) + QLatin1Char(' ') + pattern;
}

void WallabagApi::resetStatsLocked()
{
    writesApplied = 0;
    duplicateWritesRejected = 0;
    entryWrites.clear();
}

void WallabagApi::recordEntryWrite(const HttpRequest &request, const HttpResponse &response)
{
    int id = 0;
    if (const QRegularExpressionMatch match = entryPath().match(request.path); match.hasMatch())
        id = match.captured(1).toInt();
    else if (entriesPath().match(request.path).hasMatch())
        id = QJsonDocument::fromJson(response.body).object().value(QLatin1String("id")).toInt();
    if (id <= 0)
        return;
    const QByteArray key = request.header("idempotency-key");
    QJsonArray &writes = entryWrites[id];
    writes.append(QJsonObject {
        { QStringLiteral("method"), QString::fromLatin1(request.method) },
        { QStringLiteral("idempotency_key"),
          key.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromLatin1(key)) } });
    while (writes.size() > maxEntryWrites)
        writes.removeFirst();
}

HttpResponse WallabagApi::process(const HttpRequest &request)
{
    if (!request.path.startsWith(QLatin1String("/api/")))
        return route(request);

    if (const std::optional<HttpResponse> refusal =
            tokens.check(request, anonymousApiPath().match(request.path).hasMatch()))
        return *refusal;

    currentUser = std::max(1, tokens.userOf(request));
    const bool write = isWrite(request.method);
    // Not wallabag's: it has no Idempotency-Key. Off unless a test of the library's keys
    // switches it on (DemoServer::setIdempotencyKeysHonoured()).
    const QByteArray key =
        write && honourIdempotencyKeys ? request.header("idempotency-key") : QByteArray();
    QByteArray fingerprint;
    if (!key.isEmpty()) {
        fingerprint = request.method + ' ' + request.path.toUtf8() + '?' +
            request.rawQuery.toUtf8() + ' ' +
            QCryptographicHash::hash(request.body, QCryptographicHash::Sha256).toHex();
        const auto it = idempotentResponses.constFind(key);
        if (it != idempotentResponses.constEnd()) {
            if (it->fingerprint != fingerprint) {
                return HttpResponse::restError(
                    422, QStringLiteral("Idempotency-Key reused for a different request"));
            }
            ++duplicateWritesRejected;
            return it->response;
        }
    }
    const HttpResponse response = applied(request, route(request));
    if (!key.isEmpty()) {
        idempotentResponses.insert(key, StoredResponse { fingerprint, response });
        idempotencyOrder.push_back(key);
        trimIdempotencyRecordLocked();
    }
    return response;
}

HttpResponse WallabagApi::applied(const HttpRequest &request, const HttpResponse &response)
{
    if (isWrite(request.method) && response.status >= 200 && response.status < 300) {
        ++writesApplied;
        recordEntryWrite(request, response);
    }
    return response;
}

bool WallabagApi::needsFetch(const HttpRequest &request) const
{
    if (request.method != "POST" || !entriesPath().match(request.path).hasMatch() ||
        tokens.check(request, false))
        return false;
    const auto params = parameters(request, true);
    return params && !params->value(QStringLiteral("url")).isEmpty() &&
        !store.articleByUrl(params->value(QStringLiteral("url")),
                            std::max(1, tokens.userOf(request)));
}

HttpResponse WallabagApi::createFetched(const HttpRequest &request)
{
    currentUser = std::max(1, tokens.userOf(request));
    return applied(request, createEntry(request, false));
}

void WallabagApi::trimIdempotencyRecordLocked()
{
    // Each record holds a whole response (an entry, a few KB): a record kept for ever grows
    // the process of the reader that runs this server with every change the user makes.
    while (idempotencyOrder.size() > size_t(qMax(1, idempotencyRecordLimit))) {
        idempotentResponses.remove(idempotencyOrder.front());
        idempotencyOrder.pop_front();
    }
}

HttpResponse WallabagApi::route(const HttpRequest &request)
{
    const QByteArray method = request.method == "HEAD" ? QByteArrayLiteral("GET") : request.method;
    const auto notAllowed = [](const QByteArray &allow) {
        HttpResponse response = HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));
        response.headers.append({ QByteArrayLiteral("Allow"), allow });
        return response;
    };

    if (tokenPath().match(request.path).hasMatch()) {
        if (method != "POST" && method != "GET")
            return notAllowed("GET, POST");
        return token(request);
    }
    if (entriesPath().match(request.path).hasMatch()) {
        if (method == "GET")
            return listEntries(request);
        if (method == "POST")
            return createEntry(request);
        return notAllowed("GET, POST");
    }
    if (existsPath().match(request.path).hasMatch()) {
        if (method != "GET")
            return notAllowed("GET");
        return entriesExist(request);
    }
    if (userPath().match(request.path).hasMatch()) {
        if (method != "GET")
            return notAllowed("GET");
        return user(request);
    }
    if (const QRegularExpressionMatch match = entryPath().match(request.path); match.hasMatch()) {
        const int id = match.captured(1).toInt();
        if (method == "GET") {
            const std::optional<Article> article = store.article(id);
            if (const std::optional<HttpResponse> refusal = refusedAccess(article))
                return *refusal;
            return HttpResponse::json(store.toJson(*article, publicBaseUrl(request)));
        }
        if (method == "PATCH")
            return patchEntry(request, id);
        if (method == "DELETE")
            return deleteEntry(request, id);
        return notAllowed("GET, PATCH, DELETE");
    }
    if (const QRegularExpressionMatch match = entryTagsPath().match(request.path);
        match.hasMatch()) {
        if (method == "GET")
            return entryTags(match.captured(1).toInt());
        if (method == "POST")
            return addTags(request, match.captured(1).toInt());
        return notAllowed("GET, POST");
    }
    if (const QRegularExpressionMatch match = entryTagPath().match(request.path);
        match.hasMatch()) {
        if (method != "DELETE")
            return notAllowed("DELETE");
        return removeTag(request, match.captured(1).toInt(), match.captured(2).toInt());
    }
    if (versionPath().match(request.path).hasMatch()) {
        if (method != "GET")
            return notAllowed("GET");
        HttpResponse response;
        response.contentType = "application/json";
        response.body = '"' + QByteArray(wallabagVersion) + '"'; // a JSON string, as wallabag
        return response;
    }
    if (infoPath().match(request.path).hasMatch()) {
        if (method != "GET")
            return notAllowed("GET");
        return HttpResponse::json(
            QJsonObject { { QStringLiteral("appname"), QStringLiteral("wallabag") },
                          { QStringLiteral("version"), QLatin1String(wallabagVersion) },
                          { QStringLiteral("allowed_registration"), false } });
    }
    if (request.path == QLatin1String("/_admin") ||
        request.path.startsWith(QLatin1String("/_admin/"))) {
        // Scripts written for the admin API on this port get told where it went.
        return HttpResponse::restError(
            404,
            QStringLiteral("Not Found: the admin API listens on its own port, %1").arg(adminUrl));
    }
    if (const QRegularExpressionMatch match = imagePath().match(request.path); match.hasMatch()) {
        if (method != "GET")
            return notAllowed("GET");
        return image(request, match.captured(1));
    }
    return HttpResponse::restError(404, QStringLiteral("Not Found"));
}

HttpResponse WallabagApi::token(const HttpRequest &request)
{
    return tokens.grant(parameters(request));
}

HttpResponse WallabagApi::image(const HttpRequest &request, const QString &name) const
{
    QFile file(QStringLiteral(":/demo/images/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return HttpResponse::restError(404, QStringLiteral("Not Found"));
    const QByteArray data = file.readAll();
    const QByteArray etag =
        '"' + QCryptographicHash::hash(data, QCryptographicHash::Sha1).toHex().left(16) + '"';

    HttpResponse response;
    response.contentType = name.endsWith(QLatin1String(".png"))
        ? QByteArrayLiteral("image/png")
        : QByteArrayLiteral("application/octet-stream");
    response.headers = { { QByteArrayLiteral("ETag"), etag },
                         { QByteArrayLiteral("Accept-Ranges"), QByteArrayLiteral("bytes") },
                         { QByteArrayLiteral("Cache-Control"),
                           QByteArrayLiteral("max-age=86400") } };
    response.body = data;

    // A single byte range (RFC 9110 §14.2), so a client can resume a download cut mid-body;
    // If-Range with another validator, or a range we do not understand, gets the whole image.
    const QByteArray range = request.header("range").trimmed();
    const QByteArray ifRange = request.header("if-range").trimmed();
    static const QRegularExpression byteRange(QStringLiteral("^bytes=([0-9]*)-([0-9]*)$"));
    const QRegularExpressionMatch match = byteRange.match(QString::fromLatin1(range));
    if (!match.hasMatch() || (!ifRange.isEmpty() && ifRange != etag) ||
        (match.capturedLength(1) == 0 && match.capturedLength(2) == 0))
        return response;

    const qint64 size = data.size();
    qint64 start = 0;
    qint64 end = size - 1;
    if (match.capturedLength(1) == 0) {
        start = std::max<qint64>(0, size - match.captured(2).toLongLong());
    } else {
        start = match.captured(1).toLongLong();
        if (match.capturedLength(2) > 0)
            end = std::min(end, match.captured(2).toLongLong());
    }
    if (start >= size || end < start) {
        HttpResponse unsatisfiable =
            HttpResponse::restError(416, QStringLiteral("Range Not Satisfiable"));
        unsatisfiable.headers.append(
            { QByteArrayLiteral("Content-Range"), "bytes */" + QByteArray::number(size) });
        return unsatisfiable;
    }
    response.status = 206;
    response.headers.append({ QByteArrayLiteral("Content-Range"),
                              "bytes " + QByteArray::number(start) + '-' + QByteArray::number(end) +
                                  '/' + QByteArray::number(size) });
    response.body = data.mid(start, end - start + 1);
    return response;
}

std::optional<HttpResponse> WallabagApi::refusedAccess(const std::optional<Article> &article) const
{
    if (!article)
        return HttpResponse::restError(404, QStringLiteral("Not Found"));
    // WallabagRestController::validateUserAccess throws AccessDeniedException; in
    // production the JSON error page says only the reason phrase.
    if (article->userId != currentUser)
        return HttpResponse::restError(403, QStringLiteral("Forbidden"));
    return std::nullopt;
}

QString WallabagApi::linkBaseUrl(const HttpRequest &request) const
{
    // wallabag builds its absolute links from the scheme, host and port PHP sees; it trusts
    // no proxy, so behind one they name the hop in front of PHP (linkBase stands for it).
    if (!linkBase.isEmpty())
        return linkBase;
    return publicBaseUrl(request);
}

QString WallabagApi::publicBaseUrl(const HttpRequest &request) const
{
    // Links must work for the client, so use the host it connected to.
    const QByteArray host = request.header("host");
    if (!host.isEmpty())
        return QStringLiteral("http://") + QString::fromLatin1(host);
    return baseUrl;
}

} // namespace KeepTrying::Demo
