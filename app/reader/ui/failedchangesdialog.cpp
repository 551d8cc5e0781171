// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "failedchangesdialog.h"

#include "library/changequeue.h"
#include "library/localstore.h"
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
    m_undo = buttons->addButton(tr("&Undo: go back to what the server has"),
                                QDialogButtonBox::ActionRole);
    m_discard = buttons->addButton(tr("&Keep mine here: stop trying to save it"),
                                   QDialogButtonBox::ActionRole);
    m_undo->setObjectName(QStringLiteral("undoRefused"));
    m_discard->setObjectName(QStringLiteral("keepMine"));
    m_undo->setToolTip(tr("The article goes back to how it is on the server"));
    m_discard->setToolTip(tr("The article stays as you have it here; the server keeps its own "
                             "version"));
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

QString FailedChangesDialog::changeName(const Article &article, int field)
{
    switch (LocalStore::Field(field)) {
    case LocalStore::Field::Starred:
        return article.starred ? tr("Star") : tr("Remove star");
    case LocalStore::Field::Archived:
        return article.archived ? tr("Archive") : tr("Back to unread");
    case LocalStore::Field::Tags:
        return tr("Tags");
    case LocalStore::Field::Deleted:
        return tr("Delete");
    case LocalStore::Field::Added:
        return tr("Save a link");
    }
    return QString();
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
        QStringList changes;
        const QList<LocalStore::Field> fields = m_engine->store()->unsavedFields(a.id);
        for (LocalStore::Field field : fields)
            changes << changeName(a, int(field));
        const QString what = changes.isEmpty()
            ? a.title
            : tr("%1 — %2", "article title — the change not saved")
                  .arg(a.title, changes.join(QStringLiteral(", ")));
        auto *item = new QListWidgetItem(tr("%1\n%2").arg(what, a.syncError), m_list);
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
        m_intro->setText(waiting > 0 ? waitingText : tr("Nothing is waiting to be saved."));
        auto *item =
            new QListWidgetItem(tr("The server has refused none of your changes."), m_list);
        item->setFlags(Qt::NoItemFlags);
    } else {
        QString intro = tr("The server refused these changes. Undo puts the article back as "
                           "the server has it. Keep mine leaves it as you have it here and "
                           "stops trying to save the change.");
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
