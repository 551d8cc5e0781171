// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "readerfixture.h"

#include "accountkeys.h"
#include "library/accountswitcher.h"
#include "library/credentialstore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "readerapp.h"
#include "savedaccount.h"
#include "ui/articlelistmodel.h"
#include "ui/mainwindow.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QPointer>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialog>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QRadioButton>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Demo::RecordedRequest;
using KeepTrying::Test::DemoServerThread;
using namespace ReaderFixture;

/*
    File ▸ Sign Out… as a person uses it, on the reader main() starts (ReaderApp): the menu
    action of the real window, the confirmation answered with its buttons, Sign In filled in
    again by keys. The reader starts as after an earlier sign-in to server A (the account
    saved, its secrets in the credential store: this session's, as no keychain runs here).

    After signing out: the keychain's entry is gone and nothing of the account is in memory,
    the list is empty and the library file and offline copies are gone from this computer,
    Sign In shows with the server and user name but no secret, and no request reaches the
    server with the old token, not even one that was being retried. A change waiting for the
    server is kept by default and sent exactly once after signing in again, or discarded when
    the person says so.
*/
class tst_SignOut : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void onlyForAnAccountOfOnesOwn();
    void cancelChangesNothing();
    void signOutForgetsAccount();
    void waitingChangeKeptAndSentOnce();
    void waitingChangeDiscarded();
    void restartWithoutKeychainKeepsAccount();

private:
    void startSignedIn();
    MainWindow *window() const { return m_reader->window(); }
    QString keychainKey() const
    {
        return AccountKeys::keychain(DemoServer::demoUsername(), (*m_a)->baseUrl());
    }
    QString accountKey() const
    {
        return AccountKeys::own(DemoServer::demoUsername(), (*m_a)->baseUrl());
    }
    bool secretsStored();
    QDialog *openSignOut();
    void press(QWidget *dialog, QDialogButtonBox::StandardButton which);
    SignInDialog *signInDialogShown();
    void archiveWhileDown();
    void waitQuiet();
    // Requests the server received from \a from on that carry \a token.
    int carrying(qsizetype from, const QByteArray &token) const;
    int patchesOf(qsizetype from, qint64 id) const;
    bool archivedOnA(qint64 id) const;

    std::unique_ptr<DemoServerThread> m_a;
    std::unique_ptr<ReaderApp> m_reader;
    qint64 m_archived = 0;
};

void tst_SignOut::init()
{
    QSettings().clear();
    m_a = std::make_unique<DemoServerThread>();
    QVERIFY(m_a->listen() != 0);
}

void tst_SignOut::cleanup()
{
    m_reader.reset();
    m_a.reset();
    for (const auto location : { QStandardPaths::AppDataLocation, QStandardPaths::CacheLocation })
        QDir(QStandardPaths::writableLocation(location)).removeRecursively();
}

// As after a sign-in in an earlier run: the account saved, its secrets in the store; then
// open() and start() as main() does, the list shown.
void tst_SignOut::startSignedIn()
{
    SavedAccount saved;
    saved.demo = false;
    saved.server = (*m_a)->baseUrl();
    saved.clientId = DemoServer::demoClientId();
    saved.username = DemoServer::demoUsername();
    saved.save();
    m_reader = std::make_unique<ReaderApp>(ReaderOptions());
    m_reader->credentialStore()->write(
        keychainKey(), { DemoServer::demoClientSecret(), DemoServer::demoPassword() });
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    QCOMPARE(m_reader->switcher()->current().key, accountKey());
    makeFast(m_reader->manager());
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window()));
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->queue()->isOpen(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
    QVERIFY(secretsStored());
}

bool tst_SignOut::secretsStored()
{
    bool answered = false;
    bool found = false;
    m_reader->credentialStore()->read(keychainKey(),
                                      [&](bool inStore, const CredentialStore::Secrets &) {
                                          answered = true;
                                          found = inStore;
                                      });
    if (!QTest::qWaitFor([&] { return answered; }, 5000))
        qWarning("the credential store did not answer");
    return found;
}

// File ▸ Sign Out… from the menu bar; the confirmation it shows. By names only, so that
// this test also builds (and fails) against a reader without Sign Out.
QDialog *tst_SignOut::openSignOut()
{
    QAction *signOut = menuAction(window(), QStringLiteral("&File"), QStringLiteral("Sign &Out…"));
    if (!signOut || !signOut->isEnabled() ||
        signOut->objectName() != QLatin1String("signOutAction"))
        return nullptr;
    signOut->trigger();
    QDialog *dialog = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                dialog = window()->findChild<QDialog *>(QStringLiteral("signOutDialog"));
                return dialog && dialog->isVisible();
            },
            5000))
        return nullptr;
    return QTest::qWaitForWindowExposed(dialog) ? dialog : nullptr;
}

void tst_SignOut::press(QWidget *dialog, QDialogButtonBox::StandardButton which)
{
    auto *buttons = dialog->findChild<QDialogButtonBox *>();
    QVERIFY(buttons);
    QPushButton *button = buttons->button(which);
    QVERIFY(button && button->isVisible() && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
}

SignInDialog *tst_SignOut::signInDialogShown()
{
    SignInDialog *dialog = nullptr;
    // The caller checks the pointer: nullptr when none showed within 5 s.
    (void)QTest::qWaitFor(
        [&] {
            const QList<SignInDialog *> dialogs = window()->findChildren<SignInDialog *>();
            for (SignInDialog *d : dialogs) {
                if (d->isVisible())
                    dialog = d;
            }
            return dialog != nullptr;
        },
        5000);
    return dialog;
}

// An unread article archived while the server is down: the change waits in the outbox,
// its replay retried by the manager (in flight at sign-out; none of it reaches the server).
void tst_SignOut::archiveWhileDown()
{
    const QList<Article> shown = m_reader->store()->articles({ LocalStore::View::All, {}, {} });
    for (const Article &a : shown) {
        if (!a.archived) {
            m_archived = a.id;
            break;
        }
    }
    QVERIFY(m_archived > 0);
    (*m_a)->goDown(10 * 60 * 1000); // until the test brings it back
    QSignalSpy attempts(m_reader->manager(),
                        &KeepTrying::RetryingNetworkAccessManager::attemptStarted);
    m_reader->engine()->setArchived(m_archived, true);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(attempts.size() >= 2, 5000); // being retried
}

// Until the server has had no request for a while: nothing of the reader is on its way.
void tst_SignOut::waitQuiet()
{
    qsizetype seen = -1;
    for (int i = 0; i < 50 && seen != (*m_a)->recordedRequests().size(); ++i) {
        seen = (*m_a)->recordedRequests().size();
        QTest::qWait(200);
    }
}

int tst_SignOut::carrying(qsizetype from, const QByteArray &token) const
{
    const QList<RecordedRequest> all = (*m_a)->recordedRequests();
    int count = 0;
    for (qsizetype i = from; i < all.size(); ++i) {
        for (const auto &header : all.at(i).headers) {
            if (header.first.toLower() == "authorization" && header.second.contains(token))
                ++count;
        }
    }
    return count;
}

int tst_SignOut::patchesOf(qsizetype from, qint64 id) const
{
    const QList<RecordedRequest> all = (*m_a)->recordedRequests();
    const QString path = QStringLiteral("/api/entries/%1.json").arg(id);
    int count = 0;
    for (qsizetype i = from; i < all.size(); ++i) {
        if (all.at(i).method == "PATCH" && all.at(i).path == path)
            ++count;
    }
    return count;
}

bool tst_SignOut::archivedOnA(qint64 id) const
{
    const QList<Article> articles = articlesOn((*m_a)->baseUrl());
    for (const Article &a : articles) {
        if (a.id == id)
            return a.archived;
    }
    return false;
}

// The demo library has no secret and nothing personal: nothing to sign out of.
void tst_SignOut::onlyForAnAccountOfOnesOwn()
{
    m_reader = std::make_unique<ReaderApp>(ReaderOptions());
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    makeFast(m_reader->manager());
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window()));
    QAction *signOut = menuAction(window(), QStringLiteral("&File"), QStringLiteral("Sign &Out…"));
    QVERIFY(signOut);
    QCOMPARE(signOut->objectName(), QStringLiteral("signOutAction"));
    QVERIFY(!signOut->isEnabled());
    m_reader.reset();

    startSignedIn();
    signOut = menuAction(window(), QStringLiteral("&File"), QStringLiteral("Sign &Out…"));
    QVERIFY(signOut && signOut->isEnabled());
}

// Cancel (Esc): still signed in, the list and the secrets where they were.
void tst_SignOut::cancelChangesNothing()
{
    startSignedIn();
    const int rows = window()->model()->rowCount();
    QPointer<QDialog> dialog = openSignOut();
    QVERIFY(dialog);
    QTest::keyClick(dialog.data(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 5000);
    QCOMPARE(m_reader->switcher()->current().key, accountKey());
    QCOMPARE(window()->model()->rowCount(), rows);
    QVERIFY(secretsStored());
    QVERIFY(QFile::exists(LocalStore::defaultPath(accountKey())));
}

// Nothing waiting: the confirmation says what happens, with no choice to make; then
// nothing of the account is left here and Sign In asks for the secrets only.
void tst_SignOut::signOutForgetsAccount()
{
    startSignedIn();
    const QString library = LocalStore::defaultPath(accountKey());
    QVERIFY(QFile::exists(library));
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->manager()->offlineCopiesSize() > 0, 10000);
    const QByteArray token = m_reader->client()->accessToken();
    QVERIFY(!token.isEmpty());

    QDialog *dialog = openSignOut();
    QVERIFY(dialog);
    auto *heading = dialog->findChild<QLabel *>(QStringLiteral("signOutHeading"));
    QVERIFY(heading);
    QVERIFY2(heading->text().contains(DemoServer::demoUsername()), qPrintable(heading->text()));
    // Its port: not the scheme's own, so it tells this server from another on the host.
    QVERIFY2(
        heading->text().contains(QStringLiteral("127.0.0.1:%1?").arg((*m_a)->baseUrl().port())),
        qPrintable(heading->text()));
    QVERIFY(!dialog->findChild<QRadioButton *>(QStringLiteral("keepChanges"))->isVisible());
    waitQuiet();
    const qsizetype before = (*m_a)->recordedRequests().size();
    QVERIFY(before < 900); // the server keeps the last 1000
    press(dialog, QDialogButtonBox::Ok);

    SignInDialog *signIn = signInDialogShown();
    QVERIFY(signIn);
    const SignInDialog::Account shown = signIn->account();
    QVERIFY(!shown.demo);
    QCOMPARE(shown.server, (*m_a)->baseUrl());
    QCOMPARE(shown.username, DemoServer::demoUsername());
    QCOMPARE(shown.clientId, DemoServer::demoClientId());
    QVERIFY(shown.clientSecret.isEmpty());
    QVERIFY(shown.password.isEmpty());

    QVERIFY(m_reader->switcher()->current().key.isEmpty());
    QVERIFY(!secretsStored());
    QVERIFY(m_reader->client()->accessToken().isEmpty());
    QVERIFY(m_reader->client()->username().isEmpty());
    QCOMPARE(window()->model()->rowCount(), 0);
    QCOMPARE(m_reader->store()->articleCount(), 0);
    QVERIFY(!QFile::exists(library));
    QCOMPARE(m_reader->manager()->offlineCopiesSize(), 0);
    QVERIFY(
        !menuAction(window(), QStringLiteral("&File"), QStringLiteral("Sign &Out…"))->isEnabled());
    QVERIFY(!menuAction(window(), QStringLiteral("&File"), QStringLiteral("&Save a Link…"))
                 ->isEnabled());
    // The next start reads the demo library: there is no password to read this one with.
    QCOMPARE(SavedAccount::load().demo, true);
    QTest::qWait(300);
    QCOMPARE(carrying(before, token), 0);
    QCOMPARE((*m_a)->recordedRequests().size(), before); // nothing at all, for nobody
    signIn->reject();
}

// A change the server has not taken yet, being retried: kept (the default), not sent while
// signed out nor with the old token, sent once after signing in again.
void tst_SignOut::waitingChangeKeptAndSentOnce()
{
    startSignedIn();
    archiveWhileDown();
    const QByteArray token = m_reader->client()->accessToken();
    QVERIFY(!token.isEmpty());

    QDialog *dialog = openSignOut();
    QVERIFY(dialog);
    auto *waiting = dialog->findChild<QLabel *>(QStringLiteral("signOutWaiting"));
    QVERIFY(waiting && waiting->isVisible());
    QVERIFY2(waiting->text().startsWith(QStringLiteral("1 change ")), qPrintable(waiting->text()));
    auto *keep = dialog->findChild<QRadioButton *>(QStringLiteral("keepChanges"));
    QVERIFY(keep && keep->isVisible() && keep->isChecked());
    const qsizetype before = (*m_a)->recordedRequests().size();
    QVERIFY(before < 900);
    press(dialog, QDialogButtonBox::Ok);
    SignInDialog *signIn = signInDialogShown();
    QVERIFY(signIn);

    // The server is back; nothing reaches it from the account signed out of.
    (*m_a)->comeUp();
    QTest::qWait(500);
    QCOMPARE(carrying(before, token), 0);
    QCOMPARE(patchesOf(before, m_archived), 0);
    QVERIFY(!archivedOnA(m_archived));
    const QString outbox = LocalStore::defaultPath(accountKey(), QStringLiteral("outbox"));
    QCOMPARE(KeepTrying::Outbox::pendingCountIn(outbox), 1); // kept on this computer

    // Signing in again, the secrets typed: the change goes, once; slowly, so the list of
    // the new library comes first, and shows the article as the person left it.
    QVERIFY((*m_a)->addFault(QStringLiteral("route=/api/entries/*,method=PATCH,latency=1500")));
    const qsizetype signedIn = (*m_a)->recordedRequests().size();
    typeInto(fieldLabelled(signIn, QStringLiteral("Client s&ecret:")),
             DemoServer::demoClientSecret());
    typeInto(fieldLabelled(signIn, QStringLiteral("&Password:")), DemoServer::demoPassword());
    press(signIn, QDialogButtonBox::Ok);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->switcher()->current().key, accountKey(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->store()->article(m_archived).id == m_archived, 10000);
    QVERIFY(!archivedOnA(m_archived)); // not there yet
    QVERIFY(m_reader->store()->article(m_archived).archived);
    QTRY_VERIFY_WITH_TIMEOUT(archivedOnA(m_archived), 15000);
    QVERIFY(m_reader->store()->article(m_archived).archived);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
    QTest::qWait(300);
    QCOMPARE(patchesOf(signedIn, m_archived), 1);
    QVERIFY(secretsStored()); // the new sign-in's
}

// Discarded when the person says so: the outbox goes, and the change never reaches the
// server, not even after signing in again.
void tst_SignOut::waitingChangeDiscarded()
{
    startSignedIn();
    archiveWhileDown();
    QDialog *dialog = openSignOut();
    QVERIFY(dialog);
    auto *discard = dialog->findChild<QRadioButton *>(QStringLiteral("discardChanges"));
    QVERIFY(discard && discard->isVisible() && !discard->isChecked());
    QTest::mouseClick(discard, Qt::LeftButton, {}, QPoint(8, discard->height() / 2));
    QVERIFY(discard->isChecked());
    const qsizetype before = (*m_a)->recordedRequests().size();
    press(dialog, QDialogButtonBox::Ok);
    SignInDialog *signIn = signInDialogShown();
    QVERIFY(signIn);
    const QString outbox = LocalStore::defaultPath(accountKey(), QStringLiteral("outbox"));
    QVERIFY(!QFile::exists(outbox));

    (*m_a)->comeUp();
    typeInto(fieldLabelled(signIn, QStringLiteral("Client s&ecret:")),
             DemoServer::demoClientSecret());
    typeInto(fieldLabelled(signIn, QStringLiteral("&Password:")), DemoServer::demoPassword());
    press(signIn, QDialogButtonBox::Ok);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->switcher()->current().key, accountKey(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
    QTest::qWait(500);
    QCOMPARE(m_reader->queue()->waitingCount(), 0);
    QCOMPARE(patchesOf(before, m_archived), 0);
    QVERIFY(!archivedOnA(m_archived));
}

// No keychain kept the secrets (this session's only): a restart opens the account's own
// library, offline-readable with its waiting change counted, and Sign In filled in with a
// plain word why the password is asked again; signed in, the change goes once.
void tst_SignOut::restartWithoutKeychainKeepsAccount()
{
    startSignedIn();
    archiveWhileDown();
    QVERIFY(m_reader->credentialStore()->isSessionOnly());
    // Quit while the change is being retried, the secrets gone with the session.
    m_reader.reset();

    m_reader = std::make_unique<ReaderApp>(ReaderOptions());
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    QCOMPARE(m_reader->switcher()->current().key, accountKey());
    makeFast(m_reader->manager());
    const qsizetype restarted = (*m_a)->recordedRequests().size();
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window()));
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->waitingLabel()->text(), QStringLiteral("1 change waiting"),
                              5000);
    QVERIFY(m_reader->store()->article(m_archived).archived);

    SignInDialog *signIn = signInDialogShown();
    QVERIFY(signIn);
    const SignInDialog::Account shown = signIn->account();
    QVERIFY(!shown.demo);
    QCOMPARE(shown.server, (*m_a)->baseUrl());
    QCOMPARE(shown.clientId, DemoServer::demoClientId());
    QCOMPARE(shown.username, DemoServer::demoUsername());
    QVERIFY(shown.password.isEmpty());
    auto *notice = signIn->findChild<QLabel *>(QStringLiteral("signInNotice"));
    QVERIFY(notice && notice->isVisible());
    QVERIFY2(notice->text().contains(QStringLiteral("no keychain")), qPrintable(notice->text()));
    QVERIFY2(signIn->storageNote().contains(QStringLiteral("this session only")),
             qPrintable(signIn->storageNote()));

    (*m_a)->comeUp();
    QTest::qWait(300);
    QCOMPARE(patchesOf(restarted, m_archived), 0); // not without a password
    typeInto(fieldLabelled(signIn, QStringLiteral("Client s&ecret:")),
             DemoServer::demoClientSecret());
    typeInto(fieldLabelled(signIn, QStringLiteral("&Password:")), DemoServer::demoPassword());
    QPointer<SignInDialog> open = signIn;
    press(signIn, QDialogButtonBox::Ok);
    QTRY_VERIFY_WITH_TIMEOUT(!open || !open->isVisible(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(archivedOnA(m_archived), 15000);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->waitingLabel()->text(), QString(), 5000);
    QTest::qWait(300);
    QCOMPARE(patchesOf(restarted, m_archived), 1);
    QCOMPARE(m_reader->switcher()->current().key, accountKey());
}

KEEPTRYING_READER_TEST_MAIN(tst_SignOut, "tst_signout")

#include "tst_signout.moc"
