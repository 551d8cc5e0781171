// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The entry writes of the demo server's wallabag API, each as wallabag 2.6 does it
// (src/Wallabag/ApiBundle/Controller/EntryRestController.php; docs/wallabag.md has the facts).

#include "wallabagapi_p.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QUuid>

namespace KeepTrying::Demo {

namespace {

// PHP's (bool) cast of a form value: "0" and "" are false, anything else true ("false" too).
bool castBool(const QString &value)
{
    return !value.isEmpty() && value != QLatin1String("0");
}

// TagsAssigner::assignTagsToEntry: split on ',', trimmed, lower-cased, empty ones skipped.
QStringList labelsOf(const QString &tags)
{
    QStringList result;
    const QStringList parts = tags.split(QLatin1Char(','));
    for (const QString &part : parts) {
        const QString label = ArticleStore::normalisedLabel(part);
        if (!label.isEmpty() && !result.contains(label))
            result.append(label);
    }
    return result;
}

// Entry::updateArchived / updateStar: the date is set to now each time true is written.
void applyFlags(Article &article, const QHash<QString, QString> &params)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (params.contains(QStringLiteral("starred"))) {
        article.starred = castBool(params.value(QStringLiteral("starred")));
        article.starredAt = article.starred ? now : QDateTime();
    }
    if (params.contains(QStringLiteral("archive"))) {
        article.archived = castBool(params.value(QStringLiteral("archive")));
        article.archivedAt = article.archived ? now : QDateTime();
    }
}

// The fields POST and PATCH both set when given non-empty (EntryRest::postEntriesAction,
// patchEntriesAction): language, preview_picture, published_at (a date string or Unix
// seconds), authors (a comma string; an array is ignored), origin_url, public.
void applyDetails(Article &article, const QHash<QString, QString> &params, int utcOffset)
{
    const QString language = params.value(QStringLiteral("language"));
    if (!language.isEmpty())
        article.language = language;
    const QString picture = params.value(QStringLiteral("preview_picture"));
    if (!picture.isEmpty())
        article.previewPicture = picture;
    const QString originUrl = params.value(QStringLiteral("origin_url"));
    if (!originUrl.isEmpty())
        article.originUrl = originUrl;
    const QString published = params.value(QStringLiteral("published_at"));
    if (!published.isEmpty()) {
        bool seconds = false;
        const qint64 unix = published.toLongLong(&seconds);
        if (seconds) {
            article.publishedAt = QDateTime::fromSecsSinceEpoch(unix, Qt::UTC);
        } else {
            // Doctrine's datetime column keeps the wall-clock time and drops the offset;
            // it reads back in the server's zone.
            const QDateTime given = QDateTime::fromString(published, Qt::ISODate);
            if (given.isValid())
                article.publishedAt =
                    QDateTime(given.date(), given.time(), Qt::OffsetFromUTC, utcOffset);
        }
    }
    const QString authors = params.value(QStringLiteral("authors"));
    if (!authors.isEmpty() && !params.contains(QStringLiteral("authors[]")))
        article.publishedBy = authors.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (params.contains(QStringLiteral("public"))) {
        if (!castBool(params.value(QStringLiteral("public"))))
            article.uid = QString();
        else if (article.uid.isNull())
            article.uid = QUuid::createUuid().toString(QUuid::Id128).left(23);
    }
}

void addLabels(Article &article, const QStringList &labels)
{
    for (const QString &label : labels) {
        if (!article.tags.contains(label))
            article.tags.append(label);
    }
}

} // namespace

HttpResponse WallabagApi::createEntry(const HttpRequest &request, bool lookUp)
{
    const auto params = parameters(request, true);
    if (!params)
        return HttpResponse::restError(400, QStringLiteral("The request body could not be parsed"));
    const QString urlText = params->value(QStringLiteral("url"));
    const QUrl url(urlText, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return HttpResponse::restError(400, QStringLiteral("url must be an http or https URL"));

    // wallabag deduplicates by the URL alone, before it fetches the page: an entry saved
    // already is updated (flags, added tags, a given title or content) and answered, 200.
    std::optional<Article> article =
        lookUp ? store.articleByUrl(urlText, currentUser) : std::nullopt;
    if (!article) {
        article = store.create(urlText, params->value(QStringLiteral("title")),
                               params->value(QStringLiteral("content")), {}, currentUser);
    } else {
        const QString title = params->value(QStringLiteral("title"));
        if (!title.isEmpty())
            article->title = title;
        const QString content = params->value(QStringLiteral("content"));
        if (!content.isEmpty())
            article->content = content;
    }
    applyFlags(*article, *params);
    applyDetails(*article, *params, store.utcOffset());
    addLabels(*article, labelsOf(params->value(QStringLiteral("tags"))));
    store.update(*article);
    return HttpResponse::json(store.toJson(*store.article(article->id), publicBaseUrl(request)));
}

HttpResponse WallabagApi::patchEntry(const HttpRequest &request, int id)
{
    std::optional<Article> article = store.article(id);
    if (const std::optional<HttpResponse> refusal = refusedAccess(article))
        return *refusal;
    const auto params = parameters(request, true);
    if (!params)
        return HttpResponse::restError(400, QStringLiteral("The request body could not be parsed"));

    // Empty values are ignored, not refused.
    const QString title = params->value(QStringLiteral("title"));
    if (!title.isEmpty())
        article->title = title;
    applyFlags(*article, *params);
    applyDetails(*article, *params, store.utcOffset());
    const QString content = params->value(QStringLiteral("content"));
    if (!content.isEmpty()) {
        article->content = content;
        article->readingTime = ArticleStore::readingTimeFor(content);
    }
    // Since wallabag 2.3, a non-empty tags list replaces the entry's tags (removeAllTags,
    // then assign); an empty one changes nothing, so PATCH cannot clear the tags.
    const QStringList labels = labelsOf(params->value(QStringLiteral("tags")));
    if (!labels.isEmpty())
        article->tags = labels;
    store.update(*article);
    return HttpResponse::json(store.toJson(*store.article(id), publicBaseUrl(request)));
}

HttpResponse WallabagApi::deleteEntry(const HttpRequest &request, int id)
{
    const QString expect = request.query.queryItemValue(QStringLiteral("expect"));
    if (!expect.isEmpty() && expect != QLatin1String("id") && expect != QLatin1String("entry"))
        return HttpResponse::restError(400, QStringLiteral("Bad Request"));
    if (const std::optional<HttpResponse> refusal = refusedAccess(store.article(id)))
        return *refusal;
    const std::optional<Article> removed = store.remove(id);
    if (expect == QLatin1String("id"))
        return HttpResponse::json(QJsonObject { { QStringLiteral("id"), id } });
    return HttpResponse::json(store.toJson(*removed, publicBaseUrl(request)));
}

HttpResponse WallabagApi::entryTags(int id) const
{
    const std::optional<Article> article = store.article(id);
    if (const std::optional<HttpResponse> refusal = refusedAccess(article))
        return *refusal;
    return HttpResponse::json(store.toJson(*article, QString()).value(QLatin1String("tags")));
}

HttpResponse WallabagApi::addTags(const HttpRequest &request, int id)
{
    std::optional<Article> article = store.article(id);
    if (const std::optional<HttpResponse> refusal = refusedAccess(article))
        return *refusal;
    const auto params = parameters(request, true);
    if (!params)
        return HttpResponse::restError(400, QStringLiteral("The request body could not be parsed"));
    const QStringList labels = labelsOf(params->value(QStringLiteral("tags")));
    if (!labels.isEmpty()) {
        addLabels(*article, labels);
        store.update(*article);
    }
    return HttpResponse::json(store.toJson(*store.article(id), publicBaseUrl(request)));
}

HttpResponse WallabagApi::removeTag(const HttpRequest &request, int id, int tagId)
{
    // Tags are global rows in wallabag: any existing tag id is accepted, and one that is not
    // on the entry changes nothing (Entry::removeTag returns early); both answer the entry.
    // The ParamConverters load the entry and the tag first (404), then the owner is checked.
    std::optional<Article> article = store.article(id);
    const std::optional<QString> label = store.tagLabel(tagId);
    if (!article || !label)
        return HttpResponse::restError(404, QStringLiteral("Not Found"));
    if (const std::optional<HttpResponse> refusal = refusedAccess(article))
        return *refusal;
    if (article->tags.removeAll(*label) > 0)
        store.update(*article);
    return HttpResponse::json(store.toJson(*store.article(id), publicBaseUrl(request)));
}

HttpResponse WallabagApi::entriesExist(const HttpRequest &request) const
{
    // getEntriesExistsAction: url or hashed_url, or the lists urls[] / hashed_urls[]; with
    // return_id=1 the entry's id (or null) instead of a boolean. Nothing to look for: 403.
    const QUrlQuery &query = request.query;
    // PHP's (bool) of the string: only "" and "0" are false.
    const QString returnIdText = query.queryItemValue(QStringLiteral("return_id"));
    const bool returnId = !returnIdText.isEmpty() && returnIdText != QLatin1String("0");
    const auto answer = [&](const QString &hash) -> QJsonValue {
        const std::optional<Article> article =
            store.articleByHashedUrl(hash.toLatin1(), currentUser);
        if (returnId)
            return article ? QJsonValue(article->id) : QJsonValue(QJsonValue::Null);
        return article.has_value();
    };
    const auto hashOf = [](const QString &url) {
        return QString::fromLatin1(ArticleStore::hashedUrl(url));
    };
    const QString url = query.queryItemValue(QStringLiteral("url"), QUrl::FullyDecoded);
    const QString hashedUrl = query.queryItemValue(QStringLiteral("hashed_url"));
    const QStringList urls = query.allQueryItemValues(QStringLiteral("urls[]"), QUrl::FullyDecoded);
    const QStringList hashedUrls = query.allQueryItemValues(QStringLiteral("hashed_urls[]"));
    if (!urls.isEmpty() || !hashedUrls.isEmpty()) {
        QJsonObject result;
        for (const QString &each : urls)
            result.insert(each, answer(hashOf(each)));
        for (const QString &each : hashedUrls)
            result.insert(each, answer(each));
        return HttpResponse::json(result);
    }
    if (url.isEmpty() && hashedUrl.isEmpty())
        return HttpResponse::restError(403, QStringLiteral("Forbidden"));
    return HttpResponse::json(QJsonObject {
        { QStringLiteral("exists"), answer(url.isEmpty() ? hashedUrl : hashOf(url)) } });
}

} // namespace KeepTrying::Demo
