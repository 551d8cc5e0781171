// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYBANNERCONTROLLER_H
#define KEEPTRYING_RETRYBANNERCONTROLLER_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/requestattributes.h>
#include <KeepTrying/waitreason.h>

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

    - Offline, while the network itself is known to be down and a watched request is
        unfinished: the manager's Reachability state is Offline (a platform backend says
        so, or simulated offline mode), or a watched request's last attempt failed with
        QNetworkReply::TemporaryNetworkFailureError (Qt found no network). Shown at once.
    - Unreachable, otherwise, while a watched request has waited for connectivity
        (RetryingReply::isWaitingForConnectivity(): its server cannot be reached, so no
        attempt is made) for offlineThresholdMs (300 ms by default; the short delay keeps
        a server that answers its first probe from flashing the message). The network is
        not known to be down, so this is not "offline": unreachableServer and
        unreachableReason say which server and what went wrong (a refused connection
        means the server's machine answered, so the network works).
    - ServerBusy, otherwise, while a watched request over thresholdMs (below) last waited
        because of its server (WaitReason RetryAfter, BreakerOpen, BudgetExhausted, or
        Backoff after an HTTP answer): the network works, the server is struggling.
    - Slow, otherwise, while a watched request has been unfinished for longer than
        thresholdMs (1000 ms by default), whatever keeps it: a retry, a wait (for its
        backoff, the circuit breaker or the retry budget) or a server that is simply slow
        to answer. Requests that finish within the threshold never show anything, so the
        banner does not flicker on a quick retry; once a request finishes, it counts no
        more, at once (no grace period).
    - Hidden, once no request gives a reason to show anything: every such request has
        finished (with success or not), or stopped waiting and is not slow.

    Of Slow, ServerBusy and Unreachable, a situation once shown stays at least dwellMs (3 s)
    before it gives way to another of them, so one wait reads as one message; and once a
    wait shows a known cause (ServerBusy, Unreachable), it never falls back to Slow: it stays
    until the wait ends (Hidden), the network goes (Offline) or the other known cause
    replaces it.
    Every watched request counts until it finishes, also while its body arrives: exclude
    transfers the user watches progress of (large downloads, event streams) with
    UserWaitingAttribute set to false, or use TrackMarkedReplies.
    shouldShow is true whenever situation is not Hidden.

    Bind it to a manager with one call, setManager(); RetryBanner::bind() does that for
    you, and KeepTrying::Quick's QmlNetworkAccessManagerFactory for the managers a QML engine
    makes (addManager()). Which replies count:

    - TrackAllReplies (the default): every reply of the manager.
    - TrackMarkedReplies: only replies whose request has UserWaitingAttribute set to true,
        and replies handed to track(). Use it when the application also loads things the
        user is not waiting for (thumbnails, prefetching).


    The controller keeps one timer per tracked reply that fires once at the threshold, and
    one for the offline threshold; nothing is polled. Several banners, status bars or QML
    items can share one controller: text, offline and waitReason carry what a banner of
    one's own needs (the QML banner of KeepTrying::Quick reads them).

    It needs Qt Core and Qt Network only (it is part of KeepTrying::Network), and lives in
    one thread: the managers it watches must live in that thread too.
*/
class KEEPTRYING_NETWORK_EXPORT RetryBannerController : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool shouldShow READ shouldShow NOTIFY shouldShowChanged)
    Q_PROPERTY(Situation situation READ situation NOTIFY situationChanged)
    Q_PROPERTY(int offlineThresholdMs READ offlineThresholdMs WRITE setOfflineThresholdMs NOTIFY
                   offlineThresholdMsChanged)
    Q_PROPERTY(int thresholdMs READ thresholdMs WRITE setThresholdMs NOTIFY thresholdMsChanged)
    Q_PROPERTY(int dwellMs READ dwellMs WRITE setDwellMs NOTIFY dwellMsChanged)
    Q_PROPERTY(TrackingMode trackingMode READ trackingMode WRITE setTrackingMode NOTIFY
                   trackingModeChanged)
    Q_PROPERTY(int trackedCount READ trackedCount NOTIFY trackedCountChanged)
    Q_PROPERTY(QString unreachableServer READ unreachableServer NOTIFY unreachableServerChanged)
    Q_PROPERTY(
        UnreachableReason unreachableReason READ unreachableReason NOTIFY unreachableServerChanged)
    Q_PROPERTY(QString text READ text NOTIFY textChanged)
    Q_PROPERTY(bool offline READ isOffline NOTIFY situationChanged)
    Q_PROPERTY(KeepTrying::WaitReason waitReason READ waitReason NOTIFY waitReasonChanged)

public:
    /*! What the banner should say. */
    enum Situation {
        Hidden, //!< Nothing to show.
        Slow, //!< A request has taken longer than thresholdMs: "taking longer than usual".
        Offline, //!< The network is down; a request waits for it: "You're offline".
        Unreachable, //!< A request waits for its server, which cannot be reached although
        //!< the network is not known to be down: "The server isn't answering".
        ServerBusy //!< As Slow, and the server is the cause: the request's last wait was
        //!< for a server fault (a 5xx or 429 answer, a Retry-After, the origin's open
        //!< circuit breaker or spent retry budget; RetryingReply::waitReason()). Your
        //!< network is fine: "The server is busy right now".
    };
    Q_ENUM(Situation)

    /*! Why the server of an Unreachable request cannot be reached, as far as the last
        failed attempt to it tells. */
    enum UnreachableReason {
        CannotConnect, //!< No answer (timed out, reset, no route), or nothing known yet:
        //!< the network or the server may be at fault.
        ConnectionRefused, //!< The server's machine refused the connection: the network
        //!< works, but nothing answers at that address and port (the server is down).
        HostNotFound, //!< The server's name could not be found (DNS): a wrong address, or a
        //!< name server that cannot be reached.
        ProxyFailed //!< The proxy the requests go through (QNetworkProxy, e.g. the system's
        //!< http_proxy) refused, closed, timed out or could not be found: the proxy or the
        //!< proxy settings are at fault, not the server.
    };
    Q_ENUM(UnreachableReason)

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
        UserWaitingAttribute = RequestAttributes::UserWaiting
    };
    Q_ENUM(RequestAttribute)

    explicit RetryBannerController(QObject *parent = nullptr);
    ~RetryBannerController() override;

    /*! Watches the replies of \a manager from now on, forgetting those of a previous
        manager. Null unbinds. The controller does not own the manager and lets go of it
        when it is destroyed. */
    void setManager(RetryingNetworkAccessManager *manager);
    RetryingNetworkAccessManager *manager() const;

    /*! Also watches the replies of \a manager, as those of manager(), until it is destroyed
        or removeManager() is called; the tracking mode applies to them too. For managers
        that share manager()'s Reachability (RetryingNetworkAccessManager::setReachability()),
        such as the one a QML engine makes for XMLHttpRequest in the controller's thread.
        \a manager must live in the controller's thread; adding it twice, or adding
        manager(), changes nothing. setManager() keeps the managers added. */
    void addManager(RetryingNetworkAccessManager *manager);
    /*! Stops watching the replies of a manager given to addManager(). */
    void removeManager(RetryingNetworkAccessManager *manager);

    /*! Watches \a reply whatever the tracking mode, timing it from now. Works with any
        QNetworkReply; the retry state is read from a KeepTrying::RetryingReply. A reply
        that has already finished is ignored; tracking a reply twice changes nothing. */
    void track(QNetworkReply *reply);

    /*! Marks \a request as one the user is waiting for (sets UserWaitingAttribute). */
    static void markUserWaiting(QNetworkRequest &request, bool waiting = true);

    /*! True while situation is not Hidden. */
    bool shouldShow() const;

    /*! True while situation is Offline. */
    bool isOffline() const;

    /*! The words a banner shows for situation, now: textFor(situation(),
        unreachableReason()); empty while Hidden. */
    QString text() const;

    /*! The default words for \a situation (and, for Unreachable, \a reason), translated in
        the "KeepTrying::RetryBanner" context (RetryBanner's defaults are these); empty for
        Hidden. Words for the person waiting: what happens, on whose side, and that it keeps
        trying; no address, port or error code.

        - Slow: "This is taking longer than usual. Please check your network connection
            while we keep trying."
        - Offline: "You're offline. We'll keep trying and load this as soon as you're back."
        - ServerBusy: "The server is busy right now. Your network is fine; we'll keep trying
            and load this as soon as it can answer."
        - Unreachable, ConnectionRefused: "The server isn't answering right now. Your
            network is fine; we'll keep trying and load this as soon as the server is back."
        - Unreachable, HostNotFound: "The server can't be found right now. Please check
            your network connection while we keep trying."
        - Unreachable, ProxyFailed: "The proxy this computer uses isn't answering. Please
            check the proxy settings while we keep trying."
        - Unreachable, CannotConnect: "The server can't be reached right now. Please check
            your network connection while we keep trying." */
    static QString textFor(Situation situation, UnreachableReason reason = CannotConnect);

    /*! Why the watched request that has been running longest among those that wait is
        waiting (RetryingReply::waitReason()); kind() None while no watched request waits
        (also while situation is Hidden). For a banner that says more than text(), e.g. when
        the next attempt goes (WaitReason::until). */
    WaitReason waitReason() const;

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

    /*! The least time, in milliseconds, one of Slow, ServerBusy and Unreachable stays
        before situation changes to another of them (default 3000; negative values count as
        0, which switches the dwell off). One wait that flaps between them (a probe gets
        through, the attempt fails again) then reads as one situation, not a message that
        changes every second. Offline and Hidden apply at once, whatever the dwell: the
        network going away, or the wait ending, is news. */
    int dwellMs() const;
    void setDwellMs(int dwellMs);

    TrackingMode trackingMode() const;
    /*! Applies to replies seen from now on; replies already watched stay watched. */
    void setTrackingMode(TrackingMode mode);

    /*! The number of unfinished replies being watched. */
    int trackedCount() const;
    /*! The number of watched replies waiting for connectivity now. */
    int waitingForConnectivityCount() const;

    /*! While situation is Unreachable: the server that cannot be reached, as a user would
        write it ("wallabag.example.org", "127.0.0.1:8080": the host, and the port when the
        URL names one), for logs and developer tools: the banner's own words name no server
        or port. Otherwise empty. Of several unreachable servers, the one waited for
        longest. */
    QString unreachableServer() const;
    /*! While situation is Unreachable: why unreachableServer() cannot be reached (learnt
        from the fault RetryingReply::waitReason() carries for any reply to it). Otherwise
        CannotConnect. */
    UnreachableReason unreachableReason() const;

Q_SIGNALS:
    /*! shouldShow changed; emitted once per change, never twice with the same value. */
    void shouldShowChanged(bool shouldShow);
    /*! situation changed; emitted once per change, before shouldShowChanged() when both
        change. */
    void situationChanged(KeepTrying::RetryBannerController::Situation situation);
    void offlineThresholdMsChanged(int thresholdMs);
    void thresholdMsChanged(int thresholdMs);
    void dwellMsChanged(int dwellMs);
    void trackingModeChanged(KeepTrying::RetryBannerController::TrackingMode mode);
    void trackedCountChanged(int count);
    /*! unreachableServer or unreachableReason changed; emitted before situationChanged()
        when that changes too, so a slot of situationChanged() reads the new values. */
    void unreachableServerChanged();
    /*! text changed; emitted before situationChanged() and shouldShowChanged() when they
        change too, so that their slots read the new words. */
    void textChanged(const QString &text);
    /*! waitReason changed (kind, origin, end or fault). */
    void waitReasonChanged(const KeepTrying::WaitReason &reason);

private:
    Q_DECLARE_PRIVATE(RetryBannerController)
    std::unique_ptr<RetryBannerControllerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNERCONTROLLER_H
