// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TESTS_READERFIXTURE_H
#define KEEPTRYING_TESTS_READERFIXTURE_H

#include "library/article.h"
#include "library/wallabagclient.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QUrl>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QLineEdit;
class QMainWindow;
class QWidget;
QT_END_NAMESPACE

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    What the tests that drive the reader's real window (ReaderApp) share: the demo
    account, the reader's retry policy with a test's short delays, the server's own view of
    its articles, and a person's way to the menus, fields and modal dialogs. main() of such
    a test runs in a profile of its own (KEEPTRYING_READER_TEST_MAIN).
*/
namespace ReaderFixture {

/*! The demo server's account (another password: a wrong one). */
WallabagClient::Credentials
demoCredentials(const QString &password = KeepTrying::Demo::DemoServer::demoPassword());

/*! The reader's own policy (Idempotency-Keys on writes) with the short delays of a test,
    no circuit breaker or retry budget; \a fastProbes: reachability probes every 50-200 ms. */
void makeFast(KeepTrying::RetryingNetworkAccessManager *manager, bool fastProbes = false);

/*! What the server has, through its API (GET /api/entries.json), not through the reader. */
QList<Article> articlesOn(const QUrl &server);

/*! The action \a text of the menu \a menu ("&File") in \a window's menu bar, or null. */
QAction *menuAction(QMainWindow *window, const QString &menu, const QString &text);

/*! The line edit \a label ("&Password:") is the buddy of, in \a dialog; or null. */
QLineEdit *fieldLabelled(QWidget *dialog, const QString &label);
/*! Replaces what \a field holds with \a text, typed. */
void typeInto(QLineEdit *field, const QString &text);

/*! Runs \a inside with the modal dialog that \a open shows (exec() or open()), active,
    and waits until no modal dialog is left; false when none showed. */
bool withModal(const std::function<void()> &open, const std::function<void(QWidget *)> &inside);

/*! Settings, libraries, outboxes and offline copies in a directory of the test's own, and
    no keychain: before anything reads a path. Returns the directory's owner (keep it). */
class Profile
{
public:
    Profile();
    ~Profile();
    bool isValid() const;

private:
    struct Private;
    Private *d;
};

} // namespace ReaderFixture

/*! main() of a test of the reader's window: a profile of its own, a QApplication named
    \a name, then \a TestClass's cases. */
#define KEEPTRYING_READER_TEST_MAIN(TestClass, name)                                               \
    int main(int argc, char *argv[])                                                               \
    {                                                                                              \
        ReaderFixture::Profile profile;                                                            \
        if (!profile.isValid())                                                                    \
            return 1;                                                                              \
        QApplication app(argc, argv);                                                              \
        QApplication::setOrganizationName(QStringLiteral("KeepTrying"));                           \
        QApplication::setApplicationName(QStringLiteral(name));                                    \
        TestClass test;                                                                            \
        return QTest::qExec(&test, argc, argv);                                                    \
    }

#endif // KEEPTRYING_TESTS_READERFIXTURE_H
