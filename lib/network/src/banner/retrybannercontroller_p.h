// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYBANNERCONTROLLER_P_H
#define KEEPTRYING_RETRYBANNERCONTROLLER_P_H

#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QPointer>
#include <QtCore/QTimer>

namespace KeepTrying {

class Reachability;
class RetryingNetworkAccessManager;

class RetryBannerControllerPrivate
{
    Q_DECLARE_PUBLIC(RetryBannerController)

public:
    // What is known about one watched reply.
    struct Entry
    {
        QElapsedTimer running; // since the reply was first seen
        QTimer *thresholdTimer = nullptr; // fires once when running reaches the threshold
        QElapsedTimer waitingSince; // valid while waiting for connectivity
        QString origin; // Reachability::originOf() of the reply's URL
        QString server; // host[:port], as shown to the user
        bool overThreshold = false;
        // The last wait said the server is the cause (it answered 5xx/429, asked for a
        // pause, or its breaker or retry budget holds the request back).
        bool serverBusy = false;
        WaitReason reason; // the reply's last RetryingReply::waitReason()
        QList<QMetaObject::Connection> connections;
    };

    explicit RetryBannerControllerPrivate(RetryBannerController *q) : q_ptr(q) { }

    bool wantsReply(QNetworkReply *reply) const;
    Entry *entryFor(QNetworkReply *reply, bool create);
    void armThreshold(Entry &entry);
    void setWaitingForConnectivity(QNetworkReply *reply, bool waiting);
    // What the last connectivity fault of a request to an origin said.
    enum class Fault { CannotConnect, Refused, HostNotFound, NoNetwork, Proxy };
    static Fault faultOf(const WaitReason &reason);
    void noteWaitReason(QNetworkReply *reply, const WaitReason &reason);
    bool networkOffline() const;
    void followReachability();
    // The connections that feed the controller from one manager's signals.
    QList<QMetaObject::Connection> connectManager(RetryingNetworkAccessManager *m);
    void forget(QNetworkReply *reply);
    void forgetAll();
    void update();

    RetryBannerController *q_ptr;
    QPointer<RetryingNetworkAccessManager> manager;
    QList<QMetaObject::Connection> managerConnections;
    // Managers given to addManager(), with their connections.
    QHash<RetryingNetworkAccessManager *, QList<QMetaObject::Connection>> extraManagers;
    QPointer<Reachability> reachability; // the manager's, followed for its state
    QList<QMetaObject::Connection> reachabilityConnections;
    // Fires when the first waiting reply reaches offlineThresholdMs.
    QTimer offlineTimer;
    // Ends a dwell: the situation wanted meanwhile applies then.
    QTimer dwellTimer;
    QElapsedTimer situationSince; // since the situation last changed
    int dwellMs = 3000;
    // Keys are only compared, never dereferenced after destroyed(): a reply can be
    // half-destroyed when it leaves.
    QHash<QNetworkReply *, Entry> entries;
    // Per origin, learnt from every reply of the manager (watched or not): a request that
    // waits without an attempt of its own waits for the same reason as the one that failed.
    QHash<QString, Fault> faults;
    RetryBannerController::TrackingMode mode = RetryBannerController::TrackAllReplies;
    int thresholdMs = 1000;
    int offlineThresholdMs = 300;
    RetryBannerController::Situation situation = RetryBannerController::Hidden;
    bool shouldShow = false; // the value last emitted by shouldShowChanged()
    QString text; // the value last emitted by textChanged()
    WaitReason waitReason; // the value last emitted by waitReasonChanged()
    QString unreachableServer;
    RetryBannerController::UnreachableReason unreachableReason =
        RetryBannerController::CannotConnect;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNERCONTROLLER_P_H
