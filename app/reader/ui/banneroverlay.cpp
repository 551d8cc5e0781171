// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "banneroverlay.h"

#include <QtCore/QEvent>
#include <QtWidgets/QVBoxLayout>

BannerOverlay::BannerOverlay(QWidget *anchor, Qt::Edge edge, QWidget *parent)
    : QWidget(parent), m_anchor(anchor), m_edge(edge), m_layout(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("bannerOverlay"));
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);
    // The overlay's height is set by place(), never held up by the layout's minimum.
    m_layout->setSizeConstraint(QLayout::SetNoConstraint);
    // The banners' margins are part of them: fill them, or the article shows through.
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    // Every widget between the anchor and the parent may move it (the splitter's handle).
    for (QWidget *w = anchor; w && w != parent; w = w->parentWidget())
        w->installEventFilter(this);
    place();
}

void BannerOverlay::addBanner(QWidget *banner)
{
    m_layout->addWidget(banner);
    place();
}

bool BannerOverlay::event(QEvent *event)
{
    const bool result = QWidget::event(event);
    // A banner's height changes at every step of its animation, and when it shows or hides.
    if (event->type() == QEvent::LayoutRequest)
        place();
    return result;
}

bool BannerOverlay::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::PaletteChange:
        place();
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void BannerOverlay::place()
{
    if (!m_anchor || !parentWidget())
        return;
    const QPoint topLeft = m_anchor->mapTo(parentWidget(), QPoint(0, 0));
    const int width = m_anchor->width();
    const int height = qMax(0,
                            m_layout->hasHeightForWidth() ? m_layout->totalHeightForWidth(width)
                                                          : m_layout->totalSizeHint().height());
    const int y =
        m_edge == Qt::BottomEdge ? topLeft.y() + m_anchor->height() - height : topLeft.y();
    // Zero high while every banner is hidden: it stays shown, so a banner shown later
    // asks it for room at once.
    setGeometry(topLeft.x(), y, width, height);
    const QColor base = m_anchor->palette().color(QPalette::Base);
    if (palette().color(QPalette::Base) != base) {
        QPalette p = palette();
        p.setColor(QPalette::Base, base);
        setPalette(p);
    }
    raise();
}
