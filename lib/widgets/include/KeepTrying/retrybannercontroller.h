#ifndef KEEPTRYING_RETRYBANNERCONTROLLER_H
#define KEEPTRYING_RETRYBANNERCONTROLLER_H

#include <KeepTrying/keeptrying_widgets_export.h>

#include <QtCore/QObject>
#include <QtNetwork/QNetworkRequest>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkReply;
QT_END_NAMESPACE

namespace KeepTrying {

class RetryingNetworkAccessManager;
class RetryBannerControllerPrivate;

/*!
    Decides when the "we keep trying" banner should be shown, and with which message; it
    holds no widget.

    The controller watches the requests a user is waiting for and sets situation to one of:
    \list
    \li Offline, while a watched request waits for connectivity (RetryingReply::
        isWaitingForConnectivity(): the network or its server cannot be reached, so no
        attempt is made) and either the manager's Reachability says the network is Offline
        or the request has waited for offlineThresholdMs (300 ms by default; the short
        delay keeps a server that answers its first probe from flashing the message).
        Also Offline, at once, while the network is Offline and any watched request is
        unfinished, whether or not it waits.
    \li Slow, otherwise, while a watched request has been unfinished for longer than
        thresholdMs (1000 ms by default), whatever keeps it: a retry, a wait (for its
        backoff, the circuit breaker or the retry budget) or a server that is simply slow
        to answer. Requests that finish within the threshold never show anything, so the
        banner does not flicker on a quick retry; once a request finishes, it counts no
        more, at once (no grace period).
    \li Hidden, once no request gives a reason to show anything: every such request has
        finished (with success or not), or stopped waiting and is not slow.
    \endlist
    Every watched request counts until it finishes, also while its body arrives: exclude
    transfers the user watches progress of (large downloads, event streams) with
    UserWaitingAttribute set to false, or use TrackMarkedReplies.
    shouldShow is true whenever situation is not Hidden.

    Bind it to a manager with one call, setManager(); RetryBanner::bind() does that for
    you. Which replies count:
    \list
    \li TrackAllReplies (the default): every reply of the manager.
    \li TrackMarkedReplies: only replies whose request has UserWaitingAttribute set to true,
        and replies handed to track(). Use it when the application also loads things the
        user is not waiting for (thumbnails, prefetching).
    \endlist

    The controller keeps one timer per tracked reply that fires once at the threshold, and
    one for the offline threshold; nothing is polled. Several banners, status bars or QML
    items can share one controller.
*/
class KEEPTRYING_WIDGETS_EXPORT RetryBannerController : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool shouldShow READ shouldShow NOTIFY shouldShowChanged)
    Q_PROPERTY(Situation situation READ situation NOTIFY situationChanged)
    Q_PROPERTY(int offlineThresholdMs READ offlineThresholdMs WRITE setOfflineThresholdMs NOTIFY
                   offlineThresholdMsChanged)
    Q_PROPERTY(int thresholdMs READ thresholdMs WRITE setThresholdMs NOTIFY thresholdMsChanged)
    Q_PROPERTY(TrackingMode trackingMode READ trackingMode WRITE setTrackingMode NOTIFY
                   trackingModeChanged)
    Q_PROPERTY(int trackedCount READ trackedCount NOTIFY trackedCountChanged)

public:
    /*! What the banner should say. */
    enum Situation {
        Hidden, //!< Nothing to show.
        Slow, //!< A request has taken longer than thresholdMs: "taking longer than usual".
        Offline //!< A request waits for the network to come back: "You're offline".
    };
    Q_ENUM(Situation)

    /*! Which replies of the manager the controller watches. */
    enum TrackingMode {
        TrackAllReplies, //!< Every reply of the manager (the default).
        TrackMarkedReplies //!< Only replies marked with UserWaitingAttribute or given to track().
    };
    Q_ENUM(TrackingMode)

    /*! Request attributes read by the controller (QNetworkRequest::setAttribute). */
    enum RequestAttribute {
        /*! bool: true marks a request the user is waiting for (TrackMarkedReplies); false
            excludes it even in TrackAllReplies mode. */
        UserWaitingAttribute = QNetworkRequest::User + 0x4B57
    };
    Q_ENUM(RequestAttribute)

    explicit RetryBannerController(QObject *parent = nullptr);
    ~RetryBannerController() override;

    /*! Watches the replies of \a manager from now on, forgetting those of a previous
        manager. Null unbinds. The controller does not own the manager and lets go of it
        when it is destroyed. */
    void setManager(RetryingNetworkAccessManager *manager);
    RetryingNetworkAccessManager *manager() const;

    /*! Watches \a reply whatever the tracking mode, timing it from now. Works with any
        QNetworkReply; the retry state is read from a KeepTrying::RetryingReply. A reply
        that has already finished is ignored; tracking a reply twice changes nothing. */
    void track(QNetworkReply *reply);

    /*! Marks \a request as one the user is waiting for (sets UserWaitingAttribute). */
    static void markUserWaiting(QNetworkRequest &request, bool waiting = true);

    /*! True while situation is not Hidden. */
    bool shouldShow() const;

    /*! What should be shown now; see the class description for the rules. */
    Situation situation() const;

    /*! How long a watched request must have been running (retried, waiting or simply
        slow) before situation turns Slow, in milliseconds from when the controller first
        saw it: its first attempt or wait for connectivity, or track() (a request queued in
        the manager's concurrency window is seen when its attempt starts). Default 1000;
        negative values count as 0. Changing it re-evaluates the requests already
        watched. */
    int thresholdMs() const;
    void setThresholdMs(int thresholdMs);

    /*! How long a watched request must have waited for connectivity before situation turns
        Offline, in milliseconds (default 300; negative values count as 0). Does not apply
        while the manager's Reachability state is Offline: then Offline shows at once. */
    int offlineThresholdMs() const;
    void setOfflineThresholdMs(int thresholdMs);

    TrackingMode trackingMode() const;
    /*! Applies to replies seen from now on; replies already watched stay watched. */
    void setTrackingMode(TrackingMode mode);

    /*! The number of unfinished replies being watched. */
    int trackedCount() const;
    /*! The number of watched replies waiting for connectivity now. */
    int waitingForConnectivityCount() const;

Q_SIGNALS:
    /*! shouldShow changed; emitted once per change, never twice with the same value. */
    void shouldShowChanged(bool shouldShow);
    /*! situation changed; emitted once per change, before shouldShowChanged() when both
        change. */
    void situationChanged(KeepTrying::RetryBannerController::Situation situation);
    void offlineThresholdMsChanged(int thresholdMs);
    void thresholdMsChanged(int thresholdMs);
    void trackingModeChanged(KeepTrying::RetryBannerController::TrackingMode mode);
    void trackedCountChanged(int count);

private:
    Q_DECLARE_PRIVATE(RetryBannerController)
    std::unique_ptr<RetryBannerControllerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNERCONTROLLER_H
