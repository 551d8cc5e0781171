// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ARTICLE_H
#define KEEPTRYING_READER_ARTICLE_H

#include <QtCore/QDateTime>
#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

/*
    Where the reader's copy of an article stands against the server's:
    Saved (the server has it as shown), Waiting (a change made here is on its way) or
    Failed (the server refused a change, for a reason trying again cannot fix).
*/
enum class SyncState { Saved = 0, Waiting = 1, Failed = 2 };

// One saved article, as a wallabag v2 entry describes it, plus what the reader knows of it.
struct Article
{
    qint64 id = 0; // the server's id; negative for an article added here and not yet saved
    QString title;
    QUrl url; // the original page
    QString domain;
    int readingTimeMinutes = 0;
    QUrl previewPicture; // absolute, resolved against the server
    QString content; // HTML; empty when not (yet) available offline
    bool hasContent = false; // content was fetched (it may still be empty)
    QStringList tags;
    QHash<QString, int> tagIds; // the server's id of each tag label, for removing one
    bool starred = false;
    bool archived = false;
    QDateTime createdAt;
    QDateTime updatedAt;
    SyncState syncState = SyncState::Saved;
    QString syncError; // why the server refused the last change (Failed)

    // Reads a wallabag entry object; relative image URLs are resolved against \a server.
    // The content counts as present only when "content" is a string: a detail=metadata
    // list sends null, which means "not listed", never "empty".
    static Article fromJson(const QJsonObject &entry, const QUrl &server);
};

Q_DECLARE_METATYPE(Article)

#endif // KEEPTRYING_READER_ARTICLE_H
