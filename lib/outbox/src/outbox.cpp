// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "outbox_p.h"

#include <KeepTrying/reachability.h>
#include <KeepTrying/redaction.h>
#include <KeepTrying/retryafter.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QRandomGenerator>
#include <QtCore/QScopeGuard>
#include <QtCore/QUuid>

#include <algorithm>
#include <limits>

namespace KeepTrying {

namespace {

constexpr qint64 maxKeptResponseBytes = 64 * 1024;
// While items wait only for their origin, reachability's signals wake the outbox; this is
// the safety net should none come.
constexpr qint64 reachabilityRecheckMs = 30000;
// A drain lock file without a holder's PID in it, older than this, was left by a holder
// killed while it made the file.
constexpr qint64 unreadableLockAgeMs = 1000;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString statusText(QNetworkReply *reply, int status)
{
    const QString phrase = QString::fromUtf8(
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
    return phrase.isEmpty() ? QStringLiteral("HTTP %1").arg(status)
                            : QStringLiteral("HTTP %1 %2").arg(status).arg(phrase);
}

} // namespace

OutboxPrivate::OutboxPrivate(Outbox *q, const QString &path, RetryingNetworkAccessManager *manager)
    : q_ptr(q), path(path), manager(manager), lock(path + QStringLiteral(".lock"))
{
    // A live drainer is never robbed, however long it works; a dead one (its PID gone, or
    // reused by another program) loses the lock at the next tryLock().
    lock.setStaleLockTime(0);
}

void OutboxPrivate::setLastError(const QString &error)
{
    Q_Q(Outbox);
    if (error == lastError)
        return;
    lastError = error;
    Q_EMIT q->lastErrorChanged(lastError);
}

void OutboxPrivate::refreshCounts(qint64 now)
{
    Q_Q(Outbox);
    if (!usable)
        return;
    OutboxStore::Counts fresh;
    if (!store.counts(&fresh, now >= 0 ? now : nowMs())) {
        setLastError(store.lastError());
        return;
    }
    const OutboxStore::Counts old = counts;
    counts = fresh;
    if (old.pending != fresh.pending)
        Q_EMIT q->pendingCountChanged(fresh.pending);
    if (old.dead != fresh.dead)
        Q_EMIT q->deadLetterCountChanged(fresh.dead);
}

void OutboxPrivate::scheduleDrain()
{
    Q_Q(Outbox);
    if (drainScheduled || !usable)
        return;
    drainScheduled = true;
    QMetaObject::invokeMethod(
        q, [this] { drain(); }, Qt::QueuedConnection);
}

bool OutboxPrivate::tryLock()
{
    if (lock.tryLock(0))
        return true;
    if (lock.error() != QLockFile::LockFailedError)
        return false;
    // QLockFile takes over a lock whose holder's PID is gone. It cannot tell whose lock an
    // empty file is: a holder killed between creating the file and writing its PID into it
    // leaves one, and with no stale time it would be kept for ever. A live holder writes its
    // PID at once and keeps an flock() on the file, which makes removeStaleLockFile() fail.
    qint64 pid = 0;
    QString host;
    QString application;
    const QFileInfo info(path + QStringLiteral(".lock"));
    if (!lock.getLockInfo(&pid, &host, &application) && info.exists() &&
        info.lastModified().msecsTo(QDateTime::currentDateTime()) > unreadableLockAgeMs) {
        qCWarning(lcOutbox).noquote()
            << "the drain lock" << info.filePath() << "names no holder; taking it over";
        if (lock.removeStaleLockFile())
            return lock.tryLock(0);
        return false;
    }
    // To take over a dead holder's lock, QLockFile first takes "<lock>.rmlock", a QLockFile
    // of its own with a 30 s stale time: one left empty by a process killed while making it
    // would keep the dead holder's lock for that long. A live process holds it for
    // microseconds.
    const QString rmlockPath = path + QStringLiteral(".lock.rmlock");
    const QFileInfo rmlockInfo(rmlockPath);
    if (rmlockInfo.exists() &&
        rmlockInfo.lastModified().msecsTo(QDateTime::currentDateTime()) > unreadableLockAgeMs) {
        QLockFile rmlock(rmlockPath);
        if (!rmlock.getLockInfo(&pid, &host, &application) && rmlock.removeStaleLockFile()) {
            qCWarning(lcOutbox).noquote() << "removed" << rmlockPath << ", which names no holder";
            return lock.tryLock(0);
        }
    }
    return false;
}

void OutboxPrivate::releaseLock()
{
    if (lock.isLocked())
        lock.unlock();
}

bool OutboxPrivate::isExpired(const OutboxItem &item, qint64 now) const
{
    return settings.maxAgeMs > 0 && item.createdAt.isValid() &&
        now - item.createdAt.toMSecsSinceEpoch() > settings.maxAgeMs;
}

void OutboxPrivate::expire(qint64 now)
{
    Q_Q(Outbox);
    if (settings.maxAgeMs <= 0)
        return;
    const QList<qint64> expired = store.expire(now - settings.maxAgeMs, now);
    for (const qint64 id : expired) {
        qCInfo(lcOutbox) << "item" << id << "expired";
        Q_EMIT q->itemStateChanged(id, OutboxItem::State::DeadLetter);
        Q_EMIT q->itemDeadLettered(id, 0, QStringLiteral("expired"));
    }
}

void OutboxPrivate::drain()
{
    drainScheduled = false;
    if (!usable)
        return;
    if (draining) {
        drainAgain = true;
        return;
    }
    draining = true;
    const auto done = qScopeGuard([this] { draining = false; });

    do {
        drainAgain = false;
        const qint64 now = nowMs();
        if (!lock.isLocked()) {
            if (!tryLock()) {
                // Another outbox drains this file; look again later, while there is work.
                refreshCounts();
                if (counts.pending > 0 || settings.maxAgeMs > 0)
                    wakeTimer.start(int(std::clamp<qint64>(settings.lockRetryMs, 10, 60000)));
                return;
            }
            // Whoever marked items as being sent is gone (else we could not hold the lock).
            const int reset = store.resetSending();
            if (reset > 0)
                qCInfo(lcOutbox) << reset << "items left as being sent by a previous drainer are"
                                 << "queued again";
        }
        expire(now);

        bool waitingForReachability = false;
        if (manager && inFlight.size() < settings.maxConcurrentReplays) {
            const QList<OutboxItem> heads = store.dueHeads(now);
            if (heads.isEmpty() && !store.lastError().isEmpty())
                setLastError(store.lastError());
            Reachability *reachability = manager->reachability();
            for (const OutboxItem &head : heads) {
                if (inFlight.size() >= settings.maxConcurrentReplays)
                    break;
                if (inFlight.contains(head.id))
                    continue;
                if (!reachability->isReachable(head.url)) {
                    // Not spending attempts; a probe (if the backend alone says offline) or
                    // the simulated-offline switch will tell when it can go.
                    reachability->watch(head.url);
                    waitingForReachability = true;
                    continue;
                }
                if (!store.markSending(head.id))
                    continue; // superseded meanwhile, or the database refused
                if (unsettledSince.contains(head.id) && isChecked(head))
                    startCheck(head); // its earlier attempt may have taken effect: ask first
                else
                    send(head);
            }
        }
        // The same "now" as dueHeads(): an item that was not due then is counted as due
        // later, and the wake timer is armed for it (a timer may fire a little early).
        refreshCounts(now);
        if (inFlight.isEmpty())
            releaseLock();
        armWakeTimer(now, waitingForReachability);
    } while (drainAgain);
}

void OutboxPrivate::armWakeTimer(qint64 now, bool waitingForReachability)
{
    qint64 wait = -1;
    const auto consider = [&](qint64 ms) {
        if (ms >= 0 && (wait < 0 || ms < wait))
            wait = ms;
    };
    if (counts.nextAttemptAtMs > now)
        consider(counts.nextAttemptAtMs - now);
    if (settings.maxAgeMs > 0 && counts.oldestPendingCreatedMs > 0)
        consider(std::max<qint64>(0, counts.oldestPendingCreatedMs + settings.maxAgeMs - now + 1));
    if (waitingForReachability)
        consider(reachabilityRecheckMs);
    if (wait < 0) {
        wakeTimer.stop();
        return;
    }
    wakeTimer.start(int(std::min<qint64>(wait, std::numeric_limits<int>::max())));
}

void OutboxPrivate::send(const OutboxItem &item)
{
    Q_Q(Outbox);
    QNetworkRequest request(item.url);
    for (const auto &[name, value] : item.headers)
        request.setRawHeader(name, value);
    RetryPolicy policy = manager->retryPolicy();
    if (isChecked(item)) {
        // The server ignores keys: without one, the manager never sends it again once it
        // may have reached the server; the resend check decides instead.
        policy.addIdempotencyKey = false;
    } else {
        // The same key on every replay, in every run: the server applies the write once.
        request.setRawHeader(QByteArrayLiteral("Idempotency-Key"), item.idempotencyKey);
    }
    if (settings.replayDeadlineMs > 0 &&
        (policy.deadlineMs <= 0 || policy.deadlineMs > settings.replayDeadlineMs))
        policy.deadlineMs = settings.replayDeadlineMs;
    request.setAttribute(
        QNetworkRequest::Attribute(RetryingNetworkAccessManager::RetryPolicyAttribute),
        QVariant::fromValue(policy));
    if (signer)
        signer(request);

    QNetworkReply *reply = nullptr;
    if (item.method == "GET")
        reply = manager->get(request);
    else if (item.method == "DELETE" && item.body.isEmpty())
        reply = manager->deleteResource(request);
    else if (item.method == "PUT")
        reply = manager->put(request, item.body);
    else if (item.method == "POST")
        reply = manager->post(request, item.body);
    else
        reply = manager->sendCustomRequest(request, item.method, item.body);

    inFlight.insert(item.id, Flight { item, reply });
    const qint64 id = item.id;
    // Queued: a reply may finish before this returns, and drain() must not recurse into it.
    QObject::connect(
        reply, &QNetworkReply::finished, q, [this, id, reply] { replyFinished(id, reply); },
        Qt::QueuedConnection);
    if (auto *retrying = qobject_cast<RetryingReply *>(reply)) {
        QObject::connect(
            retrying, &RetryingReply::waitReasonChanged, q,
            [q, id](const WaitReason &reason) { Q_EMIT q->itemWaitReasonChanged(id, reason); });
    }
    qCDebug(lcOutbox) << "sending item" << id << item.method;
    Q_EMIT q->itemStateChanged(id, OutboxItem::State::Sending);
}

void OutboxPrivate::replyFinished(qint64 id, QNetworkReply *reply)
{
    Q_Q(Outbox);
    const auto found = inFlight.find(id);
    if (found == inFlight.end() || found->reply != reply)
        return;
    const OutboxItem item = found->item;
    inFlight.erase(found);
    reply->deleteLater();

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool success = (status >= 200 && status < 300) ||
        (status > 0 && successPredicate && successPredicate(item, status));
    if (success)
        unsettledSince.remove(id);
    else if (isChecked(item) && mayHaveReachedServer(reply, status))
        unsettledSince.insert(id, nowMs());
    if (success) {
        if (!store.remove(id)) {
            // Still marked as being sent: the next drainer queues it again, and the server
            // recognises its key.
            setLastError(store.lastError());
        } else {
            qCDebug(lcOutbox) << "item" << id << "delivered, HTTP" << status;
            refreshCounts(); // a slot of itemDelivered() sees it gone from pendingCount()
            Q_EMIT q->itemDelivered(id, status, reply->readAll());
        }
    } else if (const auto retry = status == 401 ? credentialsRetry(reply) : std::nullopt) {
        // The manager's Authenticator renews the credentials (once for every request): the
        // item keeps its place and goes again, signed anew. At once while a renewal runs
        // (the manager holds it behind the renewal); after the backoff once it was refused.
        retryLater(item, statusText(reply, status), *retry, false);
    } else if (status > 0 && retryLaterPredicate &&
               retryLaterPredicate(item, status, reply->request())) {
        // Not a refusal for good (an expired token being renewed): it keeps its place.
        retryLater(item, statusText(reply, status), -1, false);
    } else if (status == 409) {
        // The key is in use by a request the server is still working on: ask again later,
        // but not for ever (a 409 can also be a conflict that will not go away).
        const QByteArray retryAfter = reply->rawHeader(QByteArrayLiteral("Retry-After"));
        if (store.conflictCount(id) + 1 > settings.maxConflictRetries)
            deadLetter(item, status, reply->read(maxKeptResponseBytes),
                       statusText(reply, status) +
                           QStringLiteral(" (still in conflict after %1 tries)")
                               .arg(settings.maxConflictRetries + 1),
                       true);
        else
            retryLater(item, statusText(reply, status), RetryAfter::parse(retryAfter), true);
    } else if (status > 0 && manager &&
               manager->retryPolicy().retryableStatusCodes.contains(status)) {
        retryLater(item, statusText(reply, status),
                   RetryAfter::parse(reply->rawHeader(QByteArrayLiteral("Retry-After"))), false);
    } else if (status > 0) {
        QString reason = statusText(reply, status);
        if (status == 422)
            reason += QStringLiteral(" (refused; maybe the Idempotency-Key was used for "
                                     "another payload)");
        deadLetter(item, status, reply->read(maxKeptResponseBytes), reason, true);
    } else {
        // No HTTP answer: the manager gave up (deadline, limits) or the network failed in a
        // way it does not retry (TLS, a captive portal). The write is still wanted.
        retryLater(item, reply->errorString(), -1, false);
    }
    drain();
}

void OutboxPrivate::retryLater(const OutboxItem &item, const QString &error, qint64 retryAfterMs,
                               bool conflict)
{
    Q_Q(Outbox);
    const qint64 now = nowMs();
    if (isExpired(item, now)) {
        deadLetter(item, 0, QByteArray(), QStringLiteral("expired"), true);
        return;
    }
    const int failures = item.attempts + 1;
    const qint64 initial = std::max<qint64>(0, settings.initialRetryDelayMs);
    const qint64 cap = std::max(initial, settings.maxRetryDelayMs);
    qint64 base = initial;
    for (int i = 1; i < failures && base < cap; ++i)
        base *= 2;
    base = std::min(base, cap);
    // Equal jitter: never sooner than half the backoff, and clients that failed together
    // spread out.
    qint64 delay = base / 2 + (base > 1 ? QRandomGenerator::global()->bounded(base / 2 + 1) : 0);
    if (retryAfterMs >= 0) {
        const qint64 retryAfterCap = manager ? manager->retryPolicy().maxRetryAfterMs : cap;
        delay = std::min(retryAfterMs, std::max<qint64>(0, retryAfterCap));
    }
    if (!store.recordFailure(item.id, error, now + delay, conflict)) {
        setLastError(store.lastError());
        return;
    }
    qCInfo(lcOutbox).noquote() << "item" << item.id << "failed (" << error << "); again in" << delay
                               << "ms";
    setLastError(error);
    Q_EMIT q->itemStateChanged(item.id, OutboxItem::State::WaitingToRetry);
}

void OutboxPrivate::deadLetter(const OutboxItem &item, int status, const QByteArray &body,
                               const QString &reason, bool countAttempt)
{
    Q_Q(Outbox);
    if (!store.recordDeadLetter(item.id, status, body, reason, reason, countAttempt, nowMs())) {
        setLastError(store.lastError());
        return;
    }
    qCWarning(lcOutbox).noquote() << "item" << item.id << item.method
                                  << "is a dead letter:" << reason;
    setLastError(reason);
    Q_EMIT q->itemStateChanged(item.id, OutboxItem::State::DeadLetter);
    Q_EMIT q->itemDeadLettered(item.id, status, reason);
}

Outbox::Outbox(const QString &databasePath, RetryingNetworkAccessManager *manager, QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<OutboxPrivate>(this, databasePath, manager))
{
    Q_D(Outbox);
    d->wakeTimer.setSingleShot(true);
    d->wakeTimer.setTimerType(Qt::PreciseTimer); // a coarse one fires up to 5 % early
    connect(&d->wakeTimer, &QTimer::timeout, this, [d] { d->drain(); });

    const OutboxStore::OpenResult opened = d->store.open(databasePath, d->settings.fullSync);
    d->usable = opened.usable;
    d->recoveryReason = opened.recoveryReason;
    d->keptAsidePath = opened.keptAsidePath;
    d->openFailure = opened.failure;
    if (!opened.recoveryReason.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [this, reason = opened.recoveryReason, aside = opened.keptAsidePath] {
                Q_EMIT databaseRecovered(reason, aside);
            },
            Qt::QueuedConnection);
    }
    if (!d->usable) {
        d->lastError = opened.failure;
        QMetaObject::invokeMethod(
            this, [this, reason = opened.failure] { Q_EMIT openFailed(reason); },
            Qt::QueuedConnection);
        return;
    }
    OutboxStore::Counts counts;
    if (d->store.counts(&counts, nowMs()))
        d->counts = counts;

    if (manager) {
        // Every way the origin can come back: each only schedules a pass.
        Reachability *reachability = manager->reachability();
        connect(reachability, &Reachability::originReachabilityChanged, this,
                [d](const QString &, bool reachable) {
                    if (reachable)
                        d->scheduleDrain();
                });
        connect(reachability, &Reachability::stateChanged, this, [d] { d->scheduleDrain(); });
        connect(manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, this,
                [d] { d->scheduleDrain(); });
    }
    d->scheduleDrain();
}

Outbox::~Outbox()
{
    Q_D(Outbox);
    d->wakeTimer.stop();
    // Replays in flight are abandoned; the items stay, and the next run sends them again
    // with their keys.
    const auto flights = d->inFlight;
    d->inFlight.clear();
    for (const auto &flight : flights) {
        if (flight.reply) {
            flight.reply->disconnect(this);
            flight.reply->abort();
            flight.reply->deleteLater();
        }
    }
    if (d->usable && d->lock.isLocked())
        d->store.resetSending();
    d->releaseLock();
    d->store.close();
}

QString Outbox::databasePath() const
{
    Q_D(const Outbox);
    return d->path;
}

bool Outbox::isUsable() const
{
    Q_D(const Outbox);
    return d->usable;
}

QString Outbox::recoveryReason() const
{
    Q_D(const Outbox);
    return d->recoveryReason;
}

Outbox::Settings Outbox::settings() const
{
    Q_D(const Outbox);
    return d->settings;
}

void Outbox::setSettings(const Settings &settings)
{
    Q_D(Outbox);
    const Settings old = d->settings;
    d->settings = settings;
    d->settings.maxConcurrentReplays = std::max(1, settings.maxConcurrentReplays);
    if (!d->usable)
        return;
    if (old.maxDatabaseBytes != settings.maxDatabaseBytes &&
        !d->store.setMaxDatabaseBytes(settings.maxDatabaseBytes))
        d->setLastError(d->store.lastError());
    d->store.setSynchronousFull(settings.fullSync);
    d->scheduleDrain();
}

void Outbox::setRetryLaterPredicate(
    std::function<bool(const OutboxItem &, int, const QNetworkRequest &)> predicate)
{
    Q_D(Outbox);
    d->retryLaterPredicate = std::move(predicate);
}

void Outbox::setSigner(std::function<void(QNetworkRequest &)> signer)
{
    Q_D(Outbox);
    d->signer = std::move(signer);
}

void Outbox::setSuccessPredicate(std::function<bool(const OutboxItem &, int)> predicate)
{
    Q_D(Outbox);
    d->successPredicate = std::move(predicate);
}

bool Outbox::deleteGoneIsSuccess(const OutboxItem &item, int httpStatus)
{
    return item.method == "DELETE" && (httpStatus == 404 || httpStatus == 410);
}

OutboxEnqueueResult Outbox::enqueue(const QByteArray &method, const QNetworkRequest &request,
                                    const QByteArray &body, const OutboxEnqueueOptions &options)
{
    Q_D(Outbox);
    OutboxEnqueueResult result;
    const auto refuse = [&](OutboxError error, const QString &text) {
        result.error = error;
        result.errorString = text;
        qCWarning(lcOutbox).noquote() << "enqueue refused:" << text;
        return result;
    };
    if (!d->usable)
        return refuse(OutboxError::DatabaseUnusable,
                      QStringLiteral("the outbox database is not usable: ") + d->openFailure);
    const QUrl url = request.url();
    if (method.trimmed().isEmpty() || !url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return refuse(OutboxError::InvalidRequest,
                      QStringLiteral("a write needs a method and an absolute http(s) URL"));
    if (!url.password().isEmpty())
        return refuse(OutboxError::InvalidRequest,
                      QStringLiteral("the URL carries a password, which would be stored; add "
                                     "credentials in the signer"));
    if (body.size() > d->settings.maxBodyBytes)
        return refuse(OutboxError::BodyTooLarge,
                      QStringLiteral("the body has %1 bytes, more than the %2 an item may hold")
                          .arg(body.size())
                          .arg(d->settings.maxBodyBytes));

    OutboxItem item;
    item.method = method.trimmed().toUpper();
    item.url = url;
    item.body = body;
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names) {
        if (name.compare("Idempotency-Key", Qt::CaseInsensitive) == 0) {
            item.idempotencyKey = request.rawHeader(name).trimmed();
            continue;
        }
        if (isCredentialName(name))
            continue; // the signer adds credentials at send time; none go to the disk
        item.headers.append({ name, request.rawHeader(name) });
    }
    if (item.idempotencyKey.isEmpty())
        item.idempotencyKey = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    item.resourceKey =
        options.resourceKey.isEmpty() ? Reachability::originOf(url) : options.resourceKey;
    item.coalescingKey = options.coalescingKey;
    item.createdAt = QDateTime::currentDateTimeUtc();

    const OutboxStore::InsertResult inserted = d->store.insert(item, options.cancelsEarlierChanges);
    if (inserted.error != OutboxError::NoError) {
        d->setLastError(inserted.errorString);
        return refuse(inserted.error, inserted.errorString);
    }
    result.id = inserted.id;
    result.superseded = inserted.superseded;
    if (inserted.existing)
        return result;
    for (const qint64 old : inserted.superseded)
        Q_EMIT itemSuperseded(old, inserted.id);
    Q_EMIT itemAdded(inserted.id);
    Q_EMIT itemStateChanged(inserted.id, OutboxItem::State::Queued);
    d->refreshCounts();
    d->scheduleDrain();
    return result;
}

void Outbox::flush()
{
    Q_D(Outbox);
    if (!d->usable)
        return;
    if (!d->store.clearRetryTimes())
        d->setLastError(d->store.lastError());
    d->scheduleDrain();
}

int Outbox::pendingCount() const
{
    Q_D(const Outbox);
    return d->counts.pending;
}

int Outbox::pendingCountIn(const QString &databasePath)
{
    return OutboxStore::peekPendingCount(databasePath);
}

int Outbox::deadLetterCount() const
{
    Q_D(const Outbox);
    return d->counts.dead;
}

qint64 Outbox::oldestPendingAgeMs() const
{
    Q_D(const Outbox);
    if (d->counts.pending == 0 || d->counts.oldestPendingCreatedMs < 0)
        return -1;
    return std::max<qint64>(0, nowMs() - d->counts.oldestPendingCreatedMs);
}

QString Outbox::lastError() const
{
    Q_D(const Outbox);
    return d->lastError;
}

QList<OutboxItem> Outbox::items() const
{
    Q_D(const Outbox);
    return d->usable ? const_cast<OutboxStore &>(d->store).items(false) : QList<OutboxItem>();
}

QList<OutboxItem> Outbox::deadLetters() const
{
    Q_D(const Outbox);
    return d->usable ? const_cast<OutboxStore &>(d->store).items(true) : QList<OutboxItem>();
}

OutboxItem Outbox::item(qint64 id) const
{
    Q_D(const Outbox);
    return d->usable ? const_cast<OutboxStore &>(d->store).item(id) : OutboxItem();
}

OutboxItem::State Outbox::resourceState(const QString &resourceKey) const
{
    Q_D(const Outbox);
    if (!d->usable)
        return OutboxItem::State::Queued;
    OutboxStore &store = const_cast<OutboxStore &>(d->store);
    const OutboxItem head = store.resourceHead(resourceKey);
    if (head.id != 0)
        return head.state;
    return store.hasDeadLetters(resourceKey) ? OutboxItem::State::DeadLetter
                                             : OutboxItem::State::Queued;
}

int Outbox::pendingCount(const QString &resourceKey) const
{
    Q_D(const Outbox);
    return d->usable ? const_cast<OutboxStore &>(d->store).pendingCount(resourceKey) : 0;
}

bool Outbox::hasDeadLetters(const QString &resourceKey) const
{
    Q_D(const Outbox);
    return d->usable && const_cast<OutboxStore &>(d->store).hasDeadLetters(resourceKey);
}

bool Outbox::discard(qint64 id)
{
    Q_D(Outbox);
    if (!d->usable || !d->store.discard(id))
        return false;
    d->refreshCounts();
    return true;
}

bool Outbox::cancel(qint64 id)
{
    Q_D(Outbox);
    if (!d->usable || d->inFlight.contains(id) || !d->store.cancel(id))
        return false;
    Q_EMIT itemCancelled(id);
    d->refreshCounts();
    return true;
}

bool Outbox::requeue(qint64 id)
{
    Q_D(Outbox);
    if (!d->usable || !d->store.requeue(id))
        return false;
    Q_EMIT itemStateChanged(id, OutboxItem::State::Queued);
    d->refreshCounts();
    d->scheduleDrain();
    return true;
}

WaitReason Outbox::waitReason(qint64 id) const
{
    Q_D(const Outbox);
    const auto flight = d->inFlight.constFind(id);
    if (flight != d->inFlight.cend()) {
        const auto *retrying = qobject_cast<const RetryingReply *>(flight->reply.data());
        return retrying && !flight->checking ? retrying->waitReason() : WaitReason();
    }
    const OutboxItem it = item(id);
    if (it.id == 0)
        return WaitReason();
    switch (it.state) {
    case OutboxItem::State::WaitingToRetry: {
        const qint64 inMs = QDateTime::currentDateTimeUtc().msecsTo(it.nextAttemptAt);
        return inMs > 0 ? WaitReason::backoff(it.url, inMs) : WaitReason();
    }
    case OutboxItem::State::Queued:
    case OutboxItem::State::Sending: {
        Reachability *reachability = d->manager ? d->manager->reachability() : nullptr;
        if (!reachability)
            return WaitReason();
        if (reachability->state() == Reachability::State::Offline)
            return WaitReason::offline(it.url);
        return reachability->isReachable(it.url) ? WaitReason() : WaitReason::unreachable(it.url);
    }
    case OutboxItem::State::DeadLetter:
        break;
    }
    return WaitReason();
}

} // namespace KeepTrying
