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
    Decides when the "we keep trying" banner should be shown; it holds no widget.

    The controller watches the requests a user is waiting for and sets shouldShow to true
    while at least one of them is being retried (a retry was scheduled, or its attempt
    count is above 1) \e and has been running for longer than thresholdMs (1000 ms by
    default). shouldShow goes back to false once every such request has finished, with
    success or not. Quick retries that succeed within the threshold never show anything,
    so the banner does not flicker on a single lost packet.

    Bind it to a manager with one call, setManager(); RetryBanner::bind() does that for
    you. Which replies count:
    \list
    \li TrackAllReplies (the default): every reply of the manager.
    \li TrackMarkedReplies: only replies whose request has UserWaitingAttribute set to true,
        and replies handed to track(). Use it when the application also loads things the
        user is not waiting for (thumbnails, prefetching).
    \endlist

    The controller keeps one timer per tracked reply that fires once at the threshold;
    nothing is polled. Several banners, status bars or QML items can share one controller.
*/
class KEEPTRYING_WIDGETS_EXPORT RetryBannerController : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool shouldShow READ shouldShow NOTIFY shouldShowChanged)
    Q_PROPERTY(int thresholdMs READ thresholdMs WRITE setThresholdMs NOTIFY thresholdMsChanged)
    Q_PROPERTY(TrackingMode trackingMode READ trackingMode WRITE setTrackingMode NOTIFY
                   trackingModeChanged)
    Q_PROPERTY(int trackedCount READ trackedCount NOTIFY trackedCountChanged)

public:
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

    /*! True while a watched request is being retried and has run for over thresholdMs. */
    bool shouldShow() const;

    /*! How long a retried request must have been running before the banner shows, in
        milliseconds (default 1000; negative values count as 0). Changing it re-evaluates
        the requests already watched. */
    int thresholdMs() const;
    void setThresholdMs(int thresholdMs);

    TrackingMode trackingMode() const;
    /*! Applies to replies seen from now on; replies already watched stay watched. */
    void setTrackingMode(TrackingMode mode);

    /*! The number of unfinished replies being watched. */
    int trackedCount() const;

Q_SIGNALS:
    /*! shouldShow changed; emitted once per change, never twice with the same value. */
    void shouldShowChanged(bool shouldShow);
    void thresholdMsChanged(int thresholdMs);
    void trackingModeChanged(KeepTrying::RetryBannerController::TrackingMode mode);
    void trackedCountChanged(int count);

private:
    Q_DECLARE_PRIVATE(RetryBannerController)
    std::unique_ptr<RetryBannerControllerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNERCONTROLLER_H
