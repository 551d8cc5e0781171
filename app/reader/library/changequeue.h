// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_CHANGEQUEUE_H
#define KEEPTRYING_READER_CHANGEQUEUE_H

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

/*
    One change the user made to their library, to be sent to the server.
*/
struct Change
{
    enum class Kind { Star, Archive, SetTags, Delete, Add };
    Kind kind = Kind::Star;
    qint64 articleId = 0; // the server's id (or, for Add, the local stand-in's)
    bool flag = false; // Star, Archive: the value wanted
    QStringList tags; // SetTags: the whole list wanted
    QHash<QString, int> serverTagIds; // SetTags: the tags the server has, with their ids
    QUrl url; // Add

    /*! Two changes of the same kind to the same article: the later replaces the earlier. */
    bool replaces(const Change &other) const
    {
        return kind == other.kind && articleId == other.articleId && kind != Kind::Add;
    }
};

/*
    Where the sync engine sends the user's changes: the seam between the reader and the way
    writes reach the server. Today's implementation (DirectChangeQueue) keeps them in memory
    and sends them through the WallabagClient; the library's durable Outbox will take its
    place without the engine changing.

    A queue coalesces: a change that replaces one still waiting (two star toggles of one
    article) leaves one change, with the last value. It reports each change's end once:
    confirmed() with the server's answer, or refused() with the reason in words for what
    trying again cannot fix. Changes that meet a connectivity fault or a server error keep
    waiting and are never reported as refused.
*/
class ChangeQueue : public QObject
{
    Q_OBJECT
    Q_PROPERTY(int waitingCount READ waitingCount NOTIFY waitingCountChanged)

public:
    using QObject::QObject;

    /*! Adds \a change, coalescing it with a waiting one it replaces. */
    virtual void enqueue(const Change &change) = 0;
    /*! Changes not confirmed or refused yet (the one being sent included). */
    virtual int waitingCount() const = 0;
    /*! True when the queue keeps its changes across a restart (the Outbox); false when the
        engine must enqueue the store's pending changes again at start. */
    virtual bool isDurable() const = 0;
    /*! Forgets the waiting changes of \a articleId that are not on their way yet (the user
        undid them). */
    virtual void discard(qint64 articleId) = 0;

Q_SIGNALS:
    void waitingCountChanged(int count);
    /*! The server applied \a change; \a entry is its answer (the entry, or empty). */
    void confirmed(const Change &change, const QJsonObject &entry);
    /*! The server refused \a change; \a reason says why in words. */
    void refused(const Change &change, const QString &reason);
};

#endif // KEEPTRYING_READER_CHANGEQUEUE_H
