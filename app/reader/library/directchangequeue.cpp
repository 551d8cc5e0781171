// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "directchangequeue.h"

#include "wallabagclient.h"

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QTimer>

using KeepTrying::Reachability;
using KeepTrying::RetryingNetworkAccessManager;

DirectChangeQueue::DirectChangeQueue(WallabagClient *client, RetryingNetworkAccessManager *manager,
                                     QObject *parent)
    : ChangeQueue(parent), m_client(client), m_manager(manager)
{
    // Back online, or the server answers again: send what waits.
    const auto resume = [this] { QTimer::singleShot(0, this, &DirectChangeQueue::sendNext); };
    connect(manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, this, resume);
    connect(manager->reachability(), &Reachability::stateChanged, this, resume);
    connect(manager->reachability(), &Reachability::originReachabilityChanged, this, resume);
    // A write that starts waiting for connectivity inside the manager has made no attempt
    // in that wait: take it back, so that changes made meanwhile coalesce with it.
    connect(manager, &RetryingNetworkAccessManager::waitingForConnectivity, this,
            [this](QNetworkReply *reply, bool waiting) {
                if (!waiting || !m_current || m_call == 0 || m_client->replyOf(m_call) != reply)
                    return;
                m_client->cancel(m_call);
                m_call = 0;
                m_waiting.prepend(*m_current);
                m_current.reset();
                // The steps of a tag change are planned again from the start.
                m_tagsToAdd.clear();
                m_tagIdsToRemove.clear();
            });
}

DirectChangeQueue::~DirectChangeQueue()
{
    if (m_call)
        m_client->cancel(m_call);
}

int DirectChangeQueue::waitingCount() const
{
    return int(m_waiting.size()) + (m_current ? 1 : 0);
}

void DirectChangeQueue::countChanged()
{
    const int count = waitingCount();
    if (count == m_lastCount)
        return;
    m_lastCount = count;
    Q_EMIT waitingCountChanged(count);
}

void DirectChangeQueue::enqueue(const Change &change)
{
    if (change.kind == Change::Kind::Delete) {
        // Nothing else about an article matters once it goes.
        for (qsizetype i = m_waiting.size() - 1; i >= 0; --i) {
            if (m_waiting.at(i).articleId == change.articleId) {
                const Change dropped = m_waiting.takeAt(i);
                if (dropped.kind == Change::Kind::Add) {
                    // Never saved: deleting it needs no request at all.
                    Q_EMIT confirmed(dropped, {});
                    Q_EMIT confirmed(change, {});
                    countChanged();
                    return;
                }
            }
        }
    }
    bool coalesced = false;
    for (Change &waiting : m_waiting) {
        if (change.replaces(waiting)) {
            const QHash<QString, int> serverTags = waiting.serverTagIds;
            waiting = change;
            if (change.kind == Change::Kind::SetTags)
                waiting.serverTagIds = serverTags; // what the server had before the first
            coalesced = true;
            break;
        }
    }
    if (!coalesced)
        m_waiting.append(change);
    countChanged();
    sendNext();
}

void DirectChangeQueue::discard(qint64 articleId)
{
    for (qsizetype i = m_waiting.size() - 1; i >= 0; --i) {
        if (m_waiting.at(i).articleId == articleId)
            m_waiting.removeAt(i);
    }
    countChanged();
}

bool DirectChangeQueue::mayHandOver() const
{
    return !m_manager->isSimulatedOffline() &&
        m_manager->reachability()->state() != Reachability::State::Offline &&
        m_manager->reachability()->isReachable(m_client->server());
}

void DirectChangeQueue::sendNext()
{
    if (m_current || m_waiting.isEmpty() || !mayHandOver())
        return;
    m_current = m_waiting.takeFirst();
    m_lastEntry = {};
    m_tagsToAdd.clear();
    m_tagIdsToRemove.clear();
    if (m_current->kind == Change::Kind::SetTags) {
        for (const QString &tag : std::as_const(m_current->tags)) {
            if (!m_current->serverTagIds.contains(tag))
                m_tagsToAdd << tag;
        }
        for (auto it = m_current->serverTagIds.cbegin(); it != m_current->serverTagIds.cend();
             ++it) {
            if (!m_current->tags.contains(it.key()))
                m_tagIdsToRemove << it.value();
        }
    }
    sendStep();
}

void DirectChangeQueue::sendStep()
{
    const Change &change = *m_current;
    const auto done = [this](const WallabagClient::Result &result) {
        m_call = 0;
        if (!result.ok) {
            finishCurrent(false, {}, result.message);
            return;
        }
        m_lastEntry = result.json;
        if (m_current && m_current->kind == Change::Kind::SetTags &&
            (!m_tagsToAdd.isEmpty() || !m_tagIdsToRemove.isEmpty())) {
            sendStep();
            return;
        }
        finishCurrent(true, m_lastEntry, QString());
    };
    ++m_requestsSent;
    switch (change.kind) {
    case Change::Kind::Star:
        m_call = m_client->patchEntry(change.articleId,
                                      { { QStringLiteral("starred"), change.flag ? 1 : 0 } }, done);
        break;
    case Change::Kind::Archive:
        m_call = m_client->patchEntry(change.articleId,
                                      { { QStringLiteral("archive"), change.flag ? 1 : 0 } }, done);
        break;
    case Change::Kind::Delete:
        m_call = m_client->deleteEntry(change.articleId, done);
        break;
    case Change::Kind::Add:
        m_call = m_client->addEntry(change.url, done);
        break;
    case Change::Kind::SetTags:
        if (!m_tagsToAdd.isEmpty()) {
            // wallabag's PATCH adds the tags it names and keeps the others.
            const QString tags = m_tagsToAdd.join(QLatin1Char(','));
            m_tagsToAdd.clear();
            m_call =
                m_client->patchEntry(change.articleId, { { QStringLiteral("tags"), tags } }, done);
        } else if (!m_tagIdsToRemove.isEmpty()) {
            m_call = m_client->removeTag(change.articleId, m_tagIdsToRemove.takeFirst(), done);
        } else {
            --m_requestsSent; // nothing differs from the server: nothing to send
            QTimer::singleShot(0, this, [this] { finishCurrent(true, {}, QString()); });
        }
        break;
    }
}

void DirectChangeQueue::finishCurrent(bool ok, const QJsonObject &entry, const QString &reason)
{
    if (!m_current)
        return;
    const Change change = *m_current;
    m_current.reset();
    countChanged();
    if (ok)
        Q_EMIT confirmed(change, entry);
    else
        Q_EMIT refused(change, reason);
    sendNext();
}
