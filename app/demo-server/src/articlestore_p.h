// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_ARTICLESTORE_P_H
#define KEEPTRYING_DEMO_ARTICLESTORE_P_H

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace KeepTrying::Demo {

/*! One saved article, as wallabag calls it an entry. */
struct Article
{
    int id = 0;
    QString title;
    QString url;
    QString domainName;
    QString language;
    QString content; //!< HTML
    QString previewImage; //!< file name under /images/, empty: none
    int readingTime = 1; //!< minutes
    QStringList tags; //!< labels, lower-case as wallabag stores them
    bool starred = false;
    bool archived = false;
    QDateTime createdAt;
    QDateTime updatedAt;
    QDateTime starredAt;
    QDateTime archivedAt;
};

/*!
    The library of articles behind the demo server: loaded from the sample JSON, filtered and
    sorted for listing, changed by the write endpoints. Not thread-safe: the server guards it.
*/
class ArticleStore
{
public:
    struct Filter
    {
        std::optional<bool> archived;
        std::optional<bool> starred;
        QStringList tags; //!< an article must carry all of them
        QDateTime since; //!< updated at or after; invalid: no limit
        bool sortByUpdated = false; //!< else by creation
        bool ascending = false;
    };

    /*! Replaces the content with the articles in \a json (the sample library's format). */
    bool loadJson(const QByteArray &json, QString *errorMessage);

    int count() const { return int(m_articles.size()); }
    QList<Article> select(const Filter &filter) const;
    std::optional<Article> article(int id) const;
    /*! The entry saved for \a url, compared as wallabag does: by hashedUrl() only. */
    std::optional<Article> articleByUrl(const QString &url) const;
    std::optional<Article> articleByHashedUrl(const QByteArray &sha1Hex) const;
    /*! The label of the tag with \a tagId (tags are global, as wallabag's rows). */
    std::optional<QString> tagLabel(int tagId) const;

    /*! Stores \a article (matched by id), registering new tags; sets updatedAt. */
    void update(Article article);
    /*! Adds an article with the next id and returns it. */
    Article create(const QString &url, const QString &title, const QString &content,
                   const QStringList &tags);
    /*! Removes and returns the article, or nothing when there is none with \a id. */
    std::optional<Article> remove(int id);

    /*! The entry in wallabag's JSON shape; preview pictures are under \a imageBaseUrl. */
    QJsonObject toJson(const Article &article, const QString &imageBaseUrl) const;

    static int readingTimeFor(const QString &html);
    /*! wallabag's UrlHasher: the SHA-1 hex of the URL after PHP's urldecode(). */
    static QByteArray hashedUrl(const QString &url);
    /*! A label as wallabag stores it (TagsAssigner, Tag::setLabel): trimmed, lower-cased. */
    static QString normalisedLabel(const QString &label);

private:
    void registerTags(const QStringList &tags);

    QList<Article> m_articles;
    QMap<QString, int> m_tagIds;
    int m_nextId = 1;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_ARTICLESTORE_P_H
