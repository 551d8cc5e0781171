// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The soak: the reader's models and its outbox, driven for a given time through scripted
// user actions while the demo server (on a thread of its own, on loopback) cycles through
// outages, 503 storms, resets, latency, 429s with Retry-After and offline flapping. At the
// end every fault is switched off, the outbox drains, and the server's state is compared
// with what the user did. Built with the others, run on demand (and for two minutes by
// `make test`); the last line is `RESULT soak_ok 1` or `RESULT soak_ok 0`.
//
//   soak [--minutes N] [--seed S] [--actions-per-second R] [--wal-limit-mib M]
//
// Every fault the soak injects is one a retry can fix, so every error the reader would
// show the user (a failed refresh, an article that could not be opened, a failed sign-in, a
// change refused and kept as a dead letter) counts against it.

#include "demoserverthread.h"

#include "library/article.h"
#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/readernetwork.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"
#include "ui/articlelistmodel.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/outbox.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QDirIterator>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtGui/QGuiApplication>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <cstdio>
#include <malloc.h>
#include <memory>
#include <random>

using KeepTrying::Demo::DemoServer;

namespace {

void say(const QString &line)
{
    std::fputs(qPrintable(line + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

// kB from /proc/self/status ("VmRSS:   123456 kB"); 0 where there is no such file.
qint64 statusKb(const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

QString mib(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

// What the user expects of one article once everything is sent.
struct Expected
{
    bool starred = false;
    bool archived = false;
    QStringList tags; // sorted
    bool deleted = false;
    QString url;
};

// One error the reader would have put in front of the user.
struct ShownError
{
    QString where; // refresh, content, sign-in, change
    QString message;
    QString phase;
};

enum class Phase {
    Calm,
    Down,
    Storm503,
    Resets,
    Latency,
    RateLimited,
    OfflineFlapping,
    Mixed,
    PhaseCount
};

QString phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Calm:
        return QStringLiteral("calm");
    case Phase::Down:
        return QStringLiteral("down");
    case Phase::Storm503:
        return QStringLiteral("503-storm");
    case Phase::Resets:
        return QStringLiteral("resets");
    case Phase::Latency:
        return QStringLiteral("latency");
    case Phase::RateLimited:
        return QStringLiteral("429");
    case Phase::OfflineFlapping:
        return QStringLiteral("offline-flapping");
    case Phase::Mixed:
        return QStringLiteral("mixed");
    case Phase::PhaseCount:
        break;
    }
    return QString();
}

class Soak : public QObject
{
public:
    struct Options
    {
        double minutes = 60;
        quint32 seed = 0;
        double actionsPerSecond = 3;
        qint64 walLimitBytes = 64LL * 1024 * 1024;
    };

    explicit Soak(const Options &options) : m_options(options), m_random(options.seed) { }

    bool setUp();
    bool run();

private:
    // --- the parts of the reader, wired as main.cpp wires them ---
    void makeReader();
    // --- the script ---
    void act();
    void actOnArticle(int what);
    qint64 pickArticle();
    Expected &expectedOf(qint64 id);
    void nextPhase();
    void flap();
    void sample();
    // --- the end ---
    bool drain();
    bool fetchServerState(QHash<qint64, Article> *entries);
    int random(int below) { return int(m_random() % quint32(qMax(1, below))); }

    Options m_options;
    std::mt19937 m_random;
    QTemporaryDir m_dir;
    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    std::unique_ptr<SyncEngine> m_engine;
    std::unique_ptr<ImageStore> m_images;
    std::unique_ptr<ArticleListModel> m_model;

    QHash<qint64, Expected> m_expected; // by server id
    QSet<QString> m_addedUrls;
    QList<ShownError> m_errors;
    QHash<QString, int> m_actionCounts;
    int m_actions = 0;
    int m_urlSerial = 0;

    Phase m_phase = Phase::Calm;
    int m_phaseIndex = 0;
    QHash<QString, int> m_phaseCounts;
    QTimer m_flapTimer;
    bool m_down = false;

    QElapsedTimer m_clock;
    qint64 m_durationMs = 0;
    qint64 m_earlyWindowMs = 0;
    qint64 m_earlyPeakRssKb = 0;
    qint64 m_peakRssKb = 0;
    qint64 m_lastRssKb = 0;
    qint64 m_maxWalBytes = 0;
    QString m_maxWalFile;
    int m_samples = 0;
};

bool Soak::setUp()
{
    if (!m_dir.isValid()) {
        say(QStringLiteral("soak: no temporary directory"));
        return false;
    }
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    if (m_server->listen() == 0) {
        say(QStringLiteral("soak: the demo server could not listen on loopback"));
        return false;
    }
    (*m_server)->setSeed(m_options.seed);
    // The soak counts writes applied twice by their Idempotency-Key (the outbox's promise to
    // servers that honour keys); wallabag has none, so the demo honours them on request.
    (*m_server)->setIdempotencyKeysHonoured(true);
    makeReader();
    return true;
}

void Soak::makeReader()
{
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    ReaderNetwork::configure(m_manager.get());
    auto *store = new KeepTrying::OfflineCopyStore;
    store->open(m_dir.filePath(QStringLiteral("offline-copies")));
    m_manager->setOfflineCopyStore(store);
    KeepTrying::OfflineCopy::Settings copies;
    copies.accountKey = QStringLiteral("soak");
    m_manager->setOfflineCopySettings(copies);

    m_store = std::make_unique<LocalStore>();
    QString error;
    if (!m_store->open(m_dir.filePath(QStringLiteral("library.sqlite")), &error))
        say(QStringLiteral("soak: the local store did not open: ") + error);
    m_store->setServer((*m_server)->baseUrl());
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer((*m_server)->baseUrl(),
                        { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                          DemoServer::demoUsername(), DemoServer::demoPassword() });
    m_images = std::make_unique<ImageStore>(m_client.get());
    m_queue = std::make_unique<OutboxChangeQueue>(m_client.get(), m_manager.get(),
                                                  m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    // The sweep (the whole list, for entries deleted elsewhere) every minute rather than
    // every 30: more of the list's pages go through the faults.
    m_engine->setSweepInterval(60 * 1000);
    m_model = std::make_unique<ArticleListModel>(m_store.get(), m_images.get());

    // What the window would show the user.
    const auto shown = [this](const QString &where, const QString &message) {
        m_errors.append({ where, message, phaseName(m_phase) });
        say(QStringLiteral("soak: ERROR SHOWN (%1, during %2): %3")
                .arg(where, phaseName(m_phase), message));
    };
    connect(m_engine.get(), &SyncEngine::refreshFailed, this,
            [shown](const QString &message) { shown(QStringLiteral("refresh"), message); });
    connect(m_engine.get(), &SyncEngine::contentFailed, this,
            [shown](qint64 id, const QString &message) {
                shown(QStringLiteral("content of %1").arg(id), message);
            });
    connect(m_client.get(), &WallabagClient::signInFailed, this,
            [shown](const QString &message) { shown(QStringLiteral("sign-in"), message); });
    connect(m_queue.get(), &ChangeQueue::refused, this,
            [shown](const Change &change, const QString &reason) {
                shown(QStringLiteral("change to %1 (kind %2)")
                          .arg(change.articleId)
                          .arg(int(change.kind)),
                      reason);
            });
    // As main.cpp: a refresh as soon as the network is back.
    connect(m_manager.get(), &KeepTrying::RetryingNetworkAccessManager::simulatedOfflineChanged,
            m_engine.get(), [this](bool offline) {
                if (!offline)
                    m_engine->refresh();
            });
}

Expected &Soak::expectedOf(qint64 id)
{
    auto it = m_expected.find(id);
    if (it == m_expected.end()) {
        // First seen (added during the run): what the store shows is the server's.
        const Article a = m_store->article(id);
        Expected e;
        e.starred = a.starred;
        e.archived = a.archived;
        e.tags = a.tags;
        e.tags.sort();
        e.url = a.url.toString();
        it = m_expected.insert(id, e);
    }
    return *it;
}

qint64 Soak::pickArticle()
{
    // What the list shows in the view the user is on, else any article they have.
    QList<qint64> ids;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const qint64 id = m_model->article(row).id;
        if (id > 0 && !m_expected.value(id).deleted)
            ids << id;
    }
    if (ids.isEmpty()) {
        const QList<Article> all = m_store->articles({ LocalStore::View::All, {}, {} });
        for (const Article &a : all) {
            if (a.id > 0 && !m_expected.value(a.id).deleted)
                ids << a.id;
        }
    }
    if (ids.isEmpty())
        return 0;
    return ids.at(random(int(ids.size())));
}

void Soak::act()
{
    ++m_actions;
    // Weights per 100 actions, about what a person does with a reading list.
    const int roll = random(100);
    QString name;
    if (roll < 8) {
        name = QStringLiteral("refresh");
        m_engine->refresh();
    } else if (roll < 16) {
        name = QStringLiteral("switch view");
        static const LocalStore::View views[] = { LocalStore::View::Unread,
                                                  LocalStore::View::Starred,
                                                  LocalStore::View::Archive,
                                                  LocalStore::View::All };
        LocalStore::Filter filter;
        filter.view = views[random(4)];
        m_model->setFilter(filter);
        // The rows the list paints ask for their previews.
        for (int row = 0; row < qMin(8, m_model->rowCount()); ++row)
            m_model->requestPreview(row);
    } else if (roll < 96) {
        actOnArticle(roll);
        return;
    } else {
        name = QStringLiteral("add URL");
        const QUrl url(QStringLiteral("https://example.org/soak/%1/%2")
                           .arg(m_options.seed)
                           .arg(++m_urlSerial));
        m_addedUrls.insert(url.toString());
        m_engine->addUrl(url);
    }
    ++m_actionCounts[name];
}

void Soak::actOnArticle(int roll)
{
    const qint64 id = pickArticle();
    if (id == 0) {
        m_engine->refresh();
        ++m_actionCounts[QStringLiteral("refresh")];
        return;
    }
    const Article shown = m_store->article(id);
    Expected &e = expectedOf(id);
    QString name;
    if (roll < 40) {
        name = QStringLiteral("open article");
        m_engine->fetchContent(id);
        if (shown.previewPicture.isValid())
            m_images->request(shown.previewPicture, ImageStore::Use::Article);
    } else if (roll < 58) {
        name = shown.starred ? QStringLiteral("unstar") : QStringLiteral("star");
        e.starred = !shown.starred;
        m_engine->setStarred(id, e.starred);
    } else if (roll < 74) {
        name = shown.archived ? QStringLiteral("unarchive") : QStringLiteral("archive");
        e.archived = !shown.archived;
        m_engine->setArchived(id, e.archived);
    } else if (roll < 92) {
        static const QStringList pool = { QStringLiteral("soak-alpha"), QStringLiteral("soak-beta"),
                                          QStringLiteral("soak-gamma"), QStringLiteral("later"),
                                          QStringLiteral("work") };
        QStringList tags = shown.tags;
        if (!tags.isEmpty() && random(2) == 0) {
            name = QStringLiteral("tag remove");
            tags.removeAt(random(int(tags.size())));
        } else {
            name = QStringLiteral("tag add");
            const QString tag = pool.at(random(int(pool.size())));
            if (!tags.contains(tag))
                tags << tag;
        }
        e.tags = tags;
        e.tags.sort();
        m_engine->setTags(id, tags);
    } else {
        name = QStringLiteral("delete");
        e.deleted = true;
        m_engine->remove(id);
    }
    ++m_actionCounts[name];
}

void Soak::nextPhase()
{
    (*m_server)->clearFaults();
    m_flapTimer.stop();
    if (m_manager->isSimulatedOffline())
        m_manager->setSimulatedOffline(false);
    if (m_down) {
        (*m_server)->comeUp();
        m_down = false;
    }
    m_phase = Phase(m_phaseIndex++ % int(Phase::PhaseCount));
    ++m_phaseCounts[phaseName(m_phase)];
    const qint64 phaseMs =
        m_durationMs / 24 > 30000 ? 30000 : qMax<qint64>(5000, m_durationMs / 24);
    auto *server = m_server->server();
    switch (m_phase) {
    case Phase::Calm:
        break;
    case Phase::Down:
        // Connections refused for most of the phase.
        m_down = true;
        server->goDown(int(phaseMs * 2 / 3));
        break;
    case Phase::Storm503:
        server->addFault(QStringLiteral("route=/api/*,status=503,rate=0.6"));
        server->addFault(QStringLiteral("route=/oauth/*,status=503,rate=0.6"));
        break;
    case Phase::Resets:
        // Writes are applied and their answer broken off: the retry must not apply them
        // again.
        server->addFault(QStringLiteral("drop=mid-body,rate=0.3"));
        server->addFault(QStringLiteral("drop=before-headers,rate=0.2"));
        break;
    case Phase::Latency:
        // Mostly slow; now and then slower than the reader's 20 s attempt timeout.
        server->addFault(QStringLiteral("latency=21000,rate=0.03"));
        server->addFault(QStringLiteral("latency=1500,rate=0.7"));
        break;
    case Phase::RateLimited:
        server->addFault(QStringLiteral("status=429,retry-after=2,rate=0.5"));
        break;
    case Phase::OfflineFlapping:
        flap();
        break;
    case Phase::Mixed:
        server->addFault(QStringLiteral("status=503,rate=0.2"));
        server->addFault(QStringLiteral("drop=mid-body,rate=0.1"));
        server->addFault(QStringLiteral("status=429,retry-after=1,rate=0.1"));
        server->addFault(QStringLiteral("latency=800,rate=0.3"));
        flap();
        break;
    case Phase::PhaseCount:
        break;
    }
}

void Soak::flap()
{
    // The network comes and goes every 0.5 to 3 s.
    m_manager->setSimulatedOffline(!m_manager->isSimulatedOffline());
    m_flapTimer.setSingleShot(true);
    m_flapTimer.start(500 + random(2500));
}

void Soak::sample()
{
    const qint64 rss = statusKb("VmRSS");
    m_lastRssKb = rss;
    m_peakRssKb = qMax(m_peakRssKb, rss);
    if (m_clock.elapsed() <= m_earlyWindowMs)
        m_earlyPeakRssKb = qMax(m_earlyPeakRssKb, rss);
    qint64 wal = 0;
    QDirIterator files(m_dir.path(), { QStringLiteral("*-wal") }, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        const qint64 size = QFileInfo(path).size();
        if (size > m_maxWalBytes) {
            m_maxWalBytes = size;
            m_maxWalFile = QDir(m_dir.path()).relativeFilePath(path);
        }
        wal += size;
    }
    if (m_samples++ % 12 == 0) {
        // The heap in use (glibc's count, large blocks mapped apart included) tells a leak
        // from an allocator that keeps freed pages.
        const struct mallinfo2 info = mallinfo2();
        const qint64 heap = qint64(info.uordblks + info.hblkhd);
        say(QStringLiteral("soak: t=%1 s phase=%2 actions=%3 rss=%4 hwm=%5 heap=%9 wal-now=%6 "
                           "waiting=%7 errors=%8")
                .arg(m_clock.elapsed() / 1000)
                .arg(phaseName(m_phase))
                .arg(m_actions)
                .arg(mib(rss * 1024), mib(statusKb("VmHWM") * 1024), mib(wal))
                .arg(m_queue->waitingCount())
                .arg(m_errors.size())
                .arg(mib(heap)));
    }
}

bool Soak::drain()
{
    // Everything off, online: what is queued must reach the server, within a bound.
    (*m_server)->clearFaults();
    (*m_server)->comeUp();
    m_flapTimer.stop();
    m_manager->setSimulatedOffline(false);
    m_phase = Phase::Calm;
    QDeadlineTimer deadline(180 * 1000);
    QElapsedTimer sinceFlush;
    sinceFlush.start();
    // Settled: nothing queued, no refresh running, no field waiting for the server. Then
    // one more refresh, so the store has the server's final word; settled after it too.
    const auto settled = [this] {
        return m_queue->waitingCount() == 0 && !m_engine->isRefreshing() &&
            m_store->pendingChanges().isEmpty();
    };
    bool refreshedWhenSettled = false;
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (sinceFlush.elapsed() > 2000) {
            // The user's "sync now": an item in a long backoff goes at once.
            if (m_queue->outbox())
                m_queue->outbox()->flush();
            sinceFlush.restart();
        }
        if (!settled())
            continue;
        if (refreshedWhenSettled)
            return true;
        m_engine->refresh();
        refreshedWhenSettled = true;
        // Not settled again until that refresh has ended.
        while (m_engine->isRefreshing() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        if (!settled())
            refreshedWhenSettled = false;
    }
    say(QStringLiteral("soak: not drained: %1 waiting, %2 fields pending, refreshing %3")
            .arg(m_queue->waitingCount())
            .arg(m_store->pendingChanges().size())
            .arg(m_engine->isRefreshing()));
    return false;
}

bool Soak::fetchServerState(QHash<qint64, Article> *entries)
{
    // Straight from the server, past the reader: a plain manager with the reader's token.
    QNetworkAccessManager plain;
    QUrl next = m_client->entriesUrl({ { QStringLiteral("detail"), QStringLiteral("metadata") },
                                       { QStringLiteral("perPage"), QStringLiteral("100") } });
    while (next.isValid()) {
        QNetworkRequest request(next);
        request.setRawHeader("Authorization", "Bearer " + m_client->accessToken());
        QNetworkReply *reply = plain.get(request);
        QDeadlineTimer deadline(10000);
        while (!reply->isFinished() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        reply->deleteLater();
        if (!reply->isFinished() || reply->error() != QNetworkReply::NoError) {
            say(QStringLiteral("soak: the server's list could not be read: ") +
                reply->errorString());
            return false;
        }
        const QJsonObject page = QJsonDocument::fromJson(reply->readAll()).object();
        const QJsonArray items = page.value(QLatin1String("_embedded"))
                                     .toObject()
                                     .value(QLatin1String("items"))
                                     .toArray();
        for (const QJsonValue &item : items) {
            const Article a = Article::fromJson(item.toObject(), m_client->server());
            entries->insert(a.id, a);
        }
        const QString href = page.value(QLatin1String("_links"))
                                 .toObject()
                                 .value(QLatin1String("next"))
                                 .toObject()
                                 .value(QLatin1String("href"))
                                 .toString();
        next = href.isEmpty() || items.isEmpty() ? QUrl() : m_client->server().resolved(QUrl(href));
    }
    return true;
}

bool Soak::run()
{
    m_durationMs = qint64(m_options.minutes * 60 * 1000);
    m_earlyWindowMs = qMin<qint64>(10 * 60 * 1000, m_durationMs / 6);
    const int actionIntervalMs = qMax(1, int(1000.0 / m_options.actionsPerSecond));
    say(QStringLiteral("soak: seed %1, %2 min, %3 actions/s (about %4 actions), server %5")
            .arg(m_options.seed)
            .arg(m_options.minutes)
            .arg(m_options.actionsPerSecond)
            .arg(qint64(m_durationMs / actionIntervalMs))
            .arg((*m_server)->baseUrl().toString()));

    // The first list, as the reader at start; the user acts on what it shows.
    m_engine->start();
    {
        QDeadlineTimer first(60000);
        while ((m_engine->isRefreshing() || m_store->articleCount() == 0) && !first.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    const QList<Article> initial = m_store->articles({ LocalStore::View::All, {}, {} });
    for (const Article &a : initial)
        expectedOf(a.id);
    say(QStringLiteral("soak: %1 articles at start").arg(initial.size()));
    if (initial.isEmpty())
        return false;
    // The user looks through the library first: every preview in the list, every article's
    // content (the engine prefetches the unread ones), before the clock starts, so that the
    // early RSS figure has the pictures and pages a reader keeps once seen.
    {
        for (const Article &a : initial) {
            if (a.previewPicture.isValid())
                m_images->request(a.previewPicture);
        }
        QDeadlineTimer warm(60000);
        while ((m_images->pendingCount() > 0 || m_engine->isRefreshing()) && !warm.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        for (const Article &a : initial) {
            m_engine->fetchContent(a.id);
            while (!m_store->article(a.id).hasContent && !warm.hasExpired())
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        say(QStringLiteral("soak: warmed up (%1 pictures pending, %2 articles without content)")
                .arg(m_images->pendingCount())
                .arg(std::count_if(initial.cbegin(), initial.cend(), [this](const Article &a) {
                    return !m_store->article(a.id).hasContent;
                })));
    }

    m_clock.start();
    QTimer actions;
    connect(&actions, &QTimer::timeout, this, &Soak::act);
    actions.start(actionIntervalMs);
    QTimer phases;
    connect(&phases, &QTimer::timeout, this, &Soak::nextPhase);
    const qint64 phaseMs =
        m_durationMs / 24 > 30000 ? 30000 : qMax<qint64>(5000, m_durationMs / 24);
    phases.start(int(phaseMs));
    connect(&m_flapTimer, &QTimer::timeout, this, &Soak::flap);
    QTimer sampler;
    connect(&sampler, &QTimer::timeout, this, &Soak::sample);
    sampler.start(int(qBound(qint64(500), m_durationMs / 600, qint64(5000))));
    sample();
    m_phase = Phase::Calm;
    m_phaseIndex = 1;
    ++m_phaseCounts[phaseName(m_phase)];

    while (m_clock.elapsed() < m_durationMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 100);
    actions.stop();
    phases.stop();
    const qint64 actingMs = m_clock.elapsed();

    const bool drained = drain();
    sample();
    sampler.stop();
    const qint64 finalRssKb = m_lastRssKb;

    // --- writes lost: the server's state against the user's ---
    QHash<qint64, Article> server;
    const bool read = fetchServerState(&server);
    int lost = 0;
    const auto mismatch = [&](qint64 id, const QString &what) {
        ++lost;
        if (lost <= 20)
            say(QStringLiteral("soak: LOST entry %1: %2").arg(id).arg(what));
    };
    for (auto it = m_expected.cbegin(); it != m_expected.cend(); ++it) {
        const qint64 id = it.key();
        const Expected &e = it.value();
        const auto found = server.constFind(id);
        if (e.deleted) {
            if (found != server.constEnd())
                mismatch(id, QStringLiteral("deleted here, still on the server"));
            continue;
        }
        if (found == server.constEnd()) {
            mismatch(id, QStringLiteral("not deleted here, gone from the server"));
            continue;
        }
        QStringList tags = found->tags;
        tags.sort();
        if (found->starred != e.starred)
            mismatch(id, QStringLiteral("starred %1 wanted %2").arg(found->starred).arg(e.starred));
        if (found->archived != e.archived)
            mismatch(id,
                     QStringLiteral("archived %1 wanted %2").arg(found->archived).arg(e.archived));
        if (tags != e.tags)
            mismatch(id,
                     QStringLiteral("tags [%1] wanted [%2]")
                         .arg(tags.join(QLatin1Char(',')), e.tags.join(QLatin1Char(','))));
    }
    // Each URL added here is on the server once (unless deleted here since).
    QHash<QString, int> urlCount;
    for (const Article &a : std::as_const(server))
        ++urlCount[a.url.toString()];
    QSet<QString> deletedUrls;
    for (const Expected &e : std::as_const(m_expected)) {
        if (e.deleted)
            deletedUrls.insert(e.url);
    }
    for (const QString &url : std::as_const(m_addedUrls)) {
        const int count = urlCount.value(url);
        if (count > 1)
            mismatch(0, QStringLiteral("%1 saved %2 times").arg(url).arg(count));
        else if (count == 0 && !deletedUrls.contains(url))
            mismatch(0, url + QStringLiteral(" never saved"));
    }
    // The store agrees with the server after the last refresh (what the screen shows).
    int screenMismatches = 0;
    for (auto it = server.cbegin(); it != server.cend(); ++it) {
        const Article shown = m_store->article(it.key());
        QStringList a = shown.tags, b = it->tags;
        a.sort();
        b.sort();
        if (shown.id != it.key() || shown.starred != it->starred ||
            shown.archived != it->archived || a != b || shown.syncState != SyncState::Saved) {
            ++screenMismatches;
            if (screenMismatches <= 10)
                say(QStringLiteral("soak: SCREEN entry %1 differs from the server").arg(it.key()));
        }
    }
    const int failedShown = int(m_store->failedArticles().size());
    const int deadLetters = m_queue->outbox() ? m_queue->outbox()->deadLetterCount() : -1;
    const int stillWaiting = m_queue->waitingCount();

    // --- writes applied twice: the server's record of applied Idempotency-Keys ---
    const QJsonObject stats = (*m_server)->stats();
    const QJsonObject writes = stats.value(QLatin1String("entry_writes")).toObject();
    // Adds go without a key by design (wallabag ignores keys; the outbox's resend check
    // keeps them from being made twice): the URL count above checks them instead.
    QHash<QString, int> keyCount;
    int keyless = 0;
    int keylessAdds = 0;
    int appliedListed = 0;
    for (auto it = writes.constBegin(); it != writes.constEnd(); ++it) {
        const QJsonArray applied = it.value().toArray();
        for (qsizetype i = 0; i < applied.size(); ++i) {
            const QJsonObject write = applied.at(i).toObject();
            const QString key = write.value(QLatin1String("idempotency_key")).toString();
            ++appliedListed;
            if (!key.isEmpty())
                ++keyCount[key];
            else if (i == 0 &&
                     write.value(QLatin1String("method")).toString() == QLatin1String("POST"))
                ++keylessAdds; // the entry's creation
            else
                ++keyless;
        }
    }
    int twice = 0;
    for (auto it = keyCount.cbegin(); it != keyCount.cend(); ++it) {
        if (it.value() > 1) {
            ++twice;
            if (twice <= 10)
                say(QStringLiteral("soak: TWICE key %1 applied %2 times")
                        .arg(it.key())
                        .arg(it.value()));
        }
    }

    // --- the figures ---
    int transient = 0;
    for (const ShownError &error : std::as_const(m_errors)) {
        Q_UNUSED(error)
        ++transient; // every fault injected here is transient (see the top of this file)
    }
    QStringList actionList;
    for (auto it = m_actionCounts.cbegin(); it != m_actionCounts.cend(); ++it)
        actionList << it.key() + QLatin1Char('=') + QString::number(it.value());
    actionList.sort();
    QStringList phaseList;
    for (auto it = m_phaseCounts.cbegin(); it != m_phaseCounts.cend(); ++it)
        phaseList << it.key() + QLatin1Char('=') + QString::number(it.value());
    phaseList.sort();
    const qint64 rssLimitKb = m_earlyPeakRssKb + m_earlyPeakRssKb / 10;
    const bool rssFlat = finalRssKb <= rssLimitKb;
    const bool walBounded = m_maxWalBytes <= m_options.walLimitBytes;

    say(QStringLiteral("soak: seed %1").arg(m_options.seed));
    say(QStringLiteral("soak: acted for %1 s, %2 actions (%3)")
            .arg(actingMs / 1000)
            .arg(m_actions)
            .arg(actionList.join(QStringLiteral(", "))));
    say(QStringLiteral("soak: fault phases (%1)").arg(phaseList.join(QStringLiteral(", "))));
    say(QStringLiteral("soak: server: %1 requests, %2 faults injected, %3 writes applied, "
                       "%4 duplicate writes answered from the Idempotency-Key record "
                       "(%5 records kept)")
            .arg(stats.value(QLatin1String("total_requests")).toInteger())
            .arg(stats.value(QLatin1String("faults_injected")).toInteger())
            .arg(stats.value(QLatin1String("writes_applied")).toInteger())
            .arg(stats.value(QLatin1String("duplicate_writes_rejected")).toInteger())
            .arg(stats.value(QLatin1String("idempotency_records")).toInteger()));
    say(QStringLiteral("soak: drained %1 (waiting %2, dead letters %3, failed articles %4)")
            .arg(drained ? QStringLiteral("yes") : QStringLiteral("NO"))
            .arg(stillWaiting)
            .arg(deadLetters)
            .arg(failedShown));
    say(QStringLiteral("soak: errors shown to the user that a retry could have fixed: %1")
            .arg(transient));
    say(QStringLiteral("soak: writes lost: %1 (of %2 articles checked; server read %3), "
                       "screen differing from the server: %4")
            .arg(lost)
            .arg(m_expected.size())
            .arg(read ? QStringLiteral("ok") : QStringLiteral("FAILED"))
            .arg(screenMismatches));
    say(QStringLiteral("soak: writes applied twice: %1 (of %2 applied writes listed, %3 "
                       "without a key, %4 adds without a key as meant)")
            .arg(twice)
            .arg(appliedListed)
            .arg(keyless)
            .arg(keylessAdds));
    say(QStringLiteral("soak: RSS peak of the first %1 s %2, peak %3, final %4, limit %5: %6")
            .arg(m_earlyWindowMs / 1000)
            .arg(mib(m_earlyPeakRssKb * 1024), mib(m_peakRssKb * 1024), mib(finalRssKb * 1024),
                 mib(rssLimitKb * 1024),
                 rssFlat ? QStringLiteral("flat") : QStringLiteral("GREW")));
    say(QStringLiteral("soak: SQLite WAL max %1 (%2), limit %3: %4")
            .arg(mib(m_maxWalBytes), m_maxWalFile, mib(m_options.walLimitBytes),
                 walBounded ? QStringLiteral("bounded") : QStringLiteral("TOO BIG")));

    return m_actions > 0 && transient == 0 && drained && read && lost == 0 && twice == 0 &&
        keyless == 0 && deadLetters == 0 && failedShown == 0 && screenMismatches == 0 && rssFlat &&
        walBounded;
}

} // namespace

int main(int argc, char **argv)
{
    // The list model needs a GUI application; no window is shown.
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Drives the reader's models and outbox through scripted user actions while the demo "
        "server misbehaves; the last line is RESULT soak_ok 1 or 0."));
    parser.addHelpOption();
    const QCommandLineOption minutes(QStringLiteral("minutes"),
                                     QStringLiteral("How long to act, in minutes (default 60; "
                                                    "fractions allowed)."),
                                     QStringLiteral("N"), QStringLiteral("60"));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Seed of the script and of the faults' draws "
                                                 "(default: random, printed)."),
                                  QStringLiteral("S"));
    const QCommandLineOption rate(QStringLiteral("actions-per-second"),
                                  QStringLiteral("User actions per second (default 3: 10 800 "
                                                 "in 60 minutes)."),
                                  QStringLiteral("R"), QStringLiteral("3"));
    const QCommandLineOption walLimit(QStringLiteral("wal-limit-mib"),
                                      QStringLiteral("Largest SQLite WAL file allowed, in MiB "
                                                     "(default 64)."),
                                      QStringLiteral("M"), QStringLiteral("64"));
    parser.addOptions({ minutes, seed, rate, walLimit });
    parser.process(app);

    Soak::Options options;
    bool ok = true;
    options.minutes = parser.value(minutes).toDouble(&ok);
    if (!ok || options.minutes <= 0)
        parser.showHelp(2);
    options.actionsPerSecond = parser.value(rate).toDouble(&ok);
    if (!ok || options.actionsPerSecond <= 0 || options.actionsPerSecond > 1000)
        parser.showHelp(2);
    options.walLimitBytes = qint64(parser.value(walLimit).toDouble(&ok) * 1024 * 1024);
    if (!ok || options.walLimitBytes <= 0)
        parser.showHelp(2);
    options.seed = parser.isSet(seed) ? parser.value(seed).toUInt(&ok)
                                      : QRandomGenerator::system()->generate();
    if (!ok)
        parser.showHelp(2);

    bool soakOk = false;
    {
        Soak soak(options);
        soakOk = soak.setUp() && soak.run();
    }
    say(QStringLiteral("RESULT soak_ok %1").arg(soakOk ? 1 : 0));
    return soakOk ? 0 : 1;
}
