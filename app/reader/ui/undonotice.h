// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_UNDONOTICE_H
#define KEEPTRYING_READER_UNDONOTICE_H

#include <QtCore/QTimer>
#include <QtWidgets/QFrame>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

/*
    A short notice in the status bar that something was done and can be taken back
    ("Article deleted — Undo"), or a plain word after it (restored, or too late to undo).
    It hides by itself after the time given; it never moves the panes above it.
*/
class UndoNotice : public QFrame
{
    Q_OBJECT

public:
    explicit UndoNotice(QWidget *parent = nullptr);

    /*! Shows \a text with an Undo button for \a ms milliseconds. */
    void offerUndo(const QString &text, int ms);
    /*! Shows \a text alone for \a ms milliseconds. */
    void say(const QString &text, int ms);
    /*! Hides the notice at once. */
    void dismiss();

    QString text() const;
    QPushButton *undoButton() const { return m_undo; }

Q_SIGNALS:
    /*! The Undo button was pressed. */
    void undoRequested();

private:
    void showFor(int ms);

    QLabel *m_label = nullptr;
    QPushButton *m_undo = nullptr;
    QTimer m_hide;
};

#endif // KEEPTRYING_READER_UNDONOTICE_H
