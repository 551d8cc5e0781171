// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readerfixture.h"
#include "testhelpers.h"
#include "testserver.h"

#include "library/requestlog.h"
#include "readerapp.h"
#include "ui/mainwindow.h"
#include "ui/readingpane.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QRegularExpression>
#include <QtCore/QSettings>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStatusBar>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::TestServer;
using namespace ReaderFixture;

/*
    What the reader says while it waits or when it gives up, as a person meets it in the
    real window of ReaderApp: plain words, whose side the trouble is on, what happens next;
    never a route, a status code, an attempt count, a header name or a port. And where
    trying again cannot help, Sign In is offered in place.
*/
class tst_ReaderWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void notWallabagOffersSignIn();
    void serverTroubleInPlainWords();
    void typedReasonNotText_data();
    void typedReasonNotText();

private:
    std::unique_ptr<ReaderApp> m_reader;
};

namespace {

// What no person should have to read.
const QRegularExpression engineering(QStringLiteral(
    "/api/|\\battempt|Idempotency|HTTP|(?<![\\d.])[1-5]\\d\\d(?![\\d.])|:\\d{2,5}\\b"));

// The point of the reading pane's link with this target, in viewport coordinates.
QPoint linkPoint(ReadingPane *pane, const QString &href)
{
    for (QTextBlock block = pane->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().anchorHref() != href)
                continue;
            QTextCursor cursor(pane->document());
            cursor.setPosition(fragment.position() + fragment.length() / 2);
            return pane->cursorRect(cursor).center();
        }
    }
    return QPoint(-1, -1);
}

} // namespace

void tst_ReaderWords::init()
{
    QSettings().clear();
}

void tst_ReaderWords::cleanup()
{
    m_reader.reset();
}

// A web server that is not wallabag answers the sign-in's POST with 501 (Python's
// http.server does): the address is the problem, and Sign In is where to fix it.
void tst_ReaderWords::notWallabagOffersSignIn()
{
    TestServer server;
    QVERIFY(server.listen());
    server.setHandler([](const TestServer::Request &, int) {
        return TestServer::respond(501, "<html><body>Unsupported method ('POST')</body></html>",
                                   { { "Content-Type", "text/html" } });
    });
    ReaderOptions options;
    options.server = server.url();
    options.credentials = demoCredentials();
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    MainWindow *window = m_reader->window();
    QSignalSpy failed(window, &MainWindow::libraryFailed);
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QVERIFY(failed.wait(10000));

    const QString message = failed.constFirst().constFirst().toString();
    QVERIFY2(message.contains(QStringLiteral("doesn't look like a wallabag server")),
             qPrintable(message));
    QVERIFY2(!message.contains(engineering), qPrintable(message));
    QCOMPARE(window->statusBar()->currentMessage(), message);
    ReadingPane *pane = window->readingPane();
    const QString shown = pane->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("Your list could not be loaded")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("Sign In…")), qPrintable(shown));

    // Sign In… in the message opens File ▸ Sign In…'s dialog.
    const QPoint link = linkPoint(pane, QStringLiteral("#placeholder-action"));
    QVERIFY(link.x() >= 0);
    QSignalSpy asked(window, &MainWindow::signInRequested);
    QTest::mouseClick(pane->viewport(), Qt::LeftButton, {}, link);
    QTRY_COMPARE_WITH_TIMEOUT(asked.count(), 1, 5000);
    SignInDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = window->findChild<SignInDialog *>(QStringLiteral("signInDialog"))) &&
            dialog->isVisible(),
        5000);
    dialog->reject();
}

// A 503 storm on the list: the status bar and the banner say the server has trouble and
// the reader keeps trying, without the route, the status or the attempt.
void tst_ReaderWords::serverTroubleInPlainWords()
{
    ReaderOptions options;
    options.demoFaults = { QStringLiteral("route=/api/entries*,status=503,count=4") };
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    makeFast(m_reader->manager());
    MainWindow *window = m_reader->window();
    QStringList said;
    connect(window->statusBar(), &QStatusBar::messageChanged, this, [&said](const QString &text) {
        if (!text.isEmpty())
            said << text;
    });
    connect(window->banner(), &KeepTrying::RetryBanner::currentTextChanged, this,
            [&said](const QString &text) { said << text; });
    QSignalSpy shown(window, &MainWindow::libraryShown);
    m_reader->start();
    QVERIFY(shown.wait(15000));

    const QStringList trouble = said.filter(QStringLiteral("having trouble"));
    QVERIFY2(!trouble.isEmpty(), qPrintable(said.join(QLatin1Char('\n'))));
    QVERIFY2(!said.filter(QStringLiteral("tries again by itself")).isEmpty(),
             qPrintable(said.join(QLatin1Char('\n'))));
    for (const QString &text : std::as_const(said))
        QVERIFY2(!text.contains(engineering), qPrintable(text));
}

void tst_ReaderWords::typedReasonNotText_data()
{
    using KeepTrying::WaitReason;
    QTest::addColumn<WaitReason>("reason");
    QTest::addColumn<QString>("misleading");
    QTest::addColumn<QString>("expectStatus");
    QTest::addColumn<QString>("expectLog");

    const QUrl origin(QStringLiteral("http://127.0.0.1:1"));
    QTest::newRow("503 said as refused")
        << WaitReason::backoff(origin, 5000).withFault(503, QNetworkReply::NoError)
        << QStringLiteral("connection refused") << QStringLiteral("having trouble")
        << QStringLiteral("Backoff until ");
    QTest::newRow("name not found said as 503")
        << WaitReason::backoff(origin, 5000).withFault(0, QNetworkReply::HostNotFoundError)
        << QStringLiteral("HTTP 503") << QStringLiteral("could not be found")
        << QStringLiteral("(HostNotFoundError)");
    QTest::newRow("dropped said as host not found")
        << WaitReason::backoff(origin, 5000).withFault(0, QNetworkReply::RemoteHostClosedError)
        << QStringLiteral("host not found") << QStringLiteral("dropped")
        << QStringLiteral("(RemoteHostClosedError)");
    QTest::newRow("dead proxy said as refused")
        << WaitReason::backoff(origin, 5000)
               .withFault(0, QNetworkReply::ProxyConnectionRefusedError)
        << QStringLiteral("connection refused") << QStringLiteral("proxy")
        << QStringLiteral("(ProxyConnectionRefusedError)");
    QTest::newRow("Retry-After said as timeout")
        << WaitReason::retryAfter(origin, 5000).withFault(429, QNetworkReply::NoError)
        << QStringLiteral("timeout") << QStringLiteral("having trouble")
        << QStringLiteral("RetryAfter until ");
}

// The status bar and the request log render the typed reason the manager gives; its
// log-form text says something else on purpose, and is never read.
void tst_ReaderWords::typedReasonNotText()
{
    QFETCH(KeepTrying::WaitReason, reason);
    QFETCH(QString, misleading);
    QFETCH(QString, expectStatus);
    QFETCH(QString, expectLog);

    m_reader = std::make_unique<ReaderApp>(ReaderOptions());
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    KeepTrying::RetryingNetworkAccessManager *manager = m_reader->manager();
    RequestLog log(manager);
    MainWindow *window = m_reader->window();
    QSignalSpy shown(window, &MainWindow::libraryShown);
    m_reader->start();
    QVERIFY(shown.wait(15000));

    // A request the user waits for, as the engine would announce its retry: typed first,
    // then the log form.
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:1/api/entries.json")));
    KeepTrying::RetryBannerController::markUserWaiting(request);
    // Checked before the event loop runs: its real attempt has not started yet.
    std::unique_ptr<QNetworkReply> reply(manager->get(request));
    Q_EMIT manager->waitReasonChanged(reply.get(), reason);
    Q_EMIT manager->retryScheduled(reply.get(), 1, 5000, misleading);

    const QString status = window->statusBar()->currentMessage();
    QVERIFY2(status.contains(expectStatus), qPrintable(status));
    QVERIFY2(!status.contains(engineering), qPrintable(status));
    int row = -1;
    for (int r = 0; r < log.rowCount(); ++r) {
        if (log.index(r, RequestLog::Url)
                .data()
                .toString()
                .endsWith(QLatin1String(":1/api/entries.json")))
            row = r;
    }
    QVERIFY(row >= 0);
    const QString wait = log.index(row, RequestLog::WaitReason).data().toString();
    QVERIFY2(wait.contains(expectLog), qPrintable(wait));
    QVERIFY2(!wait.contains(misleading), qPrintable(wait));
    const QString events = log.index(row, RequestLog::Events).data().toString();
    QVERIFY2(!events.contains(misleading), qPrintable(events));
    reply->abort();
}

// Settings, libraries and offline copies in a directory of the test's own, and no keychain.
KEEPTRYING_READER_TEST_MAIN(tst_ReaderWords, "tst_readerwords")

#include "tst_readerwords.moc"
