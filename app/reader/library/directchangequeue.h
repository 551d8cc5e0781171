// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_DIRECTCHANGEQUEUE_H
#define KEEPTRYING_READER_DIRECTCHANGEQUEUE_H

#include "changequeue.h"

#include <QtCore/QList>
#include <QtCore/QPointer>

#include <optional>

class WallabagClient;

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    A ChangeQueue in memory that sends one change at a time, in order, through the
    WallabagClient (and so through the retrying manager, with an Idempotency-Key on every
    write). While the server cannot be reached (offline, simulated offline, or the origin
    known unreachable) nothing is handed to the manager, so that changes made meanwhile
    coalesce; a change that starts waiting for connectivity inside the manager (no attempt
    is made then) is taken back and waits here.

    Not durable: what waits is lost when the reader quits; the store still marks those
    articles as waiting, and the engine enqueues them again at the next start.
*/
class DirectChangeQueue : public ChangeQueue
{
    Q_OBJECT

public:
    DirectChangeQueue(WallabagClient *client, KeepTrying::RetryingNetworkAccessManager *manager,
                      QObject *parent = nullptr);
    ~DirectChangeQueue() override;

    void enqueue(const Change &change) override;
    int waitingCount() const override;
    bool isDurable() const override { return false; }
    void discard(qint64 articleId) override;

    /*! Requests sent so far (PATCH, DELETE, POST): for tests of coalescing. */
    int requestsSent() const { return m_requestsSent; }

private:
    void sendNext();
    void sendStep();
    void finishCurrent(bool ok, const QJsonObject &entry, const QString &reason);
    bool mayHandOver() const;
    void countChanged();

    WallabagClient *m_client;
    KeepTrying::RetryingNetworkAccessManager *m_manager;
    QList<Change> m_waiting;
    std::optional<Change> m_current;
    QStringList m_tagsToAdd; // SetTags in flight: its steps
    QList<int> m_tagIdsToRemove;
    QJsonObject m_lastEntry;
    quint64 m_call = 0;
    int m_requestsSent = 0;
    int m_lastCount = 0;
};

#endif // KEEPTRYING_READER_DIRECTCHANGEQUEUE_H
