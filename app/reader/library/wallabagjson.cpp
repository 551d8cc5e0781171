// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "wallabagjson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonParseError>

namespace WallabagJson {

std::optional<QJsonObject> object(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

Token token(const QByteArray &body)
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    return Token { object.value(QLatin1String("access_token")).toString().toLatin1(),
                   object.value(QLatin1String("refresh_token")).toString().toLatin1() };
}

EntriesPage entriesPage(const QJsonObject &page, const QUrl &server)
{
    EntriesPage result;
    const QJsonArray items =
        page.value(QLatin1String("_embedded")).toObject().value(QLatin1String("items")).toArray();
    result.articles.reserve(items.size());
    for (const QJsonValue &item : items)
        result.articles << Article::fromJson(item.toObject(), server);
    result.next = page.value(QLatin1String("_links"))
                      .toObject()
                      .value(QLatin1String("next"))
                      .toObject()
                      .value(QLatin1String("href"))
                      .toString();
    const QJsonValue total = page.value(QLatin1String("total"));
    if (total.isDouble() && total.toDouble() >= 0 && total.toDouble() < 1e9)
        result.total = total.toInt();
    return result;
}

QString tagLabel(const QString &label)
{
    return label.trimmed().toLower();
}

QHash<QString, int> tagIdsByLabel(const QHash<QString, int> &ids)
{
    QHash<QString, int> result;
    for (auto it = ids.cbegin(); it != ids.cend(); ++it)
        result.insert(tagLabel(it.key()), it.value());
    return result;
}

} // namespace WallabagJson
