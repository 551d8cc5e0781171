// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "mainwindow.h"

#include "articledelegate.h"
#include "articlelistmodel.h"
#include "banneroverlay.h"
#include "connectivitynotice.h"
#include "developerwindow.h"
#include "failedchangesdialog.h"
#include "filterpane.h"
#include "library/changequeue.h"
#include "library/imagestore.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "preferencesdialog.h"
#include "readingpane.h"
#include "simulatedofflineindicator.h"
#include "tageditordialog.h"
#include "undonotice.h"

#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtGui/QClipboard>
#include <QtGui/QCloseEvent>
#include <QtGui/QDesktopServices>
#include <QtGui/QKeySequence>
#include <QtGui/QShortcut>
#include <QtWidgets/QApplication>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListView>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QVBoxLayout>

using KeepTrying::RetryBanner;
using KeepTrying::RetryingNetworkAccessManager;

namespace {

QLabel *mutedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

MainWindow::MainWindow(SyncEngine *engine, ImageStore *images,
                       RetryingNetworkAccessManager *manager, RequestLog *log, QWidget *parent)
    : QMainWindow(parent), m_engine(engine), m_store(engine->store()), m_images(images),
      m_manager(manager), m_log(log)
{
    setWindowTitle(tr("KeepTrying Reader"));
    setObjectName(QStringLiteral("mainWindow"));
    resize(1200, 760);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // What the window says about the connection and the list has a class of its own.
    m_connectivity = new ConnectivityNotice(engine, manager, log, central);
    m_banner = m_connectivity->banner();
    m_notice = m_connectivity->noticeBanner();

    m_splitter = new QSplitter(Qt::Horizontal, central);
    m_splitter->setObjectName(QStringLiteral("panes"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setHandleWidth(1);

    m_filters = new FilterPane(m_store, m_splitter);
    m_filters->setObjectName(QStringLiteral("filters"));
    m_filters->setMinimumWidth(150);
    connect(m_filters, &FilterPane::filterChosen, this,
            [this](LocalStore::View view, const QString &tag) { chooseView(view, tag); });

    auto *listPanel = new QWidget(m_splitter);
    auto *listLayout = new QVBoxLayout(listPanel);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->setSpacing(0);
    auto *header = new QWidget(listPanel);
    auto *headerLayout = new QHBoxLayout(header);
    headerLayout->setContentsMargins(16, 12, 16, 6);
    m_titleLabel = new QLabel(tr("Unread"), header);
    QFont titleFont = m_titleLabel->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setWeight(QFont::DemiBold);
    m_titleLabel->setFont(titleFont);
    m_countLabel = mutedLabel(header);
    headerLayout->addWidget(m_titleLabel);
    headerLayout->addStretch();
    headerLayout->addWidget(m_countLabel, 0, Qt::AlignBottom);
    listLayout->addWidget(header);
    m_search = new QLineEdit(listPanel);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Search titles, sites and saved text"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search"));
    auto *searchBox = new QWidget(listPanel);
    auto *searchLayout = new QHBoxLayout(searchBox);
    searchLayout->setContentsMargins(12, 0, 12, 8);
    searchLayout->addWidget(m_search);
    listLayout->addWidget(searchBox);
    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(150);
    connect(m_search, &QLineEdit::textChanged, &m_searchDelay, qOverload<>(&QTimer::start));
    connect(&m_searchDelay, &QTimer::timeout, this,
            [this] { chooseView(m_filters->view(), m_filters->tag()); });
    // Esc empties the search, wherever the focus is in the window; in an empty search
    // field it goes back to the list.
    auto *clearSearch = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(clearSearch, &QShortcut::activated, this, [this] {
        if (!m_search->text().isEmpty())
            m_search->clear();
        else if (m_search->hasFocus())
            m_list->setFocus(Qt::ShortcutFocusReason);
    });

    m_model = new ArticleListModel(m_store, images, this);
    m_list = new QListView(listPanel);
    m_list->setObjectName(QStringLiteral("articles"));
    m_list->setAccessibleName(tr("Articles"));
    // Before setModel(): this must run before the selection model makes the row above the
    // current current when the article shown leaves the list (see currentRowLeft()).
    connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this](const QModelIndex &, int first, int last) {
                const int current = m_list->currentIndex().row();
                if (current >= first && current <= last)
                    m_leavingRow = first;
            });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &MainWindow::currentRowLeft);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new ArticleDelegate(images, m_list));
    m_list->setUniformItemSizes(true);
    m_list->setFrameShape(QFrame::NoFrame);
    m_list->setMouseTracking(true);
    m_list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->viewport()->installEventFilter(this);
    listLayout->addWidget(m_list, 1);

    m_pane = new ReadingPane(images, m_splitter);
    m_pane->setObjectName(QStringLiteral("readingPane"));
    m_pane->setAccessibleName(tr("Article"));
    m_pane->setServer(QUrl());
    m_pane->showPlaceholder(tr("Your saved articles"), tr("Loading your list…"));
    connect(m_pane, &ReadingPane::starClicked, this, &MainWindow::toggleStar);
    connect(m_pane, &ReadingPane::archiveClicked, this, &MainWindow::toggleArchive);
    connect(m_pane, &ReadingPane::linkActivated, this, &MainWindow::openLink);
    m_openUrl = [](const QUrl &url) { return QDesktopServices::openUrl(url); };

    m_splitter->addWidget(m_filters);
    m_splitter->addWidget(listPanel);
    m_splitter->addWidget(m_pane);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setStretchFactor(2, 1);
    m_splitter->setSizes({ 180, 400, 620 });
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    // The banners float over the bottom of the reading pane's text, not in the layout: one
    // sliding open must not push the list down under the pointer (a row would change place
    // between a person's aim and their click). There they cover neither the filters, the
    // list and the search, nor the pane's Star/Archive strip, an article's title or a
    // placeholder's words at its top; the text under them can be scrolled.
    auto *overlay = new BannerOverlay(m_pane->viewport(), Qt::BottomEdge, central);
    overlay->addBanner(m_banner);
    overlay->addBanner(m_notice);

    m_savedLabel = mutedLabel(this);
    m_savedLabel->setObjectName(QStringLiteral("savedCopy"));
    m_savedLabel->setContentsMargins(6, 0, 6, 0);
    m_waitingLabel = new QLabel(this);
    m_waitingLabel->setObjectName(QStringLiteral("changesWaiting"));
    m_waitingLabel->setContentsMargins(6, 0, 6, 0);
    m_waitingLabel->setTextInteractionFlags(Qt::LinksAccessibleByMouse |
                                            Qt::LinksAccessibleByKeyboard);
    connect(m_waitingLabel, &QLabel::linkActivated, this, &MainWindow::showFailedChanges);
    m_serverLabel = mutedLabel(this);
    m_serverLabel->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(new SimulatedOfflineIndicator(manager, this));
    m_undoNotice = new UndoNotice(this);
    connect(m_undoNotice, &UndoNotice::undoRequested, this, &MainWindow::undoDelete);
    statusBar()->addPermanentWidget(m_undoNotice);
    statusBar()->addPermanentWidget(m_savedLabel);
    statusBar()->addPermanentWidget(m_waitingLabel);
    statusBar()->addPermanentWidget(m_serverLabel);

    buildMenus();

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::currentArticleChanged);
    connect(m_model, &ArticleListModel::reloaded, this, &MainWindow::modelReloaded);
    connect(m_store, &LocalStore::articleChanged, this, &MainWindow::articleChanged);
    // A text stored with a page of the list: the article waiting for it shows it now, not
    // when its own request answers (or the list has read the store again).
    connect(m_store, &LocalStore::contentStored, this, [this](qint64 id) {
        if (id == m_shownId && m_pane->articleId() == id && !m_pane->showsContent() &&
            currentArticleId() == id)
            showCurrent();
    });
    connect(m_pane->verticalScrollBar(), &QScrollBar::valueChanged, this, &MainWindow::saveScroll);
    m_connectivity->watch(
        { statusBar(), m_countLabel, m_savedLabel, m_waitingLabel, m_pane, m_model });
    connect(m_connectivity, &ConnectivityNotice::libraryShown, this, &MainWindow::libraryShown);
    connect(m_connectivity, &ConnectivityNotice::libraryFailed, this, &MainWindow::libraryFailed);
    connect(m_connectivity, &ConnectivityNotice::backOnlineShown, this,
            &MainWindow::backOnlineShown);
    connect(m_connectivity, &ConnectivityNotice::signInRequested, this,
            &MainWindow::signInRequested);
    connect(m_connectivity, &ConnectivityNotice::missingContentChanged, this, [this] {
        if (m_shownId && !m_pane->showsContent())
            showCurrent();
    });

    // What the user chose last time.
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("window/panes")).toByteArray());
    setFontSize(
        settings.value(QStringLiteral("reading/pointSize"), m_pane->fontPointSize()).toReal());
    // Until the person chooses, the reading view follows the desktop's palette: white text
    // on a dark window beside a white page would glare.
    const bool darkPalette = palette().color(QPalette::Window).lightness() < 128;
    const QVariant chosen = settings.value(QStringLiteral("reading/dark"));
    setDark(chosen.isValid() ? chosen.toBool() : darkPalette);
    if (!chosen.isValid())
        settings.remove(QStringLiteral("reading/dark")); // not chosen: follow the palette
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_addAction = file->addAction(tr("&Save a Link…"), this, &MainWindow::addUrl);
    m_addAction->setShortcut(QKeySequence::New);
    m_addAction->setStatusTip(tr("Save the article at a web address to your list"));
    QAction *signIn = file->addAction(tr("S&ign In…"), this, &MainWindow::signInRequested);
    signIn->setStatusTip(tr("Choose the wallabag server and account to read"));
    m_signOutAction = file->addAction(tr("Sign &Out…"), this, &MainWindow::signOutRequested);
    m_signOutAction->setObjectName(QStringLiteral("signOutAction"));
    m_signOutAction->setStatusTip(
        tr("Forget your password and remove your library from this computer"));
    m_signOutAction->setEnabled(false); // until an account of one's own is read
    QAction *failed =
        file->addAction(tr("&Changes Not Saved…"), this, &MainWindow::showFailedChanges);
    failed->setStatusTip(tr("The changes the server refused, with what went wrong"));
    QAction *preferences = file->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
    preferences->setShortcut(QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setStatusTip(tr("How much disk the articles kept for reading offline may take"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const auto addView = [this, view](const QString &text, const QKeySequence &keys,
                                      LocalStore::View which) {
        QAction *action = view->addAction(text, this, [this, which] { chooseView(which); });
        action->setShortcut(keys);
    };
    addView(tr("&Unread"), QKeySequence(Qt::Key_G, Qt::Key_U), LocalStore::View::Unread);
    addView(tr("&Starred"), QKeySequence(Qt::Key_G, Qt::Key_S), LocalStore::View::Starred);
    addView(tr("&Archive"), QKeySequence(Qt::Key_G, Qt::Key_A), LocalStore::View::Archive);
    addView(tr("A&ll Articles"), QKeySequence(Qt::Key_G, Qt::Key_R), LocalStore::View::All);
    QAction *tags = view->addAction(tr("&Tags"), m_filters, &FilterPane::focusTags);
    tags->setShortcut(QKeySequence(Qt::Key_G, Qt::Key_T));
    QAction *search = view->addAction(tr("S&earch"), this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    search->setShortcuts({ QKeySequence(Qt::Key_S), QKeySequence::Find });
    view->addSeparator();
    QAction *next = view->addAction(tr("&Next Article"), this, [this] { step(1); });
    next->setShortcut(QKeySequence(Qt::Key_J));
    QAction *previous = view->addAction(tr("&Previous Article"), this, [this] { step(-1); });
    previous->setShortcut(QKeySequence(Qt::Key_K));
    view->addSeparator();
    QAction *bigger = view->addAction(tr("&Bigger Text"), this,
                                      [this] { setFontSize(m_pane->fontPointSize() + 1); });
    bigger->setShortcut(QKeySequence::ZoomIn);
    QAction *smaller = view->addAction(tr("S&maller Text"), this,
                                       [this] { setFontSize(m_pane->fontPointSize() - 1); });
    smaller->setShortcut(QKeySequence::ZoomOut);
    m_darkAction = view->addAction(tr("&Dark Reading View"));
    m_darkAction->setCheckable(true);
    m_darkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_darkAction, &QAction::toggled, this, &MainWindow::setDark);

    QMenu *article = menuBar()->addMenu(tr("&Article"));
    m_starAction = article->addAction(tr("&Star"), this, &MainWindow::toggleStar);
    m_starAction->setShortcut(QKeySequence(Qt::Key_F));
    m_archiveAction = article->addAction(tr("&Archive"), this, &MainWindow::toggleArchive);
    m_archiveAction->setShortcut(QKeySequence(Qt::Key_A));
    QAction *edit = article->addAction(tr("Edit &Tags…"), this, &MainWindow::editTags);
    edit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    QAction *remove = article->addAction(tr("&Delete"), this, &MainWindow::deleteCurrent);
    remove->setShortcut(QKeySequence::Delete);
    m_undoAction = article->addAction(tr("&Undo Delete"), this, &MainWindow::undoDelete);
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setEnabled(false);
    article->addSeparator();
    QAction *original = article->addAction(tr("Open &Original"), this, &MainWindow::openOriginal);
    original->setShortcut(QKeySequence(Qt::Key_O));

    buildDeveloperMenu();

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::Key_Question));
    help->addAction(tr("&About KeepTrying Reader"), this, [this] {
        QMessageBox::about(this, tr("About KeepTrying Reader"),
                           tr("<h3>KeepTrying Reader</h3><p>Your saved articles, even on a "
                              "flaky network: your list is kept on this computer, changes "
                              "sync by themselves, and every request keeps trying with "
                              "backoff, so there is never a button to press again.</p>"));
    });
}

void MainWindow::buildDeveloperMenu()
{
    // The Developer menu is for QA; every object in it carries the "developer" property, so
    // that the test that looks for requests to press a button again can leave it aside.
    m_developerMenu = new QMenu(tr("&Developer"), this);
    m_developerMenu->setObjectName(QStringLiteral("developerMenu"));
    m_developerMenu->setProperty("developer", true);
    m_simulateOffline = m_developerMenu->addAction(tr("Simulate &Offline"));
    m_simulateOffline->setProperty("developer", true);
    m_simulateOffline->setCheckable(true);
    m_simulateOffline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_simulateOffline->setChecked(m_manager->isSimulatedOffline());
    m_simulateOffline->setStatusTip(
        tr("Act as if the network were gone, for every request of the reader: requests wait, "
           "and go out as soon as this is switched off again"));
    connect(m_simulateOffline, &QAction::toggled, this, [this](bool offline) {
        m_manager->setSimulatedOffline(offline);
        if (offline)
            m_manager->clearConnectionCache(); // no pooled connection outlives "offline"
    });
    connect(m_manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, m_simulateOffline,
            &QAction::setChecked);
    QAction *sync = m_developerMenu->addAction(tr("&Sync Now"), m_engine, &SyncEngine::refresh);
    sync->setProperty("developer", true);
    sync->setStatusTip(tr("Ask the server for changes now rather than at the next interval"));
    m_developerMenu->addSeparator();
    QAction *window = m_developerMenu->addAction(tr("&Faults and Request Log…"), this,
                                                 &MainWindow::showDeveloperWindow);
    window->setProperty("developer", true);
    window->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_developerMenuAction = menuBar()->addMenu(m_developerMenu);
    m_developerMenuAction->setProperty("developer", true);
    m_developerMenuAction->setVisible(false);
}

void MainWindow::setDeveloperMode(bool on)
{
    m_developerMenuAction->setVisible(on);
    // The shortcuts work only while the menu is there.
    const QList<QAction *> actions = m_developerMenu->actions();
    for (QAction *action : actions)
        action->setEnabled(on);
}

bool MainWindow::isDeveloperMode() const
{
    return m_developerMenuAction->isVisible();
}

void MainWindow::setDeveloperHooks(const DeveloperHooks &hooks)
{
    m_hooks = hooks;
}

void MainWindow::updateDeveloperTarget()
{
    if (m_developerWindow)
        m_developerWindow->updateFaultsEnabled();
}

void MainWindow::showDeveloperWindow()
{
    if (!m_developerWindow) {
        m_developerWindow = new DeveloperWindow(m_log, m_hooks, m_simulateOffline, this);
        m_developerWindow->setProperty("developer", true);
    }
    m_developerWindow->updateFaultsEnabled();
    m_developerWindow->show();
    m_developerWindow->raise();
}

int MainWindow::articleCount() const
{
    return m_model->rowCount();
}

qint64 MainWindow::currentArticleId() const
{
    return m_model->article(m_list->currentIndex().row()).id;
}

void MainWindow::setServerDescription(const QString &description)
{
    m_serverLabel->setText(description);
}

void MainWindow::setSimulatedOffline(bool offline)
{
    m_simulateOffline->setChecked(offline); // toggled() tells the manager
}

bool MainWindow::isOffline() const
{
    return m_connectivity->isOffline();
}

void MainWindow::setAccountActions(bool signedIn, bool canSignOut)
{
    m_addAction->setEnabled(signedIn); // a link saved for nobody would be lost
    m_signOutAction->setEnabled(canSignOut);
}

void MainWindow::showSignedOut()
{
    m_model->reload();
    m_countLabel->setText(QString());
    m_savedLabel->clear(); // the age of a copy that is gone
    m_pane->showPlaceholder(tr("You are signed out"),
                            tr("Your library was removed from this computer. Choose File ▸ "
                               "Sign In… to read it again."));
    setServerDescription(tr("Not signed in"));
    statusBar()->showMessage(tr("Signed out."), 8000);
}

void MainWindow::showLibrary()
{
    m_model->reload();
    m_connectivity->expectFirstArticle();
    if (m_model->rowCount() == 0) {
        m_countLabel->setText(tr("Loading…"));
        statusBar()->showMessage(tr("Loading your list…"));
    }
}

void MainWindow::chooseView(LocalStore::View view, const QString &tag)
{
    LocalStore::Filter filter;
    filter.view = view;
    filter.tag = tag;
    filter.search = m_search->text();
    if (m_filters->view() != view || m_filters->tag() != tag)
        m_filters->select(view, tag);
    m_shownRow = 0; // another list: from its top when the article shown is not in it
    switch (view) {
    case LocalStore::View::Unread:
        m_titleLabel->setText(tr("Unread"));
        break;
    case LocalStore::View::Starred:
        m_titleLabel->setText(tr("Starred"));
        break;
    case LocalStore::View::Archive:
        m_titleLabel->setText(tr("Archive"));
        break;
    case LocalStore::View::All:
        m_titleLabel->setText(tag.isEmpty() ? tr("All Articles") : tr("Tagged “%1”").arg(tag));
        break;
    }
    m_model->setFilter(filter);
}

void MainWindow::modelReloaded()
{
    const int count = m_model->rowCount();
    m_countLabel->setText(count == 1 ? tr("1 article") : tr("%n articles", nullptr, count));
    // Keep the article shown when it is still in the list; else the same row, so that
    // archiving one moves on to the next.
    // (A reset of the model clears the current index: the row shown last says where.)
    int row = m_model->rowOfId(m_shownId);
    if (row < 0 && count > 0)
        row =
            qBound(0, m_list->currentIndex().isValid() ? m_list->currentIndex().row() : m_shownRow,
                   count - 1);
    if (row >= 0) {
        if (m_list->currentIndex().row() != row || m_model->article(row).id != m_shownId) {
            m_list->setCurrentIndex(m_model->index(row));
            m_list->scrollTo(m_model->index(row));
        } else
            showCurrent();
    } else if (m_store->articleCount() > 0 || !m_engine->isRefreshing()) {
        m_shownId = 0;
        if (!m_search->text().isEmpty())
            m_pane->showPlaceholder(tr("Nothing found"),
                                    tr("No saved article matches “%1”.").arg(m_search->text()));
        else if (m_store->articleCount() > 0)
            m_pane->showPlaceholder(tr("Nothing here"), tr("No article in this list."));
    }
}

void MainWindow::currentArticleChanged(const QModelIndex &current)
{
    // While the article shown leaves the list, the row above it is made current: not shown.
    if (!current.isValid() || m_leavingRow >= 0)
        return;
    showCurrent();
}

void MainWindow::currentRowLeft()
{
    // The next article takes the place of the one shown, as when archiving it moves on.
    const int row = std::exchange(m_leavingRow, -1);
    const int count = m_model->rowCount();
    if (row < 0 || count == 0)
        return; // an empty list: modelReloaded() says so
    const QModelIndex next = m_model->index(qMin(row, count - 1));
    if (m_list->currentIndex() != next)
        m_list->setCurrentIndex(next);
    else
        showCurrent();
    m_list->scrollTo(next);
}

QString MainWindow::missingContentText() const
{
    if (isOffline())
        return tr("This article is not available offline yet. It appears here as soon as "
                  "the connection is back.");
    return tr("Loading the article…");
}

void MainWindow::showCurrent()
{
    const Article summary = m_model->article(m_list->currentIndex().row());
    if (summary.id == 0)
        return;
    const Article article = m_store->article(summary.id);
    const bool same = article.id == m_shownId;
    m_shownId = article.id;
    m_shownRow = m_list->currentIndex().row();
    m_starAction->setText(article.starred ? tr("Un&star") : tr("&Star"));
    m_archiveAction->setText(article.archived ? tr("Un&archive") : tr("&Archive"));
    const int scroll =
        same ? m_pane->verticalScrollBar()->value() : m_store->scrollPosition(article.id);
    m_pane->showArticle(article, missingContentText(), scroll);
    if (!article.hasContent) {
        m_engine->fetchContent(article.id);
        return;
    }
    m_engine->fetchContent(0); // the user moved on from any article still loading
    m_connectivity->articleShown();
}

void MainWindow::articleChanged(qint64 id)
{
    if (id == m_shownId && m_model->rowOfId(id) >= 0)
        showCurrent();
    m_connectivity->updateWaiting();
}

void MainWindow::showFailure(const QString &message)
{
    m_connectivity->showFailure(message);
}

void MainWindow::step(int delta)
{
    const int count = m_model->rowCount();
    if (count == 0)
        return;
    const int row = qBound(0, m_list->currentIndex().row() + delta, count - 1);
    m_list->setCurrentIndex(m_model->index(row));
    m_list->scrollTo(m_model->index(row));
}

void MainWindow::toggleStar()
{
    const Article a = m_store->article(m_shownId);
    if (a.id == 0)
        return;
    m_engine->setStarred(a.id, !a.starred);
    statusBar()->showMessage(
        a.starred ? tr("Unstarred “%1”").arg(a.title) : tr("Starred “%1”").arg(a.title), 3000);
}

void MainWindow::toggleArchive()
{
    const Article a = m_store->article(m_shownId);
    if (a.id == 0)
        return;
    m_engine->setArchived(a.id, !a.archived);
    statusBar()->showMessage(a.archived ? tr("Moved “%1” back to Unread").arg(a.title)
                                        : tr("Archived “%1”").arg(a.title),
                             3000);
}

void MainWindow::deleteCurrent()
{
    const Article a = m_store->article(m_shownId);
    if (a.id == 0)
        return;
    m_engine->remove(a.id);
    m_lastDeleted = { a.id, a.title };
    m_undoAction->setEnabled(true);
    m_undoNotice->offerUndo(tr("Article deleted —"), m_undoNoticeMs);
}

void MainWindow::undoDelete()
{
    const Deleted deleted = std::exchange(m_lastDeleted, {});
    m_undoAction->setEnabled(false);
    if (deleted.id == 0)
        return;
    if (!m_engine->undoRemove(deleted.id)) {
        m_undoNotice->say(
            tr("“%1” was already deleted on the server. That can't be undone.").arg(deleted.title),
            qMax(m_undoNoticeMs, 6000));
        return;
    }
    // Back in its row, and shown again (the list reloads from the store).
    m_shownId = deleted.id;
    m_model->reload();
    m_undoNotice->say(tr("“%1” is back.").arg(deleted.title), qMin(m_undoNoticeMs, 3000));
}

void MainWindow::editTags()
{
    const Article a = m_store->article(m_shownId);
    if (a.id == 0)
        return;
    TagEditorDialog dialog(a.title, a.tags, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QStringList tags = dialog.tags();
    if (tags != a.tags)
        m_engine->setTags(a.id, tags);
}

void MainWindow::addUrl()
{
    // Wide enough for a whole address as people paste them (about 90 characters).
    QInputDialog dialog(this);
    dialog.setObjectName(QStringLiteral("saveLinkDialog"));
    dialog.setWindowTitle(tr("Save a Link"));
    dialog.setLabelText(tr("Web address of the article to save:"));
    dialog.setInputMode(QInputDialog::TextInput);
    dialog.resize(
        qMax(dialog.sizeHint().width(), dialog.fontMetrics().averageCharWidth() * 90 + 40),
        dialog.sizeHint().height());
    const bool ok = dialog.exec() == QDialog::Accepted;
    const QString text = dialog.textValue();
    if (!ok || text.trimmed().isEmpty())
        return;
    const QUrl url = QUrl::fromUserInput(text.trimmed());
    if (!url.isValid() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        QMessageBox::information(this, tr("Save a Link"),
                                 tr("“%1” is not a web address. Addresses start with "
                                    "http:// or https://.")
                                     .arg(text.trimmed()));
        return;
    }
    m_engine->addUrl(url);
    statusBar()->showMessage(tr("Saved %1; it syncs by itself").arg(url.toDisplayString()), 4000);
}

void MainWindow::openOriginal()
{
    const Article a = m_store->article(m_shownId);
    if (a.url.isValid())
        openLink(a.url);
}

void MainWindow::openLink(const QUrl &url)
{
    if (m_openUrl(url))
        return;
    // No browser here (or none would start): say so, and leave the address at hand.
    QGuiApplication::clipboard()->setText(url.toString());
    statusBar()->showMessage(tr("No web browser could be opened for %1. The address is "
                                "copied: paste it into a browser.")
                                 .arg(url.host()),
                             10000);
}

void MainWindow::showShortcuts()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr(
        "<table cellspacing=6>"
        "<tr><td><b>g u</b></td><td>Unread</td><td><b>j / ↓</b></td><td>next article</td></tr>"
        "<tr><td><b>g s</b></td><td>Starred</td><td><b>k / ↑</b></td><td>previous article</td></tr>"
        "<tr><td><b>g a</b></td><td>Archive</td><td><b>f</b></td><td>star or unstar</td></tr>"
        "<tr><td><b>g r</b></td><td>All articles</td><td><b>a</b></td><td>archive or "
        "unarchive</td></tr>"
        "<tr><td><b>g t</b></td><td>Tags</td><td><b>Delete</b></td><td>delete the article</td></tr>"
        "<tr><td><b>s</b></td><td>Search</td><td><b>o</b></td><td>open the original page</td></tr>"
        "<tr><td><b>?</b></td><td>this help</td><td><b>Ctrl + / −</b></td><td>text size</td></tr>"
        "<tr><td></td><td></td><td><b>Ctrl+Z</b></td><td>undo the delete</td></tr>"
        "</table>"));
    box.exec();
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(m_manager, m_store, this);
    dialog.exec();
}

void MainWindow::showFailedChanges()
{
    FailedChangesDialog dialog(m_engine, this);
    dialog.exec();
}

void MainWindow::setFontSize(qreal points)
{
    m_pane->setFontPointSize(points);
    QSettings().setValue(QStringLiteral("reading/pointSize"), m_pane->fontPointSize());
}

void MainWindow::setDark(bool dark)
{
    m_pane->setDark(dark);
    if (m_darkAction->isChecked() != dark)
        m_darkAction->setChecked(dark);
    QSettings().setValue(QStringLiteral("reading/dark"), dark);
}

void MainWindow::saveScroll()
{
    if (m_shownId > 0 && m_pane->articleId() == m_shownId)
        m_store->setScrollPosition(m_shownId, m_pane->verticalScrollBar()->value());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/panes"), m_splitter->saveState());
    QMainWindow::closeEvent(event);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_painted && watched == m_list->viewport() && event->type() == QEvent::Paint &&
        m_model->rowCount() > 0) {
        m_painted = true;
        const int rows = m_model->rowCount();
        const qint64 ms = m_launch.isValid() ? m_launch.elapsed() : -1;
        QTimer::singleShot(0, this, [this, rows, ms] { Q_EMIT listPainted(rows, ms); });
    }
    return QMainWindow::eventFilter(watched, event);
}
