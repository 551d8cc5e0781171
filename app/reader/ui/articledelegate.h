// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ARTICLEDELEGATE_H
#define KEEPTRYING_READER_ARTICLEDELEGATE_H

#include <QtWidgets/QStyledItemDelegate>

class ImageStore;

/*
    Paints one saved article in the list: the preview picture (or a coloured tile with the
    site's initial while it loads), the title on up to two lines, and the site and the
    reading time below it.
*/
class ArticleDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit ArticleDelegate(ImageStore *images, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /*! The metadata line in \a width: \a parts joined with " · ", the last ones left out
        whole rather than cut (the date first, then the reading time); only a first part
        that does not fit alone is elided. Empty parts are skipped. */
    static QString fitMeta(const QStringList &parts, const QFontMetrics &metrics, int width);

private:
    ImageStore *m_images;
};

#endif // KEEPTRYING_READER_ARTICLEDELEGATE_H
