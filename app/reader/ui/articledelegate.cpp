// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "articledelegate.h"

#include "articlelistmodel.h"

#include "library/imagestore.h"

#include <QtCore/QLocale>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtGui/QTextLayout>
#include <QtWidgets/QApplication>

namespace {

constexpr int Padding = 12;
constexpr int Spacing = 12;
constexpr QSize ThumbnailSize(92, 64);

// Lays \a text out in \a width on at most \a maxLines lines, eliding the last one.
QStringList wrapLines(const QString &text, const QFont &font, int width, int maxLines)
{
    QStringList lines;
    QTextLayout layout(text, font);
    layout.beginLayout();
    while (lines.size() < maxLines) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(width);
        if (lines.size() == maxLines - 1) {
            const QString rest = text.mid(line.textStart()).trimmed();
            lines << QFontMetrics(font).elidedText(rest, Qt::ElideRight, width);
        } else {
            lines << text.mid(line.textStart(), line.textLength()).trimmed();
        }
    }
    layout.endLayout();
    return lines;
}

// A calm colour per site, so the placeholders of one site look alike.
QColor tileColor(const QString &domain)
{
    const int hue = int(qHash(domain, 0) % 360); // seed 0: the same colour on every run
    return QColor::fromHsl(hue, 90, 215);
}

} // namespace

QString ArticleDelegate::fitMeta(const QStringList &parts, const QFontMetrics &metrics, int width)
{
    static const QString separator = QStringLiteral("  ·  ");
    QStringList kept;
    for (const QString &part : parts) {
        if (!part.isEmpty())
            kept << part;
    }
    // elidedText() itself decides what fits (its rounding differs from horizontalAdvance()).
    QString line = kept.join(separator);
    while (kept.size() > 1 && metrics.elidedText(line, Qt::ElideRight, qMax(0, width)) != line) {
        kept.removeLast();
        line = kept.join(separator);
    }
    return metrics.elidedText(line, Qt::ElideRight, qMax(0, width));
}

ArticleDelegate::ArticleDelegate(ImageStore *images, QObject *parent)
    : QStyledItemDelegate(parent), m_images(images)
{
}

QSize ArticleDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    return QSize(option.rect.width() > 0 ? option.rect.width() : 320,
                 ThumbnailSize.height() + 2 * Padding + 2);
}

void ArticleDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect rect = option.rect;
    const QPalette &palette = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    const bool hovered = option.state & QStyle::State_MouseOver;

    // Background: a soft tint of the highlight when selected, with an accent bar.
    QColor highlight = palette.color(QPalette::Highlight);
    if (selected) {
        QColor tint = highlight;
        tint.setAlpha(38);
        painter->fillRect(rect, palette.color(QPalette::Base));
        painter->fillRect(rect, tint);
        painter->fillRect(QRect(rect.left(), rect.top(), 3, rect.height()), highlight);
    } else if (hovered) {
        QColor tint = palette.color(QPalette::Text);
        tint.setAlpha(10);
        painter->fillRect(rect, tint);
    }
    QColor separator = palette.color(QPalette::Text);
    separator.setAlpha(24);
    painter->fillRect(QRect(rect.left() + Padding, rect.bottom(), rect.width() - 2 * Padding, 1),
                      separator);

    // Preview picture, or a tile with the site's initial while it loads.
    const QRect thumbRect(QPoint(rect.left() + Padding, rect.top() + Padding), ThumbnailSize);
    QPainterPath clip;
    clip.addRoundedRect(thumbRect, 6, 6);
    const QString domain = index.data(ArticleListModel::DomainRole).toString();
    // Lazily: only the rows that are painted ask for their picture.
    if (const auto *model = qobject_cast<const ArticleListModel *>(index.model()))
        model->requestPreview(index.row());
    const QPixmap thumb =
        m_images->thumbnail(index.data(ArticleListModel::PreviewUrlRole).toUrl(), ThumbnailSize,
                            painter->device()->devicePixelRatioF());
    if (!thumb.isNull()) {
        painter->setClipPath(clip);
        painter->drawPixmap(thumbRect, thumb);
        painter->setClipping(false);
    } else {
        painter->fillPath(clip, tileColor(domain));
        QFont initialFont = option.font;
        initialFont.setPointSizeF(initialFont.pointSizeF() * 1.8);
        initialFont.setBold(true);
        painter->setFont(initialFont);
        painter->setPen(QColor(255, 255, 255, 230));
        painter->drawText(thumbRect, Qt::AlignCenter, domain.left(1).toUpper());
    }

    // Title on two lines at most, then "site · 6 min read".
    const int textLeft = thumbRect.right() + 1 + Spacing;
    const int textWidth = rect.right() - Padding - textLeft;
    QFont titleFont = option.font;
    titleFont.setWeight(QFont::DemiBold);
    titleFont.setPointSizeF(option.font.pointSizeF() * 1.05);
    const QFontMetrics titleMetrics(titleFont);
    const QStringList lines =
        wrapLines(index.data(Qt::DisplayRole).toString(), titleFont, textWidth, 2);
    painter->setFont(titleFont);
    painter->setPen(palette.color(QPalette::Text));
    int y = rect.top() + Padding - 1;
    for (const QString &line : lines) {
        painter->drawText(QRect(textLeft, y, textWidth, titleMetrics.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, line);
        y += titleMetrics.height();
    }

    QFont metaFont = option.font;
    metaFont.setPointSizeF(option.font.pointSizeF() * 0.92);
    const QFontMetrics metaMetrics(metaFont);
    const int minutes = index.data(ArticleListModel::ReadingTimeRole).toInt();
    QStringList meta { domain };
    if (minutes > 0)
        meta << tr("%1 min read").arg(minutes);
    const QDateTime saved = index.data(ArticleListModel::CreatedRole).toDateTime();
    if (saved.isValid())
        meta << QLocale().toString(saved.toLocalTime().date(), QLocale::ShortFormat);
    QColor metaColor = palette.color(QPalette::Text);
    metaColor.setAlpha(150);
    const QRect metaRect(textLeft, thumbRect.bottom() + 1 - metaMetrics.height(), textWidth,
                         metaMetrics.height());
    const bool starred = index.data(ArticleListModel::StarredRole).toBool();
    // The sync state, after the star: nothing when saved, "Waiting" or "Not saved".
    const SyncState sync = SyncState(index.data(ArticleListModel::SyncStateRole).toInt());
    QString syncText;
    QColor syncColor = metaColor;
    if (sync == SyncState::Waiting) {
        syncText = tr("↻ Waiting to sync");
        // In a narrow list the state keeps its word and leaves the site room.
        if (metaMetrics.horizontalAdvance(syncText) > textWidth / 2)
            syncText = tr("↻ Waiting");
    } else if (sync == SyncState::Failed) {
        syncText = tr("⚠ Not saved");
        syncColor = palette.color(QPalette::Text).lightness() > 128 ? QColor(0xff, 0x8a, 0x80)
                                                                    : QColor(0xb3, 0x26, 0x1e);
    }
    const int syncWidth = syncText.isEmpty() ? 0 : metaMetrics.horizontalAdvance(syncText) + 8;
    const int starWidth = (starred ? metaMetrics.height() + 4 : 0) + syncWidth;
    painter->setFont(metaFont);
    painter->setPen(metaColor);
    painter->drawText(metaRect.adjusted(0, 0, -starWidth, 0), Qt::AlignLeft | Qt::AlignVCenter,
                      fitMeta(meta, metaMetrics, textWidth - starWidth - 6));
    if (!syncText.isEmpty()) {
        painter->setPen(syncColor);
        painter->drawText(metaRect, Qt::AlignRight | Qt::AlignVCenter, syncText);
    }
    if (starred) {
        painter->setPen(QColor(0xd9, 0x9a, 0x06));
        painter->drawText(metaRect.adjusted(0, 0, -syncWidth, 0), Qt::AlignRight | Qt::AlignVCenter,
                          QStringLiteral("\u2605"));
    }
    painter->restore();
}
