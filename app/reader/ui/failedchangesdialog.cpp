// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "failedchangesdialog.h"

#include "library/changequeue.h"
#include "library/syncengine.h"

#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

FailedChangesDialog::FailedChangesDialog(SyncEngine *engine, QWidget *parent)
    : QDialog(parent), m_engine(engine)
{
    setWindowTitle(tr("Changes Not Saved"));
    setObjectName(QStringLiteral("failedChanges"));
    resize(620, 360);
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(this);
    m_intro->setObjectName(QStringLiteral("failedChangesIntro"));
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_list = new QListWidget(this);
    m_list->setWordWrap(true);
    layout->addWidget(m_list, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_undo = buttons->addButton(tr("&Undo"), QDialogButtonBox::ActionRole);
    m_discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::ActionRole);
    m_undo->setToolTip(tr("Put the article back as the server has it"));
    m_discard->setToolTip(tr("Keep the article as it is here and send nothing more"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto act = [this](bool undoIt) {
        QListWidgetItem *item = m_list->currentItem();
        if (!item || !(item->flags() & Qt::ItemIsEnabled))
            return;
        const qint64 id = item->data(Qt::UserRole).toLongLong();
        if (undoIt)
            m_engine->undo(id);
        else
            m_engine->discard(id);
        fill();
    };
    connect(m_undo, &QPushButton::clicked, this, [act] { act(true); });
    connect(m_discard, &QPushButton::clicked, this, [act] { act(false); });
    // The count of changes waiting moves while the dialog is open (sent, or refused).
    connect(engine->queue(), &ChangeQueue::waitingCountChanged, this, &FailedChangesDialog::fill);
    layout->addWidget(buttons);
    fill();
}

QString FailedChangesDialog::introText() const
{
    return m_intro->text();
}

void FailedChangesDialog::fill()
{
    const qint64 selected =
        m_list->currentItem() ? m_list->currentItem()->data(Qt::UserRole).toLongLong() : 0;
    m_list->clear();
    const QList<Article> failed = m_engine->store()->failedArticles();
    for (const Article &a : failed) {
        auto *item = new QListWidgetItem(tr("%1\n%2").arg(a.title, a.syncError), m_list);
        item->setData(Qt::UserRole, a.id);
        if (a.id == selected)
            m_list->setCurrentItem(item);
    }
    const int waiting = m_engine->queue()->waitingCount();
    const QString waitingText = waiting == 1
        ? tr("1 change is waiting to be sent; it goes to the server by itself as soon as the "
             "server can be reached.")
        : tr("%n changes are waiting to be sent; they go to the server by themselves as soon "
             "as the server can be reached.",
             nullptr, waiting);
    if (failed.isEmpty()) {
        m_intro->setText(waiting > 0 ? waitingText : tr("Every change has been saved."));
        auto *item =
            new QListWidgetItem(tr("The server has refused none of your changes."), m_list);
        item->setFlags(Qt::NoItemFlags);
    } else {
        QString intro = tr("The server refused these changes. Undo puts the article back as "
                           "the server has it; Discard keeps it as it is here.");
        if (waiting > 0)
            intro += QLatin1Char(' ') + waitingText;
        m_intro->setText(intro);
        if (!m_list->currentItem())
            m_list->setCurrentRow(0);
    }
    // Nothing refused: nothing to undo or discard.
    m_undo->setEnabled(!failed.isEmpty());
    m_discard->setEnabled(!failed.isEmpty());
}
