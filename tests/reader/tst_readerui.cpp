// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "testhelpers.h"

#include "library/accountswitcher.h"
#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "ui/developerwindow.h"
#include "ui/failedchangesdialog.h"
#include "ui/mainwindow.h"
#include "ui/preferencesdialog.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtGui/QAction>
#include <QtGui/QShortcut>
#include <QtTest/QTest>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>

#include <memory>

using KeepTrying::Demo::DemoServer;

/*
    The reader never asks the user to press anything again: it keeps trying by itself. This
    walks every window and dialog of the reader, every widget, action and shortcut in them,
    and fails on a text, tooltip, status tip or "What's This" that offers "retry", "try
    again", "reload" or "refresh", or on a key bound to QKeySequence::Refresh (F5, Ctrl+R).

    The Developer window and menu are told apart by the "developer" property that every
    object of theirs carries (MainWindow::buildDeveloperMenu, showDeveloperWindow): they
    are tools for QA, whose fault presets name Retry-After on purpose. An object is left
    aside when it or one of its ancestors has that property; the test checks that the
    Developer window was walked and does mention Retry-After, so the exclusion is real.
*/
class tst_ReaderUi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void noButtonToPressAgain();
    void wrongPasswordInWordsInDialog();

private:
    struct Finding
    {
        QString where;
        QString text;
    };
    void walk(QObject *root, const QString &window);
    void check(const QString &where, const QString &text, bool developer);
    static bool isDeveloper(const QObject *object);
    static QString describe(const QObject *object);
    // Opens the modal message box \a trigger shows, walks it and closes it.
    void walkMessageBox(QAction *trigger, const QString &window);

    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    std::unique_ptr<SyncEngine> m_engine;
    std::unique_ptr<ImageStore> m_images;
    std::unique_ptr<RequestLog> m_log;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
    QList<Finding> m_findings;
    QSet<QString> m_windowsWalked;
    int m_textsChecked = 0;
    int m_developerTextsWithRetry = 0;
};

void tst_ReaderUi::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    m_manager->setRetryPolicy(KeepTrying::Test::fastPolicy());
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer((*m_server)->baseUrl(),
                        { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                          DemoServer::demoUsername(), DemoServer::demoPassword() });
    m_store = std::make_unique<LocalStore>();
    QVERIFY(m_store->open(QStringLiteral(":memory:")));
    m_queue = std::make_unique<OutboxChangeQueue>(m_client.get(), m_manager.get(),
                                                  m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    m_engine->setPrefetchContent(false);
    m_images = std::make_unique<ImageStore>(m_client.get());
    m_log = std::make_unique<RequestLog>(m_manager.get());
    m_window =
        std::make_unique<MainWindow>(m_engine.get(), m_images.get(), m_manager.get(), m_log.get());
    MainWindow::DeveloperHooks hooks;
    hooks.validateFault = [](const QString &, QString *) { return true; };
    hooks.addFault = [](const QString &, QString *) { return true; };
    hooks.clearFaults = [] {};
    hooks.faults = [] { return QStringList(); };
    hooks.goDown = [](int) {};
    hooks.isDown = [] { return false; };
    m_window->setDeveloperHooks(hooks);
    m_window->setDeveloperMode(true);
    m_window->show();
    m_window->showLibrary();
    // A loaded list, with a change the server refused, so that the failed-changes dialog
    // has a row with its buttons.
    QSignalSpy refreshed(m_engine.get(), &SyncEngine::refreshed);
    m_engine->start();
    QVERIFY(refreshed.wait(10000));
    const qint64 id = m_store->articles({ LocalStore::View::All, {}, {} }).constFirst().id;
    m_store->setStarred(id, true);
    m_store->fail(id, LocalStore::Field::Starred, QStringLiteral("The server refused it."));
}

void tst_ReaderUi::cleanupTestCase()
{
    m_window.reset();
    m_log.reset();
    m_images.reset();
    m_engine.reset();
    m_queue.reset();
    m_client.reset();
    m_manager.reset();
    m_store.reset();
    m_server.reset();
}

bool tst_ReaderUi::isDeveloper(const QObject *object)
{
    for (const QObject *o = object; o; o = o->parent()) {
        if (o->property("developer").toBool())
            return true;
    }
    return false;
}

QString tst_ReaderUi::describe(const QObject *object)
{
    const QString name = object->objectName();
    return QString::fromLatin1(object->metaObject()->className()) +
        (name.isEmpty() ? QString() : QLatin1Char('#') + name);
}

void tst_ReaderUi::check(const QString &where, const QString &text, bool developer)
{
    if (text.isEmpty())
        return;
    ++m_textsChecked;
    // Words that offer to do again what the reader does by itself.
    static const QRegularExpression offer(QStringLiteral("\\b(retry|try again|reload|refresh)"),
                                          QRegularExpression::CaseInsensitiveOption);
    if (!offer.match(text).hasMatch())
        return;
    if (developer) {
        ++m_developerTextsWithRetry;
        return;
    }
    m_findings.append({ where, text });
}

void tst_ReaderUi::walk(QObject *root, const QString &window)
{
    m_windowsWalked.insert(window);
    QList<QObject *> objects { root };
    objects += root->findChildren<QObject *>();
    for (QObject *object : std::as_const(objects)) {
        const bool developer = isDeveloper(object);
        const QString where = window + QStringLiteral(" › ") + describe(object);
        if (auto *widget = qobject_cast<QWidget *>(object)) {
            check(where, widget->toolTip(), developer);
            check(where, widget->statusTip(), developer);
            check(where, widget->whatsThis(), developer);
            check(where, widget->accessibleName(), developer);
            check(where, widget->accessibleDescription(), developer);
            if (widget->isWindow())
                check(where, widget->windowTitle(), developer);
        }
        if (auto *button = qobject_cast<QAbstractButton *>(object))
            check(where, button->text(), developer);
        if (auto *label = qobject_cast<QLabel *>(object))
            check(where, label->text(), developer);
        if (auto *edit = qobject_cast<QLineEdit *>(object))
            check(where, edit->placeholderText(), developer);
        if (auto *edit = qobject_cast<QPlainTextEdit *>(object))
            check(where, edit->placeholderText(), developer);
        if (auto *box = qobject_cast<QGroupBox *>(object))
            check(where, box->title(), developer);
        if (auto *menu = qobject_cast<QMenu *>(object))
            check(where, menu->title(), developer);
        if (auto *combo = qobject_cast<QComboBox *>(object)) {
            for (int i = 0; i < combo->count(); ++i)
                check(where, combo->itemText(i), developer);
        }
        if (auto *list = qobject_cast<QListWidget *>(object)) {
            for (int i = 0; i < list->count(); ++i) {
                check(where, list->item(i)->text(), developer);
                check(where, list->item(i)->toolTip(), developer);
            }
        }
        if (auto *shortcut = qobject_cast<QShortcut *>(object)) {
            check(where, shortcut->whatsThis(), developer);
            if (!developer && shortcut->key().matches(QKeySequence(QKeySequence::Refresh)))
                m_findings.append({ where, shortcut->key().toString() });
        }
        if (auto *widget = qobject_cast<QWidget *>(object)) {
            const QList<QAction *> actions = widget->actions();
            for (QAction *action : actions) {
                const bool dev = developer || isDeveloper(action) ||
                    (action->menu() && isDeveloper(action->menu()));
                const QString at = where + QStringLiteral(" › action ") + action->text();
                check(at, action->text(), dev);
                check(at, action->iconText(), dev);
                check(at, action->toolTip(), dev);
                check(at, action->statusTip(), dev);
                check(at, action->whatsThis(), dev);
                const QList<QKeySequence> keys = action->shortcuts();
                for (const QKeySequence &key : keys) {
                    for (const QKeySequence &refresh :
                         QKeySequence::keyBindings(QKeySequence::Refresh)) {
                        if (!dev && key == refresh)
                            m_findings.append({ at, key.toString() });
                    }
                }
            }
        }
    }
}

void tst_ReaderUi::walkMessageBox(QAction *trigger, const QString &window)
{
    bool walked = false;
    QTimer::singleShot(0, this, [&] {
        QWidget *box = QApplication::activeModalWidget();
        if (!box)
            return;
        walk(box, window);
        walked = true;
        box->close();
    });
    trigger->trigger();
    QVERIFY2(walked, qPrintable(window));
}

void tst_ReaderUi::noButtonToPressAgain()
{
    walk(m_window.get(), QStringLiteral("main window"));

    m_window->showDeveloperWindow();
    QVERIFY(m_window->developerWindow());
    walk(m_window->developerWindow(), QStringLiteral("Developer window"));

    FailedChangesDialog failed(m_engine.get(), m_window.get());
    failed.show();
    QVERIFY(!failed.findChildren<QAbstractButton *>().isEmpty());
    walk(&failed, QStringLiteral("failed changes"));

    SignInDialog signIn(m_window.get());
    signIn.setStorageNote(true);
    signIn.show();
    walk(&signIn, QStringLiteral("sign in"));

    PreferencesDialog preferences(m_manager.get(), m_store.get(), m_window.get());
    preferences.show();
    walk(&preferences, QStringLiteral("preferences"));

    // The message boxes of the Help menu.
    const QList<QAction *> actions = m_window->findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->text() == QLatin1String("&Keyboard Shortcuts"))
            walkMessageBox(action, QStringLiteral("keyboard shortcuts"));
        else if (action->text() == QLatin1String("&About KeepTrying Reader"))
            walkMessageBox(action, QStringLiteral("about"));
    }

    QStringList report;
    for (const Finding &f : std::as_const(m_findings))
        report << f.where + QStringLiteral(": “") + f.text + QStringLiteral("”");
    QVERIFY2(m_findings.isEmpty(), qPrintable(report.join(QLatin1Char('\n'))));
    QCOMPARE(m_windowsWalked.size(), 7);
    QVERIFY2(m_textsChecked > 100, qPrintable(QString::number(m_textsChecked)));
    // The exclusion did something: the Developer window's fault presets name Retry-After.
    QVERIFY(m_developerTextsWithRetry > 0);
}

// A wrong password is said in words in the dialog, which stays open with what was typed;
// the reader keeps the account it had. The right one then signs in and closes it.
void tst_ReaderUi::wrongPasswordInWordsInDialog()
{
    const QUrl server = (*m_server)->baseUrl();
    const AccountSwitcher::Account current {
        QStringLiteral("demo@current"),
        server,
        { DemoServer::demoClientId(), DemoServer::demoClientSecret(), DemoServer::demoUsername(),
          DemoServer::demoPassword() }
    };
    AccountSwitcher switcher(m_manager.get(), m_client.get(), m_store.get(), m_queue.get(),
                             m_engine.get(), current);
    const auto paths = [this](const QString &key, const QString &kind) {
        QString name = key;
        name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]")), QStringLiteral("_"));
        return m_dir.filePath(name + QLatin1Char('-') + kind + QStringLiteral(".sqlite"));
    };
    switcher.setPathFunction(paths);
    SignInDialog dialog(m_window.get());
    connect(&dialog, &SignInDialog::accountSubmitted, &dialog,
            [&](const SignInDialog::Account &chosen) {
                switcher.signIn(
                    { chosen.username + QLatin1Char('@') + chosen.server.toString(),
                      chosen.server,
                      { chosen.clientId, chosen.clientSecret, chosen.username, chosen.password } },
                    [&](bool ok, const QString &message) {
                        if (ok)
                            dialog.accept();
                        else
                            dialog.setError(message);
                    });
            });
    SignInDialog::Account typed;
    typed.demo = false;
    typed.server = server;
    typed.clientId = DemoServer::demoClientId();
    typed.clientSecret = DemoServer::demoClientSecret();
    typed.username = DemoServer::demoUsername();
    typed.password = QStringLiteral("not the password");
    dialog.setAccount(typed);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *buttons = dialog.findChild<QDialogButtonBox *>();
    QVERIFY(buttons);
    QPushButton *signIn = buttons->button(QDialogButtonBox::Ok);
    QVERIFY(signIn->isEnabled());
    QTest::mouseClick(signIn, Qt::LeftButton);
    QVERIFY(dialog.isSigningIn());
    QVERIFY(!signIn->isEnabled()); // one sign-in at a time

    auto *error = dialog.findChild<QLabel *>(QStringLiteral("signInError"));
    QVERIFY(error);
    QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 10000);
    QCOMPARE(error->text(),
             QStringLiteral("The server did not accept the user name “%1” or its password. "
                            "Check them, then sign in again.")
                 .arg(DemoServer::demoUsername()));
    QVERIFY(dialog.isVisible()); // not closed: the user corrects the password here
    QCOMPARE(dialog.result(), 0);
    QCOMPARE(dialog.account().password, typed.password); // what was typed is kept
    QVERIFY(signIn->isEnabled());
    QCOMPARE(switcher.current().key, current.key); // still the account it had

    // The right password: signed in, the dialog closes, the reader serves that account.
    typed.password = DemoServer::demoPassword();
    dialog.setAccount(typed);
    QSignalSpy switched(&switcher, &AccountSwitcher::switched);
    QTest::mouseClick(signIn, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), 10000);
    QCOMPARE(switched.size(), 1);
    QVERIFY(error->text().isEmpty());
    QCOMPARE(m_store->path(),
             paths(DemoServer::demoUsername() + QLatin1Char('@') + server.toString(),
                   QStringLiteral("library")));
    QCOMPARE(m_client->server(), server);
}

QTEST_MAIN(tst_ReaderUi)
#include "tst_readerui.moc"
