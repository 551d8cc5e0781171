// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SYNCENGINE_H
#define KEEPTRYING_READER_SYNCENGINE_H

#include "article.h"
#include "changequeue.h"
#include "localstore.h"

#include <QtCore/QDateTime>
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtCore/QTimer>

class WallabagClient;

/*
    Keeps the local store in step with the server, both ways.

    Server to store: refresh() asks for what changed since the last refresh (wallabag's
    \c since, in seconds since the epoch, strict: asked one second early and deduplicated,
    oldest first, with \c detail=metadata so that the list sends the content as null),
    page after page while \c _links.next says there is one (its page number only: the link
    names the host PHP saw, which behind a proxy is not the server signed in to); the first
    refresh from a server (or after the sweep interval) lists every entry and removes from
    the store those the server no longer has (the sweep). Pages are cut by LIMIT/OFFSET with
    no tie-breaker, so a list that changed while it was walked (fewer entries than its
    total, or a 404 for a page past its end) is walked again; if it still does not add up,
    the cursor stays and nothing is swept, and the next refresh tries again. Pages are kept aside
   until the last one has arrived and are then written in one transaction: a refresh that is
   interrupted leaves the old list as it was. Afterwards the texts of the unread articles are
   fetched for offline reading: many of them as the unread list with its contents, a page at a
   time (\c detail=full), the few the pages missed (or a handful) one entry at a time. Only a
   JSON string is text; an empty one never replaces a kept copy.

    User to server: an action changes the store at once (the screen shows it) and goes to
    the ChangeQueue; its confirmation or refusal updates the article's sync state.
*/
class SyncEngine : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool refreshing READ isRefreshing NOTIFY refreshingChanged)
    Q_PROPERTY(QDateTime lastRefreshed READ lastRefreshed NOTIFY refreshed)

public:
    SyncEngine(WallabagClient *client, LocalStore *store, ChangeQueue *queue,
               QObject *parent = nullptr);
    ~SyncEngine() override;

    LocalStore *store() const { return m_store; }
    ChangeQueue *queue() const { return m_queue; }

    /*! Enqueues the store's pending changes the queue does not hold (now, or once it opens),
        then refreshes. */
    void start();
    /*! start() without the refresh: the store's pending changes counted, nothing asked of
        the server (no password to sign in with yet). */
    void holdPending();
    /*! Stops what runs (a refresh, content being fetched, prefetching) without reporting
        it: for a switch to another account, after which start() begins afresh (the cursor
        and the time of the last full list are kept per account in the store). The changes
        given to the queue are the queue's. */
    void stop();
    /*! Fetches what changed on the server; does nothing while a refresh runs. */
    void refresh();
    bool isRefreshing() const { return m_refreshing; }
    /*! When the store last got a complete list from the server (local time); invalid when
        it never did. */
    QDateTime lastRefreshed() const;
    /*! Entries per page asked for (1..500, default 100). */
    void setPageSize(int entries);
    /*! How often the full list is asked for to find deleted entries, in ms (default 30 min).
        The time of the last one is kept in the store per account, so a restart within the
        interval asks only for what changed. */
    void setSweepInterval(qint64 ms);
    /*! Whether contents are fetched after a refresh for offline reading (default true). */
    void setPrefetchContent(bool prefetch);
    /*! Entries per page when texts are fetched as pages (1..500, default 50). */
    void setTextPageSize(int entries);

    /*! The content of \a id for the reading pane: from the store, else fetched (the user is
        waiting: the banner watches it). Fetching another article stops this one. */
    void fetchContent(qint64 id);

    // The user's actions: applied to the store at once, then sent.
    void setStarred(qint64 id, bool starred);
    void setArchived(qint64 id, bool archived);
    void setTags(qint64 id, const QStringList &tags);
    void remove(qint64 id);
    /*! Undoes remove(\a id) while the delete has not been sent: it is taken out of the
        queue and the article shows again, its other waiting changes sent as before. False,
        changing nothing, when the delete is on its way or reached the server already. */
    bool undoRemove(qint64 id);
    /*! Saves \a url; returns the local id of the article shown until the server saves it. */
    qint64 addUrl(const QUrl &url);
    /*! Undo a refused change: the article shows the server's version again. */
    void undo(qint64 id);
    /*! Discard a refused change: what is shown stays, nothing more is sent. */
    void discard(qint64 id);

Q_SIGNALS:
    void refreshingChanged(bool refreshing);
    /*! A refresh ended with the server's list in the store; \a changed entries came. */
    void refreshed(int changed);
    /*! A refresh ended for a reason trying again cannot fix, said in words. The store
        keeps what it had. */
    void refreshFailed(const QString &message);
    /*! The content of \a id could not be fetched, for a reason trying again cannot fix. */
    void contentFailed(qint64 id, const QString &message);

private:
    enum class Phase { Idle, Changes, Sweep };
    void startPass(Phase phase, const QList<QPair<QString, QString>> &filters);
    void restartPass();
    void fetchPage(int page);
    int nextPageFrom(const QString &next) const;
    void pageArrived(const QJsonObject &page);
    void passEnded();
    void finishPhase();
    void storeContent(qint64 id, const QJsonObject &entry);
    void setRefreshing(bool refreshing);
    void startPrefetch();
    void fetchTextPage(int page);
    void textPagesEnded();
    void noTextFor(qint64 id);
    void prefetchNext();
    void enqueue(const Change &change);
    void enqueueUnheldPending();
    void showWaiting();
    void changeConfirmed(const Change &change, const QJsonObject &entry);
    void changeRefused(const Change &change, const QString &reason);
    void refreshSoon();
    void resolveTagRemovals();
    QString key(const QString &what) const;
    qint64 lastSweepMs() const;
    void setLastSweepMs(qint64 ms);
    bool sweepDue(qint64 now) const;

    WallabagClient *m_client;
    LocalStore *m_store;
    ChangeQueue *m_queue;
    Phase m_phase = Phase::Idle;
    QList<Article> m_incoming; // pages of this refresh, written when the last one is here
    QHash<qint64, qsizetype> m_incomingIndex; // where each id is in m_incoming
    // One walk through the pages of a list (a pass): its filters, the page asked for, the
    // last page's total, the distinct entries it saw, whether a page past the end cut it,
    // how often it was walked again, whether it is known complete, the cursor before it.
    QList<QPair<QString, QString>> m_passFilters;
    int m_page = 1;
    int m_passTotal = -1;
    QSet<qint64> m_passSeen;
    bool m_passCut = false;
    int m_passRepeats = 0;
    bool m_passComplete = true;
    qint64 m_passCursor = 0;
    static constexpr int MaxPassRepeats = 2;
    static constexpr qint64 SinceOverlapSeconds = 1;
    QSet<qint64> m_merged; // the entries this refresh brought, in any phase
    // Tags the user removed before the server's id of the tag was known here (wallabag
    // removes a tag from an entry by the tag's id): the tag may be on the server already,
    // put there by an earlier edit whose answer had no ids. The article's tags stay
    // pending until a refresh tells whether the server has it, and its removal is sent
    // then. m_tagsSettled: those of them with no tag edit queued when this refresh started,
    // whose tags this refresh lists as the server's final word.
    QHash<qint64, QSet<QString>> m_tagsToRemove;
    QSet<qint64> m_tagsSettled;
    bool m_swept = false; // this refresh listed every entry
    bool m_refreshAgain = false;
    qint64 m_newCursor = 0;
    quint64 m_listCall = 0;
    quint64 m_contentCall = 0;
    qint64 m_contentFor = 0;
    bool m_contentForUser = false;
    quint64 m_prefetchCall = 0;
    QList<qint64> m_prefetch; // texts to fetch, in order; one by one unless in pages
    // Texts fetched as pages of the unread list: those not seen yet, and the page filters.
    QSet<qint64> m_textsWanted;
    // Texts the server did not give (null, 403, 404), with the article's updated_at then:
    // not asked for again in the background until the article changes.
    QHash<qint64, QDateTime> m_textsNotThere;
    QList<QPair<QString, QString>> m_textFilters;
    bool m_prefetchAgain = false; // a refresh ended during a fetch: look again after it
    int m_textPageSize = 50;
    // Fewer texts than this are fetched one by one: a page walk would bring more.
    static constexpr int MinTextsForPages = 4;
    int m_pageSize = 100;
    qint64 m_sweepIntervalMs = 30 * 60 * 1000;
    int m_changed = 0;
    bool m_refreshing = false;
    bool m_prefetchContent = true;
};

#endif // KEEPTRYING_READER_SYNCENGINE_H
