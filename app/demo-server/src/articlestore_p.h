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
    int userId = 1; //!< whose entry it is: 1 the demo user, 2 the other one
    QString title;
    QString url;
    QString domainName; //!< null: wallabag found none (sent as null)
    QString language;
    QString content; //!< HTML
    QString previewImage; //!< file name under /images/, empty: none
    int readingTime = 0; //!< minutes, wallabag's floor(words / 200): 0 for short texts
    QString uid; //!< set when the entry is public, else null
    QString previewPicture; //!< a URL a client gave (POST/PATCH preview_picture), else empty
    QString originUrl; //!< null unless a client gave one
    QDateTime publishedAt; //!< invalid unless a client gave one
    QStringList publishedBy; //!< the authors a client gave (a comma string), else empty
    QStringList tags; //!< labels, lower-case as wallabag stores them
    bool starred = false;
    bool archived = false;
    QDateTime createdAt; //!< whole seconds, as in wallabag's datetime columns
    QDateTime updatedAt; //!< whole seconds
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
    /*! The ORDER BY of wallabag's EntryRepository::findEntries: created is by id; updated
        and archived by their date with no tie-breaker; None sorts nothing. */
    enum class Sort { Created, Updated, Archived, None };
    struct Filter
    {
        int userId = 1; //!< only this user's entries, as every wallabag list
        std::optional<bool> archived;
        std::optional<bool> starred;
        std::optional<bool> isPublic;
        std::optional<bool> withAnnotations;
        std::optional<QString> domainName; //!< exact match
        QStringList tags; //!< an article must carry all of them (labels compared exactly)
        qint64 since = 0; //!< updated strictly after these Unix seconds; 0: no limit
        Sort sort = Sort::Created;
        bool ascending = false;
    };

    /*! Replaces the content with the articles in \a json (the sample library's format). */
    bool loadJson(const QByteArray &json, QString *errorMessage);
    /*! Grows or shrinks the demo user's library to \a count articles (at least 1): copies of
        the sample ones with their own ids, URLs and dates, created one minute apart. The
        other user's entries stay. */
    void resize(int count);
    /*! The offset from UTC the dates are written in, as a PHP server writes them in its own
        time zone (default +02:00). */
    void setUtcOffset(int seconds) { m_utcOffset = seconds; }
    int utcOffset() const { return m_utcOffset; }
    /*! Sets the updated_at of \a id as wallabag's Doctrine listener would (test hook).
        Returns false when there is no such article. */
    bool setUpdatedAt(int id, const QDateTime &when);

    /*! The entries of user \a userId. */
    int count(int userId = 1) const;
    QList<Article> select(const Filter &filter) const;
    std::optional<Article> article(int id) const;
    /*! The entry of user \a userId saved for \a url, compared as wallabag does: by
        hashedUrl() only. */
    std::optional<Article> articleByUrl(const QString &url, int userId) const;
    std::optional<Article> articleByHashedUrl(const QByteArray &sha1Hex, int userId) const;
    /*! The label of the tag with \a tagId (tags are global, as wallabag's rows). */
    std::optional<QString> tagLabel(int tagId) const;

    /*! Stores \a article (matched by id), registering new tags; sets updatedAt. */
    void update(Article article);
    /*! Adds an article of user \a userId with the next id and returns it. */
    Article create(const QString &url, const QString &title, const QString &content,
                   const QStringList &tags, int userId = 1);
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
    int m_utcOffset = 2 * 3600;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_ARTICLESTORE_P_H
