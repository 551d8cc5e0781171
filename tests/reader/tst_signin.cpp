// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "readerfixture.h"
#include "testhelpers.h"

#include "library/accountswitcher.h"
#include "library/credentialstore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "library/wallabagjson.h"
#include "readerapp.h"
#include "signinflow.h"
#include "ui/articlelistmodel.h"
#include "ui/developerwindow.h"
#include "ui/mainwindow.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QPointer>
#include <QtCore/QScopeGuard>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtGui/QAction>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPushButton>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::DemoServerThread;
using namespace ReaderFixture;

/*
    File ▸ Sign In… as a person uses it, on the reader main() starts (ReaderApp): the menu
    action of the real window, the real dialog's fields typed into and its button pressed.
    Every sign-in that succeeded used to kill the reader (a QStringBuilder returned from a
    lambda, read after its temporaries were gone); each case checks that it lives on, that
    the window lists the new account's articles, and that a change still waiting for the
    account left behind stays that account's: it reaches that server once it is back, and
    never the new one.

    The reader starts on server A (as with --server), where one article is archived while A
    is down; A lacks one article of the sample library and B another, so each list tells
    which server it came from.
*/
class tst_SignIn : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void demoLibraryStaysTicked();
    void demoLibraryFromAnotherServer();
    void anotherServer();
    void wrongPasswordThenRight();
    void noKeychainPromisedBeforeOneAnswers();
    void faultsOnlyForBuiltInServer();

private:
    struct Typed
    {
        bool demo = false;
        QUrl server;
        QString password = DemoServer::demoPassword();
    };
    void startReader(const QUrl &server);
    void archiveWhileADown();
    void openSignIn();
    void fill(const Typed &typed);
    void pressSignIn();
    void showAllArticles();
    void checkListIsOf(const QList<Article> &serverArticles);
    void checkChangeStaysWithA(const QUrl &newServer);
    static Article articleOn(const QUrl &server, qint64 id);

    std::unique_ptr<DemoServerThread> m_a;
    std::unique_ptr<DemoServerThread> m_b;
    std::unique_ptr<ReaderApp> m_reader;
    QPointer<SignInDialog> m_dialog;
    qint64 m_archived = 0; // on A, while A was down
};

Article tst_SignIn::articleOn(const QUrl &server, qint64 id)
{
    const QList<Article> articles = articlesOn(server);
    for (const Article &a : articles) {
        if (a.id == id)
            return a;
    }
    return Article();
}

void tst_SignIn::init()
{
    QSettings().clear(); // no account saved by an earlier case
    m_a = std::make_unique<DemoServerThread>();
    QVERIFY(m_a->listen() != 0);
    m_b = std::make_unique<DemoServerThread>();
    QVERIFY(m_b->listen() != 0);
    // A lacks the first article of the sample, B the second.
    const QList<Article> sample = articlesOn((*m_a)->baseUrl());
    QVERIFY(sample.size() > 10);
    const auto remove = [](const QUrl &server, qint64 id) {
        KeepTrying::RetryingNetworkAccessManager manager;
        WallabagClient client(&manager);
        client.setServer(server, demoCredentials());
        bool deleted = false;
        client.deleteEntry(id, [&](const WallabagClient::Result &r) { deleted = r.ok; });
        return QTest::qWaitFor([&] { return deleted; }, 10000);
    };
    QVERIFY(remove((*m_a)->baseUrl(), sample.at(0).id));
    QVERIFY(remove((*m_b)->baseUrl(), sample.at(1).id));
    QCOMPARE((*m_a)->articleCount(), int(sample.size()) - 1);
    QCOMPARE((*m_b)->articleCount(), int(sample.size()) - 1);
}

void tst_SignIn::cleanup()
{
    delete m_dialog.data();
    m_reader.reset();
    m_b.reset();
    m_a.reset();
}

// As main() does: the options, open(), start(); then the list of the server it reads.
void tst_SignIn::startReader(const QUrl &server)
{
    ReaderOptions options;
    options.server = server;
    if (server.isValid())
        options.credentials = demoCredentials();
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    makeFast(m_reader->manager());
    QSignalSpy shown(m_reader->window(), &MainWindow::libraryShown);
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(m_reader->window()));
    QVERIFY(shown.wait(15000));
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->queue()->isOpen(), 10000);
    showAllArticles();
}

void tst_SignIn::showAllArticles()
{
    // View ▸ All Articles, as a person chooses it.
    const QList<QAction *> menus = m_reader->window()->menuBar()->actions();
    for (QAction *menu : menus) {
        if (!menu->menu())
            continue;
        const QList<QAction *> actions = menu->menu()->actions();
        for (QAction *action : actions) {
            if (action->text() == QLatin1String("A&ll Articles")) {
                action->trigger();
                return;
            }
        }
    }
    QFAIL("no View ▸ All Articles");
}

// A goes down; an article still unread on A is archived: the change waits in A's outbox.
void tst_SignIn::archiveWhileADown()
{
    QSet<qint64> onB;
    for (const Article &a : articlesOn((*m_b)->baseUrl()))
        onB.insert(a.id);
    const QList<Article> onA = m_reader->store()->articles({ LocalStore::View::All, {}, {} });
    for (const Article &a : onA) {
        if (!a.archived && onB.contains(a.id)) {
            m_archived = a.id;
            break;
        }
    }
    QVERIFY(m_archived > 0);
    QVERIFY(!articleOn((*m_b)->baseUrl(), m_archived).archived);
    (*m_a)->goDown(10 * 60 * 1000); // until the test brings it back
    m_reader->engine()->setArchived(m_archived, true);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 1, 5000);
}

// File ▸ Sign In… in the window's menu bar.
void tst_SignIn::openSignIn()
{
    QAction *signIn = nullptr;
    const QList<QAction *> menus = m_reader->window()->menuBar()->actions();
    for (QAction *menu : menus) {
        if (menu->text() != QLatin1String("&File") || !menu->menu())
            continue;
        const QList<QAction *> actions = menu->menu()->actions();
        for (QAction *action : actions) {
            if (action->text() == QStringLiteral("S&ign In…"))
                signIn = action;
        }
    }
    QVERIFY(signIn);
    QVERIFY(signIn->isEnabled());
    signIn->trigger();
    QTRY_VERIFY_WITH_TIMEOUT((m_dialog = m_reader->window()->findChild<SignInDialog *>(
                                  QStringLiteral("signInDialog"))) &&
                                 m_dialog->isVisible(),
                             5000);
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.data()));
}

void tst_SignIn::fill(const Typed &typed)
{
    auto *demo = m_dialog->findChild<QCheckBox *>();
    QVERIFY(demo);
    if (demo->isChecked() != typed.demo)
        QTest::mouseClick(demo, Qt::LeftButton, {}, QPoint(8, demo->height() / 2));
    QCOMPARE(demo->isChecked(), typed.demo);
    if (typed.demo)
        return;
    const struct
    {
        const char *label;
        QString text;
    } fields[] = {
        { "&Server address:", typed.server.toString() },
        { "Client &ID:", DemoServer::demoClientId() },
        { "Client s&ecret:", DemoServer::demoClientSecret() },
        { "&User name:", DemoServer::demoUsername() },
        { "&Password:", typed.password },
    };
    for (const auto &f : fields) {
        QLineEdit *field = fieldLabelled(m_dialog.data(), QString::fromUtf8(f.label));
        QVERIFY2(field && field->isEnabled(), f.label);
        typeInto(field, f.text);
        QCOMPARE(field->text(), f.text);
    }
}

void tst_SignIn::pressSignIn()
{
    auto *buttons = m_dialog->findChild<QDialogButtonBox *>();
    QVERIFY(buttons);
    QPushButton *signIn = buttons->button(QDialogButtonBox::Ok);
    QCOMPARE(signIn->text(), QStringLiteral("Sign In"));
    QVERIFY(signIn->isEnabled());
    QTest::mouseClick(signIn, Qt::LeftButton);
}

// The window lists what the server has (View ▸ All Articles): the same articles.
void tst_SignIn::checkListIsOf(const QList<Article> &serverArticles)
{
    ArticleListModel *model = m_reader->window()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), int(serverArticles.size()), 15000);
    QSet<qint64> shown;
    for (int row = 0; row < model->rowCount(); ++row)
        shown.insert(model->article(row).id);
    QSet<qint64> expected;
    for (const Article &a : serverArticles)
        expected.insert(a.id);
    QCOMPARE(shown, expected);
}

// The change made for A was not sent to the new account's server, and reaches A once A is
// back (sent by the account left behind, with A's credentials).
void tst_SignIn::checkChangeStaysWithA(const QUrl &newServer)
{
    QVERIFY(!articleOn(newServer, m_archived).archived);
    (*m_a)->comeUp();
    QTRY_VERIFY_WITH_TIMEOUT(articleOn((*m_a)->baseUrl(), m_archived).archived, 20000);
    QVERIFY(!articleOn(newServer, m_archived).archived);
}

// The reported case: the demo library, "Use the demo library" kept ticked, Sign In.
void tst_SignIn::demoLibraryStaysTicked()
{
    startReader(QUrl()); // the built-in demo server, as without --server
    const QUrl builtIn = m_reader->builtInServer()->baseUrl();
    QVERIFY(builtIn.isValid());
    const QList<Article> onBuiltIn = articlesOn(builtIn);
    checkListIsOf(onBuiltIn);
    openSignIn();
    auto *demo = m_dialog->findChild<QCheckBox *>();
    QVERIFY(demo->isChecked()); // kept as it is
    pressSignIn();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog, 10000); // closed, and deleted
    QCOMPARE(m_reader->switcher()->current().key, QStringLiteral("demo@built-in"));
    QVERIFY(m_reader->window()->isVisible());
    checkListIsOf(onBuiltIn);
}

// (a) From server A to the demo library: tick it, Sign In.
void tst_SignIn::demoLibraryFromAnotherServer()
{
    startReader((*m_a)->baseUrl());
    checkListIsOf(articlesOn((*m_a)->baseUrl()));
    archiveWhileADown();
    openSignIn();
    fill({ true, {}, {} });
    pressSignIn();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog, 10000);
    QCOMPARE(m_reader->switcher()->current().key, QStringLiteral("demo@built-in"));
    const QUrl builtIn = m_reader->builtInServer()->baseUrl();
    QVERIFY(builtIn.isValid());
    QVERIFY(m_reader->window()->isVisible());
    checkListIsOf(articlesOn(builtIn));
    QCOMPARE(QSettings().value(QStringLiteral("account/demo")).toBool(), true);
    checkChangeStaysWithA(builtIn);
}

// (b) From server A to server B, the right details typed in.
void tst_SignIn::anotherServer()
{
    startReader((*m_a)->baseUrl());
    archiveWhileADown();
    openSignIn();
    const QUrl b = (*m_b)->baseUrl();
    fill({ false, b, DemoServer::demoPassword() });
    pressSignIn();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog, 10000);
    QCOMPARE(m_reader->switcher()->current().server, b);
    QVERIFY(m_reader->window()->isVisible());
    checkListIsOf(articlesOn(b));
    QCOMPARE(QSettings().value(QStringLiteral("account/server")).toUrl(), b);
    checkChangeStaysWithA(b);
}

// (c) A wrong password first: said in the dialog, which stays open with the reader on A;
// then the right one.
void tst_SignIn::wrongPasswordThenRight()
{
    startReader((*m_a)->baseUrl());
    archiveWhileADown();
    const QString keyOfA = m_reader->switcher()->current().key;
    openSignIn();
    const QUrl b = (*m_b)->baseUrl();
    fill({ false, b, QStringLiteral("not the password") });
    pressSignIn();
    auto *error = m_dialog->findChild<QLabel *>(QStringLiteral("signInError"));
    QVERIFY(error);
    QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 10000);
    QVERIFY2(error->text().contains(QStringLiteral("did not accept")), qPrintable(error->text()));
    QVERIFY(m_dialog->isVisible());
    QCOMPARE(m_reader->switcher()->current().key, keyOfA);
    QCOMPARE(m_reader->queue()->waitingCount(), 1); // still A's, still waiting

    QLineEdit *password = fieldLabelled(m_dialog.data(), QStringLiteral("&Password:"));
    QVERIFY(password && password->isEnabled());
    typeInto(password, DemoServer::demoPassword());
    pressSignIn();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog, 10000);
    QCOMPARE(m_reader->switcher()->current().server, b);
    QVERIFY(m_reader->window()->isVisible());
    checkListIsOf(articlesOn(b));
    checkChangeStaysWithA(b);
}

// The keychain is asked for, but no session bus answers (as on a desktop without D-Bus):
// Sign In, opened before any secret was ever stored, says the secrets are kept for this
// session only, never that they are in the system keychain.
void tst_SignIn::noKeychainPromisedBeforeOneAnswers()
{
    if (!CredentialStore::hasKeychainSupport())
        QSKIP("built without QtKeychain");
    QTemporaryDir run;
    QVERIFY(run.isValid());
    const QByteArray saved[] = { qgetenv("KEEPTRYING_NO_KEYCHAIN"),
                                 qgetenv("DBUS_SESSION_BUS_ADDRESS"), qgetenv("DISPLAY"),
                                 qgetenv("XDG_RUNTIME_DIR") };
    qunsetenv("KEEPTRYING_NO_KEYCHAIN");
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    qunsetenv("DISPLAY");
    qputenv("XDG_RUNTIME_DIR", run.path().toLocal8Bit());
    const auto restore = qScopeGuard([&] {
        qputenv("KEEPTRYING_NO_KEYCHAIN", saved[0]);
        for (const auto &[name, value] :
             { std::pair { "DBUS_SESSION_BUS_ADDRESS", saved[1] },
               std::pair { "DISPLAY", saved[2] }, std::pair { "XDG_RUNTIME_DIR", saved[3] } }) {
            if (value.isEmpty())
                qunsetenv(name);
            else
                qputenv(name, value);
        }
    });
    startReader((*m_a)->baseUrl());
    openSignIn();
    QVERIFY(m_dialog);
    QTRY_VERIFY2_WITH_TIMEOUT(m_dialog->storageNote().contains(QStringLiteral("this session only")),
                              qPrintable(m_dialog->storageNote()), 10000);
    QVERIFY(!m_dialog->storageNote().contains(QStringLiteral("system keychain")));
    m_dialog->reject();
}

// The Developer window's faults act on the built-in server: after signing in to another
// server from the demo library (the built-in server still running), they are off and say
// why, in the window open already and in one opened afterwards.
void tst_SignIn::faultsOnlyForBuiltInServer()
{
    startReader(QUrl());
    QVERIFY(m_reader->builtInServer()->baseUrl().isValid());
    m_reader->window()->showDeveloperWindow();
    auto *developer = m_reader->window()->findChild<DeveloperWindow *>();
    QVERIFY(developer);
    QVERIFY(QTest::qWaitForWindowExposed(developer));
    const auto faultButtons = [developer] {
        QList<QPushButton *> found;
        const QList<QPushButton *> all = developer->findChildren<QPushButton *>();
        for (QPushButton *b : all) {
            if (b->text() == QLatin1String("Clear Faults") ||
                b->text() == QLatin1String("Down for 10 s"))
                found << b;
        }
        return found;
    };
    QCOMPARE(faultButtons().size(), 2);
    for (QPushButton *b : faultButtons())
        QVERIFY(b->isEnabled());
    QVERIFY(developer->specField()->isEnabled());
    developer->hide();

    openSignIn();
    fill({ false, (*m_a)->baseUrl() });
    pressSignIn();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog, 10000);
    QVERIFY(m_reader->builtInServer()->baseUrl().isValid()); // still running
    m_reader->window()->showDeveloperWindow();
    QVERIFY(QTest::qWaitForWindowExposed(developer));
    for (QPushButton *b : faultButtons()) {
        QVERIFY2(!b->isEnabled(), qPrintable(b->text()));
        QVERIFY2(b->toolTip().contains(QStringLiteral("only with the built-in demo server")),
                 qPrintable(b->toolTip()));
    }
    QVERIFY(!developer->specField()->isEnabled());
    QVERIFY2(developer->specStatus()->text().contains(QStringLiteral("built-in demo server")),
             qPrintable(developer->specStatus()->text()));
    developer->hide();
}

KEEPTRYING_READER_TEST_MAIN(tst_SignIn, "tst_signin")

#include "tst_signin.moc"
