// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYBANNER_P_H
#define KEEPTRYING_RETRYBANNER_P_H

#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>

#include <QtCore/QPointer>
#include <QtCore/QVariantAnimation>
#include <QtGui/QColor>
#include <QtWidgets/QLabel>

namespace KeepTrying {

// A small spinning arc, animated only while visible so a hidden banner costs nothing.
class RetryBannerBusyIndicator : public QWidget
{
    Q_OBJECT
public:
    explicit RetryBannerBusyIndicator(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    void setColor(const QColor &color);

protected:
    void paintEvent(QPaintEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QVariantAnimation m_rotation;
    QColor m_color;
};

// The visible part of the banner: background, icon, text and busy indicator. The banner
// positions it at its bottom edge, so that shrinking the banner slides it out of view.
class RetryBannerFrame : public QWidget
{
    Q_OBJECT
public:
    explicit RetryBannerFrame(QWidget *parent = nullptr);

    QColor background;
    QColor border;

protected:
    void paintEvent(QPaintEvent *event) override;
};

class RetryBannerPrivate
{
    Q_DECLARE_PUBLIC(RetryBanner)

public:
    struct Colors
    {
        QColor background;
        QColor border;
        QColor text;
        QColor accent; // icon and busy indicator
    };

    explicit RetryBannerPrivate(RetryBanner *q) : q_ptr(q) { }

    void init();
    static Colors colors(RetryBanner::MessageType type);
    static Colors offlineColors();
    Colors currentColors() const; // of the look shown now
    void applyType();
    void updateIcon();
    QPixmap defaultIcon(int size, qreal devicePixelRatio) const;
    int frameHeight(int width) const; // of the frame alone, \a width wide
    int openHeight(int width) const; // of the open banner, margins included
    void layoutFrame();
    void setReveal(qreal reveal);
    void finishShow();
    void finishHide();
    void showText(); // puts currentText() in the label
    void followController(RetryBannerController::Situation situation);
    void setUnreachable(bool unreachable); // and take the controller's details
    void setServerBusy(bool busy);

    RetryBanner *q_ptr;
    RetryBannerFrame *frame = nullptr;
    QLabel *iconLabel = nullptr;
    QLabel *textLabel = nullptr;
    RetryBannerBusyIndicator *busy = nullptr;
    QVariantAnimation *animation = nullptr;
    QPointer<RetryBannerController> controller;
    QPointer<RetryBannerController> ownController; // made by bind()
    QList<QMetaObject::Connection> controllerConnections;
    RetryBanner::MessageType type = RetryBanner::Warning;
    QString text;
    QString offlineText;
    QString unreachableText; // shown while unreachable, from the controller's details
    QString unreachableTemplate; // the app's words for it ("%1": the server), or empty
    bool offline = false;
    bool unreachable = false; // following a controller that is Unreachable
    bool serverBusy = false; // following a controller that is ServerBusy
    QString serverBusyText; // the app's words for ServerBusy, or empty (the default's)
    QIcon icon;
    qreal reveal = 1.0; // 0 = closed, 1 = fully open
    bool animated = true;
    bool hiding = false; // the running animation closes the banner
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYBANNER_P_H
