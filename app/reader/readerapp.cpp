// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readerapp.h"

#include "accountkeys.h"
#include "certificateflow.h"
#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/readernetwork.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "savedaccount.h"
#include "scriptoutput.h"
#include "signinflow.h"
#include "signoutflow.h"
#include "ui/mainwindow.h"
#include "ui/preferencesdialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QFile>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtNetwork/QNetworkProxyFactory>
#include <QtWidgets/QStatusBar>

#include <cstdio>

namespace {

// The built-in server starts afresh on a new port every run (and when chosen again), so
// what an earlier run queued for it points at a server that is gone: its outbox starts
// empty, and the library's pending fields are queued again for this server
// (SyncEngine::start).
void removeDemoOutbox()
{
    const QString path = LocalStore::defaultPath(AccountKeys::demo(), QStringLiteral("outbox"));
    for (const QString &suffix :
         { QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral(".lock") })
        QFile::remove(path + suffix);
}

WallabagClient::Credentials demoCredentials()
{
    using KeepTrying::Demo::DemoServer;
    return { DemoServer::demoClientId(), DemoServer::demoClientSecret(), DemoServer::demoUsername(),
             DemoServer::demoPassword() };
}

QString describeBuiltIn(const QUrl &server)
{
    // Its port changes every run and is for QA: on stdout ("demo server:") and in the log.
    Q_UNUSED(server)
    return QObject::tr("Built-in demo server");
}

} // namespace

ReaderApp::ReaderApp(const ReaderOptions &options, QObject *parent)
    : QObject(parent), m_options(options),
      m_secrets(QStringLiteral("KeepTrying Reader"),
                !qEnvironmentVariableIsSet("KEEPTRYING_NO_KEYCHAIN"))
{
    m_launch.start();
}

ReaderApp::~ReaderApp() = default;

bool ReaderApp::fail(int exitCode, const QString &message)
{
    m_exitCode = exitCode;
    m_errorMessage = message;
    return false;
}

bool ReaderApp::open()
{
    if (!chooseStartAccount())
        return false;
    // Whether a keychain answers is known before Sign In promises one. A saved account's
    // read has told already (probe() then does nothing); a first start asks once.
    m_secrets.probe();
    if (!openSession())
        return false;
    buildWindow();
    return true;
}

bool ReaderApp::chooseStartAccount()
{
    if (m_options.server.isValid()) {
        const QUrl &server = m_options.server;
        m_account = { AccountKeys::own(m_options.credentials.username, server), server,
                      m_options.credentials };
        m_serverDescription = server.host();
        return true;
    }
    // A wallabag account chosen in File ▸ Sign In…, its secrets from the keychain.
    const SavedAccount saved = SavedAccount::load();
    if (!saved.demo) {
        CredentialStore::Secrets secrets;
        if (saved.readSecrets(&m_secrets, &secrets) && saved.server.isValid()) {
            m_account = { AccountKeys::own(saved.username, saved.server),
                          saved.server,
                          { saved.clientId, secrets.clientSecret, saved.username,
                            secrets.password } };
            m_serverDescription = saved.server.host();
            return true;
        }
        // No keychain kept the secrets (this session only, as without D-Bus): the account's
        // own library still opens, readable offline with its waiting changes counted, and
        // Sign In asks for the password again (start()).
        const QString key = AccountKeys::own(saved.username, saved.server);
        if (saved.server.isValid() && QFile::exists(LocalStore::defaultPath(key))) {
            m_account = { key, saved.server, { saved.clientId, {}, saved.username, {} } };
            m_serverDescription = saved.server.host();
            m_needsPassword = true;
            return true;
        }
        m_savedAccountNote = QObject::tr("Your password for %1 was kept for the last session "
                                         "only: sign in again to read that library. Showing "
                                         "the demo library meanwhile.")
                                 .arg(saved.server.host());
    }
    // The last run's port, so that its offline copies (keyed by URL) are found again.
    const quint16 lastPort =
        quint16(QSettings().value(QStringLiteral("builtInServer/port"), 0).toUInt());
    if (!startBuiltInServer(lastPort))
        return false;
    for (const QString &spec : std::as_const(m_options.demoFaults)) {
        QString error;
        if (!m_builtIn.addFault(spec, &error))
            return fail(ReaderCommandLine::UsageError,
                        QStringLiteral("--demo-fault: %1").arg(error));
    }
    const QUrl server = m_builtIn.baseUrl();
    QSettings().setValue(QStringLiteral("builtInServer/port"), server.port());
    // For QA scripts: where to send curl, faults and outages.
    ScriptOutput::print(QStringLiteral("demo server: ") + server.toString());
    ScriptOutput::print(QStringLiteral("demo server admin: ") + m_builtIn.adminUrl().toString());
    removeDemoOutbox();
    m_account = { AccountKeys::demo(), server, demoCredentials() };
    m_serverDescription = describeBuiltIn(server);
    return true;
}

bool ReaderApp::startBuiltInServer(quint16 preferredPort)
{
    QString error;
    if (!m_builtIn.start(preferredPort, &error))
        return fail(1, error);
    return true;
}

bool ReaderApp::prepareDemoAccount(AccountSwitcher::Account *account, QString *description,
                                   QString *error)
{
    if (!m_builtIn.baseUrl().isValid()) {
        if (!m_builtIn.start(0, error))
            return false;
        setBuiltInHooks();
    }
    // As at a start: the built-in server is new to this library, so is its outbox.
    if (m_switcher->current().key != AccountKeys::demo())
        removeDemoOutbox();
    *account = { AccountKeys::demo(), m_builtIn.baseUrl(), demoCredentials() };
    *description = describeBuiltIn(m_builtIn.baseUrl());
    return true;
}

bool ReaderApp::openSession()
{
    // The proxy people have set: the desktop's settings, or on Linux http_proxy, https_proxy
    // and no_proxy (Debian's Qt asks libproxy). Qt 6.4 does so by default; said here so that
    // the reader does not depend on that default. Qt sends loopback and localhost direct.
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    // Every request of the reader goes through this one manager: the list, the articles,
    // the images and the writes, so that simulated offline mode applies to all of them.
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    ReaderNetwork::configure(m_manager.get());
    if (m_options.simulateOffline)
        m_manager->setSimulatedOffline(true);
    // Every handshake of that manager, every attempt of every request: only a certificate
    // the person trusted for an account passes where the system's trust refuses it.
    m_trust.watch(m_manager.get());
    m_certificates = std::make_unique<CertificateFlow>(&m_trust);
    if (m_account.key != AccountKeys::demo())
        m_certificates->restore(m_account.key, m_account.server);

    m_store = std::make_unique<LocalStore>();
    QString error;
    if (!m_store->open(LocalStore::defaultPath(m_account.key), &error))
        return fail(1, error);
    m_store->setServer(m_account.server);
    // The manager keeps offline copies of what the reader opts in (an article's content and
    // pictures pinned, previews evictable) in the cache directory, per account. The built-in
    // server takes the last run's port when it is free, so its copies are found again; on
    // another port they are not (they are keyed by URL).
    auto *copies = new KeepTrying::OfflineCopyStore; // the manager's
    copies->setMaximumSize(PreferencesDialog::offlineBudgetBytes());
    const bool copiesOpen =
        copies->open(QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                     QStringLiteral("/offline-copies"));
    m_manager->setOfflineCopyStore(copies);
    m_manager->setOfflineCopySettings({ AccountSwitcher::offlineCopyKey(m_account) });
    if (!copiesOpen)
        std::fputs("keeptrying-reader: offline copies cannot be kept in the cache directory; "
                   "articles not read yet will need the network\n",
                   stderr);
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer(m_account.server, m_account.credentials);
    m_images = std::make_unique<ImageStore>(m_client.get());
    // A saved article reads complete offline, pictures too, even if it was never opened.
    QObject::connect(m_store.get(), &LocalStore::contentStored, m_images.get(),
                     [images = m_images.get(), store = m_store.get()](qint64, const QString &html) {
                         images->keepForOffline(ImageStore::picturesOf(html, store->server()));
                     });
    // The user's changes, durable: one outbox per account.
    m_queue = std::make_unique<OutboxChangeQueue>(
        m_client.get(), m_manager.get(),
        LocalStore::defaultPath(m_account.key, QStringLiteral("outbox")));
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    m_requestLog = std::make_unique<RequestLog>(m_manager.get());
    return true;
}

void ReaderApp::buildWindow()
{
    m_window = std::make_unique<MainWindow>(m_engine.get(), m_images.get(), m_manager.get(),
                                            m_requestLog.get());
    m_window->setLaunchTimer(m_launch);
    setUndoTimeMs(m_window->undoNoticeMs());
    m_window->setServerDescription(m_serverDescription);
    m_window->setDeveloperMode(m_options.developer ||
                               QSettings().value(QStringLiteral("developer/enabled")).toBool());
    if (!m_savedAccountNote.isEmpty())
        m_window->statusBar()->showMessage(m_savedAccountNote);
    const bool startedWithServer = !m_builtIn.baseUrl().isValid();
    if (!startedWithServer)
        setBuiltInHooks();

    // File ▸ Sign In…: the switcher moves the same client, store, queue and engine to the
    // account chosen; what waits for the account left behind stays that account's.
    m_switcher = std::make_unique<AccountSwitcher>(m_manager.get(), m_client.get(), m_store.get(),
                                                   m_queue.get(), m_engine.get(), m_account);
    m_signIn = std::make_unique<SignInFlow>(m_window.get(), m_switcher.get(), &m_secrets);
    m_signIn->setStartedWithServer(startedWithServer);
    m_signIn->setDemoAccount(
        [this](AccountSwitcher::Account *account, QString *description, QString *error) {
            return prepareDemoAccount(account, description, error);
        });
    connect(m_window.get(), &MainWindow::signInRequested, m_signIn.get(), &SignInFlow::open);
    m_signIn->setCertificateFlow(m_certificates.get());
    connect(m_switcher.get(), &AccountSwitcher::switched, this, [this] {
        const AccountSwitcher::Account current = m_switcher->current();
        if (current.key != AccountKeys::demo())
            m_certificates->restore(current.key, current.server);
        updateAccountActions();
        m_needsPassword = false; // signed in again: the sync resumes
        m_window->updateDeveloperTarget();
        if (!m_periodic.isActive() && m_window->isVisible())
            m_periodic.start();
    });

    // File ▸ Sign Out…: nothing of the account stays in memory here either, and nothing
    // refreshes for nobody.
    m_signOut = std::make_unique<SignOutFlow>(m_window.get(), m_switcher.get(), m_queue.get(),
                                              &m_secrets, m_images.get(), m_signIn.get());
    connect(m_window.get(), &MainWindow::signOutRequested, m_signOut.get(), &SignOutFlow::open);
    connect(m_switcher.get(), &AccountSwitcher::signedOut, this, [this] {
        m_periodic.stop();
        m_account.credentials = {};
        m_options.credentials = {};
        updateAccountActions();
        m_window->updateDeveloperTarget();
    });
    updateAccountActions();
    // "Your list could not be loaded" because of the server's certificate: the certificate,
    // in place; trusted, kept with the account and the list loaded with it.
    connect(m_window.get(), &MainWindow::libraryFailed, this, [this] {
        const AccountSwitcher::Account account = m_switcher->current();
        m_certificates->show(m_window.get(), account.server, CertificateFlow::Context::List,
                             [this, account](bool trusted) {
                                 if (!trusted || m_switcher->current().key != account.key)
                                     return;
                                 m_certificates->keep(account.key, account.server);
                                 m_window->showLibrary();
                                 m_engine->refresh();
                             });
    });

    // Changes on the server arrive by themselves: every few minutes, and as soon as the
    // network or the server is back.
    m_periodic.setInterval(5 * 60 * 1000);
    connect(&m_periodic, &QTimer::timeout, this, &ReaderApp::refreshIfSignedIn);
    connect(m_manager.get(), &KeepTrying::RetryingNetworkAccessManager::simulatedOfflineChanged,
            this, [this](bool offline) {
                if (!offline)
                    refreshIfSignedIn();
            });
}

void ReaderApp::updateAccountActions()
{
    m_window->setAccountActions(!m_switcher->isSignedOut(), m_signOut->canSignOut());
}

void ReaderApp::refreshIfSignedIn()
{
    if (!m_switcher->isSignedOut() && !m_needsPassword)
        m_engine->refresh();
}

void ReaderApp::setUndoTimeMs(int ms)
{
    m_window->setUndoNoticeMs(ms);
    m_queue->setDeleteGraceMs(ms);
}

void ReaderApp::setBuiltInHooks()
{
    BuiltInServer *builtIn = &m_builtIn;
    MainWindow::DeveloperHooks hooks;
    hooks.validateFault = [](const QString &spec, QString *error) {
        return BuiltInServer::isValidFault(spec, error);
    };
    hooks.addFault = [builtIn](const QString &spec, QString *error) {
        return builtIn->addFault(spec, error);
    };
    hooks.clearFaults = [builtIn] { builtIn->clearFaults(); };
    hooks.faults = [builtIn] { return builtIn->faults(); };
    hooks.goDown = [builtIn](int ms) { builtIn->goDown(ms); };
    hooks.isDown = [builtIn] { return builtIn->isDown(); };
    // The built-in server may run while another account is read (chosen after the demo).
    hooks.isCurrent = [this] {
        return m_switcher && m_switcher->current().key == AccountKeys::demo();
    };
    m_window->setDeveloperHooks(hooks);
}

void ReaderApp::start()
{
    m_periodic.start();
    m_window->show();
    m_window->showLibrary(); // the saved copy, at once
    if (m_needsPassword) {
        // Nothing to sign in with: what waits is counted, nothing is asked of the server
        // until the password is typed again.
        m_engine->holdPending();
        m_signIn->openForPassword();
        return;
    }
    m_engine->start(); // then what changed on the server
}
