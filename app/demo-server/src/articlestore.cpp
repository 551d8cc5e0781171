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

// wallabag (JMS, app/config/config.yml) writes dates as 2016-09-08T11:55:58+0200: the PHP
// server's own offset, no colon, no fraction.
QJsonValue wallabagDate(const QDateTime &dateTime, int utcOffset)
{
    if (!dateTime.isValid())
        return QJsonValue::Null;
    const int minutes = std::abs(utcOffset) / 60;
    return QString(
        dateTime.toOffsetFromUtc(utcOffset).toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss")) +
        QLatin1Char(utcOffset < 0 ? '-' : '+') +
        QStringLiteral("%1%2")
            .arg(minutes / 60, 2, 10, QLatin1Char('0'))
            .arg(minutes % 60, 2, 10, QLatin1Char('0')));
}

// A datetime column keeps whole seconds.
QDateTime toSeconds(const QDateTime &dateTime)
{
    return dateTime.isValid() ? QDateTime::fromSecsSinceEpoch(dateTime.toSecsSinceEpoch(), Qt::UTC)
                              : QDateTime();
}

QString newUid()
{
    // PHP's uniqid('', true): 14 hex digits, a dot and 8 digits.
    static int counter = 0;
    ++counter;
    return QStringLiteral("%1.%2")
        .arg(QDateTime::currentMSecsSinceEpoch() * 1000 + counter % 1000, 14, 16, QLatin1Char('0'))
        .arg(10000000 + counter % 90000000);
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
    return QStringLiteral("t:") + slug; // wallabag 2.6 prefixes tag slugs
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
        article.domainName = object.value(QLatin1String("domain_name")).toString(); // null: none
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
        if (object.value(QLatin1String("is_public")).toBool())
            article.uid = newUid();
        article.createdAt = toSeconds(QDateTime::fromString(
            object.value(QLatin1String("created_at")).toString(), Qt::ISODate));
        article.updatedAt = toSeconds(QDateTime::fromString(
            object.value(QLatin1String("updated_at")).toString(), Qt::ISODate));
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
        if (article.userId != filter.userId)
            continue;
        if (filter.archived && article.archived != *filter.archived)
            continue;
        if (filter.starred && article.starred != *filter.starred)
            continue;
        if (filter.isPublic && article.uid.isNull() == *filter.isPublic)
            continue;
        if (filter.withAnnotations && *filter.withAnnotations)
            continue; // the demo's entries carry no annotations
        if (filter.domainName && article.domainName != *filter.domainName)
            continue;
        // wallabag: e.updatedAt > since, both in whole seconds.
        if (filter.since > 0 && article.updatedAt.toSecsSinceEpoch() <= filter.since)
            continue;
        const bool hasAllTags =
            std::all_of(filter.tags.cbegin(), filter.tags.cend(),
                        [&](const QString &tag) { return article.tags.contains(tag); });
        if (hasAllTags)
            result.append(article);
    }
    // As a database answers ORDER BY one column: equal keys come in storage order, with no
    // tie-breaker, so LIMIT/OFFSET pages of equal dates are only as stable as that order.
    const auto key = [&](const Article &a) -> qint64 {
        switch (filter.sort) {
        case Sort::Created:
            return a.id;
        case Sort::Updated:
            return a.updatedAt.toSecsSinceEpoch();
        case Sort::Archived:
            return a.archivedAt.isValid() ? a.archivedAt.toSecsSinceEpoch() : 0;
        case Sort::None:
            break;
        }
        return 0;
    };
    if (filter.sort != Sort::None) {
        std::stable_sort(result.begin(), result.end(), [&](const Article &a, const Article &b) {
            return filter.ascending ? key(a) < key(b) : key(a) > key(b);
        });
    }
    return result;
}

void ArticleStore::resize(int count)
{
    count = std::max(1, count);
    QList<Article> samples;
    QList<Article> others;
    for (const Article &article : std::as_const(m_articles))
        (article.userId == 1 ? samples : others).append(article);
    if (samples.isEmpty())
        return;
    if (count <= samples.size()) {
        samples.resize(count);
        m_articles = samples + others;
        m_nextId = 1;
        for (const Article &article : std::as_const(m_articles))
            m_nextId = std::max(m_nextId, article.id + 1);
        return;
    }
    QList<Article> grown = samples;
    QDateTime created = samples.constLast().createdAt;
    while (grown.size() < count) {
        Article article = samples.at(grown.size() % samples.size());
        article.id = m_nextId++;
        article.url += QStringLiteral("?copy=") + QString::number(article.id);
        created = created.addSecs(60);
        article.createdAt = created;
        article.updatedAt = created;
        article.starredAt = article.starred ? created : QDateTime();
        article.archivedAt = article.archived ? created : QDateTime();
        if (!article.uid.isNull())
            article.uid = newUid();
        grown.append(article);
    }
    m_articles = others + grown;
}

int ArticleStore::count(int userId) const
{
    return int(std::count_if(m_articles.cbegin(), m_articles.cend(),
                             [userId](const Article &a) { return a.userId == userId; }));
}

bool ArticleStore::setUpdatedAt(int id, const QDateTime &when)
{
    for (Article &stored : m_articles) {
        if (stored.id == id) {
            stored.updatedAt = toSeconds(when);
            return true;
        }
    }
    return false;
}

std::optional<Article> ArticleStore::article(int id) const
{
    for (const Article &article : m_articles) {
        if (article.id == id)
            return article;
    }
    return std::nullopt;
}

std::optional<Article> ArticleStore::articleByUrl(const QString &url, int userId) const
{
    return articleByHashedUrl(hashedUrl(url), userId);
}

std::optional<Article> ArticleStore::articleByHashedUrl(const QByteArray &sha1Hex, int userId) const
{
    // wallabag's findByUrlAndUserId: per user.
    for (const Article &article : m_articles) {
        if (article.userId == userId && hashedUrl(article.url) == sha1Hex)
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
        article.updatedAt = toSeconds(QDateTime::currentDateTimeUtc());
        registerTags(article.tags);
        stored = article;
        return;
    }
}

Article ArticleStore::create(const QString &url, const QString &title, const QString &content,
                             const QStringList &tags, int userId)
{
    Article article;
    article.id = m_nextId++;
    article.userId = userId;
    article.url = url;
    article.domainName = QUrl(url).host();
    article.title = title.isEmpty() ? article.domainName : title;
    article.content = content.isEmpty()
        ? QStringLiteral("<p>Saved from ") + url.toHtmlEscaped() + QStringLiteral("</p>")
        : content;
    article.language = QStringLiteral("en");
    article.readingTime = readingTimeFor(article.content);
    article.tags = tags;
    article.createdAt = toSeconds(QDateTime::currentDateTimeUtc());
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
    // UrlHasher: sha1 of the URL, after urldecode() when it came through the API.
    const QString hash = QString::fromLatin1(hashedUrl(article.url));
    const auto nullable = [](const QString &text) {
        return text.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
    };
    // Every field of wallabag's Entry as JMS writes it with setSerializeNull(true): a field
    // without a value is there, null.
    return QJsonObject {
        { QStringLiteral("is_archived"), article.archived ? 1 : 0 },
        { QStringLiteral("is_starred"), article.starred ? 1 : 0 },
        { QStringLiteral("user_name"),
          article.userId == 1 ? QStringLiteral("demo") : QStringLiteral("other") },
        { QStringLiteral("user_email"),
          article.userId == 1 ? QStringLiteral("demo@example.org")
                              : QStringLiteral("other@example.org") },
        { QStringLiteral("user_id"), article.userId },
        { QStringLiteral("tags"), tags },
        { QStringLiteral("is_public"), !article.uid.isNull() },
        { QStringLiteral("id"), article.id },
        { QStringLiteral("uid"), nullable(article.uid) },
        { QStringLiteral("title"), article.title },
        { QStringLiteral("url"), article.url },
        { QStringLiteral("hashed_url"), hash },
        { QStringLiteral("origin_url"), nullable(article.originUrl) },
        { QStringLiteral("given_url"), article.url },
        { QStringLiteral("hashed_given_url"), hash },
        { QStringLiteral("archived_at"), wallabagDate(article.archivedAt, m_utcOffset) },
        { QStringLiteral("content"), article.content },
        { QStringLiteral("created_at"), wallabagDate(article.createdAt, m_utcOffset) },
        { QStringLiteral("updated_at"), wallabagDate(article.updatedAt, m_utcOffset) },
        { QStringLiteral("published_at"), wallabagDate(article.publishedAt, m_utcOffset) },
        { QStringLiteral("published_by"),
          article.publishedBy.isEmpty()
              ? QJsonValue(QJsonValue::Null)
              : QJsonValue(QJsonArray::fromStringList(article.publishedBy)) },
        { QStringLiteral("starred_at"), wallabagDate(article.starredAt, m_utcOffset) },
        { QStringLiteral("annotations"), QJsonArray() },
        { QStringLiteral("mimetype"), QStringLiteral("text/html") },
        { QStringLiteral("language"), article.language },
        { QStringLiteral("reading_time"), article.readingTime },
        { QStringLiteral("domain_name"), nullable(article.domainName) },
        { QStringLiteral("preview_picture"),
          !article.previewPicture.isEmpty() ? QJsonValue(article.previewPicture)
              : article.previewImage.isEmpty()
              ? QJsonValue(QJsonValue::Null)
              : QJsonValue(imageBaseUrl + QStringLiteral("/images/") + article.previewImage) },
        { QStringLiteral("http_status"), QStringLiteral("200") },
        { QStringLiteral("headers"), QJsonValue::Null },
        { QStringLiteral("_links"),
          QJsonObject {
              { QStringLiteral("self"), QJsonObject { { QStringLiteral("href"), self } } } } },
    };
}

int ArticleStore::readingTimeFor(const QString &html)
{
    // wallabag (Tools/Utils::getReadingTime) counts words at 200 a minute, rounded down: a
    // short text takes 0 minutes.
    static const QRegularExpression markup(QStringLiteral("<[^>]*>"));
    static const QRegularExpression space(QStringLiteral("\\s+"));
    QString text = html;
    text.replace(markup, QStringLiteral(" "));
    const qsizetype words = text.split(space, Qt::SkipEmptyParts).size();
    return int(words / 200);
}

void ArticleStore::registerTags(const QStringList &tags)
{
    for (const QString &tag : tags) {
        if (!m_tagIds.contains(tag))
            m_tagIds.insert(tag, int(m_tagIds.size()) + 1);
    }
}

} // namespace KeepTrying::Demo
