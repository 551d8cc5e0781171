// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "retrybannercontroller_p.h"

#include "logging_p.h"

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <climits>

namespace KeepTrying {

bool RetryBannerControllerPrivate::wantsReply(QNetworkReply *reply) const
{
    const QVariant mark = reply->request().attribute(
        static_cast<QNetworkRequest::Attribute>(RetryBannerController::UserWaitingAttribute));
    if (mark.isValid())
        return mark.toBool();
    return mode == RetryBannerController::TrackAllReplies;
}

// Does not update(): callers do once they are done with the entry, since a slot of
// situationChanged() may end the reply and so erase it.
RetryBannerControllerPrivate::Entry *RetryBannerControllerPrivate::entryFor(QNetworkReply *reply,
                                                                            bool create)
{
    auto it = entries.find(reply);
    if (it != entries.end())
        return &it.value();
    if (!create || reply->isFinished())
        return nullptr;

    Q_Q(RetryBannerController);
    Entry &entry = entries[reply];
    entry.running.start();
    entry.origin = Reachability::originOf(reply->url());
    QUrl server; // host and port only: never a user name or password
    server.setHost(reply->url().host());
    server.setPort(reply->url().port());
    entry.server = server.authority();
    // Owned by the controller; deleted later, as forget() can run inside its timeout().
    entry.thresholdTimer = new QTimer(q);
    entry.thresholdTimer->setSingleShot(true);
    // A coarse timer may fire 5 % early: the banner would show before the threshold.
    entry.thresholdTimer->setTimerType(Qt::PreciseTimer);
    QObject::connect(entry.thresholdTimer, &QTimer::timeout, q, [this, reply] {
        if (Entry *e = entryFor(reply, false)) {
            e->overThreshold = true;
            update();
        }
    });
    armThreshold(entry);

    entry.connections << QObject::connect(reply, &QNetworkReply::finished, q,
                                          [this, reply] { forget(reply); });
    entry.connections << QObject::connect(reply, &QObject::destroyed, q,
                                          [this, reply] { forget(reply); });
    if (auto *retrying = qobject_cast<RetryingReply *>(reply)) {
        entry.connections << QObject::connect(
            retrying, &RetryingReply::waitingForConnectivityChanged, q,
            [this, reply](bool waiting) { setWaitingForConnectivity(reply, waiting); });
        if (retrying->isWaitingForConnectivity())
            entry.waitingSince.start();
        entry.reason = retrying->waitReason();
    }
    qCDebug(lcBanner) << "watching" << reply;
    Q_EMIT q->trackedCountChanged(int(entries.size()));
    return &entry;
}

void RetryBannerControllerPrivate::armThreshold(Entry &entry)
{
    const qint64 remaining = thresholdMs - entry.running.elapsed();
    if (remaining <= 0) {
        entry.thresholdTimer->stop();
        entry.overThreshold = true;
    } else {
        entry.overThreshold = false;
        entry.thresholdTimer->start(int(remaining));
    }
}

void RetryBannerControllerPrivate::setWaitingForConnectivity(QNetworkReply *reply, bool waiting)
{
    Entry *entry = entryFor(reply, false);
    if (!entry || entry->waitingSince.isValid() == waiting)
        return;
    if (waiting)
        entry->waitingSince.start();
    else
        entry->waitingSince.invalidate();
    update();
}

void RetryBannerControllerPrivate::followReachability()
{
    // The manager may have been given another Reachability since the last look.
    Reachability *current = manager ? manager->reachability() : nullptr;
    if (current == reachability)
        return;
    for (const QMetaObject::Connection &c : std::as_const(reachabilityConnections))
        QObject::disconnect(c);
    reachabilityConnections.clear();
    reachability = current;
    if (current) {
        Q_Q(RetryBannerController);
        reachabilityConnections << QObject::connect(
            current, &Reachability::stateChanged, q, [this] {
                // Qt's "no network" was for then.
                faults.removeIf([](const auto &it) { return it.value() == Fault::NoNetwork; });
                update();
            });
        reachabilityConnections << QObject::connect(current,
                                                    &Reachability::originReachabilityChanged, q,
                                                    [this](const QString &origin, bool reachable) {
                                                        if (reachable && faults.remove(origin))
                                                            update();
                                                    });
    }
}

RetryBannerControllerPrivate::Fault RetryBannerControllerPrivate::faultOf(const WaitReason &reason)
{
    if (reason.kind() == WaitReason::Offline)
        return Fault::NoNetwork;
    if (reason.isProxyFault())
        return Fault::Proxy;
    switch (reason.networkError()) {
    case QNetworkReply::ConnectionRefusedError:
        return Fault::Refused;
    case QNetworkReply::HostNotFoundError:
        return Fault::HostNotFound;
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
        return Fault::NoNetwork; // Qt found no network
    default:
        return Fault::CannotConnect;
    }
}

namespace {
// Whether \a reply's requests go through a proxy (the manager's, its factory's, or the
// application's, which may be the system's): then a connection that fails is the proxy's.
bool throughProxy(const QNetworkReply *reply)
{
    const QNetworkAccessManager *manager = reply->manager();
    QNetworkProxy proxy = manager ? manager->proxy() : QNetworkProxy();
    if (proxy.type() == QNetworkProxy::DefaultProxy) {
        const QNetworkProxyQuery query(reply->url());
        proxy = (manager && manager->proxyFactory() ? manager->proxyFactory()->queryProxy(query)
                                                    : QNetworkProxyFactory::proxyForQuery(query))
                    .value(0);
    }
    return proxy.type() == QNetworkProxy::HttpProxy ||
        proxy.type() == QNetworkProxy::HttpCachingProxy ||
        proxy.type() == QNetworkProxy::Socks5Proxy;
}
} // namespace

void RetryBannerControllerPrivate::noteWaitReason(QNetworkReply *reply, const WaitReason &reason)
{
    const QString origin = Reachability::originOf(reply->url());
    // An HTTP status proves the server answered: nothing to say about reaching it.
    if (reason.httpStatus() > 0) {
        faults.remove(origin);
    } else if (reason.hasFault() || reason.kind() == WaitReason::Offline) {
        Fault fault = faultOf(reason);
        // Through a proxy, the connection Qt makes is to the proxy: refused, or its name
        // unknown, Qt says so as if of the server (a server behind a working proxy that does
        // not answer is the proxy's 502/504, a status). A timeout may be either's: kept.
        if ((fault == Fault::Refused || fault == Fault::HostNotFound) && throughProxy(reply))
            fault = Fault::Proxy;
        faults.insert(origin, fault);
    }
    if (Entry *entry = entryFor(reply, false)) {
        entry->reason = reason;
        switch (reason.kind()) {
        case WaitReason::RetryAfter:
        case WaitReason::BreakerOpen:
        case WaitReason::BudgetExhausted:
            entry->serverBusy = true;
            break;
        case WaitReason::Backoff:
            entry->serverBusy = reason.httpStatus() > 0;
            break;
        case WaitReason::None:
            break; // an attempt in flight: the last wait still says whose side it is
        default:
            entry->serverBusy = false;
            break;
        }
    }
}

bool RetryBannerControllerPrivate::networkOffline() const
{
    return reachability && reachability->state() == Reachability::State::Offline;
}

void RetryBannerControllerPrivate::forget(QNetworkReply *reply)
{
    auto it = entries.find(reply);
    if (it == entries.end())
        return;
    for (const QMetaObject::Connection &c : std::as_const(it->connections))
        QObject::disconnect(c);
    it->thresholdTimer->stop();
    it->thresholdTimer->disconnect();
    it->thresholdTimer->deleteLater();
    entries.erase(it);
    Q_Q(RetryBannerController);
    Q_EMIT q->trackedCountChanged(int(entries.size()));
    update();
}

void RetryBannerControllerPrivate::forgetAll()
{
    const auto replies = entries.keys();
    for (QNetworkReply *reply : replies)
        forget(reply);
}

void RetryBannerControllerPrivate::update()
{
    followReachability();
    const bool offlineNetwork = networkOffline();
    bool offline = false;
    bool slow = false;
    bool busy = false;
    const Entry *unreachable = nullptr; // the one that has waited longest
    const Entry *longestWaiting = nullptr; // of those whose wait reason is not None
    qint64 nextOfflineCheck = -1; // ms until a waiting reply reaches offlineThresholdMs
    for (const Entry &entry : std::as_const(entries)) {
        if (entry.reason.isWaiting() &&
            (!longestWaiting || entry.running.elapsed() > longestWaiting->running.elapsed()))
            longestWaiting = &entry;
        // With the network known to be down, every unfinished request waits for it.
        const auto fault = faults.constFind(entry.origin);
        if (offlineNetwork || (fault != faults.cend() && *fault == Fault::NoNetwork)) {
            offline = true;
            continue; // no break: the longest wait is still looked for
        }
        if (entry.waitingSince.isValid()) {
            const qint64 remaining = offlineThresholdMs - entry.waitingSince.elapsed();
            if (remaining <= 0) {
                if (!unreachable ||
                    entry.waitingSince.elapsed() > unreachable->waitingSince.elapsed())
                    unreachable = &entry;
            } else {
                nextOfflineCheck =
                    nextOfflineCheck < 0 ? remaining : std::min(nextOfflineCheck, remaining);
            }
        }
        // Retried, waiting or just slow to answer: the user has waited too long either way.
        if (entry.overThreshold) {
            slow = true;
            busy = busy || entry.serverBusy;
        }
    }
    if (!offline && !unreachable && nextOfflineCheck >= 0)
        offlineTimer.start(int(std::min<qint64>(nextOfflineCheck, INT_MAX)));
    else
        offlineTimer.stop();

    Q_Q(RetryBannerController);
    using Situation = RetryBannerController::Situation;
    const Situation wanted = offline ? RetryBannerController::Offline
        : unreachable                ? RetryBannerController::Unreachable
        : busy                       ? RetryBannerController::ServerBusy
        : slow                       ? RetryBannerController::Slow
                                     : RetryBannerController::Hidden;
    // Between the situations that are the controller's reading of a wait (slow, server
    // busy, unreachable), one stays at least dwellMs: a retry that flaps between "can't
    // reach" and "taking longer" must not make the words flap. Offline (a fact of the
    // user's side) and Hidden (the wait is over) apply at once.
    const auto guessed = [](Situation s) {
        return s == RetryBannerController::Slow || s == RetryBannerController::ServerBusy ||
            s == RetryBannerController::Unreachable;
    };
    Situation now = wanted;
    dwellTimer.stop();
    // Slow is what is said while nothing is known. Once a wait has a known cause (the server
    // can't be reached, or is busy), an attempt that is merely under way again is no news:
    // the cause stays on screen until the wait ends, the network goes, or another cause is
    // known. A connection that drops again and again reads as one message, not two in turn.
    if (wanted == RetryBannerController::Slow &&
        (situation == RetryBannerController::Unreachable ||
         situation == RetryBannerController::ServerBusy))
        now = situation;
    else if (wanted != situation && guessed(wanted) && guessed(situation) && dwellMs > 0 &&
             situationSince.isValid()) {
        const qint64 left = dwellMs - situationSince.elapsed();
        if (left > 0) {
            now = situation;
            dwellTimer.start(int(std::min<qint64>(left, INT_MAX)));
        }
    }

    QString server;
    RetryBannerController::UnreachableReason reason = RetryBannerController::CannotConnect;
    if (now == RetryBannerController::Unreachable && wanted != RetryBannerController::Unreachable) {
        server = unreachableServer; // held by the dwell: the words stay as they were
        reason = unreachableReason;
    } else if (now == RetryBannerController::Unreachable) {
        server = unreachable->server;
        switch (faults.value(unreachable->origin, Fault::CannotConnect)) {
        case Fault::Refused:
            reason = RetryBannerController::ConnectionRefused;
            break;
        case Fault::HostNotFound:
            reason = RetryBannerController::HostNotFound;
            break;
        case Fault::Proxy:
            reason = RetryBannerController::ProxyFailed;
            break;
        case Fault::CannotConnect:
        case Fault::NoNetwork:
            break;
        }
    }
    if (server != unreachableServer || reason != unreachableReason) {
        unreachableServer = server;
        unreachableReason = reason;
        Q_EMIT q->unreachableServerChanged();
    }

    const WaitReason reasonNow = now != RetryBannerController::Hidden && longestWaiting
        ? longestWaiting->reason
        : WaitReason();
    if (reasonNow != waitReason) {
        waitReason = reasonNow;
        Q_EMIT q->waitReasonChanged(reasonNow);
    }

    // The words first, so that a slot of situationChanged() or shouldShowChanged() reads them.
    const QString words = RetryBannerController::textFor(now, unreachableReason);
    if (words != text) {
        text = words;
        Q_EMIT q->textChanged(words);
    }
    if (now != situation) {
        situation = now;
        situationSince.start();
        qCDebug(lcBanner) << "situation" << now << unreachableServer;
        Q_EMIT q->situationChanged(now);
        // Read situation again: a slot of situationChanged() may have changed it already.
        const bool show = situation != RetryBannerController::Hidden;
        if (show != shouldShow) {
            shouldShow = show;
            Q_EMIT q->shouldShowChanged(show);
        }
    }
}

RetryBannerController::RetryBannerController(QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<RetryBannerControllerPrivate>(this))
{
    Q_D(RetryBannerController);
    d->offlineTimer.setSingleShot(true);
    connect(&d->offlineTimer, &QTimer::timeout, this, [d] { d->update(); });
    d->dwellTimer.setSingleShot(true);
    d->dwellTimer.setTimerType(Qt::PreciseTimer);
    connect(&d->dwellTimer, &QTimer::timeout, this, [d] { d->update(); });
}

RetryBannerController::~RetryBannerController()
{
    Q_D(RetryBannerController);
    // Disconnect before the members go, so no lambda runs on a half-destroyed controller.
    for (const QMetaObject::Connection &c : std::as_const(d->managerConnections))
        disconnect(c);
    for (const QMetaObject::Connection &c : std::as_const(d->reachabilityConnections))
        disconnect(c);
    for (const auto &connections : std::as_const(d->extraManagers)) {
        for (const QMetaObject::Connection &c : connections)
            disconnect(c);
    }
    d->offlineTimer.stop();
    d->dwellTimer.stop();
    for (auto &entry : d->entries) {
        for (const QMetaObject::Connection &c : std::as_const(entry.connections))
            disconnect(c);
    }
}

void RetryBannerController::setManager(RetryingNetworkAccessManager *manager)
{
    Q_D(RetryBannerController);
    if (d->manager == manager)
        return;
    for (const QMetaObject::Connection &c : std::as_const(d->managerConnections))
        disconnect(c);
    d->managerConnections.clear();
    d->forgetAll();
    d->faults.clear();
    d->manager = manager;
    d->followReachability();
    if (!manager) {
        d->update();
        return;
    }

    d->managerConnections = d->connectManager(manager);
    d->managerConnections << connect(manager, &QObject::destroyed, this, [d] {
        d->managerConnections.clear();
        d->forgetAll();
    });
}

QList<QMetaObject::Connection>
RetryBannerControllerPrivate::connectManager(RetryingNetworkAccessManager *manager)
{
    Q_Q(RetryBannerController);
    QList<QMetaObject::Connection> c;
    c << QObject::connect(manager, &RetryingNetworkAccessManager::attemptStarted, q,
                          [d = this](QNetworkReply *reply) {
                              if (!d->wantsReply(reply) && !d->entryFor(reply, false))
                                  return;
                              d->entryFor(reply, true);
                              d->update(); // a new entry may change the situation
                          });
    // The typed reason says whose side a wait is on; its fault, what the last attempt met.
    c << QObject::connect(manager, &RetryingNetworkAccessManager::waitReasonChanged, q,
                          [d = this](QNetworkReply *reply, const WaitReason &reason) {
                              const bool retry = reason.kind() == WaitReason::Backoff ||
                                  reason.kind() == WaitReason::RetryAfter;
                              if (retry && (d->wantsReply(reply) || d->entryFor(reply, false)))
                                  d->entryFor(reply, true); // a retried request counts from here
                              d->noteWaitReason(reply, reason);
                              if (d->entryFor(reply, false))
                                  d->update();
                          });
    // finished() follows gaveUp(); nothing to do here but be sure the reply is let go.
    c << QObject::connect(manager, &RetryingNetworkAccessManager::gaveUp, q,
                          [d = this](QNetworkReply *reply) {
                              if (reply->isFinished())
                                  d->forget(reply);
                          });
    c << QObject::connect(
        manager, &RetryingNetworkAccessManager::waitingForConnectivity, q,
        [d = this](QNetworkReply *reply, bool waiting) {
            if (!d->wantsReply(reply) && !d->entryFor(reply, false))
                return;
            if (!d->entryFor(reply, waiting))
                return; // a reply first seen as it stops waiting: nothing to show for it
            d->setWaitingForConnectivity(reply, waiting);
            d->update(); // also when the entry was made already waiting
        });
    // Every attempt is a reply of the manager's own: one that got an HTTP status shows its
    // server answers, whatever the last connectivity fault to it was.
    c << QObject::connect(
        manager, &QNetworkAccessManager::finished, q, [d = this](QNetworkReply *reply) {
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid())
                d->faults.remove(Reachability::originOf(reply->url()));
        });
    // Simulated offline may be switched on a Reachability shared after setManager().
    c << QObject::connect(manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, q,
                          [d = this] {
                              // A wait that spanned the switch says nothing of the
                              // server: it starts again, or a healthy server would
                              // be named unreachable the moment QA goes online.
                              for (auto &entry : d->entries) {
                                  if (entry.waitingSince.isValid())
                                      entry.waitingSince.start();
                              }
                              d->update();
                          });
    return c;
}

void RetryBannerController::addManager(RetryingNetworkAccessManager *manager)
{
    Q_D(RetryBannerController);
    if (!manager || manager == d->manager || d->extraManagers.contains(manager))
        return;
    QList<QMetaObject::Connection> connections = d->connectManager(manager);
    connections << connect(manager, &QObject::destroyed, this,
                           [this, manager] { removeManager(manager); });
    d->extraManagers.insert(manager, connections);
}

void RetryBannerController::removeManager(RetryingNetworkAccessManager *manager)
{
    Q_D(RetryBannerController);
    const auto connections = d->extraManagers.take(manager);
    for (const QMetaObject::Connection &c : connections)
        disconnect(c);
}

RetryingNetworkAccessManager *RetryBannerController::manager() const
{
    Q_D(const RetryBannerController);
    return d->manager;
}

void RetryBannerController::track(QNetworkReply *reply)
{
    Q_D(RetryBannerController);
    if (reply)
        d->entryFor(reply, true);
    d->update();
}

void RetryBannerController::markUserWaiting(QNetworkRequest &request, bool waiting)
{
    request.setAttribute(static_cast<QNetworkRequest::Attribute>(UserWaitingAttribute), waiting);
}

bool RetryBannerController::isOffline() const
{
    Q_D(const RetryBannerController);
    return d->situation == Offline;
}

QString RetryBannerController::text() const
{
    Q_D(const RetryBannerController);
    return d->text;
}

WaitReason RetryBannerController::waitReason() const
{
    Q_D(const RetryBannerController);
    return d->waitReason;
}

bool RetryBannerController::shouldShow() const
{
    Q_D(const RetryBannerController);
    return d->situation != Hidden;
}

RetryBannerController::Situation RetryBannerController::situation() const
{
    Q_D(const RetryBannerController);
    return d->situation;
}

int RetryBannerController::offlineThresholdMs() const
{
    Q_D(const RetryBannerController);
    return d->offlineThresholdMs;
}

void RetryBannerController::setOfflineThresholdMs(int thresholdMs)
{
    Q_D(RetryBannerController);
    thresholdMs = qMax(0, thresholdMs);
    if (d->offlineThresholdMs == thresholdMs)
        return;
    d->offlineThresholdMs = thresholdMs;
    Q_EMIT offlineThresholdMsChanged(thresholdMs);
    d->update();
}

int RetryBannerController::dwellMs() const
{
    Q_D(const RetryBannerController);
    return d->dwellMs;
}

void RetryBannerController::setDwellMs(int dwellMs)
{
    Q_D(RetryBannerController);
    dwellMs = qMax(0, dwellMs);
    if (d->dwellMs == dwellMs)
        return;
    d->dwellMs = dwellMs;
    Q_EMIT dwellMsChanged(dwellMs);
    d->update();
}

int RetryBannerController::thresholdMs() const
{
    Q_D(const RetryBannerController);
    return d->thresholdMs;
}

void RetryBannerController::setThresholdMs(int thresholdMs)
{
    Q_D(RetryBannerController);
    thresholdMs = qMax(0, thresholdMs);
    if (d->thresholdMs == thresholdMs)
        return;
    d->thresholdMs = thresholdMs;
    for (auto &entry : d->entries)
        d->armThreshold(entry);
    Q_EMIT thresholdMsChanged(thresholdMs);
    d->update();
}

RetryBannerController::TrackingMode RetryBannerController::trackingMode() const
{
    Q_D(const RetryBannerController);
    return d->mode;
}

void RetryBannerController::setTrackingMode(TrackingMode mode)
{
    Q_D(RetryBannerController);
    if (d->mode == mode)
        return;
    d->mode = mode;
    Q_EMIT trackingModeChanged(mode);
}

int RetryBannerController::trackedCount() const
{
    Q_D(const RetryBannerController);
    return int(d->entries.size());
}

QString RetryBannerController::unreachableServer() const
{
    Q_D(const RetryBannerController);
    return d->unreachableServer;
}

RetryBannerController::UnreachableReason RetryBannerController::unreachableReason() const
{
    Q_D(const RetryBannerController);
    return d->unreachableReason;
}

int RetryBannerController::waitingForConnectivityCount() const
{
    Q_D(const RetryBannerController);
    return int(std::count_if(d->entries.cbegin(), d->entries.cend(),
                             [](const auto &entry) { return entry.waitingSince.isValid(); }));
}

} // namespace KeepTrying
