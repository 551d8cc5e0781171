#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "logging_p.h"
#include "retryingnetworkaccessmanager_p.h"

namespace KeepTrying {

QNetworkReply *RetryingNetworkAccessManagerPrivate::createAttempt(
    QNetworkAccessManager::Operation op, const QNetworkRequest &request, QIODevice *outgoingData)
{
    Q_Q(RetryingNetworkAccessManager);
    return q->QNetworkAccessManager::createRequest(op, request, outgoingData);
}

RetryingNetworkAccessManager::RetryingNetworkAccessManager(QObject *parent)
    : QNetworkAccessManager(parent), d_ptr(new RetryingNetworkAccessManagerPrivate(this))
{
    Q_D(RetryingNetworkAccessManager);
    d->simulatedOffline = qEnvironmentVariableIntValue("KEEPTRYING_SIMULATE_OFFLINE") == 1;
    if (d->simulatedOffline)
        qCInfo(lcNetwork) << "simulated offline mode on (KEEPTRYING_SIMULATE_OFFLINE)";
}

RetryingNetworkAccessManager::~RetryingNetworkAccessManager()
{
    // QNetworkAccessManager's destructor deletes every QNetworkReply below it, grandchildren
    // included; an outer reply deletes its own attempts, so it must go first, alone.
    const auto replies = findChildren<RetryingReply *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(replies);
}

RetryPolicy RetryingNetworkAccessManager::retryPolicy() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->policy;
}

void RetryingNetworkAccessManager::setRetryPolicy(const RetryPolicy &policy)
{
    Q_D(RetryingNetworkAccessManager);
    d->policy = policy;
}

bool RetryingNetworkAccessManager::isSimulatedOffline() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->simulatedOffline;
}

void RetryingNetworkAccessManager::setSimulatedOffline(bool offline)
{
    Q_D(RetryingNetworkAccessManager);
    if (d->simulatedOffline == offline)
        return;
    d->simulatedOffline = offline;
    qCInfo(lcNetwork) << "simulated offline mode" << (offline ? "on" : "off");
    Q_EMIT simulatedOfflineChanged(offline);
}

RetryStatistics RetryingNetworkAccessManager::statistics() const
{
    Q_D(const RetryingNetworkAccessManager);
    return d->statistics;
}

QNetworkReply *RetryingNetworkAccessManager::createRequest(Operation op,
                                                           const QNetworkRequest &request,
                                                           QIODevice *outgoingData)
{
    Q_D(RetryingNetworkAccessManager);
    // file:, qrc:, data: and preconnect requests have no network fault worth retrying.
    const QString scheme = request.url().scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return QNetworkAccessManager::createRequest(op, request, outgoingData);

    const QVariant custom = request.attribute(QNetworkRequest::Attribute(RetryPolicyAttribute));
    const RetryPolicy policy =
        custom.canConvert<RetryPolicy>() ? custom.value<RetryPolicy>() : d->policy;
    ++d->statistics.requests;
    return new RetryingReply(this, op, request, outgoingData, policy);
}

} // namespace KeepTrying
