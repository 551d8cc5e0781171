// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITY_P_H
#define KEEPTRYING_REACHABILITY_P_H

#include <KeepTrying/reachability.h>

#include "connectprobe_p.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QMutex>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace KeepTrying {

class ProbeProxyFactory;

class ReachabilityPrivate
{
public:
    explicit ReachabilityPrivate(Reachability *q) : q_ptr(q) { }

    enum class ProbeKind { Connect, Http };

    // Where a connect probe goes: the first hop of the way the origin's requests go.
    struct ConnectRoute
    {
        QString host;
        quint16 port = 0;
        QNetworkProxy proxy { QNetworkProxy::NoProxy }; // a tunnel (SOCKS5, HTTP CONNECT)
    };

    // What is known of one origin; present only while it is unreachable.
    struct Origin
    {
        QString key;
        QUrl probeTarget;
        std::optional<ConnectRoute> route; // none: connect probes cannot tell (a proxy)
        ProbeKind next = ProbeKind::Http;
        // Attempts timed out: a server that accepts connections is reachable (it is slow,
        // which the requests' own timeout limit deals with), so a connect proves enough.
        bool connectSuffices = false;
        QTimer timer; // next probe
        QPointer<QNetworkReply> probe;
        QPointer<ConnectProbe> connectProbe;
        QElapsedTimer since; // unreachable since
        int backoffSteps = 0; // probes scheduled after the steady phase
        int failedProbes = 0;
    };

    // Where probes of an origin go, worked out in the thread of the manager whose request
    // asked (its proxy settings are read there): the URL, the probe target, and the proxies
    // of the manager for both (none without a manager: the application's).
    struct ProbeRoute
    {
        QUrl url;
        QString key;
        QUrl target;
        std::optional<QList<QNetworkProxy>> proxies;
        std::optional<QList<QNetworkProxy>> targetProxies;
    };
    ProbeRoute routeFor(const QUrl &url, const QNetworkAccessManager *manager) const;
    // Runs \a work in the Reachability's thread: now when called there, else queued.
    void inOwnThread(std::function<void()> work);

    void scheduleProbe(Origin &origin, qint64 notBeforeMs = 0);
    Origin &startProbing(const ProbeRoute &route);
    void startProbingAfterFailure(const ProbeRoute &route, QNetworkReply::NetworkError error);
    bool isSimulatedOffline() const;
    void sendProbe(const QString &key);
    void sendHttpProbe(Origin &origin);
    void sendConnectProbe(Origin &origin);
    void onProbeFinished(const QString &key, QNetworkReply *reply);
    void onConnectProbeFinished(const QString &key, ConnectProbe *probe,
                                ConnectProbe::Result result);
    void markReachable(const QString &key);
    void setBackendState(ReachabilityBackend::State state);
    QNetworkAccessManager *probeManager();

    Reachability *q_ptr;

    // Managers in other threads (a QML engine's loader threads) may share a Reachability:
    // what they read (isReachable(), state()) and what they report is guarded by the mutex.
    // Probes, their timers and the backend stay in the Reachability's thread; a report from
    // another thread marks the origin at once and queues the probing to that thread. Signals
    // are emitted with the mutex released.
    mutable QMutex mutex;
    // Guarded by mutex:
    ReachabilityBackend::State lastState = ReachabilityBackend::Unknown;
    bool simulatedOffline = false;
    QSet<QString> unreachableKeys; // the keys of unreachable, and reports on their way to it
    QSet<QString> provenWhileOffline; // answered a probe although the backend says Offline
    QHash<QString, QUrl> probeUrls;
    QElapsedTimer backendOfflineSince;
    qint64 backendOfflineGraceMs = 3000;

    // The Reachability's thread only:
    QPointer<ReachabilityBackend> backend;
    ReachabilityBackend *ownBackend = nullptr;
    QHash<QString, std::shared_ptr<Origin>> unreachable;
    QNetworkAccessManager *probes = nullptr;
    ProbeProxyFactory *probeProxies = nullptr; // owned by probes
    qint64 probeIntervalMs = 900;
    qint64 probeMaxMs = 30000;
    qint64 probeSteadyMs = 30000;
    qint64 connectIntervalMs = 200;
    qint64 connectSteadyMs = 30000;
    qint64 probeTimeoutMs = 2000;
    qint64 probeCount = 0;
    qint64 connectProbeCount = 0;

    Q_DECLARE_PUBLIC(Reachability)
};

} // namespace KeepTrying

#endif
