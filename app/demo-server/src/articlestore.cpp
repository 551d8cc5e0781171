// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "articlestore_p.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <QtCore/QUrl>

#include <algorithm>

namespace KeepTrying::Demo {

namespace {

// wallabag writes dates as 2016-04-05T08:44:33+0000.
QJsonValue wallabagDate(const QDateTime &dateTime)
{
    if (!dateTime.isValid())
        return QJsonValue::Null;
    return dateTime.toUTC().toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'+0000'"));
}

// Gedmo's sluggable on the label, with wallabag 2.6's prefix "t:" (2.5 had none).
QString slugFor(const QString &label)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString slug = label.toLower();
    slug.replace(nonWord, QStringLiteral("-"));
    while (slug.startsWith(QLatin1Char('-')))
        slug.remove(0, 1);
    while (slug.endsWith(QLatin1Char('-')))
        slug.chop(1);
    return QStringLiteral("t:") + slug;
}

} // namespace

bool ArticleStore::loadJson(const QByteArray &json, QString *errorMessage)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    const QJsonArray items = document.object().value(QLatin1String("articles")).toArray();
    if (parseError.error != QJsonParseError::NoError || items.isEmpty()) {
        if (errorMessage)
            *errorMessage = parseError.error != QJsonParseError::NoError
                ? parseError.errorString()
                : QStringLiteral("no \"articles\" array");
        return false;
    }

    m_articles.clear();
    m_tagIds.clear();
    m_nextId = 1;
    for (const QJsonValue &value : items) {
        const QJsonObject object = value.toObject();
        Article article;
        article.id = object.value(QLatin1String("id")).toInt();
        article.title = object.value(QLatin1String("title")).toString();
        article.url = object.value(QLatin1String("url")).toString();
        article.domainName = object.value(QLatin1String("domain_name")).toString();
        article.language = object.value(QLatin1String("language")).toString(QStringLiteral("en"));
        article.content = object.value(QLatin1String("content")).toString();
        article.previewImage = object.value(QLatin1String("preview_image")).toString();
        article.readingTime =
            object.value(QLatin1String("reading_time")).toInt(readingTimeFor(article.content));
        for (const QJsonValue &tag : object.value(QLatin1String("tags")).toArray()) {
            const QString label = normalisedLabel(tag.toString());
            if (!label.isEmpty() && !article.tags.contains(label))
                article.tags.append(label);
        }
        article.starred = object.value(QLatin1String("is_starred")).toBool();
        article.archived = object.value(QLatin1String("is_archived")).toBool();
        article.createdAt = QDateTime::fromString(
            object.value(QLatin1String("created_at")).toString(), Qt::ISODate);
        article.updatedAt = QDateTime::fromString(
            object.value(QLatin1String("updated_at")).toString(), Qt::ISODate);
        if (!article.updatedAt.isValid())
            article.updatedAt = article.createdAt;
        if (article.starred)
            article.starredAt = article.updatedAt;
        if (article.archived)
            article.archivedAt = article.updatedAt;
        if (article.id <= 0 || article.title.isEmpty() || !article.createdAt.isValid()) {
            if (errorMessage)
                *errorMessage = QStringLiteral("article ") + QString::number(m_articles.size()) +
                    QStringLiteral(" lacks an id, a title or created_at");
            return false;
        }
        registerTags(article.tags);
        m_nextId = std::max(m_nextId, article.id + 1);
        m_articles.append(article);
    }
    return true;
}

QList<Article> ArticleStore::select(const Filter &filter) const
{
    QList<Article> result;
    for (const Article &article : m_articles) {
        if (filter.archived && article.archived != *filter.archived)
            continue;
        if (filter.starred && article.starred != *filter.starred)
            continue;
        if (filter.since.isValid() && article.updatedAt < filter.since)
            continue;
        const bool hasAllTags =
            std::all_of(filter.tags.cbegin(), filter.tags.cend(), [&](const QString &tag) {
                return article.tags.contains(tag, Qt::CaseInsensitive);
            });
        if (hasAllTags)
            result.append(article);
    }
    // The id breaks ties so that pages never overlap or skip an entry.
    std::sort(result.begin(), result.end(), [&](const Article &a, const Article &b) {
        const QDateTime &left = filter.sortByUpdated ? a.updatedAt : a.createdAt;
        const QDateTime &right = filter.sortByUpdated ? b.updatedAt : b.createdAt;
        if (left != right)
            return filter.ascending ? left < right : left > right;
        return filter.ascending ? a.id < b.id : a.id > b.id;
    });
    return result;
}

std::optional<Article> ArticleStore::article(int id) const
{
    for (const Article &article : m_articles) {
        if (article.id == id)
            return article;
    }
    return std::nullopt;
}

std::optional<Article> ArticleStore::articleByUrl(const QString &url) const
{
    return articleByHashedUrl(hashedUrl(url));
}

std::optional<Article> ArticleStore::articleByHashedUrl(const QByteArray &sha1Hex) const
{
    for (const Article &article : m_articles) {
        if (hashedUrl(article.url) == sha1Hex)
            return article;
    }
    return std::nullopt;
}

std::optional<QString> ArticleStore::tagLabel(int tagId) const
{
    for (auto it = m_tagIds.cbegin(); it != m_tagIds.cend(); ++it) {
        if (it.value() == tagId)
            return it.key();
    }
    return std::nullopt;
}

QByteArray ArticleStore::hashedUrl(const QString &url)
{
    QByteArray decoded = url.toUtf8();
    decoded.replace('+', ' '); // urldecode() takes '+' for a space
    return QCryptographicHash::hash(QByteArray::fromPercentEncoding(decoded),
                                    QCryptographicHash::Sha1)
        .toHex();
}

QString ArticleStore::normalisedLabel(const QString &label)
{
    return label.trimmed().toLower();
}

void ArticleStore::update(Article article)
{
    for (Article &stored : m_articles) {
        if (stored.id != article.id)
            continue;
        article.updatedAt = QDateTime::currentDateTimeUtc();
        registerTags(article.tags);
        stored = article;
        return;
    }
}

Article ArticleStore::create(const QString &url, const QString &title, const QString &content,
                             const QStringList &tags)
{
    Article article;
    article.id = m_nextId++;
    article.url = url;
    article.domainName = QUrl(url).host();
    article.title = title.isEmpty() ? article.domainName : title;
    article.content = content.isEmpty()
        ? QStringLiteral("<p>Saved from ") + url.toHtmlEscaped() + QStringLiteral("</p>")
        : content;
    article.language = QStringLiteral("en");
    article.readingTime = readingTimeFor(article.content);
    article.tags = tags;
    article.createdAt = QDateTime::currentDateTimeUtc();
    article.updatedAt = article.createdAt;
    registerTags(tags);
    m_articles.append(article);
    return article;
}

std::optional<Article> ArticleStore::remove(int id)
{
    for (qsizetype i = 0; i < m_articles.size(); ++i) {
        if (m_articles.at(i).id == id)
            return m_articles.takeAt(i);
    }
    return std::nullopt;
}

QJsonObject ArticleStore::toJson(const Article &article, const QString &imageBaseUrl) const
{
    QJsonArray tags;
    for (const QString &label : article.tags) {
        tags.append(QJsonObject { { QStringLiteral("id"), m_tagIds.value(label) },
                                  { QStringLiteral("label"), label },
                                  { QStringLiteral("slug"), slugFor(label) } });
    }
    const QString self = QStringLiteral("/api/entries/") + QString::number(article.id);
    const QByteArray hash = hashedUrl(article.url);
    return QJsonObject {
        { QStringLiteral("id"), article.id },
        { QStringLiteral("title"), article.title },
        { QStringLiteral("url"), article.url },
        { QStringLiteral("given_url"), article.url },
        { QStringLiteral("hashed_url"), QString::fromLatin1(hash) },
        { QStringLiteral("origin_url"), QJsonValue::Null },
        { QStringLiteral("domain_name"), article.domainName },
        { QStringLiteral("reading_time"), article.readingTime },
        { QStringLiteral("content"), article.content },
        { QStringLiteral("mimetype"), QStringLiteral("text/html") },
        { QStringLiteral("language"), article.language },
        { QStringLiteral("http_status"), QStringLiteral("200") },
        { QStringLiteral("tags"), tags },
        { QStringLiteral("annotations"), QJsonArray() },
        { QStringLiteral("is_starred"), article.starred ? 1 : 0 },
        { QStringLiteral("is_archived"), article.archived ? 1 : 0 },
        { QStringLiteral("is_public"), false },
        { QStringLiteral("created_at"), wallabagDate(article.createdAt) },
        { QStringLiteral("updated_at"), wallabagDate(article.updatedAt) },
        { QStringLiteral("starred_at"), wallabagDate(article.starredAt) },
        { QStringLiteral("archived_at"), wallabagDate(article.archivedAt) },
        { QStringLiteral("published_at"), QJsonValue::Null },
        { QStringLiteral("published_by"), QJsonValue::Null },
        { QStringLiteral("preview_picture"),
          article.previewImage.isEmpty()
              ? QJsonValue(QJsonValue::Null)
              : QJsonValue(imageBaseUrl + QStringLiteral("/images/") + article.previewImage) },
        { QStringLiteral("user_id"), 1 },
        { QStringLiteral("user_name"), QStringLiteral("demo") },
        { QStringLiteral("user_email"), QStringLiteral("demo@example.org") },
        { QStringLiteral("_links"),
          QJsonObject {
              { QStringLiteral("self"), QJsonObject { { QStringLiteral("href"), self } } } } },
    };
}

int ArticleStore::readingTimeFor(const QString &html)
{
    // wallabag counts words at 200 a minute, rounded down, and never says 0.
    static const QRegularExpression markup(QStringLiteral("<[^>]*>"));
    static const QRegularExpression space(QStringLiteral("\\s+"));
    QString text = html;
    text.replace(markup, QStringLiteral(" "));
    const qsizetype words = text.split(space, Qt::SkipEmptyParts).size();
    return std::max(1, int(words / 200));
}

void ArticleStore::registerTags(const QStringList &tags)
{
    for (const QString &tag : tags) {
        if (!m_tagIds.contains(tag))
            m_tagIds.insert(tag, int(m_tagIds.size()) + 1);
    }
}

} // namespace KeepTrying::Demo
