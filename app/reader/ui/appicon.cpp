// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "appicon.h"

#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

namespace {

QPixmap drawIcon(int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;

    QLinearGradient tile(0, 0, 0, s);
    tile.setColorAt(0, QColor(0x3a, 0x7b, 0xd5));
    tile.setColorAt(1, QColor(0x1f, 0x4e, 0x9a));
    p.setPen(Qt::NoPen);
    p.setBrush(tile);
    p.drawRoundedRect(QRectF(s * 0.04, s * 0.04, s * 0.92, s * 0.92), s * 0.2, s * 0.2);

    QPainterPath bookmark;
    bookmark.moveTo(s * 0.26, s * 0.20);
    bookmark.lineTo(s * 0.56, s * 0.20);
    bookmark.lineTo(s * 0.56, s * 0.78);
    bookmark.lineTo(s * 0.41, s * 0.65);
    bookmark.lineTo(s * 0.26, s * 0.78);
    bookmark.closeSubpath();
    p.setBrush(Qt::white);
    p.drawPath(bookmark);

    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0xf5, 0xb8, 0x2e), qMax(1.5, s * 0.07), Qt::SolidLine, Qt::RoundCap));
    const QRectF arc(s * 0.61, s * 0.57, s * 0.24, s * 0.24);
    p.drawArc(arc, 90 * 16, -270 * 16);
    return pixmap;
}

} // namespace

QIcon readerIcon()
{
    QIcon icon;
    for (int size : { 16, 24, 32, 48, 64, 128, 256 })
        icon.addPixmap(drawIcon(size));
    return icon;
}
