// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_TAGEDITORDIALOG_H
#define KEEPTRYING_READER_TAGEDITORDIALOG_H

#include <QtCore/QStringList>
#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLineEdit;
QT_END_NAMESPACE

/*
    Article ▸ Edit Tags…: what is typed is added to the article's tags, which are listed
    each with a tick; a tag goes only when its tick is taken away. Typing never replaces
    the tags already there (a text field holding them all, selected, did).
*/
class TagEditorDialog : public QDialog
{
    Q_OBJECT

public:
    /*! For the article \a title with \a tags. */
    TagEditorDialog(const QString &title, const QStringList &tags, QWidget *parent = nullptr);

    /*! The tags kept, then the ones typed (comma-separated), each once (case aside). */
    QStringList tags() const;

    QLineEdit *addField() const { return m_add; }
    /*! The tick of the existing tag \a tag, or null. */
    QCheckBox *tagBox(const QString &tag) const;

private:
    QList<QCheckBox *> m_boxes;
    QLineEdit *m_add = nullptr;
};

#endif // KEEPTRYING_READER_TAGEDITORDIALOG_H
