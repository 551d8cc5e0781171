// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/reachability.h>

#include "logging_p.h"
#include "networkinformationbackend_p.h"
#include "reachability_p.h"

#include <QtCore/QRandomGenerator>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <climits>

namespace KeepTrying {

Reachability::Reachability(QObject *parent) : QObject(parent), d_ptr(new ReachabilityPrivate(this))
{
    Q_D(Reachability);
    d->simulatedOffline = qEnvironmentVariableIntValue("KEEPTRYING_SIMULATE_OFFLINE") == 1;
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
    if (d->simulatedOffline)
        return ReachabilityBackend::Offline;
    return d->lastState;
}

void ReachabilityPrivate::setBackendState(ReachabilityBackend::State state)
{
    Q_Q(Reachability);
    const Reachability::State before = q->state();
    const ReachabilityBackend::State previousBackendState = lastState;
    lastState = state;
    if (state == ReachabilityBackend::Offline && previousBackendState != state) {
        backendOfflineSince.start();
        provenWhileOffline.clear(); // new evidence: what answered before must answer again
    }
    if (state == ReachabilityBackend::Online &&
        previousBackendState == ReachabilityBackend::Offline) {
        // Back on a network: what was unreachable may well be reachable now; let the
        // waiting requests find out at once rather than wait for the next probe.
        const QStringList keys = unreachable.keys();
        for (const QString &key : keys)
            markReachable(key);
    }
    if (q->state() != before) {
        qCInfo(lcReachability) << "network state" << before << "->" << q->state();
        Q_EMIT q->stateChanged(q->state());
    }
}

bool Reachability::isBehindCaptivePortal() const
{
    Q_D(const Reachability);
    return d->backend && d->backend->isBehindCaptivePortal();
}

bool Reachability::isSimulatedOffline() const
{
    Q_D(const Reachability);
    return d->simulatedOffline;
}

void Reachability::setSimulatedOffline(bool offline)
{
    Q_D(Reachability);
    if (d->simulatedOffline == offline)
        return;
    const State before = state();
    d->simulatedOffline = offline;
    qCInfo(lcReachability) << "simulated offline mode" << (offline ? "on" : "off");
    Q_EMIT simulatedOfflineChanged(offline);
    if (state() != before)
        Q_EMIT stateChanged(state());
}

QString Reachability::originOf(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    const int port = url.port(scheme == QLatin1String("https") ? 443 : 80);
    return scheme + QLatin1String("://") + url.host().toLower() + QLatin1Char(':') +
        QString::number(port);
}

bool Reachability::isReachable(const QString &key) const
{
    Q_D(const Reachability);
    if (d->simulatedOffline)
        return false;
    if (d->unreachable.contains(key))
        return false;
    return d->lastState != ReachabilityBackend::Offline || d->provenWhileOffline.contains(key);
}

bool Reachability::isReachable(const QUrl &url) const
{
    return isReachable(Reachability::originOf(url));
}

void Reachability::watch(const QUrl &url)
{
    Q_D(Reachability);
    if (d->simulatedOffline || d->lastState != ReachabilityBackend::Offline)
        return;
    const QString key = originOf(url);
    if (d->unreachable.contains(key) || d->provenWhileOffline.contains(key))
        return;
    // Believe the backend for a while; then check with a probe of our own.
    const qint64 believed = d->backendOfflineSince.isValid() ? d->backendOfflineSince.elapsed() : 0;
    auto &origin = d->startProbing(url);
    d->scheduleProbe(origin, std::max<qint64>(0, d->backendOfflineGraceMs - believed));
}

void Reachability::setBackendOfflineGrace(qint64 graceMs)
{
    Q_D(Reachability);
    d->backendOfflineGraceMs = std::max<qint64>(0, graceMs);
}

void Reachability::reportFailure(const QUrl &url)
{
    Q_D(Reachability);
    const QString key = originOf(url);
    d->provenWhileOffline.remove(key);
    if (d->unreachable.contains(key))
        return;
    auto &origin = d->startProbing(url);
    qCInfo(lcReachability) << "origin" << key << "unreachable; probing";
    d->scheduleProbe(origin);
    Q_EMIT originReachabilityChanged(key, false);
}

ReachabilityPrivate::Origin &ReachabilityPrivate::startProbing(const QUrl &url)
{
    Q_Q(Reachability);
    const QString key = Reachability::originOf(url);
    auto origin = std::make_shared<Origin>();
    origin->key = key;
    QUrl target = probeUrls.value(key);
    if (target.isEmpty()) {
        target = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery |
                              QUrl::RemoveFragment);
        target.setPath(QStringLiteral("/"));
    }
    origin->probeTarget = target;
    origin->since.start();
    origin->timer.setSingleShot(true);
    QObject::connect(&origin->timer, &QTimer::timeout, q, [this, key] { sendProbe(key); });
    unreachable.insert(key, origin);
    return *origin;
}

void Reachability::reportSuccess(const QString &key)
{
    Q_D(Reachability);
    d->markReachable(key);
}

void Reachability::reportSuccess(const QUrl &url)
{
    reportSuccess(Reachability::originOf(url));
}

void ReachabilityPrivate::markReachable(const QString &key)
{
    Q_Q(Reachability);
    const auto origin = unreachable.take(key);
    if (!origin)
        return;
    if (lastState == ReachabilityBackend::Offline)
        provenWhileOffline.insert(key);
    origin->timer.stop();
    if (origin->probe) {
        QObject::disconnect(origin->probe, nullptr, q, nullptr);
        origin->probe->abort();
        origin->probe->deleteLater();
    }
    qCInfo(lcReachability) << "origin" << key << "reachable again";
    Q_EMIT q->originReachabilityChanged(key, true);
}

void ReachabilityPrivate::scheduleProbe(Origin &origin, qint64 notBeforeMs)
{
    // A steady interval first: most outages are short (a restart, a deploy, a blip), and a
    // steady interval finds the end of one soonest for the probes it costs (the median wait
    // from a server's return to the next probe is half the interval). Then backoff, so that a
    // long outage is not kept busy by every waiting client.
    qint64 base = probeIntervalMs;
    if (origin.failedProbes > 0 && origin.since.elapsed() >= probeSteadyMs) {
        origin.backoffSteps = std::min(origin.backoffSteps + 1, 62);
        for (int i = 0; i < origin.backoffSteps && base < probeMaxMs; ++i)
            base *= 2;
        base = std::min(base, probeMaxMs);
    }
    // The first probe waits one to two intervals, at random: the probes of clients that
    // failed together (a server that went down under all of them) are out of step from the
    // start, and so is their return. (A server that has just refused is rarely back within
    // the second, either.) Later probes keep their step within ±20 %.
    const double random = QRandomGenerator::global()->generateDouble();
    const double jitter = origin.failedProbes == 0 ? 1.0 + random : 0.8 + 0.4 * random;
    const qint64 delay = qint64(double(base) * jitter);
    origin.timer.start(int(std::clamp<qint64>(std::max(delay, notBeforeMs), 0, INT_MAX)));
}

QNetworkAccessManager *ReachabilityPrivate::probeManager()
{
    Q_Q(Reachability);
    if (!probes)
        probes = new QNetworkAccessManager(q);
    return probes;
}

void ReachabilityPrivate::sendProbe(const QString &key)
{
    Q_Q(Reachability);
    const auto origin = unreachable.value(key);
    if (!origin || origin->probe)
        return;
    if (simulatedOffline) {
        // Pretending to be offline: probing would touch the network.
        ++origin->failedProbes;
        scheduleProbe(*origin);
        return;
    }
    QNetworkRequest request(origin->probeTarget);
    request.setTransferTimeout(int(std::clamp<qint64>(probeTimeoutMs, 1, INT_MAX)));
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    QNetworkReply *reply = probeManager()->head(request);
    origin->probe = reply;
    ++probeCount;
    qCDebug(lcReachability) << "probing" << key;
    QObject::connect(reply, &QNetworkReply::finished, q,
                     [this, key, reply] { onProbeFinished(key, reply); });
}

void ReachabilityPrivate::onProbeFinished(const QString &key, QNetworkReply *reply)
{
    reply->deleteLater();
    const auto origin = unreachable.value(key);
    if (!origin || origin->probe != reply)
        return;
    origin->probe = nullptr;
    // Any HTTP answer, even an error status, shows the origin can be reached.
    if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0) {
        markReachable(key);
        return;
    }
    ++origin->failedProbes;
    scheduleProbe(*origin);
}

void Reachability::setProbeUrl(const QUrl &origin, const QUrl &probe)
{
    Q_D(Reachability);
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

qint64 Reachability::probeCount() const
{
    Q_D(const Reachability);
    return d->probeCount;
}

} // namespace KeepTrying
