// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYBANNER_H
#define KEEPTRYING_RETRYBANNER_H

#include <KeepTrying/keeptrying_widgets_export.h>
#include <KeepTrying/retrybannercontroller.h>

#include <QtGui/QIcon>
#include <QtWidgets/QWidget>

#include <memory>

namespace KeepTrying {

class RetryingNetworkAccessManager;
class RetryBannerPrivate;

/*!
    A banner that tells the user a request is slow because the network is flaky, and that
    the application keeps trying: "This is taking longer than usual. Please check your
    network connection while we keep trying." While the request waits for the network to
    come back, it says so instead: "You're offline. We'll keep trying and load this as soon
    as you're back."

    When to use it: at the top of a window or view whose content is loaded through a
    RetryingNetworkAccessManager, instead of an error dialog or a "tap to retry" button.
    It offers no action, because there is nothing for the user to do but wait or fix the
    connection; the request goes through on its own and the banner leaves. Do not use it
    for errors that retrying cannot fix (a wrong password, a 404): show those as errors.

    Bind it with one call, bind(): the banner then shows itself while a request of the
    manager has taken longer than a second (retried, waiting or simply slow), switches
    to its offline message (offline true) while the network is down, says that the server
    cannot be reached and on whose side the trouble likely is (defaultUnreachableText())
    while a request waits for a server that does not answer, says the server is busy
    (defaultServerBusyText()) while it answers with errors, and hides once they have
    finished. The decision is
    made by a RetryBannerController (its situation property), which can also be made
    separately (to set its thresholds or tracking mode, or to share it between windows)
    and handed to setController().

    Showing and hiding slide the banner open and closed in a fraction of a second; set
    animated to false for tests and screenshots. Switching between the slow and the
    offline message while open changes text and look in place. The banner also shows a
    small busy indicator while visible. Its contentsMargins() (none by default) are kept
    around the tinted frame, to space it from the window's edges; they open and close with
    it.
*/
class KEEPTRYING_WIDGETS_EXPORT RetryBanner : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(QString text READ text WRITE setText NOTIFY textChanged)
    Q_PROPERTY(QString offlineText READ offlineText WRITE setOfflineText NOTIFY offlineTextChanged)
    Q_PROPERTY(QString unreachableText READ unreachableText WRITE setUnreachableText NOTIFY
                   unreachableTextChanged)
    Q_PROPERTY(QString serverBusyText READ serverBusyText WRITE setServerBusyText NOTIFY
                   serverBusyTextChanged)
    Q_PROPERTY(bool offline READ isOffline WRITE setOffline NOTIFY offlineChanged)
    Q_PROPERTY(QString currentText READ currentText NOTIFY currentTextChanged)
    Q_PROPERTY(
        MessageType messageType READ messageType WRITE setMessageType NOTIFY messageTypeChanged)
    Q_PROPERTY(QIcon icon READ icon WRITE setIcon NOTIFY iconChanged)
    Q_PROPERTY(bool animated READ isAnimated WRITE setAnimated NOTIFY animatedChanged)
    Q_PROPERTY(bool busyIndicatorVisible READ isBusyIndicatorVisible WRITE setBusyIndicatorVisible
                   NOTIFY busyIndicatorVisibleChanged)

public:
    /*! The look of the banner while not offline. */
    enum MessageType {
        Information, //!< Soft blue, an "i" icon.
        Warning //!< Soft amber, a warning triangle (the default).
    };
    Q_ENUM(MessageType)

    /*! Makes a hidden banner with defaultText() and defaultOfflineText(). */
    explicit RetryBanner(QWidget *parent = nullptr);
    ~RetryBanner() override;

    /*! "This is taking longer than usual. Please check your network connection while we
        keep trying.", translated in the "KeepTrying::RetryBanner" context. */
    static QString defaultText();

    /*! "You're offline. We'll keep trying and load this as soon as you're back.",
        translated in the "KeepTrying::RetryBanner" context. */
    static QString defaultOfflineText();

    /*! What the banner says while its controller's situation is Unreachable, translated in
        the "KeepTrying::RetryBanner" context. Words for the person waiting: what happens,
        on whose side, and that it keeps trying; no address, port or error code (those go
        to the keeptrying.* logging categories). \a server is not named; it is kept for
        existing callers.

        - ConnectionRefused: "The server isn't answering right now. Your network is fine;
            we'll keep trying and load this as soon as the server is back."
        - HostNotFound: "The server can't be found right now. Please check your network
            connection while we keep trying."
        - CannotConnect: "The server can't be reached right now. Please check your
            network connection while we keep trying."
        */
    static QString defaultUnreachableText(RetryBannerController::UnreachableReason reason,
                                          const QString &server);

    /*! What the banner says while its controller's situation is ServerBusy: "The server is
        busy right now. Your network is fine; we'll keep trying and load this as soon as it
        can answer.", translated in the "KeepTrying::RetryBanner" context. */
    static QString defaultServerBusyText();

    /*! Shows the banner whenever \a manager has a request that the user is waiting for
        unfinished after a second (retried, waiting or simply slow; see
        RetryBannerController::thresholdMs) or waiting for connectivity (then with the
        offline message), and hides it the moment those requests have finished (the close
        animation takes about 200 ms). Makes a RetryBannerController owned by the banner
        (or reuses the one a previous bind() made) and returns it, so that its threshold
        or tracking mode can be changed. */
    RetryBannerController *bind(RetryingNetworkAccessManager *manager);

    /*! Follows \a controller's situation from now on, showing or hiding the banner at
        once to match it: Slow shows text(), Offline shows offlineText() (offline true).
        The banner does not take ownership. Null detaches. */
    void setController(RetryBannerController *controller);
    RetryBannerController *controller() const;

    /*! The message shown while not offline (defaultText() unless set). */
    QString text() const;
    void setText(const QString &text);

    /*! The message shown while the controller's situation is ServerBusy; empty (the
        default): defaultServerBusyText(). */
    QString serverBusyText() const;
    void setServerBusyText(const QString &text);

    /*! The message shown while offline (defaultOfflineText() unless set). */
    QString offlineText() const;
    void setOfflineText(const QString &text);

    /*! The message shown while the controller's situation is Unreachable, with "%1"
        standing for its unreachableServer() (e.g. "Can't reach %1 — we keep trying"); the
        same words whatever the reason. Empty (the default): defaultUnreachableText(), which
        differs per reason. */
    QString unreachableText() const;
    void setUnreachableText(const QString &text);

    /*! True while the banner shows its offline message, in its own look (a slate tint and
        a crossed-out signal icon, whatever messageType and icon are). A bound banner sets
        it from its controller; it stays as it was while the banner slides closed. */
    bool isOffline() const;
    void setOffline(bool offline);

    /*! The message shown now: offlineText() while offline, unreachableText() (or the
        controller's defaultUnreachableText()) while it is Unreachable, serverBusyText()
        (or defaultServerBusyText()) while it is ServerBusy, else text(). */
    QString currentText() const;

    MessageType messageType() const;
    void setMessageType(MessageType type);

    /*! The icon left of the text while not offline; a null icon (the default) draws the
        messageType's own. */
    QIcon icon() const;
    void setIcon(const QIcon &icon);

    /*! Whether animatedShow() and animatedHide() animate (default true). When false they
        change the visibility at once and emit their signal before returning. */
    bool isAnimated() const;
    void setAnimated(bool animated);

    bool isBusyIndicatorVisible() const;
    void setBusyIndicatorVisible(bool visible);

    /*! True while the banner is sliding open or closed. */
    bool isShowAnimationRunning() const;
    bool isHideAnimationRunning() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

public Q_SLOTS:
    /*! Shows the banner, sliding it open when animated (about 200 ms).
        showAnimationFinished() is emitted when it is fully visible. */
    void animatedShow();
    /*! Slides the banner closed, then hides it. hideAnimationFinished() is emitted when it
        is hidden. */
    void animatedHide();

Q_SIGNALS:
    /*! The banner has become fully visible (also when not animated). */
    void showAnimationFinished();
    /*! The banner has become hidden after animatedHide() (also when not animated). */
    void hideAnimationFinished();
    void textChanged(const QString &text);
    void offlineTextChanged(const QString &text);
    void unreachableTextChanged(const QString &text);
    void serverBusyTextChanged(const QString &text);
    void offlineChanged(bool offline);
    void currentTextChanged(const QString &text);
    void messageTypeChanged(KeepTrying::RetryBanner::MessageType type);
    void iconChanged(const QIcon &icon);
    void animatedChanged(bool animated);
    void busyIndicatorVisibleChanged(bool visible);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    Q_DECLARE_PRIVATE(RetryBanner)
    std::unique_ptr<RetryBannerPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNER_H
