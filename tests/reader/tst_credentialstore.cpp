// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "testhelpers.h"

#include "library/credentialstore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDirIterator>
#include <QtCore/QLoggingCategory>
#include <QtCore/QProcess>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QUuid>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using KeepTrying::Demo::DemoServer;

namespace {

QStringList g_log; // every message of the process while the suite runs

void keepMessage(QtMsgType, const QMessageLogContext &context, const QString &message)
{
    g_log << QString::fromLatin1(context.category ? context.category : "") + QLatin1Char(' ') +
            message;
}

// Set by tests/reader/run-with-test-keychain.sh to the private bus it started, with a
// gnome-keyring of its own on it: the keychain tests run only there, never on a user's bus.
bool onTestKeychainBus()
{
    const QByteArray bus = qgetenv("KEEPTRYING_TEST_KEYCHAIN_BUS");
    return !bus.isEmpty() && bus == qgetenv("DBUS_SESSION_BUS_ADDRESS");
}

constexpr auto Service = "KeepTrying Reader test";

} // namespace

// Where the reader's sign-in secrets live: the system keychain (QtKeychain) when one
// answers, else this session's memory only; never a plain file, the log or the outbox.
class tst_CredentialStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void sessionOnlyWithoutKeychain();
    void noSecretInFilesOrLog();
    void keychainSurvivesRestart();
    void keychainReadBack();

private:
    bool write(CredentialStore &store, const QString &account,
               const CredentialStore::Secrets &secrets);
    std::pair<bool, CredentialStore::Secrets> read(CredentialStore &store, const QString &account);
    QStringList filesContaining(const QByteArray &needle) const;

    QTemporaryDir m_profile;
    QtMessageHandler m_previousHandler = nullptr;
};

void tst_CredentialStore::initTestCase()
{
    QVERIFY(m_profile.isValid());
    if (!onTestKeychainBus()) {
        // No keychain service: no session bus, neither named nor found in the runtime
        // directory (where GDBus and libdbus look when the address is unset), no X11 to
        // autolaunch one.
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("DISPLAY");
        qputenv("XDG_RUNTIME_DIR", m_profile.filePath(QStringLiteral("run")).toLocal8Bit());
        QDir().mkpath(m_profile.filePath(QStringLiteral("run")));
    }
    // The reader's files (settings, library, outbox, offline copies) in a profile of the
    // test's own, searched afterwards.
    qputenv("HOME", m_profile.filePath(QStringLiteral("home")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", m_profile.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", m_profile.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", m_profile.filePath(QStringLiteral("cache")).toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QCoreApplication::setApplicationName(QStringLiteral("keeptrying-reader-test"));
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*=true"));
    m_previousHandler = qInstallMessageHandler(keepMessage);
}

void tst_CredentialStore::cleanupTestCase()
{
    qInstallMessageHandler(m_previousHandler);
}

bool tst_CredentialStore::write(CredentialStore &store, const QString &account,
                                const CredentialStore::Secrets &secrets)
{
    bool stored = false;
    bool answered = false;
    store.write(account, secrets, [&](bool ok) {
        stored = ok;
        answered = true;
    });
    return QTest::qWaitFor([&] { return answered; }, 10000) && stored;
}

std::pair<bool, CredentialStore::Secrets> tst_CredentialStore::read(CredentialStore &store,
                                                                    const QString &account)
{
    bool answered = false;
    std::pair<bool, CredentialStore::Secrets> result;
    store.read(account, [&](bool found, const CredentialStore::Secrets &secrets) {
        result = { found, secrets };
        answered = true;
    });
    if (!QTest::qWaitFor([&] { return answered; }, 10000))
        return {};
    return result;
}

QStringList tst_CredentialStore::filesContaining(const QByteArray &needle) const
{
    QStringList found;
    QDirIterator it(m_profile.path(), QDir::Files | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found << file.fileName();
    }
    return found;
}

void tst_CredentialStore::sessionOnlyWithoutKeychain()
{
    if (onTestKeychainBus())
        QSKIP("a test keychain is running on this bus; this test is for none");
    const QString account = QStringLiteral("reader@https://wallabag.example.org");
    const CredentialStore::Secrets secrets {
        QStringLiteral("secret-%1").arg(QUuid::createUuid().toString(QUuid::Id128)),
        QStringLiteral("password-%1").arg(QUuid::createUuid().toString(QUuid::Id128))
    };
    CredentialStore store(QString::fromLatin1(Service));
    QSignalSpy sessionOnly(&store, &CredentialStore::sessionOnlyChanged);
    QVERIFY(write(store, account, secrets));
    // The first job finds no keychain (or the build has none): this session only, said once.
    QVERIFY(store.isSessionOnly());
    if (CredentialStore::hasKeychainSupport()) {
        QCOMPARE(sessionOnly.size(), 1);
        QCOMPARE(sessionOnly.at(0).at(0).toBool(), true);
    }
    const auto [found, back] = read(store, account);
    QVERIFY(found);
    QCOMPARE(back.password, secrets.password);
    QCOMPARE(back.clientSecret, secrets.clientSecret);

    // What the sign-in dialog says, from the property.
    SignInDialog dialog;
    dialog.setStorageNote(store.isSessionOnly());
    QVERIFY2(dialog.storageNote().startsWith(QLatin1String("Saved for this session only")),
             qPrintable(dialog.storageNote()));

    // The next start (a new store) has nothing: it was never written anywhere else.
    CredentialStore nextStart(QString::fromLatin1(Service));
    QCOMPARE(read(nextStart, account).first, false);
    QVERIFY2(filesContaining(secrets.password.toUtf8()).isEmpty(),
             qPrintable(filesContaining(secrets.password.toUtf8()).join(QLatin1Char(' '))));
    QVERIFY(filesContaining(secrets.clientSecret.toUtf8()).isEmpty());
    QVERIFY(!g_log.join(QLatin1Char('\n')).contains(secrets.password));

    // Sign-out forgets it in this session too.
    bool removed = false;
    store.remove(account, [&] { removed = true; });
    QTRY_VERIFY_WITH_TIMEOUT(removed, 5000);
    QCOMPARE(read(store, account).first, false);
}

// A whole session without a keychain, as the reader runs it: sign in (the secrets from
// the store), list, a change sent, a change left waiting in the outbox, offline copies
// kept. Then the profile's files (settings, library, outbox, offline copies) and the
// log hold none of the secrets: the client secret, the access token, the password.
void tst_CredentialStore::noSecretInFilesOrLog()
{
    if (onTestKeychainBus())
        QSKIP("a test keychain is running on this bus; this test is for none");
    KeepTrying::Test::DemoServerThread server;
    QVERIFY(server.listen() != 0);
    const QUrl url = server->baseUrl();
    const QString account = DemoServer::demoUsername() + QLatin1Char('@') + url.toString();

    CredentialStore secrets(QString::fromLatin1(Service));
    QVERIFY(
        write(secrets, account, { DemoServer::demoClientSecret(), DemoServer::demoPassword() }));
    QVERIFY(secrets.isSessionOnly());
    QSettings settings; // what main.cpp keeps: what is not secret
    settings.setValue(QStringLiteral("account/demo"), false);
    settings.setValue(QStringLiteral("account/server"), url);
    settings.setValue(QStringLiteral("account/clientId"), DemoServer::demoClientId());
    settings.setValue(QStringLiteral("account/username"), DemoServer::demoUsername());
    settings.sync();
    const auto [found, kept] = read(secrets, account);
    QVERIFY(found);

    KeepTrying::RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(KeepTrying::Test::fastPolicy());
    KeepTrying::Test::switchOffBreakerAndBudget(manager);
    auto *store = new KeepTrying::OfflineCopyStore;
    QVERIFY(store->open(QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                        QStringLiteral("/offline-copies")));
    manager.setOfflineCopyStore(store);
    KeepTrying::OfflineCopy::Settings copies;
    copies.accountKey = url.toString() + QLatin1Char(' ') + DemoServer::demoUsername();
    manager.setOfflineCopySettings(copies);
    RequestLog requestLog(&manager);
    QByteArray token;
    {
        WallabagClient client(&manager);
        client.setServer(url,
                         { DemoServer::demoClientId(), kept.clientSecret,
                           DemoServer::demoUsername(), kept.password });
        LocalStore store;
        QVERIFY(store.open(LocalStore::defaultPath(account)));
        OutboxChangeQueue queue(&client, &manager,
                                LocalStore::defaultPath(account, QStringLiteral("outbox")));
        SyncEngine engine(&client, &store, &queue);
        engine.setPrefetchContent(false);
        QSignalSpy refreshed(&engine, &SyncEngine::refreshed);
        engine.start();
        QVERIFY(refreshed.wait(10000));
        token = client.accessToken();
        QVERIFY(!token.isEmpty());
        const QList<Article> articles = store.articles({ LocalStore::View::All, {}, {} });
        QVERIFY(articles.size() >= 2);
        QTRY_VERIFY_WITH_TIMEOUT(queue.isOpen(), 5000);
        engine.fetchContent(articles.at(0).id); // an offline copy of the entry, pinned
        QTRY_VERIFY_WITH_TIMEOUT(store.article(articles.at(0).id).hasContent, 10000);
        engine.setStarred(articles.at(0).id, !articles.at(0).starred);
        QTRY_COMPARE_WITH_TIMEOUT(queue.waitingCount(), 0, 10000);
        manager.setSimulatedOffline(true);
        engine.setArchived(articles.at(1).id, !articles.at(1).archived); // stays in the outbox
        QCOMPARE(queue.waitingCount(), 1);
        QVERIFY(!requestLog.toText().isEmpty());
        g_log << requestLog.toText(); // the Developer window's log, as it would be copied
    }

    const QList<QByteArray> needles {
        DemoServer::demoClientSecret().toUtf8(),
        token,
        // The demo password ("demo") is a word of the library itself: look for it as a
        // sign-in would write it (a form, JSON).
        "password=" + DemoServer::demoPassword().toUtf8(),
        "\"password\":\"" + DemoServer::demoPassword().toUtf8() + '"',
        "Bearer " + token,
    };
    QVERIFY(QFileInfo::exists(LocalStore::defaultPath(account, QStringLiteral("outbox"))));
    QVERIFY(QFileInfo::exists(LocalStore::defaultPath(account)));
    QVERIFY(QFileInfo::exists(settings.fileName()));
    const QString log = g_log.join(QLatin1Char('\n'));
    for (const QByteArray &needle : needles) {
        const QStringList files = filesContaining(needle);
        QVERIFY2(files.isEmpty(),
                 qPrintable(QString::fromUtf8(needle.left(12)) + QStringLiteral("… found in ") +
                            files.join(QLatin1Char(' '))));
        QVERIFY2(!log.contains(QString::fromUtf8(needle)), needle.left(12).constData());
    }
}

// Under run-with-test-keychain.sh: a gnome-keyring on a private bus, its files in a
// temporary home. Debian's QtKeychain (qt6) reaches it through libsecret (loaded at run
// time), the Secret Service API (org.freedesktop.secrets).
void tst_CredentialStore::keychainSurvivesRestart()
{
    if (!onTestKeychainBus())
        QSKIP("needs the private D-Bus session and gnome-keyring of "
              "run-with-test-keychain.sh (ctest -L keychain)");
    if (!CredentialStore::hasKeychainSupport())
        QSKIP("built without QtKeychain (Debian: qtkeychain-qt6-dev)");
    const QString account = QStringLiteral("reader-%1@https://wallabag.example.org")
                                .arg(QUuid::createUuid().toString(QUuid::Id128));
    const CredentialStore::Secrets secrets {
        QStringLiteral("secret-%1").arg(QUuid::createUuid().toString(QUuid::Id128)),
        QStringLiteral("password-%1").arg(QUuid::createUuid().toString(QUuid::Id128))
    };
    {
        CredentialStore store(QString::fromLatin1(Service));
        QVERIFY(write(store, account, secrets));
        QVERIFY2(!store.isSessionOnly(), "the test keychain did not take the secret");
    }
    // A restart: another process, with nothing in memory, reads it from the keychain.
    const auto readInChild = [&] {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KEEPTRYING_TEST_KEYCHAIN_ACCOUNT"), account);
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(),
                    { QStringLiteral("keychainReadBack"), QStringLiteral("-silent") });
        if (!child.waitForFinished(20000)) {
            child.kill();
            child.waitForFinished();
        }
        const QStringList lines =
            QString::fromUtf8(child.readAllStandardError()).split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            if (line.startsWith(QLatin1String("found ")) || line == QLatin1String("not found"))
                return line;
        }
        return lines.join(QLatin1Char('\n'));
    };
    QCOMPARE(readInChild(),
             QStringLiteral("found %1 %2").arg(secrets.clientSecret, secrets.password));
    {
        CredentialStore fresh(QString::fromLatin1(Service));
        const auto [found, back] = read(fresh, account);
        QVERIFY(found);
        QCOMPARE(back.password, secrets.password);
        QVERIFY(!fresh.isSessionOnly());
        // Sign-out deletes it from the keychain, also when the reader quits at once after
        // it: the store waits for the keychain's answer before it goes.
        fresh.remove(account);
        QCOMPARE(fresh.pendingChanges(), 1);
    }
    CredentialStore afterSignOut(QString::fromLatin1(Service));
    QCOMPARE(read(afterSignOut, account).first, false);
    QCOMPARE(readInChild(), QStringLiteral("not found"));
    // Never a plain file: QtKeychain's insecure fallback stays off.
    QVERIFY(filesContaining(secrets.password.toUtf8()).isEmpty());
}

// The child of keychainSurvivesRestart(): prints what the keychain has on stderr.
void tst_CredentialStore::keychainReadBack()
{
    const QString account = qEnvironmentVariable("KEEPTRYING_TEST_KEYCHAIN_ACCOUNT");
    if (account.isEmpty() || !onTestKeychainBus())
        QSKIP("run by keychainSurvivesRestart()");
    CredentialStore store(QString::fromLatin1(Service));
    const auto [found, secrets] = read(store, account);
    std::fputs(
        qPrintable(found
                       ? QStringLiteral("found %1 %2\n").arg(secrets.clientSecret, secrets.password)
                       : QStringLiteral("not found\n")),
        stderr);
}

QTEST_MAIN(tst_CredentialStore)
#include "tst_credentialstore.moc"
