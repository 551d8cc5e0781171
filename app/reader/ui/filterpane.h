// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_FILTERPANE_H
#define KEEPTRYING_READER_FILTERPANE_H

#include "library/localstore.h"

#include <QtCore/QTimer>
#include <QtWidgets/QListWidget>

/*
    The left pane: Unread, Starred, Archive and All, then the tags, each with its count,
    read from the local store (so they are right offline too, and follow every change at
    once). Choosing one emits filterChosen().
*/
class FilterPane : public QListWidget
{
    Q_OBJECT

public:
    explicit FilterPane(LocalStore *store, QWidget *parent = nullptr);

    /*! Selects \a view (and \a tag when not empty) without emitting filterChosen(). */
    void select(LocalStore::View view, const QString &tag = QString());
    LocalStore::View view() const { return m_view; }
    QString tag() const { return m_tag; }
    /*! Moves the keyboard focus to the first tag (g t). */
    void focusTags();
    /*! What the pane shows: each view and tag ("# label") with its count, top to bottom. */
    QList<QPair<QString, int>> shownCounts() const;
    /*! Reads the counts again from the store. */
    void updateCounts();
    /*! \a name elided to leave room for \a count at the right of a row \a width wide. */
    static QString fitName(const QString &name, const QFontMetrics &metrics, int width,
                           const QString &count);

Q_SIGNALS:
    void filterChosen(LocalStore::View view, const QString &tag);

private:
    void chosen(QListWidgetItem *item);

    LocalStore *m_store;
    QTimer m_updateSoon;
    LocalStore::View m_view = LocalStore::View::Unread;
    QString m_tag;
    bool m_updating = false;
};

#endif // KEEPTRYING_READER_FILTERPANE_H
