// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/reachability.h>

#include "logging_p.h"
#include "networkinformationbackend_p.h"
#include "probeproxyfactory_p.h"
#include "reachability_p.h"

#include <QtCore/QRandomGenerator>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <climits>
#include <iterator>

namespace KeepTrying {

namespace {

// Nothing accepted the connection: a connect will show when something does.
bool isRefused(QNetworkReply::NetworkError error)
{
    return error == QNetworkReply::ConnectionRefusedError ||
        error == QNetworkReply::ProxyConnectionRefusedError;
}

bool isTimeout(QNetworkReply::NetworkError error)
{
    // A failed attempt reports no cancel of ours: OperationCanceledError is Qt's transfer
    // timeout.
    return error == QNetworkReply::TimeoutError || error == QNetworkReply::OperationCanceledError;
}

// The first hop of a request to \a url through the first of \a proxies it can use, as
// QNetworkAccessManager chooses (Qt 6.4, QNetworkReplyHttpImplPrivate::postRequest): a plain
// http request goes to an HTTP proxy itself, everything else through a tunnel (none, SOCKS5,
// or an HTTP proxy's CONNECT). No hop: no proxy fits, connects cannot tell.
std::optional<ReachabilityPrivate::ConnectRoute> connectRoute(const QUrl &url,
                                                              const QList<QNetworkProxy> &proxies)
{
    const bool tls = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    const quint16 port = quint16(url.port(tls ? 443 : 80));
    for (const QNetworkProxy &proxy : proxies) {
        const bool forwarding = proxy.type() == QNetworkProxy::HttpProxy ||
            proxy.type() == QNetworkProxy::HttpCachingProxy;
        if (!tls && forwarding && (proxy.capabilities() & QNetworkProxy::CachingCapability))
            return ReachabilityPrivate::ConnectRoute { proxy.hostName(), proxy.port(),
                                                       QNetworkProxy(QNetworkProxy::NoProxy) };
        if (proxy.capabilities() & QNetworkProxy::TunnelingCapability)
            return ReachabilityPrivate::ConnectRoute { url.host(), port, proxy };
    }
    return std::nullopt;
}

} // namespace

Reachability::Reachability(QObject *parent) : QObject(parent), d_ptr(new ReachabilityPrivate(this))
{
    Q_D(Reachability);
    d->simulatedOffline =
        qEnvironmentVariableIntValue("KEEPTRYING_SIMULATE_OFFLINE") == 1; // not shared yet
    d->ownBackend = NetworkInformationBackend::create(this);
    if (d->ownBackend)
        qCInfo(lcReachability) << "using the QNetworkInformation backend" << d->ownBackend->name();
    else
        qCInfo(lcReachability) << "no QNetworkInformation backend loaded: reachability comes "
                                  "from probes and request outcomes only";
    setBackend(d->ownBackend);
    if (d->simulatedOffline)
        qCInfo(lcReachability) << "simulated offline mode on (KEEPTRYING_SIMULATE_OFFLINE)";
}

Reachability::~Reachability() = default;

void Reachability::setBackend(ReachabilityBackend *backend)
{
    Q_D(Reachability);
    if (d->backend)
        disconnect(d->backend, nullptr, this, nullptr);
    d->backend = backend;
    if (backend) {
        connect(backend, &ReachabilityBackend::stateChanged, this,
                [d](ReachabilityBackend::State state) { d->setBackendState(state); });
        connect(backend, &ReachabilityBackend::behindCaptivePortalChanged, this,
                &Reachability::behindCaptivePortalChanged);
    }
    d->setBackendState(backend ? backend->state() : ReachabilityBackend::Unknown);
}

QString Reachability::backendName() const
{
    Q_D(const Reachability);
    return d->backend ? d->backend->name() : QString();
}

Reachability::State Reachability::state() const
{
    Q_D(const Reachability);
    const QMutexLocker lock(&d->mutex);
    if (d->simulatedOffline)
        return ReachabilityBackend::Offline;
    return d->lastState;
}

void ReachabilityPrivate::setBackendState(ReachabilityBackend::State state)
{
    Q_Q(Reachability);
    const Reachability::State before = q->state();
    QMutexLocker lock(&mutex);
    const ReachabilityBackend::State previousBackendState = lastState;
    lastState = state;
    if (state == ReachabilityBackend::Offline && previousBackendState != state) {
        backendOfflineSince.start();
        provenWhileOffline.clear(); // new evidence: what answered before must answer again
    }
    const QStringList keys = unreachableKeys.values();
    lock.unlock();
    if (state == ReachabilityBackend::Online &&
        previousBackendState == ReachabilityBackend::Offline) {
        // Back on a network: what was unreachable may well be reachable now; let the
        // waiting requests find out at once rather than wait for the next probe.
        for (const QString &key : keys)
            markReachable(key);
    }
    const Reachability::State after = q->state();
    if (after != before) {
        qCInfo(lcReachability) << "network state" << before << "->" << after;
        Q_EMIT q->stateChanged(after);
    }
}

bool Reachability::isBehindCaptivePortal() const
{
    Q_D(const Reachability);
    return d->backend && d->backend->isBehindCaptivePortal();
}

bool ReachabilityPrivate::isSimulatedOffline() const
{
    const QMutexLocker lock(&mutex);
    return simulatedOffline;
}

bool Reachability::isSimulatedOffline() const
{
    Q_D(const Reachability);
    return d->isSimulatedOffline();
}

void Reachability::setSimulatedOffline(bool offline)
{
    Q_D(Reachability);
    QMutexLocker lock(&d->mutex);
    if (d->simulatedOffline == offline)
        return;
    const State before = offline ? d->lastState : ReachabilityBackend::Offline;
    d->simulatedOffline = offline;
    const State after = offline ? ReachabilityBackend::Offline : d->lastState;
    lock.unlock();
    qCInfo(lcReachability) << "simulated offline mode" << (offline ? "on" : "off");
    Q_EMIT simulatedOfflineChanged(offline);
    if (after != before)
        Q_EMIT stateChanged(after);
}

QString Reachability::originOf(const QUrl &url)
{
    // Every request asks, and most go to the few origins asked last: those keys are kept
    // (per thread), found by the URL parts they are made of without building a string.
    struct Recent
    {
        QString scheme;
        QString host;
        int port = -1;
        QString origin;
    };
    thread_local Recent recent[4];
    thread_local unsigned next = 0;
    const QString scheme = url.scheme();
    const QString host = url.host();
    const int port = url.port();
    for (const Recent &r : recent) {
        if (r.port == port && !r.origin.isNull() && r.host == host && r.scheme == scheme)
            return r.origin;
    }
    const QString lowerScheme = scheme.toLower();
    const QString origin = lowerScheme + QLatin1String("://") + host.toLower() + QLatin1Char(':') +
        QString::number(port >= 0 ? port : (lowerScheme == QLatin1String("https") ? 443 : 80));
    recent[next++ % std::size(recent)] = { scheme, host, port, origin };
    return origin;
}

bool Reachability::isReachable(const QString &key) const
{
    Q_D(const Reachability);
    const QMutexLocker lock(&d->mutex);
    if (d->simulatedOffline)
        return false;
    // (An empty set is not asked: hashing the key is most of the cost of a lookup.)
    if (!d->unreachableKeys.isEmpty() && d->unreachableKeys.contains(key))
        return false;
    return d->lastState != ReachabilityBackend::Offline || d->provenWhileOffline.contains(key);
}

bool Reachability::isReachable(const QUrl &url) const
{
    return isReachable(Reachability::originOf(url));
}

void Reachability::watch(const QUrl &url)
{
    watch(url, nullptr);
}

void Reachability::watch(const QUrl &url, const QNetworkAccessManager *manager)
{
    Q_D(Reachability);
    const QString key = originOf(url);
    QMutexLocker lock(&d->mutex);
    if (d->simulatedOffline || d->lastState != ReachabilityBackend::Offline)
        return;
    if (d->unreachableKeys.contains(key) || d->provenWhileOffline.contains(key))
        return;
    // Believe the backend for a while; then check with a probe of our own.
    const qint64 believed = d->backendOfflineSince.isValid() ? d->backendOfflineSince.elapsed() : 0;
    const qint64 notBefore = std::max<qint64>(0, d->backendOfflineGraceMs - believed);
    lock.unlock();
    // Nothing has failed: an HTTP probe, which proves the most.
    d->inOwnThread([d, route = d->routeFor(url, manager), notBefore] {
        QMutexLocker lock(&d->mutex);
        if (d->unreachableKeys.contains(route.key) || d->provenWhileOffline.contains(route.key))
            return; // watched twice before the first got here, or answered meanwhile
        lock.unlock();
        d->scheduleProbe(d->startProbing(route), notBefore);
    });
}

void Reachability::setBackendOfflineGrace(qint64 graceMs)
{
    Q_D(Reachability);
    const QMutexLocker lock(&d->mutex);
    d->backendOfflineGraceMs = std::max<qint64>(0, graceMs);
}

void Reachability::reportFailure(const QUrl &url)
{
    reportFailure(url, QNetworkReply::UnknownNetworkError, nullptr);
}

void Reachability::reportFailure(const QUrl &url, QNetworkReply::NetworkError error,
                                 const QNetworkAccessManager *manager)
{
    Q_D(Reachability);
    const QString key = originOf(url);
    QMutexLocker lock(&d->mutex);
    d->provenWhileOffline.remove(key);
    if (d->unreachableKeys.contains(key))
        return;
    // Unreachable from now on for every thread; the probing starts in the Reachability's.
    d->unreachableKeys.insert(key);
    lock.unlock();
    d->inOwnThread([d, route = d->routeFor(url, manager), error] {
        d->startProbingAfterFailure(route, error);
    });
}

void ReachabilityPrivate::startProbingAfterFailure(const ProbeRoute &route,
                                                   QNetworkReply::NetworkError error)
{
    Q_Q(Reachability);
    const QString &key = route.key;
    {
        const QMutexLocker lock(&mutex);
        if (!unreachableKeys.contains(key))
            return; // reachable again before this got here
    }
    if (unreachable.contains(key))
        return;
    auto &origin = startProbing(route);
    // A refused connection is seen again by a bare connect, for nothing the server's
    // application notices; a reset after the connection was accepted needs the HTTP probe:
    // a connect would succeed and prove nothing. A timeout (Qt's transfer timeout is a
    // cancel) asks whether the network gets there at all: a black hole is unreachable, a
    // server that accepts and stays silent is reachable and merely does not answer.
    origin.connectSuffices = isTimeout(error) && origin.route;
    origin.next = (isRefused(error) || origin.connectSuffices) && origin.route
        ? ReachabilityPrivate::ProbeKind::Connect
        : ReachabilityPrivate::ProbeKind::Http;
    qCInfo(lcReachability) << "origin" << key << "unreachable;"
                           << (origin.next == ReachabilityPrivate::ProbeKind::Connect
                                   ? "connect probes"
                                   : "HTTP probes");
    scheduleProbe(origin);
    Q_EMIT q->originReachabilityChanged(key, false);
}

ReachabilityPrivate::ProbeRoute
ReachabilityPrivate::routeFor(const QUrl &url, const QNetworkAccessManager *manager) const
{
    ProbeRoute route;
    route.url = url;
    route.key = Reachability::originOf(url);
    {
        const QMutexLocker lock(&mutex);
        route.target = probeUrls.value(route.key);
    }
    if (route.target.isEmpty()) {
        route.target = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery |
                                    QUrl::RemoveFragment);
        route.target.setPath(QStringLiteral("/"));
    }
    // Probes go the way the origin's requests go: through the manager's proxy for them, read
    // here, in the manager's thread.
    if (manager) {
        route.proxies = ProbeProxyFactory::proxiesOf(*manager, url);
        if (Reachability::originOf(route.target) != route.key)
            route.targetProxies = ProbeProxyFactory::proxiesOf(*manager, route.target);
    }
    return route;
}

void ReachabilityPrivate::inOwnThread(std::function<void()> work)
{
    Q_Q(Reachability);
    if (QThread::currentThread() == q->thread())
        work();
    else
        QMetaObject::invokeMethod(q, std::move(work), Qt::QueuedConnection);
}

ReachabilityPrivate::Origin &ReachabilityPrivate::startProbing(const ProbeRoute &route)
{
    Q_Q(Reachability);
    const QString key = route.key;
    auto origin = std::make_shared<Origin>();
    origin->key = key;
    origin->probeTarget = route.target;
    probeManager();
    if (route.proxies)
        probeProxies->setProxies(key, *route.proxies);
    if (route.targetProxies)
        probeProxies->setProxies(Reachability::originOf(route.target), *route.targetProxies);
    origin->route =
        connectRoute(route.url, probeProxies->queryProxy(QNetworkProxyQuery(route.url)));
    origin->since.start();
    origin->timer.setSingleShot(true);
    QObject::connect(&origin->timer, &QTimer::timeout, q, [this, key] { sendProbe(key); });
    unreachable.insert(key, origin);
    const QMutexLocker lock(&mutex);
    unreachableKeys.insert(key);
    return *origin;
}

void Reachability::reportSuccess(const QString &key)
{
    Q_D(Reachability);
    if (QThread::currentThread() == thread()) {
        // Nothing on the way elsewhere to overtake: told at once, as inOwnThread() does.
        d->markReachable(key);
        return;
    }
    // Queued after any report of the same thread before it: the last word stays the last.
    d->inOwnThread([d, key] { d->markReachable(key); });
}

void Reachability::reportSuccess(const QUrl &url)
{
    reportSuccess(Reachability::originOf(url));
}

void ReachabilityPrivate::markReachable(const QString &key)
{
    Q_Q(Reachability);
    QMutexLocker lock(&mutex);
    if (unreachableKeys.isEmpty() && unreachable.isEmpty())
        return; // every origin answers: the common case, no key to hash
    const bool wasUnreachable = unreachableKeys.remove(key);
    const auto origin = unreachable.take(key);
    if (!origin && !wasUnreachable)
        return;
    if (lastState == ReachabilityBackend::Offline)
        provenWhileOffline.insert(key);
    lock.unlock();
    if (!origin) {
        // Reported unreachable from another thread; its probing had not started yet.
        qCInfo(lcReachability) << "origin" << key << "reachable again";
        Q_EMIT q->originReachabilityChanged(key, true);
        return;
    }
    origin->timer.stop();
    if (origin->probe) {
        QObject::disconnect(origin->probe, nullptr, q, nullptr);
        origin->probe->abort();
        origin->probe->deleteLater();
    }
    if (origin->connectProbe)
        origin->connectProbe->deleteLater(); // its finished() is queued to an object gone
    qCInfo(lcReachability) << "origin" << key << "reachable again";
    Q_EMIT q->originReachabilityChanged(key, true);
}

void ReachabilityPrivate::scheduleProbe(Origin &origin, qint64 notBeforeMs)
{
    const double random = QRandomGenerator::global()->generateDouble();
    const bool first = origin.failedProbes == 0;
    const bool connect = origin.next == ProbeKind::Connect;
    const qint64 steadyMs = connect ? connectSteadyMs : probeSteadyMs;
    qint64 delay = 0;
    if (!first && origin.since.elapsed() >= steadyMs) {
        // A long outage: backoff, so that it is not kept busy by every waiting client.
        origin.backoffSteps = std::min(origin.backoffSteps + 1, 62);
        qint64 base = probeIntervalMs;
        for (int i = 0; i < origin.backoffSteps && base < probeMaxMs; ++i)
            base *= 2;
        delay = qint64(double(std::min(base, probeMaxMs)) * (0.8 + 0.4 * random));
    } else if (connect) {
        // Connect probes cost the server a SYN and a close, nothing its application sees:
        // they can come often enough to find a restarted server within a fraction of a
        // second (half the interval at the median). The first within half an interval, at
        // random, later ones every interval ±25 %: clients that failed together are out of
        // step from the start.
        delay =
            qint64(double(connectIntervalMs) * (first ? 0.25 + 0.5 * random : 0.75 + 0.5 * random));
    } else {
        // A steady interval first: most outages are short (a restart, a deploy, a blip), and a
        // steady interval finds the end of one soonest for the probes it costs (the median
        // wait from a server's return to the next probe is half the interval). The first
        // probe waits one to two intervals, at random: the probes of clients that failed
        // together are out of step from the start, and so is their return. Later probes
        // keep their step within ±20 %.
        delay = qint64(double(probeIntervalMs) * (first ? 1.0 + random : 0.8 + 0.4 * random));
    }
    origin.timer.start(int(std::clamp<qint64>(std::max(delay, notBeforeMs), 0, INT_MAX)));
}

QNetworkAccessManager *ReachabilityPrivate::probeManager()
{
    Q_Q(Reachability);
    if (!probes) {
        probes = new QNetworkAccessManager(q);
        probeProxies = new ProbeProxyFactory;
        probes->setProxyFactory(probeProxies); // owned by probes
    }
    return probes;
}

void ReachabilityPrivate::sendProbe(const QString &key)
{
    const auto origin = unreachable.value(key);
    if (!origin || origin->probe || origin->connectProbe)
        return;
    if (isSimulatedOffline()) {
        // Pretending to be offline: probing would touch the network.
        ++origin->failedProbes;
        scheduleProbe(*origin);
        return;
    }
    if (origin->next == ProbeKind::Connect)
        sendConnectProbe(*origin);
    else
        sendHttpProbe(*origin);
}

void ReachabilityPrivate::sendConnectProbe(Origin &origin)
{
    Q_Q(Reachability);
    auto *probe = new ConnectProbe(q);
    origin.connectProbe = probe;
    ++connectProbeCount;
    qCDebug(lcReachability) << "connect probe" << origin.key << "via" << origin.route->host
                            << origin.route->port;
    const QString key = origin.key;
    QObject::connect(probe, &ConnectProbe::finished, q,
                     [this, key, probe](ConnectProbe::Result result) {
                         onConnectProbeFinished(key, probe, result);
                     });
    probe->start(origin.route->host, origin.route->port, origin.route->proxy,
                 int(std::clamp<qint64>(probeTimeoutMs, 1, INT_MAX)));
}

void ReachabilityPrivate::onConnectProbeFinished(const QString &key, ConnectProbe *probe,
                                                 ConnectProbe::Result result)
{
    probe->deleteLater();
    const auto origin = unreachable.value(key);
    if (!origin || origin->connectProbe != probe)
        return;
    origin->connectProbe = nullptr;
    switch (result) {
    case ConnectProbe::Result::Connected:
        if (origin->connectSuffices) {
            markReachable(key);
            return;
        }
        // Something accepts connections again: the HTTP probe, at once, says whether it is
        // the server (a listener can be up before its application is ready).
        sendHttpProbe(*origin);
        return;
    case ConnectProbe::Result::Refused:
    case ConnectProbe::Result::Unanswered:
        break;
    case ConnectProbe::Result::Inconclusive:
        origin->next = ProbeKind::Http; // a proxy stands in the way: ask it over HTTP
        origin->connectSuffices = false;
        break;
    }
    ++origin->failedProbes;
    scheduleProbe(*origin);
}

void ReachabilityPrivate::sendHttpProbe(Origin &origin)
{
    Q_Q(Reachability);
    const QString key = origin.key;
    QNetworkRequest request(origin.probeTarget);
    request.setTransferTimeout(int(std::clamp<qint64>(probeTimeoutMs, 1, INT_MAX)));
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    QNetworkReply *reply = probeManager()->head(request);
    origin.probe = reply;
    ++probeCount;
    qCDebug(lcReachability) << "probing" << key;
    QObject::connect(reply, &QNetworkReply::finished, q,
                     [this, key, reply] { onProbeFinished(key, reply); });
#if QT_CONFIG(ssl)
    // The probes' manager trusts the system's CAs only: a server whose certificate the app
    // trusts on its own requests (its CA on the request, an error it ignores) fails the
    // probe's handshake. Having presented a certificate, it answers: that is the proof.
    // Nothing is ignored, so nothing is sent over a connection no one checked.
    QObject::connect(reply, &QNetworkReply::sslErrors, q,
                     [reply] { reply->setProperty("keeptrying.certificateSeen", true); });
#endif
}

void ReachabilityPrivate::onProbeFinished(const QString &key, QNetworkReply *reply)
{
    reply->deleteLater();
    const auto origin = unreachable.value(key);
    if (!origin || origin->probe != reply)
        return;
    origin->probe = nullptr;
    // Any HTTP answer, even an error status, shows the origin can be reached; so does a
    // TLS handshake that came as far as the server's certificate.
    if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0 ||
        reply->property("keeptrying.certificateSeen").toBool()) {
        markReachable(key);
        return;
    }
    // Refused: connects will tell when it listens again. Any other failure (a reset or a
    // timeout after the connection was accepted) means connects succeed and prove nothing.
    origin->next = (isRefused(reply->error()) || origin->connectSuffices) && origin->route
        ? ProbeKind::Connect
        : ProbeKind::Http;
    ++origin->failedProbes;
    scheduleProbe(*origin);
}

void Reachability::setProbeUrl(const QUrl &origin, const QUrl &probe)
{
    Q_D(Reachability);
    const QMutexLocker lock(&d->mutex);
    d->probeUrls.insert(originOf(origin), probe);
}

void Reachability::setProbeSchedule(qint64 intervalMs, qint64 maxMs, qint64 steadyMs)
{
    Q_D(Reachability);
    d->probeIntervalMs = std::max<qint64>(1, intervalMs);
    d->probeMaxMs = std::max(d->probeIntervalMs, maxMs);
    d->probeSteadyMs = std::max<qint64>(0, steadyMs);
}

void Reachability::setProbeTimeout(qint64 timeoutMs)
{
    Q_D(Reachability);
    d->probeTimeoutMs = std::max<qint64>(1, timeoutMs);
}

void Reachability::setConnectProbeSchedule(qint64 intervalMs, qint64 steadyMs)
{
    Q_D(Reachability);
    d->connectIntervalMs = std::max<qint64>(1, intervalMs);
    d->connectSteadyMs = std::max<qint64>(0, steadyMs);
}

qint64 Reachability::probeCount() const
{
    Q_D(const Reachability);
    return d->probeCount;
}

qint64 Reachability::connectProbeCount() const
{
    Q_D(const Reachability);
    return d->connectProbeCount;
}

} // namespace KeepTrying
