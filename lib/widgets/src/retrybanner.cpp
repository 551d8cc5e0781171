// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "retrybanner_p.h"

#include "logging_p.h"

#include <KeepTrying/retrybannercontroller.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QEvent>
#include <QtCore/QUrl>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtWidgets/QHBoxLayout>

namespace KeepTrying {

namespace {
constexpr int AnimationDurationMs = 200;
constexpr int IconSize = 20;
} // namespace

RetryBannerBusyIndicator::RetryBannerBusyIndicator(QWidget *parent) : QWidget(parent)
{
    m_rotation.setStartValue(0.0);
    m_rotation.setEndValue(360.0);
    m_rotation.setDuration(1100);
    m_rotation.setLoopCount(-1);
    connect(&m_rotation, &QVariantAnimation::valueChanged, this, [this] { update(); });
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QSize RetryBannerBusyIndicator::sizeHint() const
{
    return QSize(16, 16);
}

void RetryBannerBusyIndicator::setColor(const QColor &color)
{
    m_color = color;
    update();
}

void RetryBannerBusyIndicator::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal side = qMin(width(), height()) - 3.0;
    const QRectF r((width() - side) / 2.0, (height() - side) / 2.0, side, side);
    QColor track = m_color;
    track.setAlphaF(0.22f);
    p.setPen(QPen(track, 2.0));
    p.drawEllipse(r);
    p.setPen(QPen(m_color, 2.0, Qt::SolidLine, Qt::RoundCap));
    const int start = int(-m_rotation.currentValue().toReal() * 16);
    p.drawArc(r, 90 * 16 + start, -100 * 16);
}

void RetryBannerBusyIndicator::showEvent(QShowEvent *event)
{
    m_rotation.start();
    QWidget::showEvent(event);
}

void RetryBannerBusyIndicator::hideEvent(QHideEvent *event)
{
    m_rotation.stop();
    QWidget::hideEvent(event);
}

RetryBannerFrame::RetryBannerFrame(QWidget *parent) : QWidget(parent) { }

void RetryBannerFrame::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(QPen(border, 1.0));
    p.setBrush(background);
    p.drawRoundedRect(r, 6, 6);
}

RetryBannerPrivate::Colors RetryBannerPrivate::colors(RetryBanner::MessageType type)
{
    // Soft tints with dark text, as KMessageWidget does, so that the text keeps a
    // contrast ratio above 7:1 on the background.
    switch (type) {
    case RetryBanner::Information:
        return { QColor(0xe7, 0xf1, 0xfc), QColor(0xa9, 0xc9, 0xee), QColor(0x1d, 0x35, 0x57),
                 QColor(0x2f, 0x6f, 0xbf) };
    case RetryBanner::Warning:
        break;
    }
    return { QColor(0xff, 0xf5, 0xd6), QColor(0xf1, 0xc8, 0x6a), QColor(0x4a, 0x37, 0x00),
             QColor(0xc9, 0x80, 0x00) };
}

RetryBannerPrivate::Colors RetryBannerPrivate::offlineColors()
{
    // A calm slate: being offline is a condition to know about, not a fault to fix here.
    return { QColor(0xee, 0xf1, 0xf5), QColor(0xc3, 0xcb, 0xd6), QColor(0x25, 0x2f, 0x3d),
             QColor(0x52, 0x62, 0x78) };
}

RetryBannerPrivate::Colors RetryBannerPrivate::currentColors() const
{
    return offline ? offlineColors() : colors(type);
}

void RetryBannerPrivate::init()
{
    Q_Q(RetryBanner);
    frame = new RetryBannerFrame(q);
    auto *layout = new QHBoxLayout(frame);
    layout->setContentsMargins(12, 9, 14, 9);
    layout->setSpacing(10);

    iconLabel = new QLabel(frame);
    iconLabel->setFixedSize(IconSize, IconSize);
    text = RetryBanner::defaultText();
    offlineText = RetryBanner::defaultOfflineText();
    textLabel = new QLabel(text, frame);
    textLabel->setTextFormat(Qt::PlainText);
    textLabel->setWordWrap(true);
    textLabel->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    busy = new RetryBannerBusyIndicator(frame);
    busy->setToolTip(QCoreApplication::translate("KeepTrying::RetryBanner", "Still trying"));

    layout->addWidget(iconLabel, 0, Qt::AlignVCenter);
    layout->addWidget(textLabel, 1);
    layout->addWidget(busy, 0, Qt::AlignVCenter);

    animation = new QVariantAnimation(q);
    animation->setEasingCurve(QEasingCurve::OutCubic);
    QObject::connect(animation, &QVariantAnimation::valueChanged, q,
                     [this](const QVariant &value) { setReveal(value.toReal()); });
    QObject::connect(animation, &QVariantAnimation::finished, q, [this] {
        if (hiding)
            finishHide();
        else
            finishShow();
    });

    // Maximum, not Fixed: a fixed height would change the window's minimum size on every
    // animation step.
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    policy.setHeightForWidth(true);
    q->setSizePolicy(policy);
    q->setAccessibleName(textLabel->text());
    applyType();
    q->hide();
}

void RetryBannerPrivate::applyType()
{
    const Colors c = currentColors();
    frame->background = c.background;
    frame->border = c.border;
    QPalette palette = textLabel->palette();
    palette.setColor(QPalette::WindowText, c.text);
    palette.setColor(QPalette::Text, c.text);
    textLabel->setPalette(palette);
    busy->setColor(c.accent);
    frame->update();
    updateIcon();
}

QPixmap RetryBannerPrivate::defaultIcon(int size, qreal devicePixelRatio) const
{
    QPixmap pixmap(QSize(size, size) * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const Colors c = currentColors();
    const QColor accent = c.accent;
    const qreal s = size;
    QPen mark(Qt::white, s * 0.12, Qt::SolidLine, Qt::RoundCap);

    if (offline) {
        // A signal (a dot under two arcs) struck through, the usual "no connection" sign;
        // two arcs rather than three stay legible at 20 px.
        const QPointF centre(s * 0.5, s * 0.82);
        p.setPen(QPen(accent, s * 0.13, Qt::SolidLine, Qt::RoundCap));
        p.setBrush(Qt::NoBrush);
        for (const qreal r : { s * 0.34, s * 0.62 }) {
            const QRectF box(centre.x() - r, centre.y() - r, 2 * r, 2 * r);
            p.drawArc(box, 42 * 16, 96 * 16);
        }
        p.setPen(Qt::NoPen);
        p.setBrush(accent);
        p.drawEllipse(centre, s * 0.10, s * 0.10);
        // The stroke, with a gap of background colour so it reads over the arcs.
        const QLineF stroke(QPointF(s * 0.16, s * 0.10), QPointF(s * 0.84, s * 0.90));
        p.setPen(QPen(c.background, s * 0.22, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(stroke);
        p.setPen(QPen(accent, s * 0.11, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(stroke);
    } else if (type == RetryBanner::Warning) {
        // A triangle with rounded corners (a thick round-joined outline filled in).
        QPainterPath triangle;
        triangle.moveTo(s * 0.5, s * 0.12);
        triangle.lineTo(s * 0.93, s * 0.86);
        triangle.lineTo(s * 0.07, s * 0.86);
        triangle.closeSubpath();
        p.setPen(QPen(accent, s * 0.12, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(accent);
        p.drawPath(triangle);
        p.setPen(mark);
        p.drawLine(QPointF(s * 0.5, s * 0.40), QPointF(s * 0.5, s * 0.60));
        p.drawPoint(QPointF(s * 0.5, s * 0.76));
    } else {
        p.setPen(Qt::NoPen);
        p.setBrush(accent);
        p.drawEllipse(QRectF(s * 0.04, s * 0.04, s * 0.92, s * 0.92));
        p.setPen(mark);
        p.drawPoint(QPointF(s * 0.5, s * 0.29));
        p.drawLine(QPointF(s * 0.5, s * 0.46), QPointF(s * 0.5, s * 0.72));
    }
    return pixmap;
}

void RetryBannerPrivate::updateIcon()
{
    Q_Q(RetryBanner);
    const qreal dpr = q->devicePixelRatioF();
    if (icon.isNull() || offline)
        iconLabel->setPixmap(defaultIcon(IconSize, dpr));
    else
        iconLabel->setPixmap(icon.pixmap(QSize(IconSize, IconSize), dpr));
}

int RetryBannerPrivate::frameHeight(int width) const
{
    const int h = frame->heightForWidth(width);
    return h >= 0 ? h : frame->sizeHint().height();
}

int RetryBannerPrivate::openHeight(int width) const
{
    Q_Q(const RetryBanner);
    const QMargins m = q->contentsMargins();
    return frameHeight(width - m.left() - m.right()) + m.top() + m.bottom();
}

void RetryBannerPrivate::layoutFrame()
{
    // Pinned to the bottom edge: while the banner opens, the frame slides down into view.
    Q_Q(RetryBanner);
    const QMargins m = q->contentsMargins();
    const int width = q->width() - m.left() - m.right();
    const int h = frameHeight(width);
    frame->setGeometry(m.left(), q->height() - m.bottom() - h, width, h);
}

void RetryBannerPrivate::setReveal(qreal value)
{
    Q_Q(RetryBanner);
    value = qBound(0.0, value, 1.0);
    if (qFuzzyCompare(reveal, value))
        return;
    reveal = value;
    q->updateGeometry();
}

void RetryBannerPrivate::finishShow()
{
    Q_Q(RetryBanner);
    qCDebug(lcWidgets) << "banner shown";
    Q_EMIT q->showAnimationFinished();
}

void RetryBannerPrivate::finishHide()
{
    Q_Q(RetryBanner);
    q->hide();
    hiding = false;
    reveal = 1.0;
    qCDebug(lcWidgets) << "banner hidden";
    Q_EMIT q->hideAnimationFinished();
}

void RetryBannerPrivate::showText()
{
    Q_Q(RetryBanner);
    const QString current = q->currentText();
    if (textLabel->text() == current)
        return;
    textLabel->setText(current);
    q->setAccessibleName(current);
    q->updateGeometry();
    layoutFrame();
    Q_EMIT q->currentTextChanged(current);
}

void RetryBannerPrivate::setUnreachable(bool value)
{
    QString message;
    if (value && controller) {
        message = unreachableTemplate.isEmpty()
            ? RetryBanner::defaultUnreachableText(controller->unreachableReason(),
                                                  controller->unreachableServer())
            // The host only: a port is for logs, not for the person waiting.
            : unreachableTemplate.arg(
                  QUrl(QStringLiteral("http://") + controller->unreachableServer()).host());
    }
    if (unreachable == value && unreachableText == message)
        return;
    unreachable = value;
    unreachableText = message;
    showText();
}

void RetryBannerPrivate::setServerBusy(bool value)
{
    if (serverBusy == value)
        return;
    serverBusy = value;
    showText();
}

void RetryBannerPrivate::followController(RetryBannerController::Situation situation)
{
    Q_Q(RetryBanner);
    // While closing, the banner keeps the message it had rather than change under the eye.
    if (situation == RetryBannerController::Offline) {
        setUnreachable(false);
        q->setOffline(true);
    } else if (situation == RetryBannerController::Slow ||
               situation == RetryBannerController::Unreachable ||
               situation == RetryBannerController::ServerBusy) {
        setServerBusy(situation == RetryBannerController::ServerBusy);
        setUnreachable(situation == RetryBannerController::Unreachable);
        q->setOffline(false);
    }
    // Changes between messages happen in an open banner, in place: no new show, no second
    // signal.
    if (situation != RetryBannerController::Hidden) {
        if (q->isHidden() || hiding)
            q->animatedShow();
    } else if (q->isVisible() || animation->state() == QAbstractAnimation::Running)
        q->animatedHide();
}

RetryBanner::RetryBanner(QWidget *parent)
    : QWidget(parent), d_ptr(std::make_unique<RetryBannerPrivate>(this))
{
    Q_D(RetryBanner);
    d->init();
}

RetryBanner::~RetryBanner()
{
    Q_D(RetryBanner);
    for (const QMetaObject::Connection &c : std::as_const(d->controllerConnections))
        disconnect(c);
}

// The words are the controller's (Core only, shared with QML banners).
QString RetryBanner::defaultText()
{
    return RetryBannerController::textFor(RetryBannerController::Slow);
}

QString RetryBanner::defaultOfflineText()
{
    return RetryBannerController::textFor(RetryBannerController::Offline);
}

QString RetryBanner::defaultServerBusyText()
{
    return RetryBannerController::textFor(RetryBannerController::ServerBusy);
}

QString RetryBanner::defaultUnreachableText(RetryBannerController::UnreachableReason reason,
                                            const QString &server)
{
    Q_UNUSED(server) // no server address or port in words for the person waiting
    return RetryBannerController::textFor(RetryBannerController::Unreachable, reason);
}

RetryBannerController *RetryBanner::bind(RetryingNetworkAccessManager *manager)
{
    Q_D(RetryBanner);
    if (!d->ownController)
        d->ownController = new RetryBannerController(this);
    d->ownController->setManager(manager);
    setController(d->ownController);
    return d->ownController;
}

void RetryBanner::setController(RetryBannerController *controller)
{
    Q_D(RetryBanner);
    if (d->controller == controller)
        return;
    for (const QMetaObject::Connection &c : std::as_const(d->controllerConnections))
        disconnect(c);
    d->controllerConnections.clear();
    d->controller = controller;
    if (!controller) {
        d->setUnreachable(false);
        return;
    }
    d->controllerConnections << connect(
        controller, &RetryBannerController::situationChanged, this,
        [d](RetryBannerController::Situation situation) { d->followController(situation); });
    // Another server, or another reason, while open: the words change in place.
    d->controllerConnections << connect(
        controller, &RetryBannerController::unreachableServerChanged, this, [d] {
            if (d->unreachable && d->controller->situation() == RetryBannerController::Unreachable)
                d->setUnreachable(true);
        });
    d->followController(controller->situation());
}

RetryBannerController *RetryBanner::controller() const
{
    Q_D(const RetryBanner);
    return d->controller;
}

QString RetryBanner::text() const
{
    Q_D(const RetryBanner);
    return d->text;
}

void RetryBanner::setText(const QString &text)
{
    Q_D(RetryBanner);
    if (d->text == text)
        return;
    d->text = text;
    d->showText();
    Q_EMIT textChanged(text);
}

QString RetryBanner::offlineText() const
{
    Q_D(const RetryBanner);
    return d->offlineText;
}

void RetryBanner::setOfflineText(const QString &text)
{
    Q_D(RetryBanner);
    if (d->offlineText == text)
        return;
    d->offlineText = text;
    d->showText();
    Q_EMIT offlineTextChanged(text);
}

QString RetryBanner::unreachableText() const
{
    Q_D(const RetryBanner);
    return d->unreachableTemplate;
}

void RetryBanner::setUnreachableText(const QString &text)
{
    Q_D(RetryBanner);
    if (d->unreachableTemplate == text)
        return;
    d->unreachableTemplate = text;
    if (d->unreachable) {
        d->unreachable = false; // take the new words in place
        d->setUnreachable(true);
    }
    Q_EMIT unreachableTextChanged(text);
}

bool RetryBanner::isOffline() const
{
    Q_D(const RetryBanner);
    return d->offline;
}

void RetryBanner::setOffline(bool offline)
{
    Q_D(RetryBanner);
    if (d->offline == offline)
        return;
    d->offline = offline;
    d->applyType();
    d->showText();
    Q_EMIT offlineChanged(offline);
}

QString RetryBanner::currentText() const
{
    Q_D(const RetryBanner);
    if (d->offline)
        return d->offlineText;
    if (d->unreachable)
        return d->unreachableText;
    if (d->serverBusy)
        return d->serverBusyText.isEmpty() ? defaultServerBusyText() : d->serverBusyText;
    return d->text;
}

QString RetryBanner::serverBusyText() const
{
    Q_D(const RetryBanner);
    return d->serverBusyText;
}

void RetryBanner::setServerBusyText(const QString &text)
{
    Q_D(RetryBanner);
    if (d->serverBusyText == text)
        return;
    d->serverBusyText = text;
    d->showText();
    Q_EMIT serverBusyTextChanged(text);
}

RetryBanner::MessageType RetryBanner::messageType() const
{
    Q_D(const RetryBanner);
    return d->type;
}

void RetryBanner::setMessageType(MessageType type)
{
    Q_D(RetryBanner);
    if (d->type == type)
        return;
    d->type = type;
    d->applyType();
    Q_EMIT messageTypeChanged(type);
}

QIcon RetryBanner::icon() const
{
    Q_D(const RetryBanner);
    return d->icon;
}

void RetryBanner::setIcon(const QIcon &icon)
{
    Q_D(RetryBanner);
    d->icon = icon;
    d->updateIcon();
    Q_EMIT iconChanged(icon);
}

bool RetryBanner::isAnimated() const
{
    Q_D(const RetryBanner);
    return d->animated;
}

void RetryBanner::setAnimated(bool animated)
{
    Q_D(RetryBanner);
    if (d->animated == animated)
        return;
    d->animated = animated;
    // Jump to the end of a running animation rather than leave the banner half open.
    if (!animated && d->animation->state() == QAbstractAnimation::Running) {
        d->animation->stop();
        if (d->hiding) {
            d->finishHide();
        } else {
            d->setReveal(1.0);
            d->finishShow();
        }
    }
    Q_EMIT animatedChanged(animated);
}

bool RetryBanner::isBusyIndicatorVisible() const
{
    Q_D(const RetryBanner);
    return !d->busy->isHidden();
}

void RetryBanner::setBusyIndicatorVisible(bool visible)
{
    Q_D(RetryBanner);
    if (d->busy->isHidden() != visible)
        return;
    d->busy->setVisible(visible);
    Q_EMIT busyIndicatorVisibleChanged(visible);
}

bool RetryBanner::isShowAnimationRunning() const
{
    Q_D(const RetryBanner);
    return d->animation->state() == QAbstractAnimation::Running && !d->hiding;
}

bool RetryBanner::isHideAnimationRunning() const
{
    Q_D(const RetryBanner);
    return d->animation->state() == QAbstractAnimation::Running && d->hiding;
}

QSize RetryBanner::sizeHint() const
{
    Q_D(const RetryBanner);
    const QMargins m = contentsMargins();
    const int w = d->frame->sizeHint().width() + m.left() + m.right();
    return QSize(w, heightForWidth(w));
}

QSize RetryBanner::minimumSizeHint() const
{
    // The text wraps, so the banner fits any width; asking for none keeps the window's
    // minimum size the same whether the banner is shown or not.
    return QSize(0, 0);
}

bool RetryBanner::hasHeightForWidth() const
{
    return true;
}

int RetryBanner::heightForWidth(int width) const
{
    Q_D(const RetryBanner);
    return qRound(d->reveal * d->openHeight(width));
}

void RetryBanner::animatedShow()
{
    Q_D(RetryBanner);
    const bool wasHiding = d->hiding;
    d->hiding = false;
    const bool canAnimate = d->animated && !isWindow() && window()->isVisible();
    if (!canAnimate) {
        d->animation->stop();
        d->setReveal(1.0);
        show();
        d->finishShow();
        return;
    }
    if (isVisible() && !wasHiding)
        return; // already open or opening
    const qreal from = isVisible() ? d->reveal : 0.0;
    d->animation->stop();
    d->setReveal(from);
    show();
    d->animation->setStartValue(from);
    d->animation->setEndValue(1.0);
    d->animation->setDuration(qMax(1, qRound(AnimationDurationMs * (1.0 - from))));
    d->animation->start();
}

void RetryBanner::animatedHide()
{
    Q_D(RetryBanner);
    if (isHidden())
        return;
    const bool canAnimate = d->animated && !isWindow() && window()->isVisible();
    d->animation->stop();
    d->hiding = true;
    if (!canAnimate) {
        d->finishHide();
        return;
    }
    d->animation->setStartValue(d->reveal);
    d->animation->setEndValue(0.0);
    d->animation->setDuration(qMax(1, qRound(AnimationDurationMs * d->reveal)));
    d->animation->start();
}

void RetryBanner::resizeEvent(QResizeEvent *event)
{
    Q_D(RetryBanner);
    QWidget::resizeEvent(event);
    d->layoutFrame();
}

bool RetryBanner::event(QEvent *event)
{
    Q_D(RetryBanner);
    switch (event->type()) {
    case QEvent::Show:
        d->updateIcon(); // the screen, and so the device pixel ratio, may have changed
        break;
    case QEvent::FontChange:
    case QEvent::StyleChange:
    case QEvent::ContentsRectChange:
        updateGeometry();
        d->layoutFrame();
        break;
    default:
        break;
    }
    return QWidget::event(event);
}

} // namespace KeepTrying
