// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The reader's reading of wallabag answers (WallabagJson, Article::fromJson()) on any body
// a server may send: as a token response, as an entries page and as an entry. No crash, and
// nothing made up: an entry's tags are labels it gave.

#include "library/article.h"
#include "library/wallabagjson.h"

#include <QtCore/QByteArray>
#include <QtCore/QUrl>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    static const QUrl server(QStringLiteral("https://wallabag.example/wallabag/"));

    // POST /oauth/v2/token
    const WallabagJson::Token token = WallabagJson::token(body);
    Q_UNUSED(token);

    const std::optional<QJsonObject> object = WallabagJson::object(body);
    if (!object)
        return 0;
    // GET /api/entries.json
    const WallabagJson::EntriesPage page = WallabagJson::entriesPage(*object, server);
    if (!page.next.isEmpty())
        (void)server.resolved(QUrl(page.next)); // what SyncEngine fetches next
    // GET /api/entries/{id}.json
    const Article article = Article::fromJson(*object, server);
    for (const QString &tag : article.tags) {
        if (tag.isEmpty() || !article.tagIds.contains(tag))
            std::abort();
    }
    if (article.updatedAt.isValid())
        article.updatedAt.toSecsSinceEpoch(); // SyncEngine's cursor
    return 0;
}
