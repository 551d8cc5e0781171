// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "qmlnetworkaccessmanagerfactory_p.h"

#include "logging_p.h"

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QThread>

namespace KeepTrying {

QmlNetworkAccessManagerFactory::QmlNetworkAccessManagerFactory(
    RetryingNetworkAccessManager *manager)
    : d(std::make_unique<QmlNetworkAccessManagerFactoryPrivate>())
{
    Q_ASSERT(manager);
    d->manager = manager;
    d->reachability = manager->reachability();
    d->breaker = manager->circuitBreaker();
    d->budget = manager->retryBudget();
    d->adaptiveConcurrency = manager->isAdaptiveConcurrencyEnabled();
    d->policy = manager->retryPolicy();
}

QmlNetworkAccessManagerFactory::~QmlNetworkAccessManagerFactory() = default;

QNetworkAccessManager *QmlNetworkAccessManagerFactory::create(QObject *parent)
{
    // Made here, in the thread that asks: a manager, its replies and its own monitors
    // (unused once the shared ones are set) live where QML loads with them.
    auto *manager = new RetryingNetworkAccessManager(parent);
    manager->setReachability(d->reachability);
    manager->setCircuitBreaker(d->breaker);
    manager->setRetryBudget(d->budget);
    manager->setAdaptiveConcurrencyEnabled(d->adaptiveConcurrency);
    QPointer<RetryBannerController> controller;
    {
        const QMutexLocker lock(&d->mutex);
        manager->setRetryPolicy(d->policy);
        ++d->created;
        if (d->controllerThread == QThread::currentThread())
            controller = d->controller;
    }
    if (controller)
        controller->addManager(manager); // its own thread: XMLHttpRequest's manager
    qCDebug(lcQuick) << "manager for QML made in" << QThread::currentThread()
                     << (controller ? "(watched by the banner)" : "");
    return manager;
}

RetryingNetworkAccessManager *QmlNetworkAccessManagerFactory::manager() const
{
    return d->manager;
}

RetryPolicy QmlNetworkAccessManagerFactory::retryPolicy() const
{
    const QMutexLocker lock(&d->mutex);
    return d->policy;
}

void QmlNetworkAccessManagerFactory::setRetryPolicy(const RetryPolicy &policy)
{
    const QMutexLocker lock(&d->mutex);
    d->policy = policy;
}

void QmlNetworkAccessManagerFactory::setBannerController(RetryBannerController *controller)
{
    const QMutexLocker lock(&d->mutex);
    d->controller = controller;
    d->controllerThread = controller ? controller->thread() : nullptr;
}

RetryBannerController *QmlNetworkAccessManagerFactory::bannerController() const
{
    const QMutexLocker lock(&d->mutex);
    return d->controller;
}

int QmlNetworkAccessManagerFactory::createdCount() const
{
    const QMutexLocker lock(&d->mutex);
    return d->created;
}

} // namespace KeepTrying
