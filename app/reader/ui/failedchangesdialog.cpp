// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "failedchangesdialog.h"

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
    auto *intro = new QLabel(tr("The server refused these changes. Undo puts the article back "
                                "as the server has it; Discard keeps it as it is here."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_list = new QListWidget(this);
    m_list->setWordWrap(true);
    layout->addWidget(m_list, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *undo = buttons->addButton(tr("&Undo"), QDialogButtonBox::ActionRole);
    QPushButton *discard = buttons->addButton(tr("&Discard"), QDialogButtonBox::ActionRole);
    undo->setToolTip(tr("Put the article back as the server has it"));
    discard->setToolTip(tr("Keep the article as it is here and send nothing more"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    const auto act = [this](bool undoIt) {
        QListWidgetItem *item = m_list->currentItem();
        if (!item)
            return;
        const qint64 id = item->data(Qt::UserRole).toLongLong();
        if (undoIt)
            m_engine->undo(id);
        else
            m_engine->discard(id);
        fill();
    };
    connect(undo, &QPushButton::clicked, this, [act] { act(true); });
    connect(discard, &QPushButton::clicked, this, [act] { act(false); });
    layout->addWidget(buttons);
    fill();
}

void FailedChangesDialog::fill()
{
    m_list->clear();
    const QList<Article> failed = m_engine->store()->failedArticles();
    for (const Article &a : failed) {
        auto *item = new QListWidgetItem(tr("%1\n%2").arg(a.title, a.syncError), m_list);
        item->setData(Qt::UserRole, a.id);
    }
    if (failed.isEmpty()) {
        auto *item = new QListWidgetItem(tr("Every change has been saved."), m_list);
        item->setFlags(Qt::NoItemFlags);
    } else {
        m_list->setCurrentRow(0);
    }
}
