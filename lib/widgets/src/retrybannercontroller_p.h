#ifndef KEEPTRYING_RETRYBANNERCONTROLLER_P_H
#define KEEPTRYING_RETRYBANNERCONTROLLER_P_H

#include <KeepTrying/retrybannercontroller.h>

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
        bool overThreshold = false;
        QList<QMetaObject::Connection> connections;
    };

    explicit RetryBannerControllerPrivate(RetryBannerController *q) : q_ptr(q) { }

    bool wantsReply(QNetworkReply *reply) const;
    Entry *entryFor(QNetworkReply *reply, bool create);
    void armThreshold(Entry &entry);
    void setWaitingForConnectivity(QNetworkReply *reply, bool waiting);
    bool networkOffline() const;
    void followReachability();
    void forget(QNetworkReply *reply);
    void forgetAll();
    void update();

    RetryBannerController *q_ptr;
    QPointer<RetryingNetworkAccessManager> manager;
    QList<QMetaObject::Connection> managerConnections;
    QPointer<Reachability> reachability; // the manager's, followed for its state
    QMetaObject::Connection reachabilityConnection;
    // Fires when the first waiting reply reaches offlineThresholdMs.
    QTimer offlineTimer;
    // Keys are only compared, never dereferenced after destroyed(): a reply can be
    // half-destroyed when it leaves.
    QHash<QNetworkReply *, Entry> entries;
    RetryBannerController::TrackingMode mode = RetryBannerController::TrackAllReplies;
    int thresholdMs = 1000;
    int offlineThresholdMs = 300;
    RetryBannerController::Situation situation = RetryBannerController::Hidden;
    bool shouldShow = false; // the value last emitted by shouldShowChanged()
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNERCONTROLLER_P_H
