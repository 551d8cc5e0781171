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
    writes reach the server. The reader's implementation is OutboxChangeQueue, over the
    library's durable Outbox; tests may put another one in its place.

    A queue coalesces: a change that replaces one still waiting (two star toggles of one
    article) leaves one change, with the last value. It reports each change's end once:
    confirmed() with the server's answer (emitted only once no later change of the same
    kind to that article waits, so the field is no longer pending), or refused() with the reason in
   words for what trying again cannot fix. Changes that meet a connectivity fault or a server error
   keep waiting and are never reported as refused.
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
    /*! True when the queue holds a change of \a kind to \a articleId, waiting or refused:
        the engine then does not enqueue the store's pending field again at start. */
    virtual bool holds(qint64 articleId, Change::Kind kind) const = 0;
    /*! The changes waiting (not refused), oldest first. */
    virtual QList<Change> waiting() const { return {}; }
    /*! False while the queue cannot tell yet what it holds (before opened()). */
    virtual bool isOpen() const { return true; }
    /*! Forgets the refused changes of \a articleId (the user undid or discarded them). */
    virtual void discard(qint64 articleId) = 0;
    /*! Takes the waiting changes of \a kind to \a articleId back before they are sent (the
        user undid a delete). False, taking nothing, when one of them is on its way or none
        waits (it reached the server already). */
    virtual bool withdraw(qint64 articleId, Change::Kind kind)
    {
        Q_UNUSED(articleId)
        Q_UNUSED(kind)
        return false;
    }

Q_SIGNALS:
    void waitingCountChanged(int count);
    /*! The queue can now tell what it holds (holds()); the engine enqueues the store's
        pending fields it does not hold. */
    void opened();
    /*! The server applied \a change; \a entry is its answer (the entry, or empty). */
    void confirmed(const Change &change, const QJsonObject &entry);
    /*! The server refused \a change; \a reason says why in words. */
    void refused(const Change &change, const QString &reason);
};

#endif // KEEPTRYING_READER_CHANGEQUEUE_H
