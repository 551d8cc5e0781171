// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "article.h"

#include <QtCore/QJsonArray>

Article Article::fromJson(const QJsonObject &entry, const QUrl &server)
{
    Article article;
    article.id = entry.value(QLatin1String("id")).toInt();
    article.title = entry.value(QLatin1String("title")).toString();
    article.url = QUrl(entry.value(QLatin1String("url")).toString());
    article.domain = entry.value(QLatin1String("domain_name")).toString();
    if (article.domain.isEmpty())
        article.domain = article.url.host();
    article.readingTimeMinutes = entry.value(QLatin1String("reading_time")).toInt();
    const QString preview = entry.value(QLatin1String("preview_picture")).toString();
    if (!preview.isEmpty())
        article.previewPicture = server.resolved(QUrl(preview));
    article.content = entry.value(QLatin1String("content")).toString();
    const QJsonArray tags = entry.value(QLatin1String("tags")).toArray();
    for (const QJsonValue &tag : tags) {
        const QString label = tag.toObject().value(QLatin1String("label")).toString();
        if (!label.isEmpty())
            article.tags << label;
    }
    // wallabag sends 0/1 in some versions and booleans in others.
    const auto flag = [&entry](const char *key) {
        const QJsonValue v = entry.value(QLatin1String(key));
        return v.isBool() ? v.toBool() : v.toInt() != 0;
    };
    article.starred = flag("is_starred");
    article.archived = flag("is_archived");
    article.createdAt =
        QDateTime::fromString(entry.value(QLatin1String("created_at")).toString(), Qt::ISODate);
    return article;
}
