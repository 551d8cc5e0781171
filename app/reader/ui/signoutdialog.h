// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SIGNOUTDIALOG_H
#define KEEPTRYING_READER_SIGNOUTDIALOG_H

#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QRadioButton;
QT_END_NAMESPACE

/*
    File ▸ Sign Out…: asks before signing out, in plain words, and says what happens on this
    computer: the library and its offline copies are removed, the password forgotten, and
    nothing on the server changes. Changes not saved on the server yet are never dropped
    silently: with some waiting the person chooses to keep them for the next sign-in to
    the same account (the default) or to discard them.
*/
class SignOutDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SignOutDialog(QWidget *parent = nullptr);

    /*! The account signed out of (\a username on \a server, as a person names it) and
        the changes of it still \a waiting for the server. */
    void setAccount(const QString &username, const QString &server, int waiting);
    /*! True unless the person chose to discard the changes waiting. */
    bool keepsChanges() const;

private:
    QLabel *m_heading = nullptr;
    QLabel *m_waiting = nullptr;
    QRadioButton *m_keep = nullptr;
    QRadioButton *m_discard = nullptr;
};

#endif // KEEPTRYING_READER_SIGNOUTDIALOG_H
