// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readerfixture.h"

#include "testhelpers.h"

#include "library/readernetwork.h"
#include "library/wallabagjson.h"

#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>

using KeepTrying::Demo::DemoServer;

namespace ReaderFixture {

WallabagClient::Credentials demoCredentials(const QString &password)
{
    return { DemoServer::demoClientId(), DemoServer::demoClientSecret(), DemoServer::demoUsername(),
             password };
}

void makeFast(KeepTrying::RetryingNetworkAccessManager *manager, bool fastProbes)
{
    KeepTrying::RetryPolicy policy = ReaderNetwork::retryPolicy();
    const KeepTrying::RetryPolicy fast = KeepTrying::Test::fastPolicy();
    policy.initialDelayMs = fast.initialDelayMs;
    policy.maxDelayMs = fast.maxDelayMs;
    policy.jitter = fast.jitter;
    manager->setRetryPolicy(policy);
    if (fastProbes)
        manager->reachability()->setProbeSchedule(50, 200, 200);
    KeepTrying::Test::switchOffBreakerAndBudget(*manager);
}

QList<Article> articlesOn(const QUrl &server)
{
    KeepTrying::RetryingNetworkAccessManager manager;
    makeFast(&manager);
    WallabagClient client(&manager);
    client.setServer(server, demoCredentials());
    QList<Article> articles;
    bool done = false;
    client.getJson(client.entriesUrl({ { QStringLiteral("perPage"), QStringLiteral("500") },
                                       { QStringLiteral("detail"), QStringLiteral("metadata") } }),
                   WallabagClient::Purpose::List, WallabagClient::Waiting::User,
                   [&](const WallabagClient::Result &r) {
                       if (r.ok)
                           articles = WallabagJson::entriesPage(r.json, server).articles;
                       done = true;
                   });
    if (!QTest::qWaitFor([&] { return done; }, 10000))
        qWarning("no answer from %s", qPrintable(server.toString()));
    return articles;
}

QAction *menuAction(QMainWindow *window, const QString &menuText, const QString &text)
{
    const QList<QAction *> menus = window->menuBar()->actions();
    for (QAction *menu : menus) {
        if (menu->text() != menuText || !menu->menu())
            continue;
        const QList<QAction *> actions = menu->menu()->actions();
        for (QAction *action : actions) {
            if (action->text() == text)
                return action;
        }
    }
    return nullptr;
}

QLineEdit *fieldLabelled(QWidget *dialog, const QString &label)
{
    const QList<QLabel *> labels = dialog->findChildren<QLabel *>();
    for (QLabel *l : labels) {
        if (l->text() == label)
            return qobject_cast<QLineEdit *>(l->buddy());
    }
    return nullptr;
}

void typeInto(QLineEdit *field, const QString &text)
{
    field->setFocus();
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier); // select what is there
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, text);
}

bool withModal(const std::function<void()> &open, const std::function<void(QWidget *)> &inside)
{
    bool ran = false;
    std::function<void()> poll;
    poll = [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal) {
            QTimer::singleShot(20, poll);
            return;
        }
        ran = true;
        modal->activateWindow();
        // Active, so that its focus is where a person would type.
        if (!QTest::qWaitFor([modal] { return QApplication::activeWindow() == modal; }, 5000))
            qWarning("the dialog did not become active");
        inside(modal);
    };
    QTimer::singleShot(0, poll);
    open();
    const bool shown = QTest::qWaitFor([&] { return ran; }, 5000);
    return QTest::qWaitFor([] { return !QApplication::activeModalWidget(); }, 5000) && shown;
}

struct Profile::Private
{
    QTemporaryDir home;
};

Profile::Profile() : d(new Private)
{
    if (!d->home.isValid())
        return;
    for (const char *name : { "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME" })
        qputenv(name, QDir(d->home.path()).filePath(QString::fromLatin1(name)).toLocal8Bit());
    qputenv("KEEPTRYING_NO_KEYCHAIN", "1");
}

Profile::~Profile()
{
    delete d;
}

bool Profile::isValid() const
{
    return d->home.isValid();
}

} // namespace ReaderFixture
