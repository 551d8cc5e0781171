// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITY_P_H
#define KEEPTRYING_REACHABILITY_P_H

#include <KeepTrying/reachability.h>

#include "connectprobe_p.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>

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

    void scheduleProbe(Origin &origin, qint64 notBeforeMs = 0);
    Origin &startProbing(const QUrl &url, const QNetworkAccessManager *manager);
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
    QPointer<ReachabilityBackend> backend;
    ReachabilityBackend *ownBackend = nullptr;
    ReachabilityBackend::State lastState = ReachabilityBackend::Unknown;
    bool simulatedOffline = false;
    QHash<QString, std::shared_ptr<Origin>> unreachable;
    QHash<QString, QUrl> probeUrls;
    QSet<QString> provenWhileOffline; // answered a probe although the backend says Offline
    QElapsedTimer backendOfflineSince;
    qint64 backendOfflineGraceMs = 3000;
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
