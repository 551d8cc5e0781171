// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_BANNEROVERLAY_H
#define KEEPTRYING_READER_BANNEROVERLAY_H

#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

QT_BEGIN_NAMESPACE
class QVBoxLayout;
QT_END_NAMESPACE

/*
    Holds the window's banners over the top or bottom edge of another widget (the reading
    pane's text) instead of in the window's layout, so a banner sliding open or closed moves
    nothing: the list under the pointer stays where it is, and no row changes place between
    a person's aim and their click. Follows the anchor's place, width and look (its Base
    colour fills the banners' margins), and the banners' own height (their open/close
    animation); takes no room while every banner is hidden.
*/
class BannerOverlay : public QWidget
{
    Q_OBJECT

public:
    /*! Floats over the \a edge (Qt::TopEdge or Qt::BottomEdge) of \a anchor, which must be
        a descendant of \a parent. */
    BannerOverlay(QWidget *anchor, Qt::Edge edge, QWidget *parent);

    void addBanner(QWidget *banner);

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QPointer<QWidget> m_anchor;
    Qt::Edge m_edge;
    QVBoxLayout *m_layout;
};

#endif // KEEPTRYING_READER_BANNEROVERLAY_H
