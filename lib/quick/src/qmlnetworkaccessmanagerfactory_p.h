// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_P_H
#define KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_P_H

#include <KeepTrying/qmlnetworkaccessmanagerfactory.h>

#include <QtCore/QMutex>
#include <QtCore/QPointer>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace KeepTrying {

class CircuitBreaker;
class Reachability;
class RetryBudget;

class QmlNetworkAccessManagerFactoryPrivate
{
public:
    // Read in the main manager's thread when the factory is made, so that create(), on
    // other threads, never reads the main manager itself. The objects are thread-safe.
    RetryingNetworkAccessManager *manager = nullptr;
    QPointer<Reachability> reachability;
    QPointer<CircuitBreaker> breaker;
    QPointer<RetryBudget> budget;
    bool adaptiveConcurrency = true;

    mutable QMutex mutex; // guards what follows
    RetryPolicy policy;
    QPointer<RetryBannerController> controller;
    QThread *controllerThread = nullptr; // compared, never used, off that thread
    int created = 0;
};

} // namespace KeepTrying

#endif // KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_P_H
