// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "signoutdialog.h"

#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QRadioButton>
#include <QtWidgets/QVBoxLayout>

SignOutDialog::SignOutDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("signOutDialog"));
    setWindowTitle(tr("Sign Out"));
    auto *layout = new QVBoxLayout(this);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("signOutHeading"));
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_heading->setWordWrap(true);
    auto *what = new QLabel(tr("Your saved articles and the copies kept for reading offline "
                               "will be removed from this computer, and the reader will forget "
                               "your password. Nothing changes in your wallabag account: sign "
                               "in again to read it here."),
                            this);
    what->setObjectName(QStringLiteral("signOutWhat"));
    what->setWordWrap(true);
    m_waiting = new QLabel(this);
    m_waiting->setObjectName(QStringLiteral("signOutWaiting"));
    m_waiting->setWordWrap(true);
    m_keep = new QRadioButton(this);
    m_keep->setObjectName(QStringLiteral("keepChanges"));
    m_keep->setChecked(true); // never lost unless the person says so
    m_discard = new QRadioButton(tr("&Discard, never to be sent to the server"), this);
    m_discard->setObjectName(QStringLiteral("discardChanges"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton *signOut = buttons->button(QDialogButtonBox::Ok);
    signOut->setText(tr("Sign Out"));
    signOut->setObjectName(QStringLiteral("signOutButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_heading);
    layout->addWidget(what);
    layout->addSpacing(6);
    layout->addWidget(m_waiting);
    layout->addWidget(m_keep);
    layout->addWidget(m_discard);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(440);
}

void SignOutDialog::setAccount(const QString &username, const QString &server, int waiting)
{
    m_heading->setText(tr("Sign out as %1 on %2?").arg(username, server));
    m_waiting->setText(
        waiting == 1
            ? tr("1 change you made here has not reached the server yet.")
            : tr("%n changes you made here have not reached the server yet.", nullptr, waiting));
    m_keep->setText(
        tr("&Keep on this computer, to be sent when I sign in again as %1").arg(username));
    m_keep->setChecked(true);
    for (QWidget *w : { static_cast<QWidget *>(m_waiting), static_cast<QWidget *>(m_keep),
                        static_cast<QWidget *>(m_discard) })
        w->setVisible(waiting > 0);
    adjustSize();
}

bool SignOutDialog::keepsChanges() const
{
    return !m_discard->isChecked();
}
