// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "outboxchangequeue.h"

#include <algorithm>

#include "wallabagclient.h"
#include "wallabagjson.h"

#include <KeepTrying/authenticator.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QPointer>
#include <QtCore/QRegularExpression>
#include <QtCore/QTimer>

Q_LOGGING_CATEGORY(lcChanges, "keeptrying.reader.changes", QtWarningMsg)

using KeepTrying::Outbox;
using KeepTrying::OutboxEnqueueOptions;
using KeepTrying::OutboxItem;

namespace {

QString resourceOf(qint64 articleId)
{
    return QStringLiteral("entry/%1").arg(articleId);
}

QString coalescingOf(qint64 articleId, Change::Kind kind)
{
    switch (kind) {
    case Change::Kind::Star:
        return resourceOf(articleId) + QStringLiteral("/starred");
    case Change::Kind::Archive:
        return resourceOf(articleId) + QStringLiteral("/archive");
    case Change::Kind::SetTags:
        return resourceOf(articleId) + QStringLiteral("/tags");
    case Change::Kind::Delete:
    case Change::Kind::Add:
        break;
    }
    return QString();
}

} // namespace

OutboxChangeQueue::OutboxChangeQueue(WallabagClient *client,
                                     KeepTrying::RetryingNetworkAccessManager *manager,
                                     const QString &databasePath, QObject *parent)
    : ChangeQueue(parent), m_client(client), m_manager(manager), m_path(databasePath)
{
    connect(client, &WallabagClient::signedInChanged, this, [this](bool signedIn) {
        if (signedIn && !m_outbox)
            open();
    });
    if (client->isSignedIn())
        QTimer::singleShot(0, this, [this] {
            if (!m_outbox)
                open();
        });
    // What waits from an earlier run is counted at start, signed in or not (offline, the
    // sign-in waits for the network); told from the event loop, once everyone listens.
    peek();
    QTimer::singleShot(0, this, &OutboxChangeQueue::countChanged);
}

void OutboxChangeQueue::peek()
{
    m_peeked = m_path.isEmpty() ? 0 : qMax(0, Outbox::pendingCountIn(m_path));
}

OutboxChangeQueue::~OutboxChangeQueue() = default;

void OutboxChangeQueue::setDatabasePath(const QString &databasePath)
{
    if (m_outbox)
        m_outbox->disconnect(this);
    m_outbox.reset(); // its file (and lock) is free for the account it belongs to
    m_path = databasePath;
    m_held.clear();
    m_graced.clear();
    m_items.clear();
    peek();
    countChanged();
    if (m_client->isSignedIn())
        QTimer::singleShot(0, this, [this, path = m_path] {
            if (!m_outbox && m_path == path)
                open();
        });
}

void OutboxChangeQueue::keepForLater()
{
    const QList<qint64> graced = m_graced.keys();
    m_graced.clear(); // their timers find nothing
    for (qint64 id : graced) {
        Change deletion;
        deletion.kind = Change::Kind::Delete;
        deletion.articleId = id;
        pass(deletion);
    }
    if (m_held.isEmpty() || m_path.isEmpty())
        return;
    // Never opened (no sign-in this session): an outbox of its own, only to write them
    // down; it drains from the event loop, and is gone before that.
    const bool wasOpen = m_outbox != nullptr;
    if (!wasOpen)
        m_outbox = std::make_unique<Outbox>(m_path, m_manager);
    const QList<Change> held = std::exchange(m_held, {});
    for (const Change &change : held)
        send(change);
    if (!wasOpen) {
        m_outbox.reset();
        m_items.clear();
        peek();
    }
    countChanged();
}

bool OutboxChangeQueue::isOpen() const
{
    return m_outbox != nullptr;
}

void OutboxChangeQueue::open()
{
    if (m_path.isEmpty())
        return; // signed out: no account's outbox
    m_outbox = std::make_unique<Outbox>(m_path, m_manager);
    m_peeked = 0; // the outbox counts from now on
    // The client's authenticator signs each replay with the current token; a 401 (the
    // token expired while the item waited) is renewed once for every item, which keeps its
    // place, so the writes to an article stay in order (the Outbox's rule for a 401).
    m_outbox->setSigner([client = m_client](QNetworkRequest &request) {
        KeepTrying::Authenticator::useAuthenticator(request, client->authenticator());
    });
    // Gone already (deleted here or elsewhere, or a tag removed meanwhile): as wanted.
    m_outbox->setSuccessPredicate(&Outbox::deleteGoneIsSuccess);
    // wallabag ignores Idempotency-Key: an add that may have reached it is not sent again
    // before asking whether its URL is saved.
    m_outbox->setResendCheck(
        [](const OutboxItem &item) { return changeOf(item).kind == Change::Kind::Add; },
        [this](const OutboxItem &item, Outbox::ResendCheckDone done) {
            checkAdd(item, std::move(done));
        });
    setAddSettleMs(m_addSettleMs);
    connect(m_outbox.get(), &Outbox::itemDelivered, this,
            [this](qint64 id, int, const QByteArray &body) { delivered(id, body); });
    connect(m_outbox.get(), &Outbox::itemDeadLettered, this, &OutboxChangeQueue::deadLettered);
    connect(m_outbox.get(), &Outbox::itemSuperseded, this,
            [this](qint64 id, qint64) { m_items.remove(id); });
    connect(m_outbox.get(), &Outbox::pendingCountChanged, this, &OutboxChangeQueue::countChanged);
    connect(m_outbox.get(), &Outbox::openFailed, this, [](const QString &reason) {
        qCWarning(lcChanges) << "changes cannot be kept on disk:" << reason;
    });

    // What a previous run left: waiting, or refused and not dealt with yet.
    const QList<OutboxItem> pending = m_outbox->items();
    for (const OutboxItem &item : pending)
        m_items.insert(item.id, { changeOf(item), false });
    const QList<OutboxItem> dead = m_outbox->deadLetters();
    for (const OutboxItem &item : dead)
        m_items.insert(item.id, { changeOf(item), true });

    const QList<Change> held = std::exchange(m_held, {});
    for (const Change &change : held)
        send(change);
    countChanged();
    Q_EMIT opened();
}

void OutboxChangeQueue::setAddSettleMs(qint64 milliseconds)
{
    m_addSettleMs = milliseconds;
    if (!m_outbox)
        return;
    Outbox::Settings settings = m_outbox->settings();
    settings.resendSettleMs = milliseconds;
    m_outbox->setSettings(settings);
}

void OutboxChangeQueue::checkAdd(const OutboxItem &item, Outbox::ResendCheckDone done)
{
    // exists.json hashes the URL as the add does (sha1 of its url-decoded form): ask with the
    // very string the add sends, percent-encoded whole so that '+' and '&' survive.
    const QString url =
        QJsonDocument::fromJson(item.body).object().value(QLatin1String("url")).toString();
    QUrl exists = m_client->apiUrl(QStringLiteral("api/entries/exists.json"));
    exists.setQuery(QStringLiteral("url=") + QString::fromLatin1(QUrl::toPercentEncoding(url)) +
                    QStringLiteral("&return_id=1"));
    QPointer<OutboxChangeQueue> guard(this);
    const auto unknown = [done] { done(Outbox::ResendFinding::Unknown, {}); };
    // Purpose::List: no offline copy is kept, so the answer is never an old one.
    m_client->getJson(exists, WallabagClient::Purpose::List, WallabagClient::Waiting::Background,
                      [guard, done, unknown](const WallabagClient::Result &result) {
                          if (!guard || !result.ok)
                              return unknown();
                          const QJsonValue id = result.json.value(QLatin1String("exists"));
                          if (id.isNull() || id.isBool()) // null (or false): not saved
                              return done(Outbox::ResendFinding::NotDone, {});
                          // Saved by the earlier attempt: its entry is the add's answer.
                          guard->m_client->getJson(
                              guard->m_client->apiUrl(
                                  QStringLiteral("api/entries/%1.json").arg(qint64(id.toDouble()))),
                              WallabagClient::Purpose::Entry, WallabagClient::Waiting::Background,
                              [done, unknown](const WallabagClient::Result &entry) {
                                  if (!entry.ok)
                                      return unknown();
                                  done(Outbox::ResendFinding::Done,
                                       QJsonDocument(entry.json).toJson(QJsonDocument::Compact));
                              });
                      });
}

int OutboxChangeQueue::waitingCount() const
{
    return int(m_held.size()) + int(m_graced.size()) +
        (m_outbox ? m_outbox->pendingCount() : m_peeked);
}

bool OutboxChangeQueue::holds(qint64 articleId, Change::Kind kind) const
{
    if (kind == Change::Kind::Delete && m_graced.contains(articleId))
        return true;
    for (const Change &change : m_held) {
        if (change.articleId == articleId && change.kind == kind)
            return true;
    }
    for (const Entry &entry : m_items) {
        if (entry.change.articleId == articleId && entry.change.kind == kind)
            return true;
    }
    return false;
}

QList<Change> OutboxChangeQueue::waiting() const
{
    QList<qint64> ids = m_items.keys();
    std::sort(ids.begin(), ids.end()); // the outbox's order
    QList<Change> changes;
    for (qint64 id : std::as_const(ids)) {
        const Entry &entry = m_items[id];
        if (!entry.dead)
            changes << entry.change;
    }
    changes << m_held;
    for (auto it = m_graced.constBegin(); it != m_graced.constEnd(); ++it) {
        Change deletion;
        deletion.kind = Change::Kind::Delete;
        deletion.articleId = it.key();
        changes << deletion;
    }
    return changes;
}

void OutboxChangeQueue::countChanged()
{
    const int count = waitingCount();
    if (count == m_lastCount)
        return;
    m_lastCount = count;
    Q_EMIT waitingCountChanged(count);
}

void OutboxChangeQueue::enqueue(const Change &change)
{
    if (change.kind == Change::Kind::Delete && m_deleteGraceMs > 0) {
        // Kept here for the grace time: an Undo within it takes it back for sure.
        const quint64 generation = ++m_graceGeneration;
        m_graced.insert(change.articleId, generation);
        QTimer::singleShot(m_deleteGraceMs, this, [this, change, generation] {
            const auto it = m_graced.constFind(change.articleId);
            if (it == m_graced.constEnd() || *it != generation)
                return; // withdrawn, or deleted again since
            m_graced.erase(it);
            pass(change);
        });
        countChanged();
        return;
    }
    pass(change);
}

void OutboxChangeQueue::pass(const Change &change)
{
    if (!m_outbox) {
        if (change.kind == Change::Kind::Delete)
            m_held.removeIf([&](const Change &c) { return c.articleId == change.articleId; });
        bool coalesced = false;
        for (Change &waiting : m_held) {
            if (change.replaces(waiting)) {
                waiting = change;
                coalesced = true;
            }
        }
        if (!coalesced)
            m_held << change;
        countChanged();
        return;
    }
    send(change);
    countChanged();
}

void OutboxChangeQueue::send(const Change &change)
{
    const qint64 id = change.articleId;
    const QUrl entry = m_client->apiUrl(QStringLiteral("api/entries/%1.json").arg(id));
    const auto json = [](const QJsonObject &object) {
        return QJsonDocument(object).toJson(QJsonDocument::Compact);
    };
    switch (change.kind) {
    case Change::Kind::Star:
        put("PATCH", entry, json({ { QStringLiteral("starred"), change.flag ? 1 : 0 } }),
            coalescingOf(id, change.kind), false, change);
        break;
    case Change::Kind::Archive:
        put("PATCH", entry, json({ { QStringLiteral("archive"), change.flag ? 1 : 0 } }),
            coalescingOf(id, change.kind), false, change);
        break;
    case Change::Kind::Delete:
        if (id < 0) {
            // Never saved on the server: take its creation out of the outbox. One already
            // on its way cannot be; the engine deletes what it creates once it is confirmed.
            for (auto it = m_items.begin(); it != m_items.end();) {
                if (!it->dead && it->change.kind == Change::Kind::Add &&
                    it->change.articleId == id) {
                    if (!m_outbox->cancel(it.key()))
                        return; // being sent
                    it = m_items.erase(it);
                } else {
                    ++it;
                }
            }
            QTimer::singleShot(0, this, [this, change] { Q_EMIT confirmed(change, {}); });
            return;
        }
        put("DELETE", entry, {}, QString(), true, change);
        break;
    case Change::Kind::Add:
        put("POST", m_client->apiUrl(QStringLiteral("api/entries.json")),
            json({ { QStringLiteral("url"), change.url.toString(QUrl::FullyEncoded) } }), QString(),
            false, change);
        break;
    case Change::Kind::SetTags: {
        // POST .../tags adds the tags it names and keeps the others (wallabag's PATCH with
        // tags would replace them all, dropping one that another client or a tagging rule
        // added meanwhile). It names what this person added: the wanted tags the server did
        // not have when the reader last saw it, and those an earlier edit's removal, still
        // queued, would take away (this POST, moved to the end of the queue by coalescing,
        // puts them back). A tag the server had is not named again: another client may have
        // removed it since, and that removal stands. An empty POST replaces an earlier
        // edit's add still queued. Labels are compared as wallabag stores them (lower-cased).
        const QHash<QString, int> onServer = WallabagJson::tagIdsByLabel(change.serverTagIds);
        const QSet<int> removalsQueued = tagRemovalsQueued(id);
        QStringList wanted;
        QStringList added;
        for (const QString &tag : change.tags) {
            const QString label = WallabagJson::tagLabel(tag);
            wanted << label;
            const auto known = onServer.constFind(label);
            if (known == onServer.cend() || removalsQueued.contains(*known))
                added << label;
        }
        bool any = false;
        if (!added.isEmpty() || holds(id, Change::Kind::SetTags)) {
            any = put("POST", m_client->apiUrl(QStringLiteral("api/entries/%1/tags.json").arg(id)),
                      json({ { QStringLiteral("tags"), added.join(QLatin1Char(',')) } }),
                      coalescingOf(id, change.kind), false, change);
        }
        for (auto it = onServer.cbegin(); it != onServer.cend(); ++it) {
            if (wanted.contains(it.key()))
                continue;
            // 200 even when the tag is no longer on the entry.
            const QUrl tag = m_client->apiUrl(
                QStringLiteral("api/entries/%1/tags/%2.json").arg(id).arg(it.value()));
            any =
                put("DELETE", tag, {},
                    coalescingOf(id, change.kind) + QLatin1Char('/') + QString::number(it.value()),
                    false, change) ||
                any;
        }
        if (!any) // nothing differs from the server
            QTimer::singleShot(0, this, [this, change] { Q_EMIT confirmed(change, {}); });
        break;
    }
    }
}

bool OutboxChangeQueue::put(const QByteArray &method, const QUrl &url, const QByteArray &body,
                            const QString &coalescingKey, bool cancelsEarlier, const Change &change)
{
    OutboxEnqueueOptions options;
    options.resourceKey = resourceOf(change.articleId);
    options.coalescingKey = coalescingKey;
    options.cancelsEarlierChanges = cancelsEarlier;
    const KeepTrying::OutboxEnqueueResult result =
        m_outbox->enqueue(method, m_client->writeRequest(url), body, options);
    if (!result) {
        // Nothing was stored: say so now rather than let the change look as if it waited.
        qCWarning(lcChanges) << "change not stored:" << result.errorString;
        const QString reason =
            tr("This change could not be kept on this computer (%1).").arg(result.errorString);
        QTimer::singleShot(0, this, [this, change, reason] { Q_EMIT refused(change, reason); });
        return false;
    }
    for (qint64 gone : result.superseded)
        m_items.remove(gone);
    Change stored = change;
    if (change.kind == Change::Kind::SetTags)
        stored = changeOf(m_outbox->item(result.id));
    m_items.insert(result.id, { stored, false });
    return true;
}

void OutboxChangeQueue::delivered(qint64 id, const QByteArray &body)
{
    const auto it = m_items.constFind(id);
    if (it == m_items.constEnd())
        return;
    const Change change = it->change;
    m_items.erase(it);
    countChanged();
    // A later change of the same field still waits: that one will be confirmed.
    for (const Entry &entry : std::as_const(m_items)) {
        if (!entry.dead && entry.change.articleId == change.articleId &&
            entry.change.kind == change.kind)
            return;
    }
    // A new entry's answer is the entry: its id replaces the local stand-in's.
    const QJsonObject entry =
        change.kind == Change::Kind::Add ? QJsonDocument::fromJson(body).object() : QJsonObject();
    Q_EMIT confirmed(change, entry);
}

void OutboxChangeQueue::deadLettered(qint64 id, int status, const QString &reason)
{
    const auto it = m_items.find(id);
    if (it == m_items.end())
        return;
    it->dead = true;
    countChanged();
    const OutboxItem item = m_outbox->item(id);
    QString phrase = reason;
    if (phrase.startsWith(QLatin1String("HTTP ")))
        phrase = phrase.mid(5).section(QLatin1Char(' '), 1);
    const QString words = status > 0
        ? m_client->describeRefusal(status, phrase, WallabagClient::Purpose::Write)
        : tr("The server did not take this change in time, so it is not saved there.");
    qCInfo(lcChanges) << "change not saved:" << status << reason;
    Q_UNUSED(item)
    Q_EMIT refused(it->change, words);
}

bool OutboxChangeQueue::withdraw(qint64 articleId, Change::Kind kind)
{
    if (kind == Change::Kind::Delete && m_graced.remove(articleId) > 0) {
        countChanged();
        return true;
    }
    const auto matches = [&](const Change &c) {
        return c.articleId == articleId && c.kind == kind;
    };
    if (m_held.removeIf(matches) > 0) {
        countChanged();
        return true;
    }
    QList<qint64> queued;
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it) {
        if (!it->dead && matches(it->change))
            queued << it.key();
    }
    if (queued.isEmpty() || !m_outbox)
        return false; // sent and answered already
    bool all = true;
    for (qint64 id : std::as_const(queued)) {
        if (m_outbox->cancel(id))
            m_items.remove(id);
        else
            all = false; // on its way: its answer comes as usual
    }
    countChanged();
    return all;
}

void OutboxChangeQueue::discard(qint64 articleId)
{
    m_graced.remove(articleId);
    m_held.removeIf([&](const Change &c) { return c.articleId == articleId; });
    for (auto it = m_items.begin(); it != m_items.end();) {
        if (it->dead && it->change.articleId == articleId && m_outbox &&
            m_outbox->discard(it.key())) {
            it = m_items.erase(it);
        } else {
            ++it;
        }
    }
    countChanged();
}

QSet<int> OutboxChangeQueue::tagRemovalsQueued(qint64 articleId) const
{
    static const QRegularExpression removal(
        QStringLiteral("/api/entries/-?[0-9]+/tags/([0-9]+)\\.json$"));
    QSet<int> ids;
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it) {
        if (it->dead || it->change.articleId != articleId ||
            it->change.kind != Change::Kind::SetTags)
            continue;
        const OutboxItem item = m_outbox->item(it.key());
        if (item.method != "DELETE")
            continue;
        if (const QRegularExpressionMatch m = removal.match(item.url.path()); m.hasMatch())
            ids.insert(m.captured(1).toInt());
    }
    return ids;
}

Change OutboxChangeQueue::changeOf(const OutboxItem &item)
{
    static const QRegularExpression entryPath(
        QStringLiteral("/api/entries/(-?[0-9]+)(/tags(?:/([0-9]+))?)?\\.json$"));
    static const QRegularExpression addPath(QStringLiteral("/api/entries\\.json$"));
    Change change;
    const QString path = item.url.path();
    const QJsonObject body = QJsonDocument::fromJson(item.body).object();
    if (const QRegularExpressionMatch m = entryPath.match(path); m.hasMatch()) {
        change.articleId = m.captured(1).toLongLong();
        if (!m.captured(3).isEmpty()) {
            change.kind = Change::Kind::SetTags; // the removal of one tag
        } else if (!m.captured(2).isEmpty()) {
            change.kind = Change::Kind::SetTags; // the tags added
            change.tags = body.value(QLatin1String("tags"))
                              .toString()
                              .split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (item.method == "DELETE") {
            change.kind = Change::Kind::Delete;
        } else if (body.contains(QLatin1String("starred"))) {
            change.kind = Change::Kind::Star;
            change.flag = body.value(QLatin1String("starred")).toInt() != 0;
        } else if (body.contains(QLatin1String("archive"))) {
            change.kind = Change::Kind::Archive;
            change.flag = body.value(QLatin1String("archive")).toInt() != 0;
        } else if (body.contains(QLatin1String("tags"))) {
            change.kind = Change::Kind::SetTags;
            change.tags = body.value(QLatin1String("tags"))
                              .toString()
                              .split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else {
            change.articleId = 0;
        }
    } else if (addPath.match(path).hasMatch() && item.method == "POST") {
        change.kind = Change::Kind::Add;
        change.articleId = item.resourceKey.section(QLatin1Char('/'), 1).toLongLong();
        change.url = QUrl(body.value(QLatin1String("url")).toString());
    }
    return change;
}
