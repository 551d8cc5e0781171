// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "accountswitcher.h"

#include "localstore.h"
#include "outboxchangequeue.h"
#include "syncengine.h"

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QFile>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>

Q_LOGGING_CATEGORY(lcAccounts, "keeptrying.reader.accounts", QtWarningMsg)

namespace {

// While signed out the window shows a library of nobody's, which no file keeps.
const QString SignedOutLibrary = QStringLiteral(":memory:");

// An SQLite file and what WAL mode keeps beside it.
void removeDatabase(const QString &path)
{
    for (const QString &suffix :
         { QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".lock") }) {
        if (QFile::exists(path + suffix) && !QFile::remove(path + suffix))
            qCWarning(lcAccounts) << "could not remove a file of the account signed out of";
    }
}

} // namespace

// An account left behind with changes still to send. Members are destroyed bottom-up: the
// engine before the queue it listens to, the queue before the client that signs it.
struct AccountSwitcher::Retired
{
    QString key;
    std::unique_ptr<WallabagClient> client;
    std::unique_ptr<LocalStore> store;
    std::unique_ptr<OutboxChangeQueue> queue;
    std::unique_ptr<SyncEngine> engine;
};

AccountSwitcher::AccountSwitcher(KeepTrying::RetryingNetworkAccessManager *manager,
                                 WallabagClient *client, LocalStore *store,
                                 OutboxChangeQueue *queue, SyncEngine *engine,
                                 const Account &current, QObject *parent)
    : QObject(parent), m_manager(manager), m_client(client), m_store(store), m_queue(queue),
      m_engine(engine), m_current(current)
{
}

AccountSwitcher::~AccountSwitcher()
{
    // What the retired accounts still hold stays in their files.
    m_retired.clear();
}

void AccountSwitcher::setPathFunction(PathFunction paths)
{
    m_paths = std::move(paths);
}

QString AccountSwitcher::path(const QString &key, const QString &kind) const
{
    return m_paths ? m_paths(key, kind) : LocalStore::defaultPath(key, kind);
}

QString AccountSwitcher::offlineCopyKey(const Account &account)
{
    return account.server.toString(QUrl::RemoveUserInfo) + QLatin1Char(' ') +
        account.credentials.username;
}

void AccountSwitcher::signIn(const Account &account, SignInCallback done)
{
    if (m_probe)
        m_probe.release()->deleteLater(); // the newer sign-in wins; the older one is dropped
    m_probe = std::make_unique<WallabagClient>(m_manager);
    m_probe->setServer(account.server, account.credentials);
    WallabagClient *probe = m_probe.get();
    connect(probe, &WallabagClient::signedInChanged, this, [this, probe, account, done](bool in) {
        if (!in || m_probe.get() != probe)
            return;
        // Not deleted inside its own signal.
        m_probe.release()->deleteLater();
        QString error;
        const bool ok = switchTo(account, &error);
        done(ok, error);
    });
    connect(probe, &WallabagClient::signInFailed, this,
            [this, probe, done](const QString &message) {
                if (m_probe.get() != probe)
                    return;
                m_probe.release()->deleteLater();
                done(false, message);
            });
    probe->signIn();
}

void AccountSwitcher::cancelSignIn()
{
    if (m_probe)
        m_probe.release()->deleteLater();
}

bool AccountSwitcher::switchTo(const Account &account, QString *errorMessage)
{
    cancelSignIn();
    // Back to an account that is still sending what was left behind: its outbox file gets
    // one drainer, the reader's own queue.
    for (std::size_t i = 0; i < m_retired.size(); ++i) {
        if (m_retired[i]->key == account.key) {
            closeRetired(m_retired[i].get());
            break; // one at most per account
        }
    }

    const Account previous = m_current;
    const bool leavesChanges = previous.key != account.key &&
        (m_queue->waitingCount() > 0 || !m_store->pendingChanges().isEmpty());

    // Nothing of the previous account's refresh may land in the new library.
    m_engine->stop();
    if (!m_store->open(path(account.key, QStringLiteral("library")), errorMessage)) {
        qCWarning(lcAccounts) << "cannot open the library of the new account; staying";
        m_store->open(previous.key.isEmpty() ? SignedOutLibrary
                                             : path(previous.key, QStringLiteral("library")));
        m_engine->start();
        return false;
    }
    m_store->setServer(account.server);
    m_client->setServer(account.server, account.credentials);
    if (m_manager->isOfflineCopyStoreOpen()) {
        // Copies are kept per account: the new one neither sees nor evicts the other's.
        KeepTrying::OfflineCopy::Settings copies = m_manager->offlineCopySettings();
        copies.accountKey = offlineCopyKey(account);
        m_manager->setOfflineCopySettings(copies);
    }
    m_queue->setDatabasePath(path(account.key, QStringLiteral("outbox")));
    m_current = account;
    if (leavesChanges)
        retire(previous);
    m_engine->start();
    Q_EMIT switched(account.key);
    return true;
}

void AccountSwitcher::signOut(bool keepChanges)
{
    if (isSignedOut())
        return;
    cancelSignIn();
    m_engine->stop();
    const Account leaving = m_current;
    // Written down while the client still knows the server; then the outbox closes, its
    // replays in flight aborted: nothing goes with this account's token from now on.
    if (keepChanges)
        m_queue->keepForLater();
    m_queue->setDatabasePath(QString());
    if (!keepChanges)
        removeDatabase(path(leaving.key, QStringLiteral("outbox")));
    // Its calls stopped, its token request too, its tokens and password forgotten.
    m_client->setServer(QUrl(), {});
    if (m_manager->isOfflineCopyStoreOpen()) {
        m_manager->clearOfflineCopies(); // the current account's only
        KeepTrying::OfflineCopy::Settings copies = m_manager->offlineCopySettings();
        copies.accountKey.clear();
        m_manager->setOfflineCopySettings(copies);
    }
    m_store->open(SignedOutLibrary);
    m_store->setServer(QUrl());
    removeDatabase(path(leaving.key, QStringLiteral("library")));
    m_current = Account();
    Q_EMIT signedOut(leaving.key);
}

void AccountSwitcher::retire(const Account &account)
{
    auto retired = std::make_unique<Retired>();
    retired->key = account.key;
    retired->client = std::make_unique<WallabagClient>(m_manager);
    retired->client->setServer(account.server, account.credentials);
    retired->store = std::make_unique<LocalStore>();
    QString error;
    if (!retired->store->open(path(account.key, QStringLiteral("library")), &error)) {
        // Its changes stay pending in its files until the user is back in that account.
        qCWarning(lcAccounts) << "changes left for later:" << error;
        return;
    }
    retired->store->setServer(account.server);
    retired->queue = std::make_unique<OutboxChangeQueue>(
        retired->client.get(), m_manager, path(account.key, QStringLiteral("outbox")));
    retired->engine = std::make_unique<SyncEngine>(retired->client.get(), retired->store.get(),
                                                   retired->queue.get());
    retired->engine->setPrefetchContent(false);

    Retired *raw = retired.get();
    const auto closeWhenDone = [this, raw] {
        // Later, not inside the queue's signal: the confirmation that follows the count
        // must still reach the retired library.
        QTimer::singleShot(0, this, [this, raw] {
            for (const auto &r : m_retired) {
                if (r.get() == raw && r->queue->isOpen() && r->queue->waitingCount() == 0)
                    closeRetired(raw);
            }
        });
    };
    // The engine connected first to opened(), so the store's pending fields are queued
    // before this looks at the count.
    connect(raw->queue.get(), &ChangeQueue::opened, this, closeWhenDone);
    connect(raw->queue.get(), &ChangeQueue::waitingCountChanged, this, [closeWhenDone](int count) {
        if (count == 0)
            closeWhenDone();
    });
    connect(raw->client.get(), &WallabagClient::signInFailed, this, [this, raw] {
        // The password changed meanwhile, or the account is gone: kept for later.
        QTimer::singleShot(0, this, [this, raw] { closeRetired(raw); });
    });
    m_retired.push_back(std::move(retired));
    Q_EMIT retiredCountChanged(retiredCount());
    raw->client->signIn(); // the queue opens once signed in, and drains
}

void AccountSwitcher::closeRetired(Retired *retired)
{
    for (auto it = m_retired.begin(); it != m_retired.end(); ++it) {
        if (it->get() != retired)
            continue;
        const QString key = retired->key;
        const int waiting = retired->queue->waitingCount();
        m_retired.erase(it);
        Q_EMIT retiredClosed(key, waiting);
        Q_EMIT retiredCountChanged(retiredCount());
        return;
    }
}
