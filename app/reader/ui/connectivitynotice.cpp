// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "connectivitynotice.h"

#include "articlelistmodel.h"
#include "library/changequeue.h"
#include "library/requestlog.h"
#include "library/syncengine.h"
#include "readingpane.h"

#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QLocale>
#include <QtCore/QLoggingCategory>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>

using KeepTrying::RetryBanner;
using KeepTrying::RetryBannerController;
using KeepTrying::RetryingNetworkAccessManager;
using KeepTrying::WaitReason;

Q_LOGGING_CATEGORY(lcConnectivity, "keeptrying.reader.connectivity", QtWarningMsg)

namespace {

constexpr int NoticeMs = 3000;

// A server as a person knows it: its name, without the port (routes, ports and status codes
// are for the Developer window and the log).
QString hostOf(const QString &server)
{
    const QString host = QUrl(QStringLiteral("//") + server).host();
    return host.isEmpty() ? server : host;
}

} // namespace

ConnectivityNotice::ConnectivityNotice(SyncEngine *engine, RetryingNetworkAccessManager *manager,
                                       RequestLog *log, QWidget *window)
    : QObject(window), m_engine(engine), m_store(engine->store()), m_manager(manager), m_log(log)
{
    // The banner watches the requests the user waits for (the client marks them), not
    // the thumbnails or the writes: a slow preview picture is no reason to worry anyone.
    m_banner = new RetryBanner(window);
    m_banner->setObjectName(QStringLiteral("retryBanner"));
    m_banner->setContentsMargins(10, 8, 10, 8);
    m_banner->setText(slowText());
    RetryBannerController *controller = m_banner->bind(manager);
    controller->setTrackingMode(RetryBannerController::TrackMarkedReplies);
    // Whose side the trouble is on, as far as the last attempt tells: set before the
    // situation changes (the controller says so first), so the banner shows the new words.
    updateUnreachableText();
    connect(controller, &RetryBannerController::unreachableServerChanged, this,
            &ConnectivityNotice::updateUnreachableText);

    // A short notice that says the wait is over, then hides by itself.
    m_notice = new RetryBanner(window);
    m_notice->setObjectName(QStringLiteral("backOnlineNotice"));
    m_notice->setContentsMargins(10, 8, 10, 8);
    m_notice->setMessageType(RetryBanner::Information);
    m_notice->setBusyIndicatorVisible(false);
    m_notice->setText(tr("Back online — updated."));
    m_notice->hide();
    m_noticeTimer.setSingleShot(true);
    m_noticeTimer.setInterval(NoticeMs);
    connect(&m_noticeTimer, &QTimer::timeout, m_notice, &RetryBanner::animatedHide);
}

ConnectivityNotice::~ConnectivityNotice() = default;

void ConnectivityNotice::watch(const Views &views)
{
    m_views = views;
    connect(m_banner->controller(), &RetryBannerController::situationChanged, this,
            &ConnectivityNotice::showSituation);
    connect(m_engine, &SyncEngine::refreshed, this, &ConnectivityNotice::refreshed);
    connect(m_engine, &SyncEngine::refreshFailed, this, &ConnectivityNotice::refreshFailed);
    connect(m_engine, &SyncEngine::contentFailed, this, &ConnectivityNotice::contentFailed);
    connect(m_engine->queue(), &ChangeQueue::waitingCountChanged, this,
            &ConnectivityNotice::updateWaiting);
    // Say what the manager is doing, quietly, where a curious user would look: a retry is
    // routine here, not an error. The typed reason is read, never the log-form text.
    connect(m_manager, &RetryingNetworkAccessManager::waitReasonChanged, this,
            &ConnectivityNotice::waitReasonChanged);
    // "Sign In…" offered in place of a list that could not be loaded or cannot be found.
    connect(m_views.pane, &ReadingPane::placeholderActionChosen, this,
            &ConnectivityNotice::signInRequested, Qt::QueuedConnection);
    updateWaiting();
    updateOfflineText();
}

void ConnectivityNotice::expectFirstArticle()
{
    m_waitingForFirstArticle = true;
    updateSavedCopyLabel();
}

void ConnectivityNotice::articleShown()
{
    if (m_refreshDone && !m_engine->isRefreshing())
        reportShown();
}

bool ConnectivityNotice::isOffline() const
{
    const RetryBannerController *controller = m_banner->controller();
    return m_manager->isSimulatedOffline() ||
        (controller &&
         (controller->situation() == RetryBannerController::Offline ||
          controller->situation() == RetryBannerController::Unreachable));
}

void ConnectivityNotice::refreshed()
{
    m_refreshDone = true;
    m_waitingForFirstArticle = true; // once per refresh
    updateSavedCopyLabel();
    m_views.model->reload();
    if (m_views.model->rowCount() == 0) {
        m_views.countLabel->setText(tr("%n articles", nullptr, 0));
        if (m_store->articleCount() == 0) {
            m_views.pane->showPlaceholder(tr("Nothing saved yet"),
                                          tr("Articles you save with wallabag appear here."));
        }
        reportShown();
    } else if (m_views.pane->showsContent()) {
        reportShown();
    }
    m_views.statusBar->showMessage(tr("Your list is up to date"), 4000);
    if (m_wasWaiting) {
        m_wasWaiting = false;
        // Back from what the banner said: the network, or a server that did not answer.
        m_notice->setText(
            m_waitedForNetwork
                ? tr("Back online — updated.")
                : tr("%1 answers again — your list is up to date.").arg(m_store->server().host()));
        m_waitedForNetwork = false;
        m_notice->animatedShow();
        m_noticeTimer.start();
        Q_EMIT backOnlineShown();
    }
}

void ConnectivityNotice::refreshFailed(const QString &message)
{
    showFailure(message);
}

void ConnectivityNotice::showFailure(const QString &message)
{
    m_views.statusBar->showMessage(message);
    if (m_store->articleCount() == 0) {
        m_views.countLabel->setText(tr("Not loaded"));
        // Nothing trying again can fix: the account or the address is the next thing to
        // check, right here.
        m_views.pane->showPlaceholder(tr("Your list could not be loaded"), message, tr("Sign In…"));
    }
    m_waitingForFirstArticle = false;
    Q_EMIT libraryFailed(message);
}

void ConnectivityNotice::contentFailed(qint64 id, const QString &message)
{
    if (m_views.pane->articleId() == id)
        m_views.pane->showArticle(m_store->article(id), message, 0);
}

void ConnectivityNotice::reportShown()
{
    if (!m_waitingForFirstArticle)
        return;
    m_waitingForFirstArticle = false;
    Q_EMIT libraryShown(m_views.model->rowCount());
}

void ConnectivityNotice::updateWaiting()
{
    const int waiting = m_engine->queue()->waitingCount();
    const int failed = int(m_store->failedArticles().size());
    QStringList parts;
    if (waiting > 0)
        parts << (waiting == 1 ? tr("1 change waiting")
                               : tr("%n changes waiting", nullptr, waiting));
    if (failed > 0)
        parts << QStringLiteral("<a href=\"failed\">%1</a>")
                     .arg(failed == 1 ? tr("1 change not saved")
                                      : tr("%n changes not saved", nullptr, failed));
    m_views.waitingLabel->setText(parts.join(QStringLiteral(" · ")));
    m_views.waitingLabel->setToolTip(waiting > 0 ? tr("They go to the server by themselves as "
                                                      "soon as it can be reached.")
                                                 : QString());
}

void ConnectivityNotice::updateSavedCopyLabel()
{
    const QDateTime when = m_engine->lastRefreshed();
    if (!when.isValid()) {
        m_views.savedLabel->clear();
        return;
    }
    const QDateTime local = when.toLocalTime();
    const QString time = local.date() == QDate::currentDate()
        ? QLocale().toString(local.time(), QLocale::ShortFormat)
        : QLocale().toString(local, QLocale::ShortFormat);
    m_views.savedLabel->setText(m_engine->isRefreshing() || isOffline()
                                    ? tr("Saved copy from %1").arg(time)
                                    : tr("Updated %1").arg(time));
}

void ConnectivityNotice::updateOfflineText()
{
    // With a saved copy on screen, being offline costs little: say so.
    if (m_store->articleCount() > 0)
        m_banner->setOfflineText(tr("You're offline — showing your saved copy; changes will "
                                    "sync when you're back."));
    else
        m_banner->setOfflineText(RetryBanner::defaultOfflineText());
}

QString ConnectivityNotice::slowText()
{
    return tr("This is taking longer than usual — we keep trying.");
}

ConnectivityNotice::WaitCause ConnectivityNotice::waitCauseOf(const WaitReason &reason)
{
    // An answer from the server, whatever it was, proves the network and the address work.
    const int status = reason.httpStatus();
    if (status >= 500 || status == 408 || status == 425 || status == 429)
        return WaitCause::ServerTrouble;
    if (reason.isProxyFault())
        return WaitCause::ProxyTrouble;
    switch (reason.networkError()) {
    case QNetworkReply::HostNotFoundError:
        return WaitCause::NameNotFound;
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TimeoutError:
        return WaitCause::ConnectionDropped;
    case QNetworkReply::ConnectionRefusedError:
        return WaitCause::CannotConnect;
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
        return WaitCause::NoNetwork;
    default:
        break;
    }
    switch (reason.kind()) {
    case WaitReason::Offline:
        return WaitCause::NoNetwork;
    case WaitReason::Unreachable:
        return WaitCause::CannotConnect;
    case WaitReason::RetryAfter:
    case WaitReason::BreakerOpen:
    case WaitReason::BudgetExhausted:
        return WaitCause::ServerTrouble; // the server asked for a pause, or keeps failing
    default:
        break;
    }
    return WaitCause::Slow;
}

QString ConnectivityNotice::retryText(WaitCause cause, const QString &server)
{
    switch (cause) {
    case WaitCause::ServerTrouble:
        return tr("%1 is having trouble right now; the reader tries again by itself.").arg(server);
    case WaitCause::ConnectionDropped:
        return tr("The connection to %1 dropped; the reader tries again by itself.").arg(server);
    case WaitCause::CannotConnect:
        return tr("Nothing answers at %1 yet; the reader tries again by itself.").arg(server);
    case WaitCause::NameNotFound:
        return tr("The name %1 could not be found. Check the address in Sign In.").arg(server);
    case WaitCause::NoNetwork:
        return tr("You're offline; the reader tries again by itself when the network is back.");
    case WaitCause::ProxyTrouble:
        return tr("The proxy this computer uses isn't answering; the reader tries again by "
                  "itself. Check the proxy settings.");
    case WaitCause::Slow:
        break;
    }
    return tr("Still loading; the reader tries again by itself.");
}

void ConnectivityNotice::waitReasonChanged(QNetworkReply *reply, const WaitReason &reason)
{
    // Only what the user waits for: a preview picture is nobody's worry.
    const bool userWaiting =
        reply->request()
            .attribute(QNetworkRequest::Attribute(RetryBannerController::UserWaitingAttribute))
            .toBool();
    if (!reason.isWaiting() || !userWaiting)
        return;
    // The kind, the fault and the time are for the log and the Developer window.
    qCInfo(lcConnectivity).nospace() << "waiting " << reply->url().path() << ": " << reason;
    const WaitCause cause = waitCauseOf(reason);
    const QString server = reason.origin().host();
    // The banner says "the server is busy" by itself (the controller's ServerBusy); the
    // reader's own words name the server and what happens to the list.
    if (cause == WaitCause::ServerTrouble) {
        m_banner->setServerBusyText(tr("%1 is having trouble right now — your network is "
                                       "fine. We keep trying and update your list as soon "
                                       "as it is ready.")
                                        .arg(server));
    }
    // A retry of a request the user waits for, said quietly in the status bar; offline and
    // unreachable have their own words there (showSituation).
    const bool retry = reason.kind() == WaitReason::Backoff ||
        reason.kind() == WaitReason::RetryAfter || reason.kind() == WaitReason::BudgetExhausted ||
        reason.kind() == WaitReason::BreakerOpen;
    if (m_offlineShown || !retry)
        return;
    const qint64 remaining = reason.remainingMs();
    m_views.statusBar->showMessage(retryText(cause, server),
                                   remaining < 0 ? 30000
                                                 : int(qMin<qint64>(remaining + 2000, 30000)));
}

void ConnectivityNotice::updateUnreachableText()
{
    // The banner fills %1 with the server it waits for.
    const RetryBannerController *controller = m_banner->controller();
    switch (controller ? controller->unreachableReason() : RetryBannerController::CannotConnect) {
    case RetryBannerController::HostNotFound:
        m_banner->setUnreachableText(tr("The name %1 could not be found — check the address "
                                        "in File ▸ Sign In. We keep trying meanwhile."));
        break;
    case RetryBannerController::ConnectionRefused:
        m_banner->setUnreachableText(tr("%1 isn't answering: the server seems to be down, "
                                        "your network is fine. We keep trying."));
        break;
    case RetryBannerController::ProxyFailed:
        m_banner->setUnreachableText(tr("The proxy this computer uses isn't answering, so %1 "
                                        "can't be reached. Check the proxy settings (File ▸ "
                                        "Preferences shows which one is in use). We keep "
                                        "trying."));
        break;
    case RetryBannerController::CannotConnect:
        m_banner->setUnreachableText(tr("Can't reach %1 — your network or the server may be "
                                        "down. We keep trying."));
        break;
    }
}

void ConnectivityNotice::showSituation()
{
    RetryBannerController *controller = m_banner->controller();
    const RetryBannerController::Situation situation = controller->situation();
    updateOfflineText();
    const bool waiting = situation == RetryBannerController::Offline ||
        situation == RetryBannerController::Unreachable;
    if (waiting) {
        m_wasWaiting = true;
        m_waitedForNetwork = m_waitedForNetwork || situation == RetryBannerController::Offline;
        m_notice->hide();
        if (m_log)
            m_log->noteSavedCopyShown();
    }
    updateSavedCopyLabel();
    const QString server = hostOf(controller->unreachableServer());
    const bool nameNotFound = situation == RetryBannerController::Unreachable &&
        controller->unreachableReason() == RetryBannerController::HostNotFound;
    const bool proxyFailed = situation == RetryBannerController::Unreachable &&
        controller->unreachableReason() == RetryBannerController::ProxyFailed;
    if (waiting == m_offlineShown &&
        (!waiting ||
         (server == m_waitingFor && nameNotFound == m_nameNotFound &&
          proxyFailed == m_proxyFailed)))
        return;
    m_proxyFailed = proxyFailed;
    m_offlineShown = waiting;
    m_waitingFor = server;
    m_nameNotFound = nameNotFound;
    const bool listEmpty = m_store->articleCount() == 0;
    if (waiting) {
        const bool offline = situation == RetryBannerController::Offline;
        if (nameNotFound)
            m_views.statusBar->showMessage(retryText(WaitCause::NameNotFound, server));
        else if (proxyFailed)
            m_views.statusBar->showMessage(tr("Waiting for the proxy to answer…"));
        else
            m_views.statusBar->showMessage(offline ? tr("Waiting for the network…")
                                                   : tr("Waiting for %1 to answer…").arg(server));
        if (listEmpty && nameNotFound) {
            // A misspelled address never answers: say so, and offer to correct it here.
            m_views.countLabel->setText(tr("Not found"));
            m_views.pane->showPlaceholder(tr("Server not found"),
                                          tr("The name %1 could not be found: the address "
                                             "may be misspelled. Check it in Sign In; until "
                                             "then the reader keeps trying.")
                                              .arg(server),
                                          tr("Sign In…"));
        } else if (listEmpty) {
            m_views.countLabel->setText(tr("Waiting…"));
            m_views.pane->showPlaceholder(
                tr("Your saved articles"),
                offline           ? tr("Your list loads as soon as the network is back.")
                    : proxyFailed ? tr("Your list loads as soon as the proxy answers.")
                                  : tr("Your list loads as soon as %1 answers.").arg(server));
        } else {
            Q_EMIT missingContentChanged(); // "not available offline yet"
        }
        return;
    }
    if (m_engine->isRefreshing()) {
        m_views.statusBar->showMessage(
            m_waitedForNetwork
                ? tr("Back online. Updating your list…")
                : tr("%1 answers again. Updating your list…").arg(m_store->server().host()));
        if (listEmpty)
            m_views.pane->showPlaceholder(tr("Your saved articles"), tr("Loading your list…"));
    } else {
        m_views.statusBar->clearMessage();
    }
}
