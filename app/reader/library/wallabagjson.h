// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_WALLABAGJSON_H
#define KEEPTRYING_READER_WALLABAGJSON_H

#include "article.h"

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <optional>

/*
    How the reader reads what a wallabag server answers: the bodies WallabagClient gets and
    the entries pages SyncEngine walks, as pure functions of the bytes (QJsonDocument does
    the parsing), so that they can be tested and fuzzed without a network. Whatever the
    bytes, they give a value or nothing, never a crash.
*/
namespace WallabagJson {

// A 2xx body as a JSON object; nothing when it is not valid JSON or not an object.
std::optional<QJsonObject> object(const QByteArray &body);

// The tokens of an OAuth 2.0 token response (RFC 6749 §5.1); empty when absent.
struct Token
{
    QByteArray accessToken;
    QByteArray refreshToken;
};
Token token(const QByteArray &body);

// One page of GET /api/entries.json: its entries (Article::fromJson(), images resolved
// against \a server), _links.next.href as given (empty on the last page) and its total.
struct EntriesPage
{
    QList<Article> articles;
    QString next;
    int total = -1; // the list's "total", -1 when absent
};
EntriesPage entriesPage(const QJsonObject &page, const QUrl &server);

// A tag label as wallabag stores it (TagsAssigner, Tag::setLabel): trimmed, lower-cased.
// wallabag compares labels exactly, so the reader compares what it would store.
QString tagLabel(const QString &label);
// \a ids (label -> the server's tag id) keyed by tagLabel(): ids read from an older server
// or store that kept capitals are found all the same.
QHash<QString, int> tagIdsByLabel(const QHash<QString, int> &ids);

} // namespace WallabagJson

#endif // KEEPTRYING_READER_WALLABAGJSON_H
