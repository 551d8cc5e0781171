// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITY_P_H
#define KEEPTRYING_REACHABILITY_P_H

#include <KeepTrying/reachability.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QSet>
#include <QtCore/QTimer>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace KeepTrying {

class ReachabilityPrivate
{
public:
    explicit ReachabilityPrivate(Reachability *q) : q_ptr(q) { }

    // What is known of one origin; present only while it is unreachable.
    struct Origin
    {
        QString key;
        QUrl probeTarget;
        QTimer timer; // next probe
        QPointer<QNetworkReply> probe;
        QElapsedTimer since; // unreachable since
        int backoffSteps = 0; // probes scheduled after the steady phase
        int failedProbes = 0;
    };

    void scheduleProbe(Origin &origin, qint64 notBeforeMs = 0);
    Origin &startProbing(const QUrl &url);
    void sendProbe(const QString &key);
    void onProbeFinished(const QString &key, QNetworkReply *reply);
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
    qint64 probeIntervalMs = 900;
    qint64 probeMaxMs = 30000;
    qint64 probeSteadyMs = 30000;
    qint64 probeTimeoutMs = 2000;
    qint64 probeCount = 0;

    Q_DECLARE_PUBLIC(Reachability)
};

} // namespace KeepTrying

#endif
