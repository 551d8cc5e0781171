// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "mainwindow.h"

#include "articledelegate.h"
#include "articlemodel.h"
#include "imagestore.h"
#include "readingpane.h"
#include "wallabagclient.h"

#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtGui/QAction>
#include <QtGui/QKeySequence>
#include <QtWidgets/QApplication>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListView>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QVBoxLayout>

using KeepTrying::RetryBanner;
using KeepTrying::RetryBannerController;
using KeepTrying::RetryingNetworkAccessManager;

MainWindow::MainWindow(RetryingNetworkAccessManager *manager, WallabagClient *client,
                       ImageStore *images, QWidget *parent)
    : QMainWindow(parent), m_manager(manager), m_client(client), m_images(images)
{
    setWindowTitle(tr("KeepTrying Reader"));
    resize(1100, 720);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // The banner watches the requests the user waits for (the client marks them), not
    // the thumbnails: a slow preview picture is no reason to worry anyone.
    m_banner = new RetryBanner(central);
    m_banner->setContentsMargins(10, 8, 10, 8);
    RetryBannerController *controller = m_banner->bind(manager);
    controller->setTrackingMode(RetryBannerController::TrackMarkedReplies);
    connect(controller, &RetryBannerController::situationChanged, this, &MainWindow::showSituation);
    layout->addWidget(m_banner);

    auto *splitter = new QSplitter(Qt::Horizontal, central);
    splitter->setChildrenCollapsible(false);
    splitter->setHandleWidth(1);

    auto *listPanel = new QWidget(splitter);
    auto *listLayout = new QVBoxLayout(listPanel);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->setSpacing(0);
    auto *header = new QWidget(listPanel);
    auto *headerLayout = new QHBoxLayout(header);
    headerLayout->setContentsMargins(16, 12, 16, 10);
    auto *title = new QLabel(tr("My List"), header);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setWeight(QFont::DemiBold);
    title->setFont(titleFont);
    m_countLabel = new QLabel(header);
    QPalette muted = m_countLabel->palette();
    muted.setColor(QPalette::WindowText, QColor(0x6b, 0x72, 0x80));
    m_countLabel->setPalette(muted);
    headerLayout->addWidget(title);
    headerLayout->addStretch();
    headerLayout->addWidget(m_countLabel, 0, Qt::AlignBottom);
    listLayout->addWidget(header);

    m_model = new ArticleModel(images, this);
    m_list = new QListView(listPanel);
    m_list->setModel(m_model);
    m_list->setItemDelegate(new ArticleDelegate(images, m_list));
    m_list->setUniformItemSizes(true);
    m_list->setFrameShape(QFrame::NoFrame);
    m_list->setMouseTracking(true);
    m_list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    listLayout->addWidget(m_list, 1);

    m_pane = new ReadingPane(images, splitter);
    m_pane->setServer(client->server());
    m_pane->showPlaceholder(tr("Your saved articles"), tr("Loading your list…"));

    splitter->addWidget(listPanel);
    splitter->addWidget(m_pane);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 400, 700 });
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    m_serverLabel = new QLabel(this);
    m_serverLabel->setContentsMargins(6, 0, 6, 0);
    statusBar()->addPermanentWidget(m_serverLabel);

    buildMenus();

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::currentArticleChanged);
    connect(client, &WallabagClient::entriesLoaded, this, &MainWindow::entriesLoaded);
    connect(client, &WallabagClient::entryLoaded, this, &MainWindow::entryLoaded);
    connect(client, &WallabagClient::failed, this, &MainWindow::loadFailed);
    connect(client, &WallabagClient::entryFailed, this, &MainWindow::entryFailed);
    connect(client, &WallabagClient::pageLoaded, this, [this](int page, int pages) {
        if (page < pages)
            statusBar()->showMessage(tr("Loading your list… (page %1 of %2)").arg(page).arg(pages));
    });
    // Say what the manager is doing, quietly and without alarm, where a curious user would
    // look: a retry is routine here, not an error.
    connect(manager, &RetryingNetworkAccessManager::retryScheduled, this,
            [this](QNetworkReply *reply, int attempt, qint64 delayMs, const QString &reason) {
                followRetryReason(reply, reason);
                if (m_offlineShown)
                    return; // "Waiting for the network…" says it better
                statusBar()->showMessage(tr("Still trying %1 (%2); attempt %3 in %4 s")
                                             .arg(reply->url().path(), reason)
                                             .arg(attempt + 1)
                                             .arg(double(delayMs) / 1000.0, 0, 'f', 1),
                                         int(qMin<qint64>(delayMs + 2000, 30000)));
            });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *developer = menuBar()->addMenu(tr("&Developer"));
    m_simulateOffline = developer->addAction(tr("Simulate &Offline"));
    m_simulateOffline->setCheckable(true);
    m_simulateOffline->setChecked(m_manager->isSimulatedOffline());
    m_simulateOffline->setStatusTip(
        tr("Act as if the network were gone: requests wait, and go out as soon as this is "
           "switched off again"));
    connect(m_simulateOffline, &QAction::toggled, m_manager,
            &RetryingNetworkAccessManager::setSimulatedOffline);
    connect(m_manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, m_simulateOffline,
            &QAction::setChecked);
    // For QA: a way to send the list request again after injecting a fault. Users never
    // need it, since the manager retries on its own.
    QAction *reload = developer->addAction(tr("&Reload List"), this, &MainWindow::loadLibrary);
    reload->setShortcut(QKeySequence::Refresh);
    reload->setStatusTip(tr("Fetch the list again, e.g. to see an injected fault at work"));
    developer->addSeparator();
    m_injectFault = developer->addAction(tr("Inject &Fault…"), this, &MainWindow::injectFault);
    m_injectFault->setStatusTip(tr("Make the built-in server misbehave"));
    m_clearFaults = developer->addAction(tr("&Clear Faults"), this, [this] {
        if (m_clearFaultsCall) {
            m_clearFaultsCall();
            statusBar()->showMessage(tr("Faults cleared"), 4000);
        }
    });
    m_injectFault->setEnabled(false);
    m_clearFaults->setEnabled(false);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About KeepTrying Reader"), this, [this] {
        QMessageBox::about(this, tr("About KeepTrying Reader"),
                           tr("<h3>KeepTrying Reader</h3><p>Your saved articles, even on a "
                              "flaky network: every request is retried with backoff, so "
                              "there is never a retry button to press.</p>"));
    });
}

int MainWindow::articleCount() const
{
    return m_model->rowCount();
}

void MainWindow::setServerDescription(const QString &description)
{
    m_serverLabel->setText(description);
}

void MainWindow::setFaultInjector(FaultInjector addFault, std::function<void()> clearFaults)
{
    m_addFault = std::move(addFault);
    m_clearFaultsCall = std::move(clearFaults);
    m_injectFault->setEnabled(bool(m_addFault));
    m_clearFaults->setEnabled(bool(m_clearFaultsCall));
}

void MainWindow::loadLibrary()
{
    m_waitingForFirstArticle = true;
    if (articleCount() == 0)
        m_countLabel->setText(tr("Loading…"));
    if (!m_offlineShown)
        statusBar()->showMessage(tr("Loading your list…"));
    m_client->loadEntries(50);
}

void MainWindow::setSimulatedOffline(bool offline)
{
    m_simulateOffline->setChecked(offline); // toggled() tells the manager
}

void MainWindow::followRetryReason(QNetworkReply *reply, const QString &reason)
{
    // The banner's own words ask the user to check their network. When the server itself
    // answers with an error (a 503 storm), the network is fine: say that instead.
    const QVariant waiting = reply->request().attribute(
        QNetworkRequest::Attribute(RetryBannerController::UserWaitingAttribute));
    if (!waiting.toBool())
        return;
    if (reason.startsWith(QLatin1String("HTTP "))) {
        m_banner->setText(tr("%1 is having trouble right now (it answered %2). We'll keep "
                             "trying and load this as soon as it is ready.")
                              .arg(m_client->serverName(), reason.mid(5)));
    } else {
        m_banner->setText(RetryBanner::defaultText());
    }
}

void MainWindow::showSituation()
{
    // Offline, or a server that does not answer, is a state to wait out, never an error:
    // the list loads once it is over, without the user doing anything.
    RetryBannerController *controller = m_banner->controller();
    const RetryBannerController::Situation situation = controller->situation();
    if (situation == RetryBannerController::Hidden)
        m_banner->setText(RetryBanner::defaultText()); // ready for the next slow request
    const bool waiting = situation == RetryBannerController::Offline ||
        situation == RetryBannerController::Unreachable;
    const QString server = controller->unreachableServer();
    if (waiting == m_offlineShown && (!waiting || server == m_waitingFor))
        return;
    m_offlineShown = waiting;
    m_waitingFor = server;
    const bool listEmpty = articleCount() == 0;
    if (waiting) {
        const bool offline = situation == RetryBannerController::Offline;
        statusBar()->showMessage(offline ? tr("Waiting for the network…")
                                         : tr("Waiting for %1 to answer…").arg(server));
        if (listEmpty) {
            m_countLabel->setText(tr("Waiting…"));
            m_pane->showPlaceholder(tr("Your saved articles"),
                                    offline
                                        ? tr("Your list loads as soon as the network is back.")
                                        : tr("Your list loads as soon as %1 answers.").arg(server));
        }
        return;
    }
    if (listEmpty && m_client->isLoading())
        m_countLabel->setText(tr("Loading…"));
    if (m_client->isLoading()) {
        statusBar()->showMessage(tr("Back online. Loading your list…"));
        if (listEmpty)
            m_pane->showPlaceholder(tr("Your saved articles"), tr("Loading your list…"));
    } else {
        statusBar()->clearMessage();
    }
}

void MainWindow::entriesLoaded(const QList<Article> &articles)
{
    m_model->setArticles(articles);
    updateCountLabel();
    statusBar()->showMessage(articles.size() == 1 ? tr("1 article loaded")
                                                  : tr("%1 articles loaded").arg(articles.size()),
                             5000);
    if (articles.isEmpty()) {
        m_pane->showPlaceholder(tr("Nothing saved yet"),
                                tr("Articles you save with wallabag appear here."));
        reportShown();
        return;
    }
    m_list->setCurrentIndex(m_model->index(0));
}

void MainWindow::currentArticleChanged(const QModelIndex &current)
{
    if (!current.isValid())
        return;
    const Article article = m_model->article(current.row());
    m_pane->showArticle(article);
    if (article.content.isEmpty()) {
        // The list response left the content out: fetch the entry itself.
        m_client->loadEntry(article.id);
        return;
    }
    reportShown();
}

void MainWindow::entryLoaded(const Article &article)
{
    m_model->updateArticle(article);
    if (m_pane->articleId() == article.id) {
        m_pane->showArticle(article);
        reportShown();
    }
}

void MainWindow::loadFailed(const QString &message)
{
    statusBar()->showMessage(message);
    if (m_model->rowCount() == 0) {
        // Not "Loading…": nothing is loading any more, and the pane says why.
        m_countLabel->setText(tr("Not loaded"));
        m_pane->showPlaceholder(tr("Your list could not be loaded"), message);
    } else {
        updateCountLabel();
    }
    m_waitingForFirstArticle = false;
    Q_EMIT libraryFailed(message);
}

void MainWindow::entryFailed(int id, const QString &message)
{
    statusBar()->showMessage(message);
    if (m_pane->articleId() == id)
        m_pane->showPlaceholder(tr("This article could not be loaded"), message);
}

void MainWindow::reportShown()
{
    if (!m_waitingForFirstArticle)
        return;
    m_waitingForFirstArticle = false;
    Q_EMIT libraryShown(articleCount());
}

void MainWindow::updateCountLabel()
{
    const int count = articleCount();
    m_countLabel->setText(count == 1 ? tr("1 article") : tr("%1 articles").arg(count));
}

void MainWindow::injectFault()
{
    if (!m_addFault)
        return;
    bool ok = false;
    const QString spec = QInputDialog::getText(
        this, tr("Inject Fault"),
        tr("Fault spec for the built-in server, e.g.\n"
           "route=/api/entries*,status=503,count=2,retry-after=1\n"
           "Keys: route, method, status, retry-after, latency, drop, count, rate."),
        QLineEdit::Normal, QStringLiteral("route=/api/entries*,status=503,count=2"), &ok);
    if (!ok || spec.trimmed().isEmpty())
        return;
    QString error;
    if (!m_addFault(spec.trimmed(), &error)) {
        QMessageBox::warning(this, tr("Inject Fault"), tr("Invalid fault spec: %1").arg(error));
        return;
    }
    statusBar()->showMessage(tr("Fault injected: %1").arg(spec.trimmed()), 6000);
}
