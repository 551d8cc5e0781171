// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "readerfixture.h"
#include "testhelpers.h"

#include "library/changequeue.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "library/wallabagjson.h"
#include "readerapp.h"
#include "readeroptions.h"
#include "signinflow.h"
#include "ui/articlelistmodel.h"
#include "ui/failedchangesdialog.h"
#include "ui/mainwindow.h"
#include "ui/readingpane.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QPointer>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>

#include <functional>
#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::DemoServerThread;
using namespace ReaderFixture;

/*
    Nothing lost by accident, on the reader main() starts (ReaderApp), driven with its keys,
    menus and buttons: the changes waiting after an offline restart are counted; Edit Tags
    adds by default and removes only what is unticked; Delete can be undone (Ctrl+Z or the
    notice's Undo), and says so plainly when it is too late; after archive or delete the
    next article is selected, not the top one; Sign In opens with what is known.
*/
class tst_Lossless : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void waitingCountedAfterOfflineRestart();
    void waitingCountedAfterOfflineRestartOfDemo();
    void changesNotSavedWithNothingRefused();
    void changesNotSavedAfterUndoOfRefusal();
    void editTagsAddsByDefault();
    void editTagsRemovesWhatIsUnticked();
    void deleteUndoWithCtrlZ();
    void deleteUndoWithNoticeButton();
    void statusBarKeepsItsHeight();
    void deleteUndoWhileOffline();
    void deleteTooLateToUndo();
    void selectionStaysAfterArchive();
    void selectionStaysAfterDelete();
    void signInPrefilledFromOptions();
    void serverWithoutScheme_data();
    void serverWithoutScheme();
    void starButtonKeepsItsWidth();

private:
    void startReader(bool offline = false, bool waitForList = true, bool demo = false);
    QAction *menuAction(const QString &menu, const QString &text) const;
    void key(int key, Qt::KeyboardModifiers modifiers = {});
    void selectRow(int row);
    // Runs \a inside once the modal dialog opened by \a open is up (exec() or open()).
    void withModal(const std::function<void()> &open, const std::function<void(QWidget *)> &inside);
    static bool existsOn(const QUrl &server, qint64 id);
    MainWindow *window() const { return m_reader->window(); }
    // The "Article deleted — Undo" notice, its words and its button (null when missing).
    QWidget *notice() const { return window()->findChild<QWidget *>(QStringLiteral("undoNotice")); }
    QString noticeText() const
    {
        auto *label = window()->findChild<QLabel *>(QStringLiteral("undoNoticeText"));
        return label ? label->text() : QString();
    }
    QPushButton *undoButton() const
    {
        return window()->findChild<QPushButton *>(QStringLiteral("undoButton"));
    }

    std::unique_ptr<DemoServerThread> m_a;
    std::unique_ptr<ReaderApp> m_reader;
    std::unique_ptr<QSignalSpy> m_counted;
};

namespace {

constexpr int UndoMs = 400;

} // namespace

bool tst_Lossless::existsOn(const QUrl &server, qint64 id)
{
    const QList<Article> articles = articlesOn(server);
    for (const Article &a : articles) {
        if (a.id == id)
            return true;
    }
    return false;
}

void tst_Lossless::init()
{
    QSettings().clear();
    m_a = std::make_unique<DemoServerThread>();
    QVERIFY(m_a->listen() != 0);
}

void tst_Lossless::cleanup()
{
    m_counted.reset();
    m_reader.reset();
    m_a.reset();
    // Each case starts with an empty library and outbox.
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir(data).removeRecursively();
}

// As main() does (--server A, its credentials; --offline when asked).
void tst_Lossless::startReader(bool offline, bool waitForList, bool demo)
{
    ReaderOptions options;
    if (!demo) {
        options.server = (*m_a)->baseUrl();
        options.credentials = demoCredentials();
    }
    options.simulateOffline = offline;
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    // As main()'s ScreenshotDriver, which prints "changes waiting: N" on this signal.
    m_counted = std::make_unique<QSignalSpy>(m_reader->queue(), &ChangeQueue::waitingCountChanged);
    makeFast(m_reader->manager());
    // By name, so that this test also builds (and fails) against a reader without Undo.
    QMetaObject::invokeMethod(m_reader.get(), "setUndoTimeMs", Q_ARG(int, UndoMs));
    QSignalSpy shown(window(), &MainWindow::libraryShown);
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(window()));
    window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window()));
    if (!waitForList)
        return;
    QVERIFY(shown.wait(15000));
    QTRY_VERIFY_WITH_TIMEOUT(m_reader->queue()->isOpen(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
}

QAction *tst_Lossless::menuAction(const QString &menuText, const QString &text) const
{
    return ReaderFixture::menuAction(window(), menuText, text);
}

void tst_Lossless::key(int k, Qt::KeyboardModifiers modifiers)
{
    QTest::keyClick(window()->listView(), Qt::Key(k), modifiers);
}

// With j from the top, as a person moves down the list.
void tst_Lossless::selectRow(int row)
{
    QListView *list = window()->listView();
    list->setFocus();
    list->setCurrentIndex(window()->model()->index(0));
    for (int i = 0; i < row; ++i)
        key(Qt::Key_J);
    QCOMPARE(list->currentIndex().row(), row);
}

void tst_Lossless::withModal(const std::function<void()> &open,
                             const std::function<void(QWidget *)> &inside)
{
    QVERIFY2(ReaderFixture::withModal(open, inside), "no modal dialog, or it did not close");
}

// Changes made offline, then a restart still offline: the outbox's count is shown at once
// (status bar, the queue's signal that prints the stdout line, File ▸ Changes Not Saved…).
void tst_Lossless::waitingCountedAfterOfflineRestart()
{
    startReader();
    window()->setSimulatedOffline(true);
    selectRow(1);
    key(Qt::Key_F); // star
    selectRow(2);
    key(Qt::Key_F);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 2, 5000);
    m_counted.reset();
    m_reader.reset(); // quit

    startReader(true, false); // started again, offline
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
    QVERIFY(!m_reader->queue()->isOpen()); // not signed in: offline
    QCOMPARE(m_reader->queue()->waitingCount(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(window()->waitingLabel()->text(), QStringLiteral("2 changes waiting"),
                              5000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_counted->isEmpty(), 5000); // "changes waiting: 2" on stdout
    QCOMPARE(m_counted->first().at(0).toInt(), 2);

    QAction *notSaved = menuAction(QStringLiteral("&File"), QStringLiteral("&Changes Not Saved…"));
    QVERIFY(notSaved);
    QString intro;
    QStringList items;
    withModal([&] { notSaved->trigger(); },
              [&](QWidget *modal) {
                  auto *dialog = qobject_cast<FailedChangesDialog *>(modal);
                  if (dialog) {
                      intro = dialog->findChild<QLabel *>()->text();
                      for (int i = 0; i < dialog->list()->count(); ++i)
                          items << dialog->list()->item(i)->text();
                  }
                  QTest::keyClick(modal, Qt::Key_Escape);
              });
    QVERIFY2(!intro.contains(QStringLiteral("Every change has been saved")), qPrintable(intro));
    QVERIFY2(!items.join(QLatin1Char('\n')).contains(QStringLiteral("Every change has been saved")),
             qPrintable(items.join(QLatin1Char('\n'))));
    QVERIFY2(intro.contains(QStringLiteral("2 changes are waiting")), qPrintable(intro));

    // Back online: both reach the server, and the count goes to 0.
    window()->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->waitingLabel()->text(), QString(), 5000);
}

// The same with the built-in demo library, whose outbox starts empty every run (its server
// takes a new port): the changes the library marks waiting are counted all the same.
void tst_Lossless::waitingCountedAfterOfflineRestartOfDemo()
{
    startReader(false, true, true);
    window()->setSimulatedOffline(true);
    selectRow(1);
    key(Qt::Key_F);
    selectRow(2);
    key(Qt::Key_A);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 2, 5000);
    m_counted.reset();
    m_reader.reset();

    startReader(true, false, true);
    QTRY_VERIFY_WITH_TIMEOUT(window()->model()->rowCount() > 5, 10000);
    QVERIFY(!m_reader->queue()->isOpen());
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 2, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window()->waitingLabel()->text(), QStringLiteral("2 changes waiting"),
                              5000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_counted->isEmpty(), 5000);
    QCOMPARE(m_counted->last().at(0).toInt(), 2);
    window()->setSimulatedOffline(false);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 15000);
}

// Nothing refused and nothing waiting: no words about refusals, no Undo or Discard to press.
void tst_Lossless::changesNotSavedWithNothingRefused()
{
    startReader();
    QAction *notSaved = menuAction(QStringLiteral("&File"), QStringLiteral("&Changes Not Saved…"));
    QVERIFY(notSaved);
    QString intro;
    QList<bool> enabled;
    withModal([&] { notSaved->trigger(); },
              [&](QWidget *modal) {
                  intro = modal->findChild<QLabel *>()->text();
                  const QList<QPushButton *> buttons = modal->findChildren<QPushButton *>();
                  for (QPushButton *b : buttons) {
                      if (b->objectName() == QLatin1String("undoRefused") ||
                          b->objectName() == QLatin1String("keepMine"))
                          enabled << b->isEnabled();
                  }
                  QTest::keyClick(modal, Qt::Key_Escape);
              });
    QVERIFY2(!intro.contains(QStringLiteral("refused")), qPrintable(intro));
    QCOMPARE(intro, QStringLiteral("Nothing is waiting to be saved."));
    QCOMPARE(enabled, QList<bool>({ false, false }));
}

// A star the server forbids (403), undone in the dialog: the dialog names the change in
// words, its two choices say plainly what they do, and afterwards it offers nothing more to
// undo nor claims that the undone change was saved.
void tst_Lossless::changesNotSavedAfterUndoOfRefusal()
{
    startReader();
    QVERIFY((*m_a)->addFault(QStringLiteral("route=/api/entries/*,method=PATCH,status=403")));
    selectRow(1);
    key(Qt::Key_F);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->store()->failedArticles().size(), qsizetype(1), 15000);
    QAction *notSaved = menuAction(QStringLiteral("&File"), QStringLiteral("&Changes Not Saved…"));
    QString before;
    QString after;
    bool undoEnabledBefore = false;
    bool undoEnabledAfter = true;
    bool discardEnabledAfter = true;
    QString item;
    withModal([&] { notSaved->trigger(); },
              [&](QWidget *modal) {
                  auto *dialog = qobject_cast<FailedChangesDialog *>(modal);
                  QPushButton *undo = nullptr;
                  QPushButton *discard = nullptr;
                  const QList<QPushButton *> buttons = modal->findChildren<QPushButton *>();
                  for (QPushButton *b : buttons) {
                      if (b->text() == QLatin1String("&Undo: go back to what the server has"))
                          undo = b;
                      if (b->text() == QLatin1String("&Keep mine here: stop trying to save it"))
                          discard = b;
                  }
                  if (dialog && dialog->list()->count() > 0)
                      item = dialog->list()->item(0)->text();
                  before = modal->findChild<QLabel *>()->text();
                  undoEnabledBefore = undo && undo->isEnabled();
                  if (undo)
                      QTest::mouseClick(undo, Qt::LeftButton);
                  after = modal->findChild<QLabel *>()->text();
                  undoEnabledAfter = undo && undo->isEnabled();
                  discardEnabledAfter = discard && discard->isEnabled();
                  Q_UNUSED(dialog)
                  QTest::keyClick(modal, Qt::Key_Escape);
              });
    QVERIFY2(before.contains(QStringLiteral("refused")), qPrintable(before));
    QVERIFY2(!before.contains(QStringLiteral("Discard")), qPrintable(before));
    QVERIFY2(item.section(QLatin1Char('\n'), 0, 0).endsWith(QStringLiteral(" — Star")),
             qPrintable(item));
    QVERIFY2(!item.contains(QStringLiteral("API")), qPrintable(item));
    QVERIFY(undoEnabledBefore);
    QVERIFY2(!after.contains(QStringLiteral("refused")), qPrintable(after));
    QCOMPARE(after, QStringLiteral("Nothing is waiting to be saved."));
    QVERIFY(!undoEnabledAfter);
    QVERIFY(!discardEnabledAfter);
    QVERIFY(m_reader->store()->failedArticles().isEmpty());
}

// Ctrl+T, a tag typed, Enter: added to the tags the article had, none replaced.
void tst_Lossless::editTagsAddsByDefault()
{
    startReader();
    // An article with tags.
    int row = -1;
    for (int r = 0; r < window()->model()->rowCount(); ++r) {
        if (!window()->model()->article(r).tags.isEmpty()) {
            row = r;
            break;
        }
    }
    QVERIFY(row >= 0);
    selectRow(row);
    const Article before = m_reader->store()->article(window()->currentArticleId());
    QVERIFY(!before.tags.isEmpty());
    withModal([&] { key(Qt::Key_T, Qt::ControlModifier); },
              [&](QWidget *modal) {
                  QWidget *focus = QApplication::focusWidget();
                  QTest::keyClicks(focus ? focus : modal, QStringLiteral("fresh"));
                  QTest::keyClick(focus ? focus : modal, Qt::Key_Return);
              });
    const QStringList after = m_reader->store()->article(before.id).tags;
    for (const QString &tag : before.tags)
        QVERIFY2(after.contains(tag), qPrintable(after.join(QLatin1Char(','))));
    QVERIFY2(after.contains(QStringLiteral("fresh")), qPrintable(after.join(QLatin1Char(','))));
    QCOMPARE(after.size(), before.tags.size() + 1);
    // And on the server too, once sent.
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->queue()->waitingCount(), 0, 15000);
    bool onServer = false;
    for (const Article &a : articlesOn((*m_a)->baseUrl())) {
        if (a.id == before.id)
            onServer =
                a.tags.size() == before.tags.size() + 1 && a.tags.contains(QStringLiteral("fresh"));
    }
    QVERIFY(onServer);
}

// Removing is explicit: the tick of one tag taken away, the others stay.
void tst_Lossless::editTagsRemovesWhatIsUnticked()
{
    startReader();
    int row = -1;
    for (int r = 0; r < window()->model()->rowCount(); ++r) {
        if (window()->model()->article(r).tags.size() >= 2) {
            row = r;
            break;
        }
    }
    QVERIFY(row >= 0);
    selectRow(row);
    const Article before = m_reader->store()->article(window()->currentArticleId());
    const QString gone = before.tags.constFirst();
    bool found = false;
    withModal([&] { key(Qt::Key_T, Qt::ControlModifier); },
              [&](QWidget *modal) {
                  const QList<QCheckBox *> boxes = modal->findChildren<QCheckBox *>();
                  for (QCheckBox *box : boxes) {
                      if (box->text() == gone && box->isChecked()) {
                          found = true;
                          QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
                      }
                  }
                  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
              });
    QVERIFY(found);
    QStringList expected = before.tags;
    expected.removeAll(gone);
    QCOMPARE(m_reader->store()->article(before.id).tags, expected);
}

// Delete, then Ctrl+Z within the notice's time: the article is back in its row, selected,
// and the server never lost it.
void tst_Lossless::deleteUndoWithCtrlZ()
{
    startReader();
    selectRow(3);
    const qint64 id = window()->currentArticleId();
    const qint64 next = window()->model()->article(4).id;
    key(Qt::Key_Delete);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), -1, 2000);
    QVERIFY(notice() && notice()->isVisible());
    QCOMPARE(noticeText(), QStringLiteral("Article deleted —"));
    QVERIFY(undoButton()->isVisible());
    QCOMPARE(window()->currentArticleId(), next);
    key(Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), 3, 2000);
    QCOMPARE(window()->listView()->currentIndex().row(), 3);
    QCOMPARE(window()->currentArticleId(), id);
    QTest::qWait(UndoMs * 2); // past the grace time: nothing was sent
    QCOMPARE(m_reader->queue()->waitingCount(), 0);
    QVERIFY(existsOn((*m_a)->baseUrl(), id));
    QVERIFY(!m_reader->store()->isMarkedDeleted(id));
    QTRY_VERIFY_WITH_TIMEOUT(!notice()->isVisible(), 5000); // the notice goes by itself
}

void tst_Lossless::deleteUndoWithNoticeButton()
{
    startReader();
    selectRow(2);
    const qint64 id = window()->currentArticleId();
    key(Qt::Key_Delete);
    QVERIFY(undoButton());
    QTRY_VERIFY_WITH_TIMEOUT(undoButton()->isVisible(), 2000);
    QTest::mouseClick(undoButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), 2, 2000);
    QCOMPARE(window()->currentArticleId(), id);
    QTest::qWait(UndoMs * 2);
    QVERIFY(existsOn((*m_a)->baseUrl(), id));
}

// The notice with its Undo button, and the words after it, do not make the status bar
// taller (it grew by 3 px: the list and the panes above moved under the pointer).
void tst_Lossless::statusBarKeepsItsHeight()
{
    startReader();
    QStatusBar *bar = window()->statusBar();
    const auto settled = [bar] {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        return bar->height();
    };
    const int before = settled();
    QVERIFY(before > 0);
    selectRow(2);
    const qint64 id = window()->currentArticleId();
    key(Qt::Key_Delete);
    QVERIFY(undoButton());
    QTRY_VERIFY_WITH_TIMEOUT(undoButton()->isVisible(), 2000);
    QCOMPARE(settled(), before);
    QCOMPARE(bar->geometry().top() + bar->height(), window()->height());
    key(Qt::Key_Z, Qt::ControlModifier); // "… is back.", without the button
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), 2, 2000);
    QVERIFY(notice()->isVisible());
    QCOMPARE(settled(), before);
    QTRY_VERIFY_WITH_TIMEOUT(!notice()->isVisible(), 5000);
    QCOMPARE(settled(), before);
}

// Offline, after the notice has gone: the delete waits in the outbox; Ctrl+Z cancels it there.
void tst_Lossless::deleteUndoWhileOffline()
{
    startReader();
    window()->setSimulatedOffline(true);
    selectRow(2);
    const qint64 id = window()->currentArticleId();
    key(Qt::Key_Delete);
    QVERIFY(notice());
    QTRY_VERIFY_WITH_TIMEOUT(!notice()->isVisible(), 5000);
    auto *queue = m_reader->queue();
    QTRY_COMPARE_WITH_TIMEOUT(queue->outbox()->pendingCount(), 1, 5000); // in the outbox now
    key(Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), 2, 2000);
    QCOMPARE(queue->outbox()->pendingCount(), 0);
    QCOMPARE(queue->waitingCount(), 0);
    window()->setSimulatedOffline(false);
    QTest::qWait(300);
    QVERIFY(existsOn((*m_a)->baseUrl(), id));
}

// Online, after the notice: the delete reached the server; Ctrl+Z says it can't be undone.
void tst_Lossless::deleteTooLateToUndo()
{
    startReader();
    selectRow(2);
    const qint64 id = window()->currentArticleId();
    key(Qt::Key_Delete);
    QTRY_VERIFY_WITH_TIMEOUT(!existsOn((*m_a)->baseUrl(), id), 10000);
    key(Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(notice());
    QTRY_VERIFY_WITH_TIMEOUT(notice()->isVisible(), 2000);
    QVERIFY2(noticeText().contains(QStringLiteral("can't be undone")), qPrintable(noticeText()));
    QVERIFY(!undoButton()->isVisible());
    QCOMPARE(window()->model()->rowOfId(id), -1);
}

// Archiving the selected article in Unread selects the one after it, not the top one.
void tst_Lossless::selectionStaysAfterArchive()
{
    startReader();
    window()->chooseView(LocalStore::View::Unread);
    QVERIFY(window()->model()->rowCount() > 6);
    selectRow(4);
    const qint64 id = window()->currentArticleId();
    const qint64 next = window()->model()->article(5).id;
    key(Qt::Key_A);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), -1, 2000);
    QCOMPARE(window()->listView()->currentIndex().row(), 4);
    QCOMPARE(window()->currentArticleId(), next);
    QCOMPARE(window()->readingPane()->articleId(), next);
}

void tst_Lossless::selectionStaysAfterDelete()
{
    startReader();
    selectRow(5);
    const qint64 id = window()->currentArticleId();
    const qint64 next = window()->model()->article(6).id;
    key(Qt::Key_Delete);
    QTRY_COMPARE_WITH_TIMEOUT(window()->model()->rowOfId(id), -1, 2000);
    QCOMPARE(window()->listView()->currentIndex().row(), 5);
    QCOMPARE(window()->currentArticleId(), next);
    QCOMPARE(window()->readingPane()->articleId(), next);
}

// Started with --server/--username: File ▸ Sign In… opens with them filled in.
void tst_Lossless::signInPrefilledFromOptions()
{
    startReader();
    QAction *signIn = menuAction(QStringLiteral("&File"), QStringLiteral("S&ign In…"));
    QVERIFY(signIn);
    signIn->trigger();
    QPointer<SignInDialog> dialog;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = window()->findChild<SignInDialog *>()) && dialog->isVisible(), 5000);
    const SignInDialog::Account shown = dialog->account();
    QVERIFY(!shown.demo);
    QCOMPARE(shown.server, (*m_a)->baseUrl());
    QCOMPARE(shown.username, DemoServer::demoUsername());
    QCOMPARE(shown.clientId, DemoServer::demoClientId());
    QVERIFY(shown.password.isEmpty()); // typed again
    // The field still to fill has the focus: the password.
    dialog->activateWindow();
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::activeWindow(), dialog.data(), 5000);
    auto *focus = qobject_cast<QLineEdit *>(QApplication::focusWidget());
    QVERIFY(focus);
    QCOMPARE(focus->echoMode(), QLineEdit::Password);
    QVERIFY(focus->text().isEmpty());
    dialog->reject();
}

void tst_Lossless::serverWithoutScheme_data()
{
    QTest::addColumn<QString>("given");
    QTest::newRow("address and port") << QStringLiteral("127.0.0.1:18080");
    QTest::newRow("host name") << QStringLiteral("wallabag.example.org");
    QTest::newRow("host and port") << QStringLiteral("localhost:8080");
}

// keeptrying-reader --server 127.0.0.1:18080: a clear error that says what to type.
void tst_Lossless::serverWithoutScheme()
{
    QFETCH(QString, given);
    ReaderCommandLine commandLine;
    const auto result =
        commandLine.parse({ QStringLiteral("keeptrying-reader"), QStringLiteral("--server"), given,
                            QStringLiteral("--username"), QStringLiteral("u"),
                            QStringLiteral("--password"), QStringLiteral("p") });
    QCOMPARE(result, ReaderCommandLine::Result::Error);
    const QString message = commandLine.errorMessage();
    QVERIFY2(message.contains(QStringLiteral("https://") + given), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("http://") + given), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("Invalid")), qPrintable(message));
}

// "☆ Star" becoming "★ Starred" leaves Archive where it was: both buttons keep their width.
void tst_Lossless::starButtonKeepsItsWidth()
{
    startReader();
    selectRow(1);
    auto *star = window()->findChild<QWidget *>(QStringLiteral("starButton"));
    auto *archive = window()->findChild<QWidget *>(QStringLiteral("archiveButton"));
    QVERIFY(star && archive);
    QTRY_VERIFY_WITH_TIMEOUT(star->isVisible(), 5000);
    const QString text = star->property("text").toString();
    const int starWidth = star->width();
    const int archiveX = archive->x();
    key(Qt::Key_F);
    QTRY_VERIFY_WITH_TIMEOUT(star->property("text").toString() != text, 5000);
    QCoreApplication::processEvents(); // the layout settles
    QCOMPARE(star->width(), starWidth);
    QCOMPARE(archive->x(), archiveX);
    key(Qt::Key_A);
    QTRY_VERIFY_WITH_TIMEOUT(window()->listView()->currentIndex().isValid(), 5000);
}

KEEPTRYING_READER_TEST_MAIN(tst_Lossless, "tst_lossless")

#include "tst_lossless.moc"
