// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The read side of the wallabag API: the entries list, exists and the user.

#include "wallabagapi_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>

#include <algorithm>

namespace KeepTrying::Demo {

namespace {

constexpr int defaultPerPage = 30;

} // namespace

namespace {

// PHP's (int) cast of a query value: the leading digits, 0 when there are none.
qint64 phpInt(const QString &text)
{
    static const QRegularExpression leading(QStringLiteral("^\\s*([+-]?[0-9]{1,18})"));
    const QRegularExpressionMatch match = leading.match(text);
    return match.hasMatch() ? match.captured(1).toLongLong() : 0;
}

// PHP's (bool) cast of a query value: "" and "0" are false, anything else true.
bool phpBool(const QString &text)
{
    return !text.isEmpty() && text != QLatin1String("0");
}

} // namespace

HttpResponse WallabagApi::listEntries(const HttpRequest &request)
{
    // wallabag's EntryRestController::getEntriesAction and EntryRepository::findEntries.
    const QUrlQuery &query = request.query;
    const auto has = [&](const char *name) { return query.hasQueryItem(QLatin1String(name)); };
    const auto value = [&](const char *name) {
        return query.queryItemValue(QLatin1String(name), QUrl::FullyDecoded);
    };
    const auto flag = [&](const char *name) -> std::optional<bool> {
        if (!has(name))
            return std::nullopt;
        return phpBool(value(name));
    };

    ArticleStore::Filter filter;
    filter.userId = currentUser;
    filter.archived = flag("archive");
    filter.starred = flag("starred");
    filter.isPublic = flag("public");
    filter.withAnnotations = flag("annotations");
    if (has("domain_name"))
        filter.domainName = value("domain_name");
    const QString sort = has("sort") ? value("sort").toLower() : QStringLiteral("created");
    if (sort == QLatin1String("created"))
        filter.sort = ArticleStore::Sort::Created;
    else if (sort == QLatin1String("updated"))
        filter.sort = ArticleStore::Sort::Updated;
    else if (sort == QLatin1String("archived"))
        filter.sort = ArticleStore::Sort::Archived;
    else
        filter.sort = ArticleStore::Sort::None; // wallabag: no ORDER BY, no error
    const QString order = has("order") ? value("order").toLower() : QStringLiteral("desc");
    if (order != QLatin1String("asc") && order != QLatin1String("desc"))
        return HttpResponse::restError(400, QStringLiteral("Bad Request"));
    filter.ascending = order == QLatin1String("asc");
    // A comma list of labels compared exactly; tags[]=… (an array) is not a string: ignored.
    const QString tags = value("tags");
    if (!tags.isEmpty())
        filter.tags = tags.split(QLatin1Char(','));
    const qint64 since = phpInt(value("since"));
    filter.since = since;
    const QString detail = has("detail") ? value("detail").toLower() : QStringLiteral("full");
    if (detail != QLatin1String("full") && detail != QLatin1String("metadata"))
        return HttpResponse::restError(400, QStringLiteral("Bad Request"));
    const bool metadataOnly = detail == QLatin1String("metadata");

    // Pagerfanta: a page or page size that is not a positive number, or a page past the
    // end, is a 404 (BabDevPagerfantaBundle's not-found strategy).
    const int page = int(std::clamp<qint64>(has("page") ? phpInt(value("page")) : 1, 0, 1 << 30));
    const int perPage = int(
        std::clamp<qint64>(has("perPage") ? phpInt(value("perPage")) : defaultPerPage, 0, 1 << 30));
    if (page < 1 || perPage < 1)
        return HttpResponse::restError(404, QStringLiteral("Not Found"));
    const QList<Article> articles = store.select(filter);
    const int total = int(articles.size());
    const int pages = std::max(1, int((qint64(total) + perPage - 1) / perPage));
    if (page > pages)
        return HttpResponse::restError(404, QStringLiteral("Not Found"));

    const QString imageBase = publicBaseUrl(request);
    QJsonArray items;
    const qsizetype first = qsizetype(page - 1) * perPage;
    for (qsizetype i = first; i < std::min<qsizetype>(total, first + perPage); ++i) {
        QJsonObject item = store.toJson(articles.at(i), imageBase);
        if (metadataOnly)
            item.insert(QStringLiteral("content"), QJsonValue::Null); // selected without it
        items.append(item);
    }

    // Absolute links with wallabag's fixed parameter set (null ones left out): domain_name
    // and anything else the request had are not carried over.
    const QString base = linkBaseUrl(request);
    const auto link = [&](int number) {
        // http_build_query: every key with "=", even for an empty value; Symfony's URL
        // generator then leaves ',' and ':' readable.
        QStringList items;
        const auto add = [&](const char *name, const QString &text) {
            QString encoded = QString::fromLatin1(QUrl::toPercentEncoding(text));
            encoded.replace(QLatin1String("%2C"), QLatin1String(","));
            encoded.replace(QLatin1String("%3A"), QLatin1String(":"));
            items << QLatin1String(name) + QLatin1Char('=') + encoded;
        };
        const auto addFlag = [&](const char *name, const std::optional<bool> &on) {
            if (on)
                add(name, *on ? QStringLiteral("1") : QStringLiteral("0"));
        };
        addFlag("archive", filter.archived);
        addFlag("starred", filter.starred);
        addFlag("public", filter.isPublic);
        add("sort", sort);
        add("order", order);
        add("page", QString::number(number));
        add("perPage", QString::number(perPage));
        add("tags", tags);
        add("since", QString::number(since));
        add("detail", detail);
        addFlag("annotations", filter.withAnnotations);
        return QJsonObject { { QStringLiteral("href"),
                               QString(base + request.path + QLatin1Char('?') +
                                       items.join(QLatin1Char('&'))) } };
    };
    QJsonObject links { { QStringLiteral("self"), link(page) },
                        { QStringLiteral("first"), link(1) },
                        { QStringLiteral("last"), link(pages) } };
    if (page < pages)
        links.insert(QStringLiteral("next"), link(page + 1));
    if (page > 1)
        links.insert(QStringLiteral("previous"), link(page - 1));

    return HttpResponse::json(QJsonObject {
        { QStringLiteral("page"), page },
        { QStringLiteral("limit"), perPage },
        { QStringLiteral("pages"), pages },
        { QStringLiteral("total"), total },
        { QStringLiteral("_links"), links },
        { QStringLiteral("_embedded"), QJsonObject { { QStringLiteral("items"), items } } },
    });
}

HttpResponse WallabagApi::user(const HttpRequest &request)
{
    // ^/api/user is anonymous in wallabag's access rules, but the action itself asks for a
    // signed-in user: without a token, the OAuth entry point's 401.
    if (request.header("authorization").isEmpty()) {
        HttpResponse response = HttpResponse::oauthError(
            401, QStringLiteral("access_denied"), QStringLiteral("OAuth2 authentication required"));
        response.headers.append(
            { QByteArrayLiteral("WWW-Authenticate"),
              QByteArrayLiteral("Bearer realm=\"Service\", error=\"access_denied\", "
                                "error_description=\"OAuth2 authentication required\"") });
        return response;
    }
    const bool demo = currentUser == 1;
    return HttpResponse::json(QJsonObject {
        { QStringLiteral("id"), currentUser },
        { QStringLiteral("username"),
          demo ? DemoServer::demoUsername() : DemoServer::otherUsername() },
        { QStringLiteral("email"),
          demo ? QStringLiteral("demo@example.org") : QStringLiteral("other@example.org") },
        { QStringLiteral("name"), demo ? QStringLiteral("Demo") : QStringLiteral("Other") },
        { QStringLiteral("created_at"), QStringLiteral("2024-01-01T10:00:00+0200") },
        { QStringLiteral("updated_at"), QStringLiteral("2024-01-01T10:00:00+0200") },
    });
}

} // namespace KeepTrying::Demo
