// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The Outbox's resend check: for servers that ignore Idempotency-Key, an item whose earlier
// attempt may have taken effect is not sent again before the app has looked (outbox.h,
// "Servers that ignore Idempotency-Key").

#include "outbox_p.h"

#include <QtCore/QDateTime>

#include <algorithm>

namespace KeepTrying {

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

// Whether a replay that did not succeed may have been acted on by the server: a 4xx is a
// refusal, and a refused connection or an unknown host sent nothing. Anything else (a
// timeout, a reset, a 5xx of a proxy whose server goes on working) may have.
bool OutboxPrivate::mayHaveReachedServer(QNetworkReply *reply, int status)
{
    if (status >= 400 && status < 500)
        return false;
    if (status > 0)
        return true;
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
        return false;
    default:
        return true;
    }
}

bool OutboxPrivate::isChecked(const OutboxItem &item) const
{
    return resendCheck && resendAppliesTo && resendAppliesTo(item);
}

void OutboxPrivate::startCheck(const OutboxItem &item)
{
    Q_Q(Outbox);
    const qint64 id = item.id;
    inFlight.insert(id, Flight { item, nullptr, true });
    qCDebug(lcOutbox) << "checking whether item" << id << "took effect before sending it again";
    Q_EMIT q->itemStateChanged(id, OutboxItem::State::Sending);
    // Queued: a check may answer before it returns, and drain() must not recurse into it.
    QPointer<Outbox> guard(q);
    resendCheck(item, [guard, id](Outbox::ResendFinding finding, const QByteArray &body) {
        if (!guard)
            return;
        QMetaObject::invokeMethod(
            guard.data(),
            [guard, id, finding, body] {
                if (guard)
                    guard->d_func()->checkFinished(id, finding, body);
            },
            Qt::QueuedConnection);
    });
}

void OutboxPrivate::checkFinished(qint64 id, Outbox::ResendFinding finding, const QByteArray &body)
{
    Q_Q(Outbox);
    const auto found = inFlight.find(id);
    if (found == inFlight.end() || !found->checking)
        return;
    const OutboxItem item = found->item;
    inFlight.erase(found);
    const qint64 now = nowMs();
    const qint64 settledAt =
        unsettledSince.value(id, now) + std::max<qint64>(0, settings.resendSettleMs);
    switch (finding) {
    case Outbox::ResendFinding::Done:
        unsettledSince.remove(id);
        if (!store.remove(id)) {
            setLastError(store.lastError());
        } else {
            qCDebug(lcOutbox) << "item" << id << "had taken effect; not sent again";
            refreshCounts(); // a slot of itemDelivered() sees it gone from pendingCount()
            Q_EMIT q->itemDelivered(id, 200, body);
        }
        break;
    case Outbox::ResendFinding::NotDone:
        if (now >= settledAt) {
            unsettledSince.remove(id);
            send(item); // still marked as being sent
            return;
        }
        // The earlier attempt may still be at work on the server: ask again once it is over.
        if (!store.defer(id, settledAt)) {
            setLastError(store.lastError());
            break;
        }
        qCDebug(lcOutbox) << "item" << id << "not there yet; asking again in" << settledAt - now
                          << "ms";
        Q_EMIT q->itemStateChanged(id, OutboxItem::State::WaitingToRetry);
        break;
    case Outbox::ResendFinding::Unknown:
        retryLater(item, QStringLiteral("could not check whether an earlier attempt took effect"),
                   -1, false);
        break;
    }
    drain();
}

void Outbox::setResendCheck(std::function<bool(const OutboxItem &)> appliesTo,
                            std::function<void(const OutboxItem &, ResendCheckDone)> check)
{
    Q_D(Outbox);
    d->resendAppliesTo = std::move(appliesTo);
    d->resendCheck = std::move(check);
    if (!d->usable || !d->resendCheck || !d->resendAppliesTo)
        return;
    // When an earlier run's attempt was is not stored: it may have been a moment ago.
    const qint64 now = nowMs();
    const QList<OutboxItem> pending = d->store.items(false);
    for (const OutboxItem &item : pending) {
        if (d->inFlight.contains(item.id) || !d->resendAppliesTo(item))
            continue;
        if (item.attempts > 0 || item.state == OutboxItem::State::Sending)
            d->unsettledSince.insert(item.id, now);
    }
}

} // namespace KeepTrying
