// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "article.h"

#include <QtCore/QJsonArray>

namespace {

QDateTime parseDate(const QJsonValue &value)
{
    // wallabag writes ISO 8601 with an offset ("2024-01-05T09:12:00+0000").
    const QString text = value.toString();
    if (text.isEmpty())
        return {};
    QDateTime date = QDateTime::fromString(text, Qt::ISODate);
    if (!date.isValid())
        date = QDateTime::fromString(text, QStringLiteral("yyyy-MM-ddTHH:mm:sst"));
    return date;
}

} // namespace

Article Article::fromJson(const QJsonObject &entry, const QUrl &server)
{
    Article article;
    article.id = entry.value(QLatin1String("id")).toInteger();
    article.title = entry.value(QLatin1String("title")).toString();
    article.url = QUrl(entry.value(QLatin1String("url")).toString());
    article.domain = entry.value(QLatin1String("domain_name")).toString();
    if (article.domain.isEmpty())
        article.domain = article.url.host();
    article.readingTimeMinutes = entry.value(QLatin1String("reading_time")).toInt();
    const QString preview = entry.value(QLatin1String("preview_picture")).toString();
    if (!preview.isEmpty())
        article.previewPicture = server.resolved(QUrl(preview));
    article.hasContent = entry.contains(QLatin1String("content"));
    article.content = entry.value(QLatin1String("content")).toString();
    const QJsonArray tags = entry.value(QLatin1String("tags")).toArray();
    for (const QJsonValue &tag : tags) {
        const QJsonObject object = tag.toObject();
        const QString label = object.value(QLatin1String("label")).toString();
        if (label.isEmpty())
            continue;
        article.tags << label;
        article.tagIds.insert(label, object.value(QLatin1String("id")).toInt());
    }
    // wallabag sends 0/1 in some versions and booleans in others.
    const auto flag = [&entry](const char *key) {
        const QJsonValue v = entry.value(QLatin1String(key));
        return v.isBool() ? v.toBool() : v.toInt() != 0;
    };
    article.starred = flag("is_starred");
    article.archived = flag("is_archived");
    article.createdAt = parseDate(entry.value(QLatin1String("created_at")));
    article.updatedAt = parseDate(entry.value(QLatin1String("updated_at")));
    return article;
}
