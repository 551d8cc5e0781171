// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserver_p.h"

#include "logging_p.h"

#include <QtCore/QFile>
#include <QtCore/QThread>

#include <algorithm>

// Q_INIT_RESOURCE must be used outside any namespace; a static library's resources are not
// registered unless something references them.
static void initDemoResources()
{
    Q_INIT_RESOURCE(demo_library);
}

namespace KeepTrying::Demo {

namespace {

constexpr int maxServiceTimeMs = 600000; // as the latency fault

} // namespace

DemoServerPrivate::DemoServerPrivate(DemoServer *q)
    : q_ptr(q), transport(q, mutex, api), admin(q, mutex, transport)
{
}

QJsonObject DemoServerPrivate::statsLocked() const
{
    QJsonObject perRoute;
    for (auto it = transport.requestsPerRoute.cbegin(); it != transport.requestsPerRoute.cend();
         ++it)
        perRoute.insert(it.key(), it.value());
    QJsonObject entryWrites;
    for (auto it = api.entryWrites.cbegin(); it != api.entryWrites.cend(); ++it)
        entryWrites.insert(QString::number(it.key()), it.value());
    return QJsonObject {
        { QStringLiteral("total_requests"), transport.totalRequests },
        { QStringLiteral("requests_per_route"), perRoute },
        { QStringLiteral("writes_applied"), api.writesApplied },
        { QStringLiteral("duplicate_writes_rejected"), api.duplicateWritesRejected },
        { QStringLiteral("faults_injected"), transport.faultsInjected },
        { QStringLiteral("capacity_rejections"), transport.capacityRejections },
        { QStringLiteral("peak_in_progress"), transport.peakInProgress },
        { QStringLiteral("in_progress"), transport.inProgress },
        { QStringLiteral("idempotency_records"), api.idempotencyRecordCount() },
        { QStringLiteral("entry_writes"), entryWrites },
        { QStringLiteral("tokens_issued"), api.tokens.grants },
    };
}

DemoServer::DemoServer(QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<DemoServerPrivate>(this))
{
    Q_D(DemoServer);
    static const bool resourcesRegistered = [] {
        initDemoResources();
        return true;
    }();
    Q_UNUSED(resourcesRegistered)

    QFile library(QStringLiteral(":/demo/articles/articles.json"));
    QString errorMessage = library.errorString();
    if (!library.open(QIODevice::ReadOnly) ||
        !d->api.store.loadJson(library.readAll(), &errorMessage))
        qCCritical(lcDemoServer) << "cannot load the sample library:" << errorMessage;
}

DemoServer::~DemoServer()
{
    Q_D(DemoServer);
    // Close the sockets while the private part they call into still exists.
    d->transport.deleteListener();
    d->admin.deleteListener();
}

quint16 DemoServer::listen(const QHostAddress &address, quint16 port, quint16 adminPort)
{
    Q_D(DemoServer);
    quint16 boundAdmin = 0;
    const QHostAddress adminAddress = AdminApi::addressFor(address);
    {
        QMutexLocker locker(&d->mutex);
        boundAdmin = d->admin.port;
    }
    if (boundAdmin == 0) {
        boundAdmin = d->admin.listen(adminAddress, adminPort);
        if (boundAdmin == 0) {
            qCWarning(lcDemoServer, "cannot listen for the admin API on %s port %u",
                      qPrintable(adminAddress.toString()), unsigned(adminPort));
            return 0;
        }
        QMutexLocker locker(&d->mutex);
        d->admin.address = adminAddress;
        d->admin.port = boundAdmin;
        d->api.adminUrl = baseUrlFor(adminAddress, boundAdmin);
    }
    const quint16 bound = d->transport.listen(address, port);
    if (bound == 0) {
        qCWarning(lcDemoServer, "cannot listen on %s port %u", qPrintable(address.toString()),
                  unsigned(port));
        return 0;
    }
    QMutexLocker locker(&d->mutex);
    if (d->transport.port == 0) {
        d->transport.address = address;
        d->transport.port = bound;
        d->api.baseUrl = baseUrlFor(address, bound);
    }
    return bound;
}

QUrl DemoServer::baseUrl() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return QUrl(baseUrlFor(d->transport.address, d->transport.port));
}

QUrl DemoServer::adminUrl() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return QUrl(baseUrlFor(d->admin.address, d->admin.port));
}

bool DemoServer::addFault(const QString &spec, QString *errorMessage)
{
    Q_D(DemoServer);
    std::optional<FaultSpec> fault = FaultSpec::parse(spec, errorMessage);
    if (!fault)
        return false;
    QMutexLocker locker(&d->mutex);
    d->transport.faults.append(*fault);
    return true;
}

void DemoServer::clearFaults()
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->transport.faults.clear();
}

QStringList DemoServer::faults() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    QStringList result;
    for (const FaultSpec &fault : d->transport.faults)
        result.append(fault.describe());
    return result;
}

void DemoServer::setSeed(quint32 seed)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->transport.random.seed(seed);
}

void DemoServer::setMaxConcurrent(int requests)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->transport.maxConcurrent = std::max(0, requests);
}

int DemoServer::maxConcurrent() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->transport.maxConcurrent;
}

void DemoServer::setServiceTime(int milliseconds)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->transport.serviceTimeMs = std::clamp(milliseconds, 0, maxServiceTimeMs);
}

int DemoServer::serviceTime() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->transport.serviceTimeMs;
}

void DemoServer::setIdempotencyRecordLimit(int writes)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.idempotencyRecordLimit = qMax(1, writes);
    d->api.trimIdempotencyRecordLocked();
}

int DemoServer::idempotencyRecordLimit() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.idempotencyRecordLimit;
}

void DemoServer::setIdempotencyKeysHonoured(bool honoured)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.honourIdempotencyKeys = honoured;
}

bool DemoServer::idempotencyKeysHonoured() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.honourIdempotencyKeys;
}

void DemoServer::setAddFetchDelay(int milliseconds)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.addFetchDelayMs = std::clamp(milliseconds, 0, maxServiceTimeMs);
}

int DemoServer::addFetchDelay() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.addFetchDelayMs;
}

void DemoServer::setAccessTokenLifetime(int seconds)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.tokens.lifetimeSeconds = std::max(1, seconds);
}

int DemoServer::accessTokenLifetime() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.tokens.lifetimeSeconds;
}

void DemoServer::expireAccessTokens()
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.tokens.expireAll();
}

void DemoServer::goDown(int milliseconds)
{
    Q_D(DemoServer);
    if (QThread::currentThread() != thread()) {
        QMetaObject::invokeMethod(this, [this, milliseconds] { goDown(milliseconds); });
        return;
    }
    d->transport.goDown(milliseconds);
}

void DemoServer::comeUp()
{
    Q_D(DemoServer);
    if (QThread::currentThread() != thread()) {
        QMetaObject::invokeMethod(this, [this] { comeUp(); });
        return;
    }
    d->transport.comeUpNow();
}

bool DemoServer::isDown() const
{
    Q_D(const DemoServer);
    return d->transport.isDown();
}

QJsonObject DemoServer::stats() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->statsLocked();
}

qint64 DemoServer::totalRequests() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->transport.totalRequests;
}

void DemoServer::resetStats()
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->transport.resetStatsLocked();
    d->api.resetStatsLocked();
}

int DemoServer::articleCount() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.store.count();
}

void DemoServer::setArticleCount(int count)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.store.resize(count);
}

void DemoServer::setPublicBaseUrl(const QUrl &base)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.linkBase =
        base.isEmpty() ? QString() : base.adjusted(QUrl::StripTrailingSlash).toString();
}

QUrl DemoServer::publicBaseUrl() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return QUrl(d->api.linkBase);
}

void DemoServer::setUtcOffset(int seconds)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    d->api.store.setUtcOffset(std::clamp(seconds, -14 * 3600, 14 * 3600));
}

int DemoServer::utcOffset() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.store.utcOffset();
}

bool DemoServer::setArticleUpdatedAt(int id, const QDateTime &when)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.store.setUpdatedAt(id, when);
}

bool DemoServer::removeArticle(int id)
{
    Q_D(DemoServer);
    QMutexLocker locker(&d->mutex);
    return d->api.store.remove(id).has_value();
}

QList<RecordedRequest> DemoServer::recordedRequests() const
{
    Q_D(const DemoServer);
    QMutexLocker locker(&d->mutex);
    return QList<RecordedRequest>(d->transport.recorded.cbegin(), d->transport.recorded.cend());
}

QString DemoServer::demoClientId()
{
    return QStringLiteral("keeptrying-demo");
}

QString DemoServer::demoClientSecret()
{
    return QStringLiteral("keeptrying-demo-secret");
}

QString DemoServer::demoUsername()
{
    return QStringLiteral("demo");
}

QString DemoServer::demoPassword()
{
    return QStringLiteral("demo");
}

QString DemoServer::otherUsername()
{
    return QStringLiteral("other");
}

QString DemoServer::otherPassword()
{
    return QStringLiteral("other");
}

} // namespace KeepTrying::Demo
