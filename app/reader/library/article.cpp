// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "article.h"

#include <QtCore/QJsonArray>
#include <QtCore/QRegularExpression>

namespace {

QDateTime parseDate(const QJsonValue &value)
{
    // wallabag writes the PHP server's own offset, without a colon and without a fraction
    // ("2016-09-08T11:55:58+0200"); accept the colon, a fraction and Z too.
    static const QRegularExpression pattern(
        QStringLiteral("^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,9}))?"
                       "(?:(Z)|([+-])(\\d{2}):?(\\d{2}))?$"));
    const QRegularExpressionMatch match = pattern.match(value.toString().trimmed());
    if (!match.hasMatch())
        return {};
    const QDate date = QDate::fromString(match.captured(1), Qt::ISODate);
    QTime time = QTime::fromString(match.captured(2), Qt::ISODate);
    if (!date.isValid() || !time.isValid())
        return {};
    if (match.capturedLength(3) > 0)
        time = time.addMSecs(match.captured(3).left(3).leftJustified(3, QLatin1Char('0')).toInt());
    int offset = 0;
    if (match.capturedLength(5) > 0) {
        offset = match.captured(6).toInt() * 3600 + match.captured(7).toInt() * 60;
        if (match.captured(5) == QLatin1String("-"))
            offset = -offset;
    }
    // No zone at all: taken as UTC rather than the reader's own zone.
    return QDateTime(date, time, Qt::OffsetFromUTC, offset).toUTC();
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
    // A detail=metadata list sends "content": null (wallabag selects the entry without it):
    // only a string is the article's text.
    const QJsonValue content = entry.value(QLatin1String("content"));
    article.hasContent = content.isString();
    article.content = content.toString();
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
