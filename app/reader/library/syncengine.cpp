// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "syncengine.h"

#include "wallabagclient.h"
#include "wallabagjson.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QUrlQuery>

Q_LOGGING_CATEGORY(lcSync, "keeptrying.reader.sync", QtWarningMsg)

namespace {

Change::Kind kindOf(LocalStore::Field field)
{
    switch (field) {
    case LocalStore::Field::Starred:
        return Change::Kind::Star;
    case LocalStore::Field::Archived:
        return Change::Kind::Archive;
    case LocalStore::Field::Tags:
        return Change::Kind::SetTags;
    case LocalStore::Field::Deleted:
        return Change::Kind::Delete;
    case LocalStore::Field::Added:
        return Change::Kind::Add;
    }
    return Change::Kind::Star;
}

LocalStore::Field fieldOf(Change::Kind kind)
{
    switch (kind) {
    case Change::Kind::Star:
        return LocalStore::Field::Starred;
    case Change::Kind::Archive:
        return LocalStore::Field::Archived;
    case Change::Kind::SetTags:
        return LocalStore::Field::Tags;
    case Change::Kind::Delete:
        return LocalStore::Field::Deleted;
    case Change::Kind::Add:
        return LocalStore::Field::Added;
    }
    return LocalStore::Field::Starred;
}

} // namespace

SyncEngine::SyncEngine(WallabagClient *client, LocalStore *store, ChangeQueue *queue,
                       QObject *parent)
    : QObject(parent), m_client(client), m_store(store), m_queue(queue)
{
    connect(queue, &ChangeQueue::confirmed, this, &SyncEngine::changeConfirmed);
    connect(queue, &ChangeQueue::refused, this, &SyncEngine::changeRefused);
    connect(queue, &ChangeQueue::opened, this, &SyncEngine::enqueueUnheldPending);
}

SyncEngine::~SyncEngine()
{
    for (quint64 call : { m_listCall, m_contentCall, m_prefetchCall }) {
        if (call)
            m_client->cancel(call);
    }
}

QString SyncEngine::key(const QString &what) const
{
    // Per server and user: a cursor from another server means nothing here.
    return what + QLatin1Char(':') + m_client->username() + QLatin1Char('@') +
        m_client->server().toString(QUrl::RemoveUserInfo);
}

QDateTime SyncEngine::lastRefreshed() const
{
    const QString ms = m_store->value(QStringLiteral("refreshed-at"));
    return ms.isEmpty() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(ms.toLongLong());
}

void SyncEngine::setPageSize(int entries)
{
    m_pageSize = qBound(1, entries, 500);
}

void SyncEngine::setSweepInterval(qint64 ms)
{
    m_sweepIntervalMs = qMax<qint64>(0, ms);
}

void SyncEngine::setTextPageSize(int entries)
{
    m_textPageSize = qBound(1, entries, 500);
}

void SyncEngine::setPrefetchContent(bool prefetch)
{
    m_prefetchContent = prefetch;
}

void SyncEngine::start()
{
    holdPending();
    refresh();
}

void SyncEngine::holdPending()
{
    // Before the queue opens (offline at start: no sign-in yet) it cannot tell what its
    // outbox holds; when it holds nothing (a new outbox, as the built-in server's is every
    // run), what the store marks waiting is held now, so that it is counted at once. It is
    // sent once the queue opens, and opened() finds it held.
    if (m_queue->isOpen() || m_queue->waitingCount() == 0)
        enqueueUnheldPending();
}

void SyncEngine::stop()
{
    for (quint64 *call : { &m_listCall, &m_contentCall, &m_prefetchCall }) {
        if (*call)
            m_client->cancel(*call);
        *call = 0;
    }
    m_phase = Phase::Idle;
    m_incoming.clear();
    m_incomingIndex.clear();
    m_prefetch.clear();
    m_contentFor = 0;
    m_contentForUser = false;
    m_textsWanted.clear();
    m_textsNotThere.clear();
    m_prefetchAgain = false;
    m_changed = 0;
    setRefreshing(false);
}

qint64 SyncEngine::lastSweepMs() const
{
    return m_store->value(key(QStringLiteral("swept-at"))).toLongLong();
}

void SyncEngine::setLastSweepMs(qint64 ms)
{
    m_store->setValue(key(QStringLiteral("swept-at")), QString::number(ms));
}

bool SyncEngine::sweepDue(qint64 now) const
{
    // Kept in the store, per account: a start soon after the last full list asks only for
    // what changed. A sweep time in the future (the clock was set back) counts as due.
    const qint64 last = lastSweepMs();
    return last <= 0 || last > now || now - last >= m_sweepIntervalMs;
}

void SyncEngine::showWaiting()
{
    // What the queue still sends and the store does not mark pending: a library made afresh
    // after a sign-out that kept the changes. Shown as the person left it, not as the
    // server still has it, until the server confirms (the store marks it pending now).
    const QList<Change> waiting = m_queue->waiting();
    for (const Change &change : waiting) {
        const Article a = m_store->article(change.articleId);
        if (change.articleId <= 0 || a.id != change.articleId)
            continue;
        if (change.kind == Change::Kind::Star && a.starred != change.flag)
            m_store->setStarred(a.id, change.flag);
        else if (change.kind == Change::Kind::Archive && a.archived != change.flag)
            m_store->setArchived(a.id, change.flag);
        else if (change.kind == Change::Kind::Delete && !m_store->isMarkedDeleted(a.id))
            m_store->markDeleted(a.id);
    }
}

void SyncEngine::enqueueUnheldPending()
{
    // What the store marks waiting and the queue does not hold: changes made before the
    // queue could keep them (it opens at the first sign-in), or whose confirmation was
    // lost with a crash. Sent again with the value shown, which is what the user wants.
    const QList<LocalStore::Pending> pending = m_store->pendingChanges();
    for (const LocalStore::Pending &p : pending) {
        const Change::Kind kind = kindOf(p.field);
        if (m_queue->holds(p.id, kind))
            continue;
        const Article a = m_store->article(p.id);
        if (a.syncState == SyncState::Failed)
            continue; // refused: the user decides (Undo or Discard)
        Change change;
        change.kind = kind;
        change.articleId = p.id;
        change.flag = p.field == LocalStore::Field::Starred ? a.starred : a.archived;
        change.tags = a.tags;
        change.serverTagIds = a.tagIds;
        change.url = a.url;
        if (p.id < 0 && kind != Change::Kind::Add)
            continue;
        m_queue->enqueue(change);
    }
}

void SyncEngine::setRefreshing(bool refreshing)
{
    if (m_refreshing == refreshing)
        return;
    m_refreshing = refreshing;
    Q_EMIT refreshingChanged(refreshing);
}

void SyncEngine::refresh()
{
    if (m_refreshing)
        return;
    setRefreshing(true);
    m_refreshAgain = false;
    m_incoming.clear();
    m_incomingIndex.clear();
    m_merged.clear();
    m_swept = false;
    m_tagsSettled.clear();
    for (auto it = m_tagsToRemove.cbegin(); it != m_tagsToRemove.cend(); ++it) {
        if (!m_queue->holds(it.key(), Change::Kind::SetTags))
            m_tagsSettled.insert(it.key());
    }
    m_changed = 0;
    const QString cursor = m_store->value(key(QStringLiteral("cursor")));
    m_newCursor = cursor.toLongLong();
    if (!cursor.isEmpty()) {
        // wallabag lists updatedAt > since, in whole seconds: an entry changed later within
        // the cursor's second would be missed. Ask from a second earlier and merge the
        // repeats. Oldest first, so that entries changed while the pages are walked move
        // to the end rather than out of reach.
        startPass(Phase::Changes,
                  { { QStringLiteral("since"),
                      QString::number(qMax<qint64>(0, m_newCursor - SinceOverlapSeconds)) },
                    { QStringLiteral("sort"), QStringLiteral("updated") },
                    { QStringLiteral("order"), QStringLiteral("asc") } });
    } else {
        startPass(Phase::Sweep, {});
    }
}

void SyncEngine::startPass(Phase phase, const QList<QPair<QString, QString>> &filters)
{
    m_phase = phase;
    m_passFilters = filters;
    m_passRepeats = 0;
    m_passComplete = true;
    m_passCursor = m_newCursor;
    restartPass();
}

void SyncEngine::restartPass()
{
    m_page = 1;
    m_passTotal = -1;
    m_passSeen.clear();
    m_passCut = false;
    fetchPage(1);
}

void SyncEngine::fetchPage(int page)
{
    m_page = page;
    QList<QPair<QString, QString>> query { { QStringLiteral("detail"), QStringLiteral("metadata") },
                                           { QStringLiteral("perPage"),
                                             QString::number(m_pageSize) } };
    query << m_passFilters;
    if (page > 1)
        query << qMakePair(QStringLiteral("page"), QString::number(page));
    m_listCall = m_client->getJson(m_client->entriesUrl(query), WallabagClient::Purpose::List,
                                   WallabagClient::Waiting::User,
                                   [this, page](const WallabagClient::Result &result) {
                                       m_listCall = 0;
                                       if (!result.ok && result.status == 404 && page > 1) {
                                           // The list got shorter while it was walked (entries
                                           // deleted elsewhere): wallabag answers a page past the
                                           // end with 404.
                                           m_passCut = true;
                                           passEnded();
                                           return;
                                       }
                                       if (!result.ok) {
                                           // The pages fetched so far are dropped: the store keeps
                                           // the old list whole.
                                           m_phase = Phase::Idle;
                                           m_incoming.clear();
                                           m_incomingIndex.clear();
                                           setRefreshing(false);
                                           Q_EMIT refreshFailed(result.message);
                                           return;
                                       }
                                       pageArrived(result.json);
                                   });
}

int SyncEngine::nextPageFrom(const QString &next) const
{
    // _links.next is absolute and names the host PHP saw (behind a proxy, not the server
    // signed in to): only its page number is taken; the rest of the query is this pass's,
    // sent to the server signed in to.
    bool ok = false;
    const int page = QUrlQuery(QUrl(next)).queryItemValue(QStringLiteral("page")).toInt(&ok);
    return ok && page > m_page ? page : m_page + 1;
}

void SyncEngine::pageArrived(const QJsonObject &page)
{
    const WallabagJson::EntriesPage entries = WallabagJson::entriesPage(page, m_client->server());
    if (entries.total >= 0)
        m_passTotal = entries.total;
    for (const Article &a : entries.articles) {
        m_passSeen.insert(a.id);
        if (a.updatedAt.isValid())
            m_newCursor = qMax(m_newCursor, a.updatedAt.toSecsSinceEpoch());
        // Pages overlap (the since overlap, entries moving between pages): the latest wins.
        const auto known = m_incomingIndex.constFind(a.id);
        if (known != m_incomingIndex.constEnd()) {
            m_incoming[*known] = a;
        } else {
            m_incomingIndex.insert(a.id, m_incoming.size());
            m_incoming << a;
        }
    }
    if (!entries.next.isEmpty() && !entries.articles.isEmpty()) {
        fetchPage(nextPageFrom(entries.next));
        return;
    }
    passEnded();
}

void SyncEngine::passEnded()
{
    // LIMIT/OFFSET pages with no tie-breaker: an entry that moved (changed, or deleted
    // elsewhere) while the pages were walked shifts the others, and one of them can slip
    // past a page boundary unseen. Fewer distinct entries than the last page's total, or a
    // page past the end, says so: walk again (what came is kept), a few times at most.
    const bool complete = !m_passCut && (m_passTotal < 0 || m_passSeen.size() >= m_passTotal);
    if (!complete && m_passRepeats < MaxPassRepeats) {
        ++m_passRepeats;
        restartPass();
        return;
    }
    m_passComplete = complete;
    finishPhase();
}

void SyncEngine::finishPhase()
{
    // Every page is here: write them at once.
    m_changed += int(m_incoming.size());
    for (const Article &a : std::as_const(m_incoming))
        m_merged.insert(a.id);
    m_incomingIndex.clear();
    m_store->mergeFromServer(std::exchange(m_incoming, {}));
    showWaiting();
    if (m_phase == Phase::Sweep && m_passComplete) {
        m_swept = true;
        m_store->sweep(m_passSeen);
        setLastSweepMs(QDateTime::currentMSecsSinceEpoch());
    } else if (m_phase == Phase::Sweep) {
        // An entry may have slipped past: removing what was not seen could remove it. The
        // next refresh lists everything again.
        qCInfo(lcSync) << "the full list changed while it was read; nothing removed now";
        setLastSweepMs(0);
    }
    // A pass that may have missed an entry keeps its cursor: the next refresh asks again.
    if (!m_passComplete)
        m_newCursor = m_passCursor;
    m_store->setValue(key(QStringLiteral("cursor")), QString::number(m_newCursor));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_phase == Phase::Changes && sweepDue(now)) {
        // Deleted entries do not show in "since": list them all, metadata only.
        startPass(Phase::Sweep, {});
        return;
    }
    m_phase = Phase::Idle;
    m_store->setValue(QStringLiteral("refreshed-at"), QString::number(now));
    resolveTagRemovals();
    setRefreshing(false);
    Q_EMIT refreshed(m_changed);
    if (m_refreshAgain) // a change was confirmed while this one ran: its answer comes next
        QTimer::singleShot(0, this, &SyncEngine::refresh);
    if (m_prefetchContent)
        startPrefetch();
}

void SyncEngine::startPrefetch()
{
    if (m_prefetchCall) {
        // A walk (or a single fetch) is under way: it picks up this refresh's articles
        // when it ends.
        m_prefetchAgain = true;
        return;
    }
    m_prefetchAgain = false;
    m_prefetch.clear();
    m_textsWanted.clear();
    qint64 oldest = 0;
    bool allDated = true;
    const QList<Article> unread = m_store->articles({ LocalStore::View::Unread, {}, {} });
    for (const Article &a : unread) {
        // The server had no text for it (null), refused it (another user's entry: 403) or
        // has it no more (404): not asked for again in the background until the entry
        // changes; the user can still open it, and the sweep removes what is gone.
        if (a.hasContent || a.id <= 0 ||
            (m_textsNotThere.contains(a.id) && m_textsNotThere.value(a.id) == a.updatedAt))
            continue;
        m_prefetch << a.id;
        if (!a.updatedAt.isValid()) {
            allDated = false;
            continue;
        }
        const qint64 updated = a.updatedAt.toSecsSinceEpoch();
        oldest = oldest == 0 ? updated : qMin(oldest, updated);
    }
    if (m_prefetch.size() < MinTextsForPages) {
        prefetchNext();
        return;
    }
    // Many texts: the unread list with its contents, a page at a time (wallabag's list
    // with detail=full), is far fewer requests than an entry each. Ordered by id, which
    // has no ties, newest first; with since just before the oldest wanted one (since is
    // strict, in whole seconds), so that a few new articles do not walk the whole list.
    for (qint64 id : std::as_const(m_prefetch))
        m_textsWanted.insert(id);
    m_textFilters = { { QStringLiteral("detail"), QStringLiteral("full") },
                      { QStringLiteral("archive"), QStringLiteral("0") },
                      { QStringLiteral("sort"), QStringLiteral("created") },
                      { QStringLiteral("order"), QStringLiteral("desc") },
                      { QStringLiteral("perPage"), QString::number(m_textPageSize) } };
    if (allDated && oldest > 1)
        m_textFilters << qMakePair(QStringLiteral("since"), QString::number(oldest - 1));
    fetchTextPage(1);
}

void SyncEngine::fetchTextPage(int page)
{
    QList<QPair<QString, QString>> query = m_textFilters;
    if (page > 1)
        query << qMakePair(QStringLiteral("page"), QString::number(page));
    m_prefetchCall = m_client->getJson(
        m_client->entriesUrl(query), WallabagClient::Purpose::List,
        WallabagClient::Waiting::Background, [this, page](const WallabagClient::Result &result) {
            m_prefetchCall = 0;
            if (!result.ok) {
                // A page past the end (entries deleted meanwhile) or a refusal: what the
                // pages did not bring is fetched one by one.
                textPagesEnded();
                return;
            }
            const QJsonArray items = result.json.value(QLatin1String("_embedded"))
                                         .toObject()
                                         .value(QLatin1String("items"))
                                         .toArray();
            QHash<qint64, QString> texts;
            for (const QJsonValue &item : items) {
                const QJsonObject entry = item.toObject();
                const qint64 id = entry.value(QLatin1String("id")).toInteger();
                if (!m_textsWanted.remove(id))
                    continue;
                // Only a string is text: an entry wallabag never fetched has null, and
                // nothing to keep (asking for it alone would bring null again).
                const QJsonValue content = entry.value(QLatin1String("content"));
                if (content.isString())
                    texts.insert(id, content.toString());
                else
                    noTextFor(id);
            }
            m_store->setContents(texts);
            const bool more = result.json.value(QLatin1String("_links"))
                                  .toObject()
                                  .contains(QLatin1String("next"));
            if (m_textsWanted.isEmpty() || items.isEmpty() || !more) {
                textPagesEnded();
                return;
            }
            fetchTextPage(page + 1);
        });
}

void SyncEngine::textPagesEnded()
{
    // Stragglers: entries the pages did not show (the list moved under LIMIT/OFFSET while
    // it was walked, or a page failed). Few, normally: one request each.
    QList<qint64> rest;
    for (qint64 id : std::as_const(m_prefetch)) {
        if (m_textsWanted.contains(id))
            rest << id;
    }
    m_textsWanted.clear();
    m_prefetch = rest;
    qCDebug(lcSync) << rest.size() << "texts fetched one by one after the pages";
    prefetchNext();
}

void SyncEngine::noTextFor(qint64 id)
{
    m_textsNotThere.insert(id, m_store->article(id).updatedAt);
}

void SyncEngine::prefetchNext()
{
    if (m_prefetchCall)
        return;
    if (m_prefetch.isEmpty()) {
        if (m_prefetchAgain)
            startPrefetch();
        return;
    }
    const qint64 id = m_prefetch.takeFirst();
    if (m_store->article(id).hasContent || id == m_contentFor) {
        prefetchNext();
        return;
    }
    m_prefetchCall = m_client->fetchEntry(id, WallabagClient::Waiting::Background,
                                          [this, id](const WallabagClient::Result &result) {
                                              m_prefetchCall = 0;
                                              if (result.ok)
                                                  storeContent(id, result.json);
                                              if ((result.ok && !m_store->article(id).hasContent) ||
                                                  (result.status >= 400 && result.status < 500))
                                                  noTextFor(id);
                                              prefetchNext();
                                          });
}

void SyncEngine::fetchContent(qint64 id)
{
    if (m_contentCall && m_contentFor != id) {
        // The user moved on: the previous article is not waited for any more.
        m_client->cancel(m_contentCall);
        m_contentCall = 0;
    }
    m_contentFor = id;
    if (id <= 0 || m_store->article(id).hasContent || m_contentCall)
        return;
    m_contentCall = m_client->fetchEntry(
        id, WallabagClient::Waiting::User,
        [this, id](const WallabagClient::Result &result) {
            m_contentCall = 0;
            if (!result.ok) {
                Q_EMIT contentFailed(id, result.message);
                return;
            }
            storeContent(id, result.json);
        },
        // Offline, the manager's pinned copy of the entry (from an earlier run) is read
        // at once; the fresh one replaces it when it comes.
        [this, id](const WallabagClient::Result &copy) {
            if (!m_store->article(id).hasContent)
                storeContent(id, copy.json);
        });
}

void SyncEngine::storeContent(qint64 id, const QJsonObject &entry)
{
    // An entry wallabag never fetched has "content": null: nothing to keep, and nothing
    // that should pass for the article's text.
    const QJsonValue content = entry.value(QLatin1String("content"));
    if (content.isString())
        m_store->setContent(id, content.toString());
}

void SyncEngine::enqueue(const Change &change)
{
    m_queue->enqueue(change);
}

void SyncEngine::setStarred(qint64 id, bool starred)
{
    m_store->setStarred(id, starred);
    if (id > 0)
        enqueue({ Change::Kind::Star, id, starred, {}, {}, {} });
}

void SyncEngine::setArchived(qint64 id, bool archived)
{
    m_store->setArchived(id, archived);
    if (id > 0)
        enqueue({ Change::Kind::Archive, id, archived, {}, {}, {} });
}

void SyncEngine::setTags(qint64 id, const QStringList &typed)
{
    // wallabag stores labels trimmed and lower-cased (TagsAssigner, Tag::setLabel): "Rust"
    // comes back as "rust". Shown and compared that way from the start, a tag typed with
    // capitals and removed before the next refresh is the server's tag, and goes.
    QStringList tags;
    for (const QString &label : typed) {
        const QString stored = WallabagJson::tagLabel(label);
        if (!stored.isEmpty() && !tags.contains(stored))
            tags << stored;
    }
    const Article before = m_store->article(id);
    const QHash<QString, int> serverTags = WallabagJson::tagIdsByLabel(before.tagIds);
    // A tag removed without a known id cannot be removed on the server now: remember it
    // (see m_tagsToRemove). A tag put back is wanted again.
    QSet<QString> unresolved = m_tagsToRemove.value(id);
    for (const QString &shown : before.tags) {
        const QString label = WallabagJson::tagLabel(shown);
        if (!tags.contains(label) && !serverTags.contains(label))
            unresolved.insert(label);
    }
    for (const QString &label : std::as_const(tags))
        unresolved.remove(label);
    if (id > 0 && !unresolved.isEmpty())
        m_tagsToRemove.insert(id, unresolved);
    else
        m_tagsToRemove.remove(id);
    m_store->setTags(id, tags);
    if (id > 0)
        enqueue({ Change::Kind::SetTags, id, false, tags, serverTags, {} });
}

void SyncEngine::remove(qint64 id)
{
    m_tagsToRemove.remove(id);
    m_store->markDeleted(id);
    enqueue({ Change::Kind::Delete, id, false, {}, {}, {} });
}

bool SyncEngine::undoRemove(qint64 id)
{
    if (!m_store->isMarkedDeleted(id) || !m_queue->withdraw(id, Change::Kind::Delete))
        return false;
    m_store->unmarkDeleted(id);
    // The delete took the article's earlier changes out of the queue: they go again.
    if (m_queue->isOpen())
        enqueueUnheldPending();
    return true;
}

qint64 SyncEngine::addUrl(const QUrl &url)
{
    const qint64 id = m_store->addLocal(url);
    enqueue({ Change::Kind::Add, id, false, {}, {}, url });
    return id;
}

void SyncEngine::undo(qint64 id)
{
    m_tagsToRemove.remove(id);
    m_queue->discard(id);
    m_store->revert(id);
}

void SyncEngine::discard(qint64 id)
{
    m_tagsToRemove.remove(id);
    m_queue->discard(id);
    m_store->discardPending(id);
}

void SyncEngine::changeConfirmed(const Change &change, const QJsonObject &entry)
{
    // The queue confirms a field once no later change of it waits: it is the server's now.
    if (entry.isEmpty() && change.kind == Change::Kind::Star)
        m_store->setServerFlag(change.articleId, LocalStore::Field::Starred, change.flag);
    else if (entry.isEmpty() && change.kind == Change::Kind::Archive)
        m_store->setServerFlag(change.articleId, LocalStore::Field::Archived, change.flag);
    // Deleted while its creation was on its way (too late to take it out of the outbox):
    // what the server created goes too.
    const bool deletedWhileAdded =
        change.kind == Change::Kind::Add && m_store->isMarkedDeleted(change.articleId);
    // Tags removed here whose removal waits for their ids keep the field pending, so that
    // the refresh below does not put them back on screen.
    const bool tagsWait =
        change.kind == Change::Kind::SetTags && m_tagsToRemove.contains(change.articleId);
    m_store->confirm(change.articleId, fieldOf(change.kind), entry, m_client->server(), tagsWait);
    const qint64 createdId = entry.value(QLatin1String("id")).toInteger();
    if (deletedWhileAdded && createdId > 0)
        remove(createdId);
    else if (deletedWhileAdded)
        qCWarning(lcSync) << "an article deleted while it was being saved came back without "
                             "its id; the next refresh shows it";
    if (change.kind == Change::Kind::Delete && change.articleId > 0)
        m_client->forgetEntry(change.articleId); // its pinned offline copy too
    // The server's own version of what changed (a new entry's id, tag ids) comes with the
    // next refresh.
    if (entry.isEmpty() &&
        (change.kind == Change::Kind::Add || change.kind == Change::Kind::SetTags))
        refreshSoon();
}

void SyncEngine::refreshSoon()
{
    // A refresh running now may have listed the entry before the server applied the
    // change: another one follows it.
    if (m_refreshing)
        m_refreshAgain = true;
    else
        QTimer::singleShot(0, this, &SyncEngine::refresh);
}

void SyncEngine::resolveTagRemovals()
{
    // For the articles whose tag edits had all been applied when this refresh started, and
    // that it listed (or that a full list left out: gone), the server's tags are known: a
    // removed tag it has goes now, by its id; one it does not have needs nothing more.
    for (auto it = m_tagsToRemove.begin(); it != m_tagsToRemove.end();) {
        const qint64 id = it.key();
        if (!m_tagsSettled.contains(id) || !(m_merged.contains(id) || m_swept)) {
            ++it;
            continue;
        }
        const Article a = m_store->article(id);
        const QHash<QString, int> serverTags = WallabagJson::tagIdsByLabel(a.tagIds);
        bool onServer = false;
        for (const QString &label : std::as_const(it.value()))
            onServer = onServer || serverTags.contains(WallabagJson::tagLabel(label));
        it = m_tagsToRemove.erase(it);
        if (a.id == 0)
            continue;
        if (onServer) {
            // The tags shown, against the server's with their ids: the queue removes those
            // not shown.
            enqueue({ Change::Kind::SetTags, id, false, a.tags, a.tagIds, {} });
        } else if (!m_queue->holds(id, Change::Kind::SetTags)) {
            m_store->confirm(id, LocalStore::Field::Tags, {}, m_client->server(), false);
        }
    }
}

void SyncEngine::changeRefused(const Change &change, const QString &reason)
{
    m_store->fail(change.articleId, fieldOf(change.kind), reason);
}
