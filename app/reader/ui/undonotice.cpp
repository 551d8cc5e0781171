// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "undonotice.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>

UndoNotice::UndoNotice(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("undoNotice"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->setSpacing(8);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("undoNoticeText"));
    m_undo = new QPushButton(tr("&Undo"), this);
    m_undo->setObjectName(QStringLiteral("undoButton"));
    m_undo->setFlat(true);
    m_undo->setToolTip(tr("Take it back (Ctrl+Z)"));
    // The button is taller than a line of text: the notice keeps its height when the words
    // after it show without the button, so the status bar never changes height under them.
    QSizePolicy policy = m_undo->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    m_undo->setSizePolicy(policy);
    layout->addWidget(m_label);
    layout->addWidget(m_undo);
    connect(m_undo, &QPushButton::clicked, this, &UndoNotice::undoRequested);
    m_hide.setSingleShot(true);
    connect(&m_hide, &QTimer::timeout, this, &UndoNotice::dismiss);
    hide();
}

void UndoNotice::offerUndo(const QString &text, int ms)
{
    m_label->setText(text);
    m_undo->show();
    showFor(ms);
}

void UndoNotice::say(const QString &text, int ms)
{
    m_label->setText(text);
    m_undo->hide();
    showFor(ms);
}

void UndoNotice::showFor(int ms)
{
    show();
    m_hide.start(qMax(1, ms));
}

void UndoNotice::dismiss()
{
    m_hide.stop();
    hide();
}

QString UndoNotice::text() const
{
    return m_label->text();
}
