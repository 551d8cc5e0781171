// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_H
#define KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_H

#include <KeepTrying/keeptrying_quick_export.h>
#include <KeepTrying/retrypolicy.h>

#include <QtQml/QQmlNetworkAccessManagerFactory>

#include <memory>

namespace KeepTrying {

class RetryBannerController;
class RetryingNetworkAccessManager;
class QmlNetworkAccessManagerFactoryPrivate;

/*!
    Gives every QML engine thread a RetryingNetworkAccessManager that shares the state of
    the application's main manager, so that what QML loads (Image sources, XMLHttpRequest,
    remote QML files, fonts) keeps trying as the application's own requests do, and waits
    with them.

    A QQmlEngine makes its managers itself, one per thread that loads (the engine's own
    thread for XMLHttpRequest, a loader thread for images and one for QML files), through
    its factory's create(). Every manager this factory makes shares with the main manager:

    - its Reachability: the simulated-offline switch (flip it on the main manager, and
        images wait too), the network state and which origins are unreachable;
    - its CircuitBreaker and RetryBudget: an origin that fails for images is open for the
        application's own requests too, and the other way round;
    - its retry policy (as when the factory was made, or as setRetryPolicy() says).

    Those three objects are thread-safe (see their class comments): managers in loader
    threads call them directly; their probes and timers stay in the main manager's thread.
    Not shared: each manager's adaptive concurrency window (per manager, as Qt's own
    connection pool is), its statistics, offline copies and authenticator.

    \code
    KeepTrying::RetryingNetworkAccessManager manager;          // the application's
    KeepTrying::QmlNetworkAccessManagerFactory factory(&manager);
    QQmlApplicationEngine engine;
    engine.setNetworkAccessManagerFactory(&factory);           // before anything loads
    \endcode

    KeepTrying::setUpQmlEngine() does this, and binds a banner state to the managers, in
    one call.

    \warning The main manager, and the factory, must outlive the QML engine: the engine's
    threads use them until it is destroyed. Set the factory before the engine loads
    anything (Qt asks for managers only once per thread).
*/
class KEEPTRYING_QUICK_EXPORT QmlNetworkAccessManagerFactory
    : public QQmlNetworkAccessManagerFactory
{
public:
    /*! A factory whose managers share the state of \a manager (not owned; never null).
        Its retry policy is read now; call this in \a manager's thread. */
    explicit QmlNetworkAccessManagerFactory(RetryingNetworkAccessManager *manager);
    ~QmlNetworkAccessManagerFactory() override;

    /*! Makes a manager for the calling thread (a QML engine calls this on its threads),
        with \a parent, sharing the main manager's Reachability, CircuitBreaker, RetryBudget
        and retryPolicy(). When a banner controller was given (setBannerController()) and
        this runs in the controller's thread, the controller watches the new manager too
        (RetryBannerController::addManager()): XMLHttpRequest waits show in the banner.
        Thread-safe. */
    QNetworkAccessManager *create(QObject *parent) override;

    /*! The main manager given to the constructor. */
    RetryingNetworkAccessManager *manager() const;

    /*! The retry policy of the managers made from now on. Thread-safe. */
    RetryPolicy retryPolicy() const;
    void setRetryPolicy(const RetryPolicy &policy);

    /*! The controller that watches the managers made in its own thread (not owned; null:
        none). Call this before the engine loads anything. */
    void setBannerController(RetryBannerController *controller);
    RetryBannerController *bannerController() const;

    /*! How many managers create() has made. Thread-safe. */
    int createdCount() const;

private:
    Q_DISABLE_COPY(QmlNetworkAccessManagerFactory)
    std::unique_ptr<QmlNetworkAccessManagerFactoryPrivate> d;
};

} // namespace KeepTrying

#endif // KEEPTRYING_QMLNETWORKACCESSMANAGERFACTORY_H
