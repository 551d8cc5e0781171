// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_FAILEDCHANGESDIALOG_H
#define KEEPTRYING_READER_FAILEDCHANGESDIALOG_H

#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

class SyncEngine;
struct Article;

/*
    The changes the server refused (dead letters), each with what went wrong, and for each
    a choice: Undo (the article goes back to what the server has) or Keep mine here (keep it
    as it is here and send nothing more). Each names the change in words ("Star"). There is no
   button to send it again: what the server refused, it would refuse again. The changes still
   waiting to be sent are counted too: "nothing is waiting to be saved" only when it is true. With
   nothing refused, neither the words about refusals nor the buttons that act on them are offered.
*/
class FailedChangesDialog : public QDialog
{
    Q_OBJECT

public:
    explicit FailedChangesDialog(SyncEngine *engine, QWidget *parent = nullptr);

    QListWidget *list() const { return m_list; }
    QPushButton *undoButton() const { return m_undo; }
    QPushButton *discardButton() const { return m_discard; }
    /*! The words above the list. */
    QString introText() const;

private:
    void fill();
    /*! The change to \a article's \a field (a LocalStore::Field), in words: "Star". */
    static QString changeName(const Article &article, int field);

    SyncEngine *m_engine;
    QListWidget *m_list = nullptr;
    QLabel *m_intro = nullptr;
    QPushButton *m_undo = nullptr;
    QPushButton *m_discard = nullptr;
};

#endif // KEEPTRYING_READER_FAILEDCHANGESDIALOG_H
