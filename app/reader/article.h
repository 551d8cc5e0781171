// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ARTICLE_H
#define KEEPTRYING_READER_ARTICLE_H

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

// One saved article, as a wallabag v2 entry describes it.
struct Article
{
    int id = 0;
    QString title;
    QUrl url; // the original page
    QString domain;
    int readingTimeMinutes = 0;
    QUrl previewPicture; // absolute, resolved against the server
    QString content; // HTML; may be empty in a list response
    QStringList tags;
    bool starred = false;
    bool archived = false;
    QDateTime createdAt;

    // Reads a wallabag entry object; relative image URLs are resolved against \a server.
    static Article fromJson(const QJsonObject &entry, const QUrl &server);
};

Q_DECLARE_METATYPE(Article)

#endif // KEEPTRYING_READER_ARTICLE_H
